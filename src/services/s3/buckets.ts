/**
 * Buckets: creation with AWS's naming rules and LocationConstraint semantics (us-east-1's legacy
 * "you already own it" answer included), HeadBucket, GetBucketLocation, ListBuckets with its
 * pagination, DeleteBucket (BucketNotEmpty), and purgeBucket for Overcast's own callers (S3 Tables
 * warehouses, stack deletion). Bucket names are global across accounts, as on AWS.
 */
import type * as S3 from '@aws-sdk/client-s3';
import type { Ctx } from '../../runtime/runtime.js';
import { decodeToken, encodeToken, ownerOf, repo, requireBucket } from './common.js';
import { s3Errors } from './errors.js';
import { bucketNameProblem } from './naming.js';

export interface CreateBucketOptions {
  /** Let Overcast itself create names AWS reserves (S3 Tables warehouses end in `--table-s3`). */
  allowReserved?: boolean;
  /**
   * Overcast itself is creating the bucket (S3 Tables, CloudFormation): a missing
   * LocationConstraint means the caller's region rather than AWS's us-east-1 rule.
   */
  internal?: boolean;
}

const OWNERSHIPS = ['BucketOwnerPreferred', 'ObjectWriter', 'BucketOwnerEnforced'];

export function createBucket(ctx: Ctx, input: S3.CreateBucketRequest, opts: CreateBucketOptions = {}): S3.CreateBucketOutput {
  const name = input.Bucket!;
  if (bucketNameProblem(name, opts.allowReserved)) throw s3Errors.invalidBucketName(name);
  const region = bucketRegion(ctx, input.CreateBucketConfiguration?.LocationConstraint, opts.internal || opts.allowReserved);
  if (input.ObjectOwnership !== undefined && !OWNERSHIPS.includes(input.ObjectOwnership)) {
    throw s3Errors.invalidArgument(
      `Invalid x-amz-object-ownership header: ${input.ObjectOwnership}`,
      'x-amz-object-ownership',
      input.ObjectOwnership,
    );
  }
  const r = repo(ctx);
  const location = region === 'us-east-1' ? `/${name}` : `${ctx.rt.endpoint ?? ''}/${name}/`;
  // Overcast's own warehouse names are fresh random characters: the insert's key refuses a repeat.
  const existing = opts.allowReserved ? undefined : r.getBucket(name);
  if (existing) {
    if (existing.account !== ctx.account) throw s3Errors.bucketAlreadyExists(name);
    // us-east-1 keeps its legacy answer: 200 for a bucket you already own there.
    if (existing.region === 'us-east-1' && region === 'us-east-1') return { Location: location };
    throw s3Errors.bucketAlreadyOwnedByYou(name);
  }
  const configs: [kind: string, value: string][] = [];
  if (input.ObjectOwnership) configs.push(['ownership', JSON.stringify({ Rules: [{ ObjectOwnership: input.ObjectOwnership }] })]);
  if (input.ObjectLockEnabledForBucket) {
    configs.push(['object-lock', JSON.stringify({ ObjectLockEnabled: 'Enabled' })], ['versioning', JSON.stringify({ Status: 'Enabled' })]);
  }
  const write = () => {
    r.insertBucket({ name, account: ctx.account, region, created_at: Date.now() });
    for (const [kind, value] of configs) r.putConfig(name, kind, value);
  };
  // A bare bucket is one row, atomic by itself: a savepoint only when configurations go with it.
  if (configs.length > 0) ctx.rt.meta.tx(write);
  else write();
  return { Location: location, BucketArn: `arn:${ctx.partition}:s3:::${name}` };
}

/**
 * The region a new bucket lands in. AWS: without a LocationConstraint the bucket goes to
 * us-east-1, which only a us-east-1 request may ask for; naming us-east-1 explicitly is invalid;
 * a constraint other than the request's region is refused. `EU` is eu-west-1.
 */
function bucketRegion(ctx: Ctx, constraint: string | undefined, internal?: boolean): string {
  if (!constraint) {
    if (internal || ctx.region === 'us-east-1') return ctx.region;
    throw s3Errors.illegalLocationConstraint(undefined);
  }
  const region = constraint === 'EU' ? 'eu-west-1' : constraint;
  if (!/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region)) throw s3Errors.invalidLocationConstraint(constraint);
  if (region === 'us-east-1' && ctx.region === 'us-east-1' && !internal) throw s3Errors.invalidLocationConstraint(constraint);
  if (region !== ctx.region && !internal) throw s3Errors.illegalLocationConstraint(constraint);
  return region;
}

export function headBucket(ctx: Ctx, input: S3.HeadBucketRequest): S3.HeadBucketOutput {
  const bucket = requireBucket(ctx, input.Bucket!);
  return { BucketRegion: bucket.region, AccessPointAlias: false };
}

export function getBucketLocation(ctx: Ctx, input: S3.GetBucketLocationRequest): S3.GetBucketLocationOutput {
  const bucket = requireBucket(ctx, input.Bucket!);
  // us-east-1 is reported as an empty LocationConstraint.
  return { LocationConstraint: (bucket.region === 'us-east-1' ? '' : bucket.region) as S3.BucketLocationConstraint };
}

export function listBuckets(ctx: Ctx, input: S3.ListBucketsRequest): S3.ListBucketsOutput {
  if (input.MaxBuckets !== undefined && (input.MaxBuckets < 1 || input.MaxBuckets > 10_000)) {
    throw s3Errors.invalidArgument('Argument max-buckets must be an integer between 1 and 10000.', 'max-buckets', input.MaxBuckets);
  }
  const limit = input.MaxBuckets ?? 10_000;
  const after = input.ContinuationToken !== undefined ? decodeToken(input.ContinuationToken) : '';
  const rows = repo(ctx).listBuckets(ctx.account, after, limit + 1, input.Prefix ?? '', input.BucketRegion);
  const page = rows.slice(0, limit);
  return {
    Buckets: page.map((b) => ({
      Name: b.name,
      CreationDate: new Date(b.created_at),
      BucketRegion: b.region,
      BucketArn: `arn:${ctx.partition}:s3:::${b.name}`,
    })),
    Owner: ownerOf(ctx.account),
    Prefix: input.Prefix,
    ContinuationToken: rows.length > limit ? encodeToken(page[page.length - 1]!.name) : undefined,
  };
}

export function deleteBucket(ctx: Ctx, input: S3.DeleteBucketRequest): void {
  const name = input.Bucket!;
  requireBucket(ctx, name);
  const r = repo(ctx);
  if (r.bucketHasObjects(name)) throw s3Errors.bucketNotEmpty(name);
  const released = ctx.rt.meta.tx(() => {
    if (r.bucketHasObjects(name)) throw s3Errors.bucketNotEmpty(name);
    // Unfinished multipart uploads go with the bucket.
    const { blobIds } = r.deleteContentsBatch(name, 1_000_000);
    ctx.rt.blobs.release(blobIds);
    r.deleteBucket(name);
    return blobIds;
  });
  if (released.length) ctx.rt.blobs.sweep();
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
