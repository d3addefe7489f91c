/**
 * Objects: PutObject (streamed into the store, verified, conditional writes checked again at
 * commit), GetObject (ranges, partNumber, preconditions, response-* overrides, checksums when
 * asked), HeadObject, DeleteObject and DeleteObjects. An object becomes visible only in the
 * transaction that commits its row, after its bytes are durable; replaced bytes are released in
 * that same transaction and swept afterwards.
 */
import { hash } from 'node:crypto';
import { Readable } from 'node:stream';
import type * as S3 from '@aws-sdk/client-s3';
import type { Ctx } from '../../runtime/runtime.js';
import { AwsError } from '../../wire/errors.js';
import type { ObjectRow } from '../../store/s3-repo.js';
import { INLINE_LIMIT } from '../../store/blobs.js';
import { deletesRefused } from './access.js';
import { declaredChecksum, memberOf, type ChecksumAlgorithm } from './checksums.js';
import { checkKey, MAX_OBJECT_SIZE, repo, requireBucket } from './common.js';
import {
  checkReadConditions,
  checkWriteConditions,
  startConditionalWrite,
  parseRange,
  validateWriteConditions,
  type ByteRange,
} from './conditions.js';
import { s3Errors } from './errors.js';
import { commitBlobs, ingest, segmentsOf } from './ingest.js';
import { ARCHIVED, encryptionHeaders, metaFromInput, objectHeaders, storageClassOf, type ObjectMeta } from './object-meta.js';

export type PutObjectInput = Omit<S3.PutObjectRequest, 'Body'> & {
  Body?: AsyncIterable<Buffer | Uint8Array>;
  /** `x-amz-trailer`: the checksum arrives after an aws-chunked body (set by the wire layer). */
  ChecksumTrailer?: string;
  /** Decoded length of an aws-chunked body (`x-amz-decoded-content-length`). */
  DecodedContentLength?: number;
};

export async function putObject(ctx: Ctx, input: PutObjectInput): Promise<S3.PutObjectOutput> {
  const bucket = input.Bucket!;
  const key = input.Key!;
  requireBucket(ctx, bucket);
  checkKey(key);
  validateWriteConditions(input);
  const storageClass = storageClassOf(input.StorageClass);
  const meta = metaFromInput(ctx, bucket, input);
  const expectedLength = input.DecodedContentLength ?? input.ContentLength;
  if (expectedLength !== undefined && expectedLength > MAX_OBJECT_SIZE) throw s3Errors.entityTooLarge(expectedLength, MAX_OBJECT_SIZE);
  const declared = declaredChecksum(input, input.ChecksumTrailer);
  const r = repo(ctx);
  const snapshot = startConditionalWrite(input, key, () => r.headObject(bucket, key));
  const body = await ingest(ctx, {
    body: input.Body,
    contentMd5: input.ContentMD5,
    declared,
    expectedLength: input.DecodedContentLength,
  });
  const { written } = body;
  commitBlobs(ctx, written.blob ? [written.blob] : [], () => {
    requireBucket(ctx, bucket);
    if (snapshot) checkWriteConditions(input, key, r.headObject(bucket, key), snapshot);
    return r.putObject({
      bucket,
      key,
      size: written.size,
      etag: body.etag,
      last_modified: Date.now(),
      storage_class: storageClass,
      checksum_algorithm: body.checksum?.algorithm ?? null,
      checksum_type: body.checksum ? 'FULL_OBJECT' : null,
      checksum: body.checksum?.value ?? null,
      parts_count: null,
      meta: JSON.stringify(meta),
      blob_ids: segmentsOf(written),
      inline: written.inline ?? null,
    });
  });
  const out: S3.PutObjectOutput = { ETag: body.etag, ...encryptionHeaders(meta) };
  if (body.checksum) {
    out[memberOf(body.checksum.algorithm)] = body.checksum.value;
    out.ChecksumType = 'FULL_OBJECT';
  }
  return out;
}

/**
 * PutObject of a small body already in memory, for Overcast's own writes (Iceberg metadata
 * documents): hashed and stored inline synchronously, in one transaction with `also`, which may
 * throw to undo both — a metadata file and the table pointer that names it land together or not
 * at all.
 */
export function putSmallObject(
  ctx: Ctx,
  input: { Bucket: string; Key: string; Body: Buffer; ContentType?: string },
  also?: () => void,
): S3.PutObjectOutput {
  const { Bucket: bucket, Key: key, Body: body } = input;
  if (body.length > INLINE_LIMIT) throw new RangeError(`putSmallObject takes at most ${INLINE_LIMIT} bytes`);
  requireBucket(ctx, bucket);
  checkKey(key);
  const meta = metaFromInput(ctx, bucket, input);
  const etag = `"${hash('md5', body)}"`;
  const r = repo(ctx);
  commitBlobs(ctx, [], () => {
    const released = r.putObject({
      bucket,
      key,
      size: body.length,
      etag,
      last_modified: Date.now(),
      storage_class: 'STANDARD',
      checksum_algorithm: null,
      checksum_type: null,
      checksum: null,
      parts_count: null,
      meta: JSON.stringify(meta),
      blob_ids: null,
      inline: body,
    });
    also?.();
    return released;
  });
  return { ETag: etag, ...encryptionHeaders(meta) };
}

/** Objects are not versioned: `null` is the only version id there is. */
function checkVersionId(versionId: string | undefined): void {
  if (versionId !== undefined && versionId !== 'null') {
    throw s3Errors.invalidArgument('Invalid version id specified', 'versionId', versionId);
  }
}

function requireObject(ctx: Ctx, bucket: string, key: string): ObjectRow {
  requireBucket(ctx, bucket);
  const row = repo(ctx).getObject(bucket, key);
  if (!row) throw s3Errors.noSuchKey(key);
  return row;
}

type ReadInput = S3.GetObjectRequest | S3.HeadObjectRequest;

/** What GetObject and HeadObject share: preconditions, the range served, and the headers. */
function prepareRead(
  row: Omit<ObjectRow, 'inline' | 'blob_ids'>,
  input: ReadInput,
  forGet: boolean,
): { out: S3.HeadObjectOutput; range?: ByteRange } {
  const meta = JSON.parse(row.meta) as ObjectMeta;
  checkReadConditions(input, row.etag, row.last_modified);
  if (forGet && ARCHIVED.includes(row.storage_class)) {
    throw new AwsError('InvalidObjectState', "The operation is not valid for the object's storage class", 403, {
      fields: { StorageClass: row.storage_class },
    });
  }
  if (input.Range !== undefined && input.PartNumber !== undefined) {
    throw s3Errors.invalidRequest('Cannot specify both Range header and partNumber query parameter');
  }
  const out = objectHeaders(row, meta);
  let range: ByteRange | undefined;
  if (input.PartNumber !== undefined) {
    range = partRange(row, input.PartNumber);
    if (row.parts_count) out.PartsCount = row.parts_count;
  } else {
    range = parseRange(input.Range, row.size);
  }
  if (range) {
    out.ContentRange = `bytes ${range.start}-${range.end}/${row.size}`;
    out.ContentLength = range.end - range.start + 1;
  }
  const whole = !range || (range.start === 0 && range.end === row.size - 1 && input.PartNumber === undefined);
  if (input.ChecksumMode?.toUpperCase() === 'ENABLED' && row.checksum && row.checksum_algorithm && whole) {
    out[memberOf(row.checksum_algorithm as ChecksumAlgorithm)] = row.checksum;
    out.ChecksumType = row.checksum_type as S3.ChecksumType;
  }
  if (forGet && meta.tags?.length) (out as S3.GetObjectOutput).TagCount = meta.tags.length;
  applyOverrides(out, input);
  return { out, range };
}

/** Byte range of part `n` (1-based): a multipart object's parts are its blob segments. */
function partRange(row: Omit<ObjectRow, 'inline' | 'blob_ids'> & { blob_ids?: string | null }, n: number): ByteRange | undefined {
  const count = row.parts_count ?? 1;
  if (n < 1 || n > 10_000) throw s3Errors.invalidArgument('Part number must be an integer between 1 and 10000, inclusive', 'partNumber', n);
  if (n > count) throw s3Errors.invalidPartNumber(n, count);
  if (count === 1) return row.size === 0 ? undefined : { start: 0, end: row.size - 1 };
  const segments = JSON.parse(row.blob_ids ?? '[]') as { size: number }[];
  let start = 0;
  for (let i = 0; i < n - 1; i++) start += segments[i]!.size;
  return { start, end: start + segments[n - 1]!.size - 1 };
}

/**
 * A `response-*` override becomes a response header, so it must be one: AWS refuses what is not
 * ISO-8859-1 with InvalidArgument naming the parameter (control characters, which no header may
 * carry, get the same answer).
 */
function headerOverride(value: string | undefined, parameter: string): string | undefined {
  if (value !== undefined && !/^[\t\x20-\x7e\x80-\xff]*$/.test(value)) {
    throw s3Errors.invalidArgument('Header value cannot be represented using ISO-8859-1.', parameter, value);
  }
  return value;
}

function applyOverrides(out: S3.HeadObjectOutput, input: ReadInput): void {
  const type = headerOverride(input.ResponseContentType, 'response-content-type');
  const language = headerOverride(input.ResponseContentLanguage, 'response-content-language');
  const disposition = headerOverride(input.ResponseContentDisposition, 'response-content-disposition');
  const encoding = headerOverride(input.ResponseContentEncoding, 'response-content-encoding');
  const cacheControl = headerOverride(input.ResponseCacheControl, 'response-cache-control');
  if (type !== undefined) out.ContentType = type;
  if (language !== undefined) out.ContentLanguage = language;
  if (disposition !== undefined) out.ContentDisposition = disposition;
  if (encoding !== undefined) out.ContentEncoding = encoding;
  if (cacheControl !== undefined) out.CacheControl = cacheControl;
  if (input.ResponseExpires !== undefined) out.Expires = new Date(input.ResponseExpires).toUTCString() as unknown as Date;
}

export type GetObjectResult = Omit<S3.GetObjectOutput, 'Body'> & { Body: Buffer | Readable };

/**
 * GetObject for the wire: small bodies come back as a Buffer (no stream to set up), large ones
 * as a stream opened synchronously, so a concurrent overwrite cannot pull the bytes away.
 */
export function getObjectContent(ctx: Ctx, input: S3.GetObjectRequest): GetObjectResult {
  checkVersionId(input.VersionId);
  const row = requireObject(ctx, input.Bucket!, input.Key!);
  const { out, range } = prepareRead(row, input, true);
  const start = range?.start ?? 0;
  const end = range?.end ?? row.size - 1;
  let body: Buffer | Readable;
  if (row.inline) body = range ? row.inline.subarray(start, end + 1) : row.inline;
  else if (row.size === 0 || end < start) body = Buffer.alloc(0);
  else body = ctx.rt.blobs.read(JSON.parse(row.blob_ids ?? '[]'), start, end);
  return { ...out, Body: body };
}

/** An object's bytes (or a range of them) for in-process callers that need it whole. */
export async function getObjectBytes(ctx: Ctx, input: S3.GetObjectRequest): Promise<Buffer> {
  const body = getObjectContent(ctx, input).Body;
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** GetObject for in-process callers: the body is always a stream. */
export function getObject(ctx: Ctx, input: S3.GetObjectRequest): Omit<S3.GetObjectOutput, 'Body'> & { Body: Readable } {
  const res = getObjectContent(ctx, input);
  return { ...res, Body: Buffer.isBuffer(res.Body) ? Readable.from([res.Body]) : res.Body };
}

export function headObject(ctx: Ctx, input: S3.HeadObjectRequest): S3.HeadObjectOutput {
  requireBucket(ctx, input.Bucket!);
  checkVersionId(input.VersionId);
  const r = repo(ctx);
  const row = input.PartNumber !== undefined ? r.getObject(input.Bucket!, input.Key!) : r.headObject(input.Bucket!, input.Key!);
  if (!row) throw s3Errors.noSuchKey(input.Key!);
  return prepareRead(row, input, false).out;
}

export function deleteObject(ctx: Ctx, input: S3.DeleteObjectRequest): S3.DeleteObjectOutput {
  requireBucket(ctx, input.Bucket!);
  checkVersionId(input.VersionId);
  const released = ctx.rt.meta.tx(() => {
    const blobs = repo(ctx).deleteObject(input.Bucket!, input.Key!);
    if (blobs?.length) ctx.rt.blobs.release(blobs);
    return blobs;
  });
  if (released?.length) ctx.rt.blobs.sweep();
  return {};
}

export function deleteObjects(ctx: Ctx, input: S3.DeleteObjectsRequest): S3.DeleteObjectsOutput {
  const bucket = input.Bucket!;
  requireBucket(ctx, bucket);
  const objects = input.Delete?.Objects;
  if (!objects || objects.length === 0 || objects.length > 1000) throw s3Errors.malformedXml();
  const deleted: S3.DeletedObject[] = [];
  const errors: S3._Error[] = [];
  const refused = deletesRefused(input);
  let released = 0;
  ctx.rt.meta.tx(() => {
    const r = repo(ctx);
    for (const o of objects) {
      if (o.Key === undefined) throw s3Errors.malformedXml();
      if (refused?.has(o.Key)) {
        errors.push({ Key: o.Key, ...(o.VersionId !== undefined ? { VersionId: o.VersionId } : {}), Code: 'AccessDenied', Message: 'Access Denied' });
        continue;
      }
      if (o.VersionId !== undefined && o.VersionId !== 'null') {
        errors.push({ Key: o.Key, VersionId: o.VersionId, Code: 'NoSuchVersion', Message: 'The specified version does not exist.' });
        continue;
      }
      const blobs = r.deleteObject(bucket, o.Key);
      if (blobs?.length) {
        ctx.rt.blobs.release(blobs);
        released += blobs.length;
      }
      deleted.push(o.VersionId ? { Key: o.Key, VersionId: o.VersionId } : { Key: o.Key });
    }
  });
  if (released) ctx.rt.blobs.sweep();
  return {
    Deleted: input.Delete?.Quiet ? undefined : deleted,
    Errors: errors.length ? errors : undefined,
  };
}

/** GetObjectAttributes: ETag (unquoted, as AWS sends it here), checksum, parts, storage class, size. */
export function getObjectAttributes(ctx: Ctx, input: S3.GetObjectAttributesRequest): S3.GetObjectAttributesOutput {
  requireBucket(ctx, input.Bucket!);
  const row = repo(ctx).getObject(input.Bucket!, input.Key!);
  if (!row) throw s3Errors.noSuchKey(input.Key!);
  const wanted = new Set((input.ObjectAttributes ?? []).map((a) => a.trim()));
  if (wanted.size === 0) throw s3Errors.invalidArgument('Invalid attribute name specified.', 'x-amz-object-attributes', '');
  const out: S3.GetObjectAttributesOutput = { LastModified: new Date(row.last_modified) };
  if (wanted.has('ETag')) out.ETag = row.etag.replace(/"/g, '');
  if (wanted.has('StorageClass')) out.StorageClass = row.storage_class as S3.StorageClass;
  if (wanted.has('ObjectSize')) out.ObjectSize = row.size;
  if (wanted.has('Checksum') && row.checksum && row.checksum_algorithm) {
    out.Checksum = {
      [memberOf(row.checksum_algorithm as ChecksumAlgorithm)]: row.checksum.replace(/-\d+$/, ''),
      ChecksumType: row.checksum_type as S3.ChecksumType,
    };
  }
  if (wanted.has('ObjectParts') && row.parts_count) {
    const segments = row.blob_ids ? (JSON.parse(row.blob_ids) as { size: number }[]) : [{ size: row.size }];
    const marker = input.PartNumberMarker !== undefined ? Number(input.PartNumberMarker) : 0;
    const max = Math.min(input.MaxParts ?? 1000, 1000);
    const parts = segments.map((s, i) => ({ PartNumber: i + 1, Size: s.size })).filter((p) => p.PartNumber > marker);
    const page = parts.slice(0, max);
    out.ObjectParts = {
      TotalPartsCount: row.parts_count,
      PartNumberMarker: marker ? String(marker) : undefined,
      NextPartNumberMarker: page.length ? String(page[page.length - 1]!.PartNumber) : undefined,
      MaxParts: max,
      IsTruncated: parts.length > page.length,
      Parts: page,
    };
  }
  return out;
}
