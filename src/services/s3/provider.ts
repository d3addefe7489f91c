/**
 * The S3 provider: S3's rules as plain functions of (ctx, input) over the store, shared by the S3
 * API, S3 Tables (warehouse buckets) and the CloudFormation engine (AWS::S3::Bucket). Bucket names
 * are global across accounts, as on AWS; everything else belongs to the bucket.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type * as S3 from '@aws-sdk/client-s3';
import type { Ctx } from '../../server/runtime.js';
import { S3Repo, upperBound, type BucketRow, type ObjectRow } from '../../store/s3-repo.js';
import { s3Errors } from './errors.js';
import { bucketNameProblem } from './naming.js';

const repos = new WeakMap<object, S3Repo>();

export function repo(ctx: Ctx): S3Repo {
  let r = repos.get(ctx.rt.meta);
  if (!r) {
    r = new S3Repo(ctx.rt.meta);
    repos.set(ctx.rt.meta, r);
  }
  return r;
}

export function requireBucket(ctx: Ctx, name: string): BucketRow {
  const bucket = repo(ctx).getBucket(name);
  if (!bucket) throw s3Errors.noSuchBucket(name);
  return bucket;
}

export interface CreateBucketOptions {
  /** Let Overcast itself create names AWS reserves (S3 Tables warehouses end in `--table-s3`). */
  allowReserved?: boolean;
}

export function createBucket(ctx: Ctx, input: S3.CreateBucketRequest, opts: CreateBucketOptions = {}): S3.CreateBucketOutput {
  const name = input.Bucket!;
  if (bucketNameProblem(name, opts.allowReserved)) throw s3Errors.invalidBucketName(name);
  const constraint = input.CreateBucketConfiguration?.LocationConstraint;
  const region = constraint ? (constraint === 'EU' ? 'eu-west-1' : constraint) : ctx.region === 'us-east-1' ? 'us-east-1' : ctx.region;
  const existing = repo(ctx).getBucket(name);
  if (existing) {
    if (existing.account !== ctx.account) throw s3Errors.bucketAlreadyExists(name);
    // us-east-1 keeps its legacy answer: 200 for a bucket you already own there.
    if (existing.region === 'us-east-1' && region === 'us-east-1') return { Location: `/${name}` };
    throw s3Errors.bucketAlreadyOwnedByYou(name);
  }
  repo(ctx).insertBucket({ name, account: ctx.account, region, created_at: Date.now(), config: '{}' });
  return { Location: `/${name}` };
}

export function headBucket(ctx: Ctx, input: S3.HeadBucketRequest): S3.HeadBucketOutput {
  const bucket = requireBucket(ctx, input.Bucket!);
  return { BucketRegion: bucket.region };
}

export function getBucketLocation(ctx: Ctx, input: S3.GetBucketLocationRequest): S3.GetBucketLocationOutput {
  const bucket = requireBucket(ctx, input.Bucket!);
  // us-east-1 is reported as an empty LocationConstraint.
  return { LocationConstraint: (bucket.region === 'us-east-1' ? undefined : bucket.region) as S3.BucketLocationConstraint };
}

export function listBuckets(ctx: Ctx, input: S3.ListBucketsRequest): S3.ListBucketsOutput {
  const limit = input.MaxBuckets ?? 10_000;
  const after = input.ContinuationToken ? Buffer.from(input.ContinuationToken, 'base64url').toString('utf8') : '';
  const rows = repo(ctx).listBuckets(ctx.account, after, limit + 1, input.Prefix ?? '');
  const page = rows.slice(0, limit);
  return {
    Buckets: page.map((b) => ({ Name: b.name, CreationDate: new Date(b.created_at), BucketRegion: b.region })),
    Owner: { ID: ownerId(ctx.account), DisplayName: 'overcast' },
    Prefix: input.Prefix,
    ContinuationToken:
      rows.length > limit ? Buffer.from(page[page.length - 1]!.name, 'utf8').toString('base64url') : undefined,
  };
}

export function deleteBucket(ctx: Ctx, input: S3.DeleteBucketRequest): void {
  const name = input.Bucket!;
  requireBucket(ctx, name);
  const r = repo(ctx);
  if (r.bucketHasObjects(name) || r.bucketHasUploads(name)) throw s3Errors.bucketNotEmpty(name);
  r.deleteBucket(name);
}

/**
 * Deletes a bucket with everything in it, a batch per transaction, yielding between batches so a
 * large bucket never stalls other requests. Used for S3 Tables warehouses and stack deletion.
 */
export async function purgeBucket(ctx: Ctx, name: string): Promise<void> {
  const r = repo(ctx);
  if (!r.getBucket(name)) return;
  for (;;) {
    const { count, blobIds } = ctx.rt.meta.tx(() => {
      const batch = r.deleteContentsBatch(name, 500);
      ctx.rt.blobs.release(batch.blobIds);
      if (batch.count === 0) r.deleteBucket(name); // same transaction: nothing can slip in
      return batch;
    });
    if (blobIds.length) ctx.rt.blobs.sweep();
    if (count === 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export function ownerId(account: string): string {
  return createHash('sha256').update(account).digest('hex');
}

interface ObjectMeta {
  contentType?: string;
  contentEncoding?: string;
  contentDisposition?: string;
  contentLanguage?: string;
  cacheControl?: string;
  expires?: string;
  metadata?: Record<string, string>;
}

export type PutObjectInput = Omit<S3.PutObjectRequest, 'Body'> & { Body?: AsyncIterable<Buffer | Uint8Array> };

export async function putObject(ctx: Ctx, input: PutObjectInput): Promise<S3.PutObjectOutput> {
  const bucket = input.Bucket!;
  const key = input.Key!;
  requireBucket(ctx, bucket);
  const md5 = createHash('md5');
  const written = await ctx.rt.blobs.write(input.Body ?? Readable.from([]), (chunk) => md5.update(chunk));
  const etag = `"${md5.digest('hex')}"`;
  const meta: ObjectMeta = {
    contentType: input.ContentType ?? 'binary/octet-stream',
    contentEncoding: input.ContentEncoding,
    contentDisposition: input.ContentDisposition,
    contentLanguage: input.ContentLanguage,
    cacheControl: input.CacheControl,
    expires: input.Expires ? new Date(input.Expires).toUTCString() : undefined,
    metadata: input.Metadata,
  };
  const blobIds = written.blob ? [written.blob.id] : [];
  let released: string[] = [];
  try {
    ctx.rt.meta.tx(() => {
      requireBucket(ctx, bucket);
      ctx.rt.blobs.adopt(blobIds);
      released = repo(ctx).putObject({
        bucket,
        key,
        size: written.size,
        etag,
        last_modified: Date.now(),
        storage_class: input.StorageClass ?? 'STANDARD',
        meta: JSON.stringify(meta),
        blob_ids: written.blob ? JSON.stringify([{ id: written.blob.id, size: written.blob.size }]) : null,
        inline: written.inline ?? null,
      });
      ctx.rt.blobs.release(released);
    });
  } catch (err) {
    if (written.blob) ctx.rt.blobs.discard(written.blob);
    throw err;
  }
  ctx.rt.blobs.sweep();
  return { ETag: etag };
}

function requireObject(ctx: Ctx, bucket: string, key: string): ObjectRow {
  requireBucket(ctx, bucket);
  const row = repo(ctx).getObject(bucket, key);
  if (!row) throw s3Errors.noSuchKey(key);
  return row;
}

function objectHeaders(row: ObjectRow): S3.HeadObjectOutput {
  const meta = JSON.parse(row.meta) as ObjectMeta;
  return {
    ContentLength: row.size,
    ETag: row.etag,
    LastModified: new Date(row.last_modified),
    ContentType: meta.contentType,
    ContentEncoding: meta.contentEncoding,
    ContentDisposition: meta.contentDisposition,
    ContentLanguage: meta.contentLanguage,
    CacheControl: meta.cacheControl,
    ExpiresString: meta.expires,
    Metadata: meta.metadata,
    AcceptRanges: 'bytes',
  };
}

export function headObject(ctx: Ctx, input: S3.HeadObjectRequest): S3.HeadObjectOutput {
  return objectHeaders(requireObject(ctx, input.Bucket!, input.Key!));
}

export function getObject(ctx: Ctx, input: S3.GetObjectRequest): Omit<S3.GetObjectOutput, 'Body'> & { Body: Readable } {
  const row = requireObject(ctx, input.Bucket!, input.Key!);
  const body = row.inline
    ? Readable.from([row.inline])
    : ctx.rt.blobs.read(JSON.parse(row.blob_ids ?? '[]'), 0, row.size - 1);
  return { ...objectHeaders(row), Body: body };
}

export function deleteObject(ctx: Ctx, input: S3.DeleteObjectRequest): S3.DeleteObjectOutput {
  requireBucket(ctx, input.Bucket!);
  ctx.rt.meta.tx(() => {
    const blobs = repo(ctx).deleteObject(input.Bucket!, input.Key!);
    if (blobs) ctx.rt.blobs.release(blobs);
  });
  ctx.rt.blobs.sweep();
  return {};
}

export function listObjectsV2(ctx: Ctx, input: S3.ListObjectsV2Request): S3.ListObjectsV2Output {
  const bucket = input.Bucket!;
  requireBucket(ctx, bucket);
  const maxKeys = Math.min(input.MaxKeys ?? 1000, 1000);
  const prefix = input.Prefix ?? '';
  const delimiter = input.Delimiter || undefined;
  let after = input.ContinuationToken
    ? Buffer.from(input.ContinuationToken, 'base64url').toString('utf8')
    : (input.StartAfter ?? '');
  const contents: S3._Object[] = [];
  const prefixes: string[] = [];
  const to = prefix ? upperBound(prefix) : undefined;
  let truncated = false;
  while (contents.length + prefixes.length < maxKeys) {
    const want = maxKeys - contents.length - prefixes.length;
    const rows = repo(ctx).listObjects(bucket, after, prefix, to, want + 1);
    if (rows.length === 0) break;
    let consumed = 0;
    for (const row of rows) {
      if (contents.length + prefixes.length >= maxKeys) {
        truncated = true;
        break;
      }
      consumed++;
      if (delimiter) {
        const at = row.key.indexOf(delimiter, prefix.length);
        if (at >= 0) {
          const common = row.key.slice(0, at + delimiter.length);
          prefixes.push(common);
          after = upperBound(common); // skip every key under this common prefix
          break;
        }
      }
      contents.push({
        Key: row.key,
        Size: row.size,
        ETag: row.etag,
        LastModified: new Date(row.last_modified),
        StorageClass: row.storage_class as S3.ObjectStorageClass,
      });
      after = row.key;
    }
    if (truncated) break;
    if (consumed === rows.length && rows.length <= want) break;
  }
  const last = contents.length + prefixes.length > 0 ? after : undefined;
  return {
    Name: bucket,
    Prefix: prefix,
    Delimiter: delimiter,
    MaxKeys: maxKeys,
    KeyCount: contents.length + prefixes.length,
    IsTruncated: truncated,
    Contents: contents.length ? contents : undefined,
    CommonPrefixes: prefixes.length ? prefixes.map((p) => ({ Prefix: p })) : undefined,
    ContinuationToken: input.ContinuationToken,
    StartAfter: input.StartAfter,
    NextContinuationToken: truncated && last ? Buffer.from(last, 'utf8').toString('base64url') : undefined,
  };
}
