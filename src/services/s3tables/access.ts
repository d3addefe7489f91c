/**
 * Strict mode's authorization for S3 Tables: the `s3tables:` actions each operation needs and the
 * resource they are checked on (Service Authorization Reference; the model's "Permissions" notes
 * for the extra actions: CreateTable with metadata also needs PutTableData, with encryption
 * PutTableEncryption, …), one table; the table bucket's and the table's policies evaluated together
 * (S3 User Guide, "Resource-based policies for S3 Tables"); the condition keys AWS documents
 * (s3tables:namespace, s3tables:tableName, s3tables:SSEAlgorithm, …, aws:ResourceTag/…). The
 * Iceberg catalog and the warehouse's S3 calls are checked through `checkTableAccess` too.
 * A request allowed into another account's table bucket runs in that account.
 */
import type * as S3T from '@aws-sdk/client-s3tables';
import { authorize } from '../../auth/authorize.js';
import type { ContextKeys } from '../../auth/policy.js';
import type { Ctx } from '../../runtime/runtime.js';
import type { TableRow } from '../../store/s3tables-repo.js';
import { AwsError } from '../../wire/errors.js';
import { repo, tableArnOf } from './lookup.js';
import { parseBucketArn, parseTableArn, tableBucketArn } from './naming.js';

type Scope = 'service' | 'new-bucket' | 'bucket' | 'namespace' | 'table' | 'table-arn' | 'tagged';
type Input = Record<string, unknown>;

interface Rule {
  scope: Scope;
  /** Actions beyond `s3tables:<Operation>` that the input calls for. */
  extra?: (input: Input) => string[];
}

const when = (cond: boolean, action: string) => (cond ? [`s3tables:${action}`] : []);

const RULES: Record<string, Rule> = {
  ListTableBuckets: { scope: 'service' },
  CreateTableBucket: {
    scope: 'new-bucket',
    extra: (i) => [
      ...when(i.encryptionConfiguration !== undefined, 'PutTableBucketEncryption'),
      ...when(i.storageClassConfiguration !== undefined, 'PutTableBucketStorageClass'),
      ...when(i.tags !== undefined, 'TagResource'),
    ],
  },
  CreateTable: {
    scope: 'namespace',
    extra: (i) => [
      ...when(i.metadata !== undefined, 'PutTableData'),
      ...when(i.encryptionConfiguration !== undefined, 'PutTableEncryption'),
      ...when(i.storageClassConfiguration !== undefined, 'PutTableStorageClass'),
      ...when(i.tags !== undefined, 'TagResource'),
    ],
  },
  GetNamespace: { scope: 'namespace' },
  DeleteNamespace: { scope: 'namespace' },
  ListTables: { scope: 'namespace' },
  GetTable: { scope: 'table' },
  GetTableMaintenanceConfiguration: { scope: 'table' },
  TagResource: { scope: 'tagged' },
  UntagResource: { scope: 'tagged' },
  ListTagsForResource: { scope: 'tagged' },
};
for (const op of [
  'CreateNamespace', 'DeleteTableBucket', 'DeleteTableBucketEncryption', 'DeleteTableBucketMetricsConfiguration',
  'DeleteTableBucketPolicy', 'DeleteTableBucketReplication', 'GetTableBucket', 'GetTableBucketEncryption',
  'GetTableBucketMaintenanceConfiguration', 'GetTableBucketMetricsConfiguration', 'GetTableBucketPolicy',
  'GetTableBucketReplication', 'GetTableBucketStorageClass', 'ListNamespaces', 'PutTableBucketEncryption',
  'PutTableBucketMaintenanceConfiguration', 'PutTableBucketMetricsConfiguration', 'PutTableBucketPolicy',
  'PutTableBucketReplication', 'PutTableBucketStorageClass',
]) RULES[op] = { scope: 'bucket' };
for (const op of [
  'DeleteTable', 'DeleteTablePolicy', 'GetTableEncryption', 'GetTableMaintenanceJobStatus', 'GetTableMetadataLocation',
  'GetTablePolicy', 'GetTableStorageClass', 'PutTableMaintenanceConfiguration', 'PutTablePolicy', 'RenameTable',
  'UpdateTableMetadataLocation',
]) RULES[op] = { scope: 'table' };
for (const op of [
  'DeleteTableReplication', 'GetTableRecordExpirationConfiguration', 'GetTableRecordExpirationJobStatus',
  'GetTableReplication', 'GetTableReplicationStatus', 'PutTableRecordExpirationConfiguration', 'PutTableReplication',
]) RULES[op] = { scope: 'table-arn' };

/** AWS's refusal: 403 AccessDeniedException naming the principal, the action and the resource. */
export function accessDenied(message: string): AwsError {
  return new AwsError('AccessDeniedException', message, 403);
}

function tagKeys(prefix: string, json: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!json) return out;
  for (const [k, v] of Object.entries(JSON.parse(json) as Record<string, string>)) out[`${prefix}${k.toLowerCase()}`] = v;
  return out;
}

/** What an operation addresses: the resource ARN, its owner, the policies and the resource keys. */
interface Target {
  resource: string;
  account: string;
  policies: (string | null | undefined)[];
  keys: Record<string, string | undefined>;
}

function bucketTarget(ctx: Ctx, arn: unknown): Target | undefined {
  const parsed = typeof arn === 'string' ? parseBucketArn(arn) : undefined;
  if (!parsed || parsed.service !== 's3tables') return undefined;
  const bucket = repo(ctx).getBucket(parsed.account, parsed.region, parsed.bucket);
  const bucketTags = tagKeys('s3tables:tablebuckettag/', bucket?.tags);
  return {
    resource: arn as string,
    account: parsed.account,
    policies: [bucket?.policy],
    keys: { ...bucketTags, ...tagKeys('aws:resourcetag/', bucket?.tags) },
  };
}

/** The target of a table (or of `…/table/*` in its bucket when the table does not exist). */
function tableTarget(ctx: Ctx, bucketArn: string, table: TableRow | undefined, namespace?: string, name?: string): Target | undefined {
  const bucket = bucketTarget(ctx, bucketArn);
  if (!bucket) return undefined;
  const config = table ? repo(ctx).getTableConfig(table.id) : undefined;
  return {
    resource: table ? tableArnOf(table, ctx.partition) : `${bucketArn}/table/*`,
    account: bucket.account,
    policies: [...bucket.policies, config?.policy],
    keys: {
      ...bucket.keys,
      ...tagKeys('aws:resourcetag/', config?.tags),
      's3tables:namespace': table?.namespace ?? namespace,
      's3tables:tablename': table?.name ?? name,
    },
  };
}

function tableByName(ctx: Ctx, input: Input): Target | undefined {
  const parsed = typeof input.tableBucketARN === 'string' ? parseBucketArn(input.tableBucketARN) : undefined;
  if (!parsed) return typeof input.tableArn === 'string' ? tableByArn(ctx, input.tableArn) : undefined;
  const table = repo(ctx).getTableByName(parsed.account, parsed.region, parsed.bucket, String(input.namespace), String(input.name));
  return tableTarget(ctx, input.tableBucketARN as string, table, input.namespace as string, input.name as string);
}

function tableByArn(ctx: Ctx, arn: unknown): Target | undefined {
  const parsed = typeof arn === 'string' ? parseTableArn(arn) : undefined;
  if (!parsed) return undefined;
  const bucketArn = tableBucketArn(parsed.partition, parsed.region, parsed.account, parsed.bucket);
  const table = repo(ctx).getTable(parsed.tableId);
  const target = tableTarget(ctx, bucketArn, table && table.bucket === parsed.bucket && table.account === parsed.account ? table : undefined);
  return target && { ...target, resource: arn as string };
}

function targetOf(ctx: Ctx, scope: Scope, input: Input): Target | undefined {
  switch (scope) {
    case 'service':
      return undefined;
    case 'new-bucket':
      return { resource: tableBucketArn(ctx.partition, ctx.region, ctx.caller!.account, String(input.name)), account: ctx.caller!.account, policies: [], keys: {} };
    case 'bucket':
      return bucketTarget(ctx, input.tableBucketARN);
    case 'namespace': {
      const t = bucketTarget(ctx, input.tableBucketARN);
      return t && { ...t, keys: { ...t.keys, 's3tables:namespace': input.namespace as string | undefined } };
    }
    case 'table':
      return tableByName(ctx, input);
    case 'table-arn':
      return tableByArn(ctx, input.tableArn);
    case 'tagged':
      return parseTableArn(String(input.resourceArn)) ? tableByArn(ctx, input.resourceArn) : bucketTarget(ctx, input.resourceArn);
  }
}

/** The keys an input carries: requested tags, encryption and storage class. */
function requestKeys(input: Input): ContextKeys {
  const keys: Record<string, string | string[] | undefined> = {};
  const tags = input.tags as Record<string, string> | undefined;
  if (tags) {
    for (const [k, v] of Object.entries(tags)) keys[`aws:requesttag/${k.toLowerCase()}`] = v;
    keys['aws:tagkeys'] = Object.keys(tags);
  }
  if (Array.isArray(input.tagKeys)) keys['aws:tagkeys'] = input.tagKeys as string[];
  const encryption = input.encryptionConfiguration as S3T.EncryptionConfiguration | undefined;
  keys['s3tables:ssealgorithm'] = encryption?.sseAlgorithm;
  keys['s3tables:kmskeyarn'] = encryption?.kmsKeyArn;
  keys['s3tables:storageclass'] = (input.storageClassConfiguration as S3T.StorageClassConfiguration | undefined)?.storageClass;
  return keys;
}

/**
 * Checks `actions` on a target for the caller and answers the context the provider runs in: the
 * caller's own, or the owner's when another account's resource was allowed.
 */
function check(ctx: Ctx, actions: string[], target: Target | undefined, keys: ContextKeys, deny = accessDenied): Ctx {
  const caller = ctx.caller!;
  const resourceAccount = target?.account ?? caller.account;
  authorize(
    ctx,
    { actions, resource: target?.resource ?? '*', resourceAccount, policies: target?.policies.map((p) => p ?? undefined) ?? [], keys: { ...target?.keys, ...keys } },
    deny,
  );
  return resourceAccount !== ctx.account ? { ...ctx, account: resourceAccount } : ctx;
}

/** The routes' authorize hook: refuses what the caller may not do, else the context to run in. */
export function authorizeS3Tables(ctx: Ctx, operation: string, input: Input): Ctx {
  const rule = RULES[operation];
  if (!rule) return ctx;
  const actions = [`s3tables:${operation}`, ...(rule.extra?.(input) ?? [])];
  return check(ctx, actions, targetOf(ctx, rule.scope, input), requestKeys(input));
}

/** Checks `actions` on a table named by bucket ARN, namespace and name, or on its namespace (the Iceberg catalog). */
export function checkTableAccess(ctx: Ctx, actions: string[], bucketArn: string, namespace?: string, name?: string): Ctx {
  let target: Target | undefined;
  if (name !== undefined && namespace !== undefined) {
    const parsed = parseBucketArn(bucketArn);
    const table = parsed ? repo(ctx).getTableByName(parsed.account, parsed.region, parsed.bucket, namespace, name) : undefined;
    target = tableTarget(ctx, bucketArn, table, namespace, name);
  } else {
    target = bucketTarget(ctx, bucketArn);
    if (target && namespace !== undefined) target.keys['s3tables:namespace'] = namespace;
  }
  return check(ctx, actions, target, {});
}

/**
 * Checks `actions` on the table whose warehouse is the S3 bucket `bucket` (false when the bucket is
 * no warehouse), refusing with `deny` (S3's AccessDenied: the caller speaks S3). S3 buckets are
 * global, so the S3 call keeps the caller's context.
 */
export function checkWarehouseAccess(ctx: Ctx, actions: string[], bucket: string, deny: (message: string) => AwsError): boolean {
  const table = repo(ctx).getTableByWarehouse(bucket);
  if (!table) return false;
  const bucketArn = tableBucketArn(ctx.partition, table.region, table.account, table.bucket);
  check(ctx, actions, tableTarget(ctx, bucketArn, table), {}, deny);
  return true;
}
