/**
 * CopyObject and the copy source shared with UploadPartCopy: parsing `x-amz-copy-source`
 * (`bucket/key`, URL-encoded, optional `?versionId=`), source preconditions, metadata and tagging
 * directives (COPY / REPLACE), AWS's refusal to copy an object onto itself without changing
 * anything, and conditional writes on the destination. The bytes are read from the source's
 * blobs (opened synchronously, so a concurrent overwrite of the source cannot tear the copy) and
 * written as new blobs; a copy onto itself that only changes metadata rewrites the row alone.
 *
 * copyObject is one long function on purpose: S3's precedence of source, directive and condition
 * errors reads best in one sequence.
 */
import type { Readable } from 'node:stream';
import type * as S3 from '@aws-sdk/client-s3';
import type { Ctx } from '../../runtime/runtime.js';
import { AwsError } from '../../wire/errors.js';
import type { ObjectRow } from '../../store/s3-repo.js';
import { isAlgorithm, memberOf, type ChecksumAlgorithm } from './checksums.js';
import { checkKey, repo, requireBucket } from './common.js';
import {
  checkCopySourceConditions,
  checkWriteConditions,
  startConditionalWrite,
  validateWriteConditions,
  type ByteRange,
} from './conditions.js';
import { s3Errors } from './errors.js';
import { commitBlobs, ingest, segmentsOf } from './ingest.js';
import { ARCHIVED, encryptionHeaders, metaFromInput, storageClassOf, type ObjectMeta } from './object-meta.js';
import { parseTaggingHeader } from './tag-set.js';

export interface CopySource {
  bucket: string;
  key: string;
  row: ObjectRow;
}

type SourceConditions = Pick<
  S3.CopyObjectRequest,
  'CopySource' | 'CopySourceIfMatch' | 'CopySourceIfNoneMatch' | 'CopySourceIfModifiedSince' | 'CopySourceIfUnmodifiedSince'
>;

/** Resolves `x-amz-copy-source` to the source object and checks its preconditions. */
export function resolveCopySource(ctx: Ctx, input: SourceConditions): CopySource {
  const raw = input.CopySource ?? '';
  const q = raw.indexOf('?');
  let path = q < 0 ? raw : raw.slice(0, q);
  const versionId = q < 0 ? undefined : new URLSearchParams(raw.slice(q + 1)).get('versionId') ?? undefined;
  try {
    path = decodeURIComponent(path);
  } catch {
    throw s3Errors.invalidArgument('Invalid copy source encoding', 'x-amz-copy-source', raw);
  }
  if (path.startsWith('/')) path = path.slice(1);
  const slash = path.indexOf('/');
  if (slash <= 0 || slash === path.length - 1) {
    throw s3Errors.invalidArgument('Invalid copy source object key', 'x-amz-copy-source', raw);
  }
  const bucket = path.slice(0, slash);
  const key = path.slice(slash + 1);
  requireBucket(ctx, bucket);
  const row = repo(ctx).getObject(bucket, key);
  if (versionId !== undefined && versionId !== 'null') {
    throw new AwsError('NoSuchVersion', 'The specified version does not exist.', 404, { fields: { Key: key, VersionId: versionId } });
  }
  if (!row) throw s3Errors.noSuchKey(key);
  if (ARCHIVED.includes(row.storage_class)) {
    throw new AwsError('InvalidObjectState', "Operation is not valid for the source object's storage class", 403, {
      fields: { StorageClass: row.storage_class },
    });
  }
  checkCopySourceConditions(input, row.etag, row.last_modified);
  return { bucket, key, row };
}

/** The source bytes [start, end] as a stream (or one buffer for an inline body). */
export function sourceBytes(ctx: Ctx, row: ObjectRow, range?: ByteRange): AsyncIterable<Buffer> | Readable {
  const start = range?.start ?? 0;
  const end = range?.end ?? row.size - 1;
  if (row.inline) return once(row.inline.subarray(start, end + 1));
  if (row.size === 0) return once(Buffer.alloc(0));
  return ctx.rt.blobs.read(JSON.parse(row.blob_ids ?? '[]'), start, end);
}

async function* once(buf: Buffer): AsyncGenerator<Buffer> {
  if (buf.length) yield buf;
}

function directive(value: string | undefined, header: string): 'COPY' | 'REPLACE' {
  if (value === undefined || value === 'COPY') return 'COPY';
  if (value === 'REPLACE') return 'REPLACE';
  throw s3Errors.invalidArgument(`Unknown ${header === 'x-amz-metadata-directive' ? 'metadata' : 'tagging'} directive.`, header, value);
}

export async function copyObject(ctx: Ctx, input: S3.CopyObjectRequest): Promise<S3.CopyObjectOutput> {
  const bucket = input.Bucket!;
  const key = input.Key!;
  requireBucket(ctx, bucket);
  checkKey(key);
  const metaDirective = directive(input.MetadataDirective, 'x-amz-metadata-directive');
  const tagDirective = directive(input.TaggingDirective, 'x-amz-tagging-directive');
  validateWriteConditions(input);
  const source = resolveCopySource(ctx, input);
  const sourceMeta = JSON.parse(source.row.meta) as ObjectMeta;
  const self = source.bucket === bucket && source.key === key;
  if (
    self &&
    metaDirective === 'COPY' &&
    input.StorageClass === undefined &&
    input.ServerSideEncryption === undefined &&
    input.WebsiteRedirectLocation === undefined &&
    input.SSECustomerAlgorithm === undefined &&
    input.ChecksumAlgorithm === undefined
  ) {
    throw s3Errors.invalidRequest(
      "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.",
    );
  }
  const storageClass = storageClassOf(input.StorageClass);
  const requested = metaFromInput(ctx, bucket, input);
  const meta: ObjectMeta =
    metaDirective === 'REPLACE'
      ? requested
      : {
          ...sourceMeta,
          sse: requested.sse,
          kmsKeyId: requested.kmsKeyId,
          bucketKeyEnabled: requested.bucketKeyEnabled,
          websiteRedirectLocation: input.WebsiteRedirectLocation ?? sourceMeta.websiteRedirectLocation,
        };
  meta.tags = tagDirective === 'REPLACE' ? (input.Tagging ? parseTaggingHeader(input.Tagging) : undefined) : sourceMeta.tags;
  if (input.ChecksumAlgorithm !== undefined && !isAlgorithm(input.ChecksumAlgorithm)) {
    throw s3Errors.invalidRequest('Checksum algorithm provided is unsupported. Please try again with any of the valid types: [CRC32, CRC32C, CRC64NVME, SHA1, SHA256]');
  }
  // A full-object checksum carries over with the bytes; anything else is computed on the copy.
  const keepChecksum = input.ChecksumAlgorithm === undefined && source.row.checksum_type === 'FULL_OBJECT';
  const compute = (input.ChecksumAlgorithm ?? (keepChecksum ? undefined : source.row.checksum_algorithm ?? undefined)) as
    | ChecksumAlgorithm
    | undefined;

  const r = repo(ctx);
  const snapshot = startConditionalWrite(input, key, () => r.headObject(bucket, key));
  const now = Date.now();
  const copied = self && !compute ? undefined : await ingest(ctx, { body: sourceBytes(ctx, source.row), compute });
  const written = copied?.written;
  let etag = source.row.etag;
  const sourceChecksum = source.row.checksum_algorithm
    ? { algorithm: source.row.checksum_algorithm as ChecksumAlgorithm, value: source.row.checksum!, type: source.row.checksum_type! }
    : undefined;
  let checksum = keepChecksum || (self && !compute) ? sourceChecksum : undefined;
  if (copied) {
    etag = copied.etag;
    if (copied.checksum) checksum = { ...copied.checksum, type: 'FULL_OBJECT' };
  }
  commitBlobs(ctx, written?.blob ? [written.blob] : [], () => {
    requireBucket(ctx, bucket);
    if (snapshot) checkWriteConditions(input, key, r.headObject(bucket, key), snapshot);
    let blobIds = written ? segmentsOf(written) : source.row.blob_ids;
    let inline = written ? (written.inline ?? null) : source.row.inline;
    let partsCount: number | null = null;
    if (!written) {
      // Metadata-only copy onto itself: keep the bytes the row holds now.
      const current = r.getObject(bucket, key);
      if (!current || current.etag !== source.row.etag) throw s3Errors.conditionalRequestConflict('x-amz-copy-source', key);
      blobIds = current.blob_ids;
      inline = current.inline;
      partsCount = current.parts_count;
      etag = current.etag;
    }
    const released = r.putObject({
      bucket,
      key,
      size: source.row.size,
      etag,
      last_modified: now,
      storage_class: storageClass,
      checksum_algorithm: checksum?.algorithm ?? null,
      checksum_type: checksum?.type ?? null,
      checksum: checksum?.value ?? null,
      parts_count: partsCount,
      meta: JSON.stringify(meta),
      blob_ids: blobIds,
      inline,
    });
    // A metadata-only copy re-stores the row's own bytes: nothing is let go of.
    return written ? released : [];
  });
  const result: S3.CopyObjectResult = { ETag: etag, LastModified: new Date(now) };
  if (checksum) {
    result[memberOf(checksum.algorithm)] = checksum.value;
    result.ChecksumType = checksum.type as S3.ChecksumType;
  }
  return { CopyObjectResult: result, ...encryptionHeaders(meta) };
}
