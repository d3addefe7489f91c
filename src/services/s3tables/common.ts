/**
 * What every S3 Tables operation shares: the repository of the runtime, model validation (AWS's
 * Coral text, checked before anything else), resolving table bucket / namespace / table from
 * ARNs and names within the caller's account and region, the defaults of every configuration,
 * opaque continuation tokens that carry the last key and the filters of a listing, and the
 * semantic checks of encryption settings and tags.
 */
import { serviceModel } from '../../model/service-model.js';
import { validationMessage } from '../../model/validate.js';
import type { Ctx } from '../../server/runtime.js';
import {
  S3TablesRepo,
  type NamespaceRow,
  type TableBucketCore,
  type TableBucketRow,
  type TableRow,
} from '../../store/s3tables-repo.js';
import { s3tErrors } from './errors.js';
import { parseBucketArn, parseTableArn, tableArn, tableBucketArn } from './naming.js';

const repos = new WeakMap<object, S3TablesRepo>();

export function repo(ctx: Ctx): S3TablesRepo {
  let r = repos.get(ctx.rt.meta);
  if (!r) {
    r = new S3TablesRepo(ctx.rt.meta);
    repos.set(ctx.rt.meta, r);
  }
  return r;
}

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

// ---- defaults (S3 User Guide: "Maintenance for table buckets", "Maintenance for tables",
// "Specifying server-side encryption…"; reference §4.3) ----

export const DEFAULT_ENCRYPTION = { sseAlgorithm: 'AES256' } as const;
export const DEFAULT_STORAGE_CLASS = 'STANDARD';

export function defaultBucketMaintenance(): Record<string, unknown> {
  return {
    icebergUnreferencedFileRemoval: {
      status: 'enabled',
      settings: { icebergUnreferencedFileRemoval: { unreferencedDays: 3, nonCurrentDays: 10 } },
    },
  };
}

export function defaultTableMaintenance(): Record<string, unknown> {
  return {
    icebergCompaction: {
      status: 'enabled',
      settings: { icebergCompaction: { targetFileSizeMB: 512, strategy: 'auto' } },
    },
    icebergSnapshotManagement: {
      status: 'enabled',
      settings: { icebergSnapshotManagement: { minSnapshotsToKeep: 1, maxSnapshotAgeHours: 120 } },
    },
  };
}

// ---- continuation tokens ----

/** A short FNV-1a checksum: tokens are opaque and tamper-evident enough to tell ours from garbage. */
function checksum(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** An opaque token carrying the listing kind, its filters and the last key returned. */
export function encodeToken(kind: string, filters: Record<string, string | undefined>, key: string[]): string {
  const json = JSON.stringify([kind, filters, key]);
  return `${Buffer.from(json, 'utf8').toString('base64url')}.${checksum(json)}`;
}

/**
 * The last key a token carries; 400 for a token this server did not issue, one of another
 * listing, or one whose filters differ from the request's.
 */
export function decodeToken(
  token: string | undefined,
  kind: string,
  filters: Record<string, string | undefined>,
  keyLength: number,
): string[] | undefined {
  if (token === undefined) return undefined;
  const dot = token.lastIndexOf('.');
  if (dot <= 0) throw s3tErrors.invalidContinuationToken();
  let parsed: unknown;
  try {
    const json = Buffer.from(token.slice(0, dot), 'base64url').toString('utf8');
    if (checksum(json) !== token.slice(dot + 1)) throw new Error('checksum');
    parsed = JSON.parse(json);
  } catch {
    throw s3tErrors.invalidContinuationToken();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || parsed[0] !== kind) throw s3tErrors.invalidContinuationToken();
  const [, f, key] = parsed as [string, Record<string, string>, unknown];
  const same = Object.keys({ ...filters, ...f }).every((k) => (f?.[k] ?? undefined) === (filters[k] ?? undefined));
  if (!same) throw s3tErrors.invalidContinuationToken();
  if (!Array.isArray(key) || key.length !== keyLength || key.some((k) => typeof k !== 'string')) {
    throw s3tErrors.invalidContinuationToken();
  }
  return key as string[];
}

/** Default page size of the three List operations (the model allows 1–1000; AWS's default is undocumented). */
export const DEFAULT_PAGE_SIZE = 1000;

// ---- semantic checks shared by several operations ----

/** `aws:kms` needs a key ARN; `AES256` takes none. */
export function checkEncryption(config: { sseAlgorithm?: string; kmsKeyArn?: string } | undefined): void {
  if (!config) return;
  if (config.sseAlgorithm === 'aws:kms' && !config.kmsKeyArn) {
    throw s3tErrors.badRequest('A KMS key ARN (kmsKeyArn) must be specified when the SSE algorithm is aws:kms.');
  }
  if (config.sseAlgorithm === 'AES256' && config.kmsKeyArn) {
    throw s3tErrors.badRequest('A KMS key ARN (kmsKeyArn) can only be specified when the SSE algorithm is aws:kms.');
  }
}

export function encryptionJson(config: { sseAlgorithm?: string; kmsKeyArn?: string }): string {
  return JSON.stringify(
    config.sseAlgorithm === 'aws:kms' ? { sseAlgorithm: 'aws:kms', kmsKeyArn: config.kmsKeyArn } : { sseAlgorithm: 'AES256' },
  );
}

export const MAX_TAGS = 50;
// AWS tagging rules (Tagging best practices): letters, digits, spaces and _ . : / = + - @.
const TAG_TEXT = /^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$/u;

/** Tag keys and values: AWS's character set, no `aws:` prefix on keys. */
export function checkTags(tags: Record<string, string> | undefined): void {
  if (!tags) return;
  for (const [key, value] of Object.entries(tags)) {
    if (key.toLowerCase().startsWith('aws:')) {
      throw s3tErrors.badRequest(`The tag key '${key}' uses the reserved prefix 'aws:'.`);
    }
    if (!TAG_TEXT.test(key)) throw s3tErrors.badRequest(`The tag key '${key}' contains characters that are not allowed.`);
    if (!TAG_TEXT.test(value ?? '')) {
      throw s3tErrors.badRequest(`The tag value for key '${key}' contains characters that are not allowed.`);
    }
  }
  if (Object.keys(tags).length > MAX_TAGS) throw tooManyTags();
}

export function tooManyTags() {
  return s3tErrors.badRequest(`A resource can have at most ${MAX_TAGS} tags.`);
}

export function now(): number {
  return Date.now();
}
