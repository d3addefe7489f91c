/**
 * Table buckets: CreateTableBucket (naming rules, unique per account and region, initial
 * encryption / storage class / tags, defaults materialised), GetTableBucket, ListTableBuckets
 * (prefix, type, pages by name) and DeleteTableBucket (refused while namespaces remain).
 */
import type * as S3T from '@aws-sdk/client-s3tables';
import type { Ctx } from '../../runtime/runtime.js';
import { DEFAULT_ENCRYPTION, DEFAULT_STORAGE_CLASS, defaultBucketMaintenance } from './defaults.js';
import { bucketArnOf, repo, requireBucket, validate } from './lookup.js';
import { DEFAULT_PAGE_SIZE, decodeToken, encodeToken } from './page-tokens.js';
import { checkEncryption, checkTags, encryptionJson } from './settings-checks.js';
import { s3tErrors } from './errors.js';
import { newId, validTableBucketName } from './naming.js';

export function createTableBucket(ctx: Ctx, input: S3T.CreateTableBucketRequest): S3T.CreateTableBucketResponse {
  validate('CreateTableBucket', input);
  const name = input.name!;
  if (!validTableBucketName(name)) throw s3tErrors.invalidBucketName();
  checkEncryption(input.encryptionConfiguration);
  checkTags(input.tags);
  const r = repo(ctx);
  if (r.getBucket(ctx.account, ctx.region, name)) throw s3tErrors.bucketExists();
  const row = {
    account: ctx.account,
    region: ctx.region,
    name,
    id: newId(),
    type: 'customer',
    created_at: Date.now(),
    encryption: encryptionJson(input.encryptionConfiguration ?? DEFAULT_ENCRYPTION),
    storage_class: input.storageClassConfiguration?.storageClass ?? DEFAULT_STORAGE_CLASS,
    maintenance: JSON.stringify(defaultBucketMaintenance()),
    metrics_id: null,
    policy: null,
    replication: null,
    replication_token: null,
    tags: JSON.stringify(input.tags ?? {}),
  };
  r.insertBucket(row);
  return { arn: bucketArnOf(row, ctx.partition) };
}

export function getTableBucket(ctx: Ctx, input: S3T.GetTableBucketRequest): S3T.GetTableBucketResponse {
  validate('GetTableBucket', input);
  const b = requireBucket(ctx, input.tableBucketARN!);
  return {
    arn: bucketArnOf(b, ctx.partition),
    name: b.name,
    ownerAccountId: b.account,
    createdAt: new Date(b.created_at),
    tableBucketId: b.id,
    type: b.type as S3T.TableBucketType,
  };
}

export function listTableBuckets(ctx: Ctx, input: S3T.ListTableBucketsRequest): S3T.ListTableBucketsResponse {
  validate('ListTableBuckets', input);
  const filters = { prefix: input.prefix, type: input.type };
  const after = decodeToken(input.continuationToken, 'buckets', filters, 1)?.[0] ?? '';
  const limit = input.maxBuckets ?? DEFAULT_PAGE_SIZE;
  const rows = repo(ctx).listBuckets(ctx.account, ctx.region, { prefix: input.prefix ?? '', type: input.type, after, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return {
    tableBuckets: page.map((b) => ({
      arn: bucketArnOf({ account: b.account, region: ctx.region, name: b.name }, ctx.partition),
      name: b.name,
      ownerAccountId: b.account,
      createdAt: new Date(b.created_at),
      tableBucketId: b.id,
      type: b.type as S3T.TableBucketType,
    })),
    continuationToken: rows.length > limit ? encodeToken('buckets', filters, [page[page.length - 1]!.name]) : undefined,
  };
}

export function deleteTableBucket(ctx: Ctx, input: S3T.DeleteTableBucketRequest): void {
  validate('DeleteTableBucket', input);
  const b = requireBucket(ctx, input.tableBucketARN!);
  const r = repo(ctx);
  // Tables live in namespaces, so "no namespace left" means empty (S3 User Guide, "Deleting a table bucket").
  if (r.bucketHasNamespaces(b)) throw s3tErrors.bucketNotEmpty();
  r.deleteBucket(b.account, b.region, b.name);
}
