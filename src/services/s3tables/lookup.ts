/**
 * What every S3 Tables operation does first: the runtime's repository, the model's constraint
 * check (AWS's Coral text, before anything else), and finding the table bucket, namespace or
 * table a request names — by ARN or by name — within the caller's account and region (another
 * account's, region's or partition's ARN names nothing of the caller's: 404).
 */
import { serviceModel } from '../../model/service-model.js';
import { validationMessage } from '../../model/validate.js';
import { perStore, type Ctx } from '../../runtime/runtime.js';
import {
  S3TablesRepo,
  type NamespaceRow,
  type TableBucketCore,
  type TableBucketRow,
  type TableRow,
} from '../../store/s3tables-repo.js';
import { s3tErrors } from './errors.js';
import { parseBucketArn, parseTableArn, tableArn, tableBucketArn } from './naming.js';

export const repo: (ctx: Ctx) => S3TablesRepo = perStore((meta) => new S3TablesRepo(meta));

/** Model constraints of `operation` (required, length, pattern, enum, range) → 400 with AWS's text. */
export function validate(operation: string, input: object): void {
  const message = validationMessage(serviceModel('s3tables'), operation, input);
  if (message) throw s3tErrors.validation(message);
}

export function bucketArnOf(b: Pick<TableBucketRow, 'account' | 'region' | 'name'>, partition: string): string {
  return tableBucketArn(partition, b.region, b.account, b.name);
}

export function tableArnOf(t: Pick<TableRow, 'account' | 'region' | 'bucket' | 'id'>, partition: string): string {
  return tableArn(tableBucketArn(partition, t.region, t.account, t.bucket), t.id);
}

/**
 * The bucket name of an ARN of the caller's. ARNs of another account, region, partition or service
 * name no bucket of the caller's: 404, as for a bucket that does not exist.
 */
export function bucketNameOf(ctx: Ctx, arn: string): string {
  const parsed = parseBucketArn(arn);
  if (!parsed) throw s3tErrors.bucketNotFound();
  if (parsed.service !== 's3tables' || parsed.partition !== ctx.partition) throw s3tErrors.bucketNotFound();
  if (parsed.account !== ctx.account || parsed.region !== ctx.region) throw s3tErrors.bucketNotFound();
  return parsed.bucket;
}

/** The table bucket an ARN names: identity and the defaults tables inherit. */
export function requireBucket(ctx: Ctx, arn: string): TableBucketCore {
  const bucket = repo(ctx).getBucketCore(ctx.account, ctx.region, bucketNameOf(ctx, arn));
  if (!bucket) throw s3tErrors.bucketNotFound();
  return bucket;
}

/** The table bucket an ARN names, with every stored configuration. */
export function requireBucketRow(ctx: Ctx, arn: string): TableBucketRow {
  const bucket = repo(ctx).getBucket(ctx.account, ctx.region, bucketNameOf(ctx, arn));
  if (!bucket) throw s3tErrors.bucketNotFound();
  return bucket;
}

export function requireNamespace(ctx: Ctx, bucket: TableBucketCore, name: string): NamespaceRow {
  const ns = repo(ctx).getNamespace(bucket.account, bucket.region, bucket.name, name);
  if (!ns) throw s3tErrors.namespaceNotFound();
  return ns;
}

/** A table by bucket ARN + namespace + name (the path labels of the table operations). */
export function requireTable(ctx: Ctx, input: { tableBucketARN?: string; namespace?: string; name?: string }): TableRow {
  // One lookup on the hot path (catalogs call GetTableMetadataLocation on every commit): a table
  // implies its bucket and namespace; only a miss needs to say which of them is missing.
  const bucketName = bucketNameOf(ctx, input.tableBucketARN!);
  const table = repo(ctx).getTableByName(ctx.account, ctx.region, bucketName, input.namespace!, input.name!);
  if (table) return table;
  const bucket = requireBucket(ctx, input.tableBucketARN!);
  requireNamespace(ctx, bucket, input.namespace!);
  throw s3tErrors.tableNotFound();
}

/** A table by its ARN (`…:bucket/<name>/table/<id>`). */
export function requireTableByArn(ctx: Ctx, arn: string): TableRow {
  const parsed = parseTableArn(arn);
  if (!parsed) throw s3tErrors.tableNotFound();
  if (parsed.service !== 's3tables' || parsed.partition !== ctx.partition) throw s3tErrors.tableNotFound();
  if (parsed.account !== ctx.account || parsed.region !== ctx.region) throw s3tErrors.tableNotFound();
  const table = repo(ctx).getTable(parsed.tableId);
  if (!table || table.bucket !== parsed.bucket || table.account !== parsed.account || table.region !== parsed.region) {
    throw s3tErrors.tableNotFound();
  }
  return table;
}
