/**
 * Multipart uploads: CreateMultipartUpload (metadata, checksum algorithm and type fixed up
 * front), UploadPart and UploadPartCopy (each part its own durable blob, verified like a
 * PutObject), CompleteMultipartUpload (AWS's part rules — ascending order, matching ETags and
 * checksums, 5 MiB minimum for all but the last part — then one transaction that turns the parts'
 * blobs into the object's segments without copying a byte; ETag `md5-of-part-md5s-N`; COMPOSITE
 * or FULL_OBJECT checksum; conditional writes), AbortMultipartUpload and ListParts.
 *
 * completeMultipartUpload is one long function on purpose: S3's validation order of the part list
 * and the commit in one transaction read best in one sequence.
 */
import { createHash } from 'node:crypto';
import type * as S3 from '@aws-sdk/client-s3';
import type { Ctx } from '../../runtime/runtime.js';
import type { BlobRef, WrittenBody } from '../../store/blobs.js';
import type { PartRow, UploadRow } from '../../store/s3-repo.js';
import {
  compositeChecksum,
  declaredChecksum,
  fullObjectChecksum,
  isAlgorithm,
  memberOf,
  multipartChecksumType,
  ALGORITHMS,
  type ChecksumAlgorithm,
  type ChecksumType,
} from './checksums.js';
import { checkKey, MAX_OBJECT_SIZE, normalizeEtag, ownerOf, repo, requireBucket, timeOrderedId } from './common.js';
import { checkWriteConditions, parseCopySourceRange, validateWriteConditions } from './conditions.js';
import { resolveCopySource, sourceBytes } from './copy.js';
import { s3Errors } from './errors.js';
import { commitBlobs, ingest, segmentsOf } from './ingest.js';
import { encryptionHeaders, metaFromInput, storageClassOf, type ObjectMeta } from './object-meta.js';

interface UploadMeta {
  object: ObjectMeta;
  storageClass: string;
  checksumAlgorithm?: ChecksumAlgorithm;
  checksumType?: ChecksumType;
  /** The key existed when the upload began (conditional Complete tells a conflict from a clash). */
  existed: boolean;
}

const MIN_PART = 5 * 1024 * 1024;

export function createMultipartUpload(ctx: Ctx, input: S3.CreateMultipartUploadRequest): S3.CreateMultipartUploadOutput {
  const bucket = input.Bucket!;
  const key = input.Key!;
  requireBucket(ctx, bucket);
  checkKey(key);
  const storageClass = storageClassOf(input.StorageClass);
  const object = metaFromInput(ctx, bucket, input);
  const alg = input.ChecksumAlgorithm?.toUpperCase();
  if (alg !== undefined && !isAlgorithm(alg)) {
    throw s3Errors.invalidRequest(
      'Checksum algorithm provided is unsupported. Please try again with any of the valid types: [CRC32, CRC32C, CRC64NVME, SHA1, SHA256]',
    );
  }
  if (input.ChecksumType !== undefined && alg === undefined) {
    throw s3Errors.invalidRequest('The x-amz-checksum-type header can only be used with the x-amz-checksum-algorithm header.');
  }
  const checksumType = alg ? multipartChecksumType(alg, input.ChecksumType) : undefined;
  const uploadId = timeOrderedId();
  const meta: UploadMeta = {
    object,
    storageClass,
    checksumAlgorithm: alg,
    checksumType,
    existed: repo(ctx).headObject(bucket, key) !== undefined,
  };
  repo(ctx).insertUpload({ upload_id: uploadId, bucket, key, initiated: Date.now(), initiator: ctx.account, meta: JSON.stringify(meta) });
  const out: S3.CreateMultipartUploadOutput = { Bucket: bucket, Key: key, UploadId: uploadId, ...encryptionHeaders(object) };
  if (alg) {
    out.ChecksumAlgorithm = alg;
    out.ChecksumType = checksumType;
  }
  return out;
}

function requireUpload(ctx: Ctx, bucket: string, key: string, uploadId: string): UploadRow & { parsed: UploadMeta } {
  requireBucket(ctx, bucket);
  const row = repo(ctx).getUpload(uploadId);
  if (!row || row.bucket !== bucket || row.key !== key) throw s3Errors.noSuchUpload(uploadId);
  return { ...row, parsed: JSON.parse(row.meta) as UploadMeta };
}

function checkPartNumber(n: number | undefined): number {
  if (n === undefined || !Number.isInteger(n) || n < 1 || n > 10_000) {
    throw s3Errors.invalidArgument('Part number must be an integer between 1 and 10000, inclusive', 'partNumber', n);
  }
  return n;
}

export type UploadPartInput = Omit<S3.UploadPartRequest, 'Body'> & {
  Body?: AsyncIterable<Buffer | Uint8Array>;
  ChecksumTrailer?: string;
  DecodedContentLength?: number;
};

export async function uploadPart(ctx: Ctx, input: UploadPartInput): Promise<S3.UploadPartOutput> {
  const upload = requireUpload(ctx, input.Bucket!, input.Key!, input.UploadId!);
  const partNumber = checkPartNumber(input.PartNumber);
  const declared = declaredChecksum(input, input.ChecksumTrailer);
  const uploadAlg = upload.parsed.checksumAlgorithm;
  if (uploadAlg && declared && declared.algorithm !== uploadAlg) {
    throw s3Errors.invalidRequest(
      `Checksum Type mismatch occurred, expected checksum Type: ${uploadAlg.toLowerCase()}, actual checksum Type: ${declared.algorithm.toLowerCase()}`,
    );
  }
  const expectedLength = input.DecodedContentLength ?? input.ContentLength;
  if (expectedLength !== undefined && expectedLength > MAX_OBJECT_SIZE) throw s3Errors.entityTooLarge(expectedLength, MAX_OBJECT_SIZE);
  const body = await ingest(ctx, {
    body: input.Body,
    contentMd5: input.ContentMD5,
    declared,
    compute: uploadAlg,
    expectedLength: input.DecodedContentLength,
  });
  commitPart(ctx, upload, partNumber, body.written, body.etag, body.checksum);
  const out: S3.UploadPartOutput = { ETag: body.etag, ...encryptionHeaders(upload.parsed.object) };
  if (body.checksum) out[memberOf(body.checksum.algorithm)] = body.checksum.value;
  return out;
}

function commitPart(
  ctx: Ctx,
  upload: UploadRow,
  partNumber: number,
  written: WrittenBody,
  etag: string,
  checksum: { algorithm: ChecksumAlgorithm; value: string } | undefined,
): number {
  const now = Date.now();
  commitBlobs(ctx, written.blob ? [written.blob] : [], () => {
    const r = repo(ctx);
    if (!r.getUpload(upload.upload_id)) throw s3Errors.noSuchUpload(upload.upload_id);
    return r.putPart({
      upload_id: upload.upload_id,
      part_number: partNumber,
      size: written.size,
      etag,
      last_modified: now,
      checksum_algorithm: checksum?.algorithm ?? null,
      checksum: checksum?.value ?? null,
      blob_ids: segmentsOf(written),
      inline: written.inline ?? null,
    });
  });
  return now;
}

export async function uploadPartCopy(ctx: Ctx, input: S3.UploadPartCopyRequest): Promise<S3.UploadPartCopyOutput> {
  const upload = requireUpload(ctx, input.Bucket!, input.Key!, input.UploadId!);
  const partNumber = checkPartNumber(input.PartNumber);
  const source = resolveCopySource(ctx, input);
  const range = input.CopySourceRange !== undefined ? parseCopySourceRange(input.CopySourceRange, source.row.size) : undefined;
  const length = range ? range.end - range.start + 1 : source.row.size;
  if (length > MAX_OBJECT_SIZE) throw s3Errors.entityTooLarge(length, MAX_OBJECT_SIZE);
  const body = await ingest(ctx, { body: sourceBytes(ctx, source.row, range), compute: upload.parsed.checksumAlgorithm });
  const now = commitPart(ctx, upload, partNumber, body.written, body.etag, body.checksum);
  const result: S3.CopyPartResult = { ETag: body.etag, LastModified: new Date(now) };
  if (body.checksum) result[memberOf(body.checksum.algorithm)] = body.checksum.value;
  return { CopyPartResult: result, ...encryptionHeaders(upload.parsed.object) };
}

function partChecksumIn(part: S3.CompletedPart): { algorithm: ChecksumAlgorithm; value: string } | undefined {
  for (const alg of ALGORITHMS) {
    const v = part[memberOf(alg)];
    if (v !== undefined) return { algorithm: alg, value: v };
  }
  return undefined;
}

export async function completeMultipartUpload(
  ctx: Ctx,
  input: S3.CompleteMultipartUploadRequest,
): Promise<S3.CompleteMultipartUploadOutput> {
  const bucket = input.Bucket!;
  const key = input.Key!;
  const uploadId = input.UploadId!;
  validateWriteConditions(input);
  const upload = requireUpload(ctx, bucket, key, uploadId);
  const requested = input.MultipartUpload?.Parts;
  if (!input.MultipartUpload) throw s3Errors.malformedXml();
  if (!requested || requested.length === 0) throw s3Errors.invalidRequest('You must specify at least one part');
  const r = repo(ctx);
  const chosen = chooseParts(uploadId, requested, r.parts(uploadId));
  if (input.MpuObjectSize !== undefined) {
    const total = chosen.reduce((n, p) => n + p.size, 0);
    if (input.MpuObjectSize !== total) {
      throw s3Errors.invalidRequest(
        `The provided 'x-amz-mp-object-size' header value ${input.MpuObjectSize} does not match what was computed: ${total}`,
      );
    }
  }
  const checkConditions = () =>
    checkWriteConditions(input, key, r.headObject(bucket, key), { existed: upload.parsed.existed, lastModified: upload.initiated });
  checkConditions();
  const checksum = objectChecksum(upload.parsed, chosen, input);

  // A small part (only the last one can be) lives inline; a multi-part object needs it as a blob.
  const spilled = new Map<number, BlobRef>();
  if (chosen.length > 1) {
    for (const p of chosen) {
      if (p.inline) {
        const w = await ctx.rt.blobs.write(once(p.inline), undefined, true);
        spilled.set(p.part_number, w.blob!);
      }
    }
  }
  const md5 = createHash('md5');
  for (const p of chosen) md5.update(Buffer.from(p.etag.slice(1, -1), 'hex'));
  const etag = `"${md5.digest('hex')}-${chosen.length}"`;
  const size = chosen.reduce((n, p) => n + p.size, 0);
  commitBlobs(ctx, [...spilled.values()], () => {
    requireBucket(ctx, bucket);
    if (!r.getUpload(uploadId)) throw s3Errors.noSuchUpload(uploadId);
    // Parts may have been re-uploaded while we prepared: decide on what the rows hold now.
    const now = new Map(r.parts(uploadId).map((p) => [p.part_number, p]));
    for (const p of chosen) {
      if (now.get(p.part_number)?.etag !== p.etag) throw s3Errors.invalidPart(uploadId, p.part_number, p.etag);
    }
    checkConditions();
    const segments: { id: string; size: number }[] = [];
    for (const p of chosen) {
      const spill = spilled.get(p.part_number);
      if (spill) segments.push({ id: spill.id, size: spill.size });
      else if (p.blob_ids) segments.push(...(JSON.parse(p.blob_ids) as { id: string; size: number }[]));
    }
    const inlineOnly = chosen.length === 1 && chosen[0]!.inline ? chosen[0]!.inline : null;
    const released = r.putObject({
      bucket,
      key,
      size,
      etag,
      last_modified: Date.now(),
      storage_class: upload.parsed.storageClass,
      checksum_algorithm: checksum?.algorithm ?? null,
      checksum_type: checksum?.type ?? null,
      checksum: checksum?.value ?? null,
      parts_count: chosen.length,
      meta: JSON.stringify(upload.parsed.object),
      blob_ids: inlineOnly ? null : JSON.stringify(segments),
      inline: inlineOnly,
    });
    // Parts left out of the object go; the chosen parts' blobs now belong to it.
    const used = new Set(chosen.map((p) => p.part_number));
    for (const p of now.values()) if (!used.has(p.part_number) && p.blob_ids) released.push(...blobIds(p.blob_ids));
    r.deletePartRows(uploadId);
    return released;
  });
  const out: S3.CompleteMultipartUploadOutput = {
    Location: `${ctx.rt.endpoint ?? ''}/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`,
    Bucket: bucket,
    Key: key,
    ETag: etag,
    ...encryptionHeaders(upload.parsed.object),
  };
  if (checksum) {
    out[memberOf(checksum.algorithm)] = checksum.value;
    out.ChecksumType = checksum.type;
  }
  return out;
}

/** The stored parts the Complete request names, in order, checked against AWS's rules. */
function chooseParts(uploadId: string, requested: S3.CompletedPart[], stored: PartRow[]): PartRow[] {
  const byNumber = new Map(stored.map((p) => [p.part_number, p]));
  const chosen: PartRow[] = [];
  let previous = 0;
  for (const part of requested) {
    const n = part.PartNumber;
    if (n === undefined || part.ETag === undefined) throw s3Errors.malformedXml();
    if (n <= previous) throw s3Errors.invalidPartOrder(uploadId);
    previous = n;
    const row = byNumber.get(n);
    if (!row || normalizeEtag(part.ETag) !== row.etag) throw s3Errors.invalidPart(uploadId, n, part.ETag);
    const sent = partChecksumIn(part);
    if (sent && (sent.algorithm !== row.checksum_algorithm || sent.value !== row.checksum)) {
      throw s3Errors.invalidPart(uploadId, n, part.ETag);
    }
    chosen.push(row);
  }
  for (let i = 0; i < chosen.length - 1; i++) {
    const p = chosen[i]!;
    if (p.size < MIN_PART) throw s3Errors.entityTooSmall(p.size, p.part_number, p.etag);
  }
  return chosen;
}

/**
 * The object's checksum: the upload's algorithm, COMPOSITE or FULL_OBJECT; for an upload that
 * named none, the CRC64NVME full-object checksum AWS computes by default when every part carried
 * one (pyarrow sends it in a trailer). A checksum sent with Complete is verified.
 */
function objectChecksum(
  upload: UploadMeta,
  parts: PartRow[],
  input: S3.CompleteMultipartUploadRequest,
): { algorithm: ChecksumAlgorithm; value: string; type: ChecksumType } | undefined {
  let alg = upload.checksumAlgorithm;
  let type = upload.checksumType;
  if (!alg) {
    if (!parts.every((p) => p.checksum_algorithm === 'CRC64NVME' && p.checksum)) return undefined;
    alg = 'CRC64NVME';
    type = 'FULL_OBJECT';
  }
  if (parts.some((p) => p.checksum_algorithm !== alg || !p.checksum)) return undefined;
  const value =
    type === 'FULL_OBJECT'
      ? fullObjectChecksum(alg, parts.map((p) => ({ checksum: p.checksum!, size: p.size })))
      : compositeChecksum(alg, parts.map((p) => p.checksum!));
  const sent = input[memberOf(alg)];
  if (sent !== undefined && sent !== value) throw s3Errors.badChecksum(alg.toLowerCase());
  if (input.ChecksumType !== undefined && input.ChecksumType !== type) {
    throw s3Errors.invalidRequest(`The upload was created using the ${type === 'FULL_OBJECT' ? 'full_object' : 'composite'} checksum mode. The complete request must use the same checksum mode.`);
  }
  return { algorithm: alg, value, type: type! };
}

export function abortMultipartUpload(ctx: Ctx, input: S3.AbortMultipartUploadRequest): S3.AbortMultipartUploadOutput {
  const upload = requireUpload(ctx, input.Bucket!, input.Key!, input.UploadId!);
  ctx.rt.meta.tx(() => {
    ctx.rt.blobs.release(repo(ctx).deleteUpload(upload.upload_id));
  });
  ctx.rt.blobs.sweep();
  return {};
}

export function listParts(ctx: Ctx, input: S3.ListPartsRequest): S3.ListPartsOutput {
  const upload = requireUpload(ctx, input.Bucket!, input.Key!, input.UploadId!);
  const max = input.MaxParts ?? 1000;
  if (max < 0) throw s3Errors.invalidArgument('Argument max-parts must be an integer between 0 and 2147483647', 'max-parts', max);
  const marker = input.PartNumberMarker !== undefined ? Number(input.PartNumberMarker) : 0;
  const limit = Math.min(max, 1000);
  const rows = limit === 0 ? [] : repo(ctx).listParts(upload.upload_id, marker, limit + 1);
  const page = rows.slice(0, limit);
  const owner = ownerOf(upload.initiator);
  const out: S3.ListPartsOutput = {
    Bucket: upload.bucket,
    Key: upload.key,
    UploadId: upload.upload_id,
    PartNumberMarker: String(marker),
    NextPartNumberMarker: page.length ? String(page[page.length - 1]!.part_number) : undefined,
    MaxParts: max,
    IsTruncated: rows.length > limit,
    Parts: page.map((p) => {
      const part: S3.Part = { PartNumber: p.part_number, LastModified: new Date(p.last_modified), ETag: p.etag, Size: p.size };
      if (p.checksum_algorithm && p.checksum) part[memberOf(p.checksum_algorithm as ChecksumAlgorithm)] = p.checksum;
      return part;
    }),
    Initiator: owner,
    Owner: owner,
    StorageClass: upload.parsed.storageClass as S3.StorageClass,
  };
  if (upload.parsed.checksumAlgorithm) {
    out.ChecksumAlgorithm = upload.parsed.checksumAlgorithm;
    out.ChecksumType = upload.parsed.checksumType;
  }
  return out;
}

async function* once(buf: Buffer): AsyncGenerator<Buffer> {
  yield buf;
}

function blobIds(json: string): string[] {
  return (JSON.parse(json) as { id: string }[]).map((b) => b.id);
}
