/**
 * The dashboard's S3 Tables data: table buckets, namespaces and tables page by page with the
 * provider's own continuation tokens and name prefixes, a bucket with its configurations, and a
 * table with everything a person asks of it — its Iceberg metadata (schemas, partition specs, sort
 * orders, properties, snapshots, the metadata log), maintenance configuration and job status,
 * policy, encryption, replication — each read through the same provider functions the API serves.
 * A resource named by ARN is read in the ARN's account and region, whatever the page chose.
 */
import * as s3t from '../services/s3tables/provider.js';
import { parseBucketArn, parseTableArn } from '../services/s3tables/naming.js';
import { readTableMetadata } from '../services/s3tables/table-metadata.js';
import type { TableMetadata } from '../iceberg/types.js';
import { internalCtx, type Ctx } from '../runtime/runtime.js';
import { isAwsError } from '../wire/errors.js';
import { badRequest, nextToken, pageSize, type DashboardRequest, type JsonAnswer } from './http.js';
import { previewRows } from './table-preview.js';

const PAGE = 100;
/** Snapshots and log entries sent at most (the newest); a table's history can be long. */
const HISTORY = 500;

/** A call whose resource may simply not be configured (404): undefined then. */
function optional<T>(call: () => T): T | undefined {
  try {
    return call();
  } catch (err) {
    if (isAwsError(err) && err.status === 404) return undefined;
    throw err;
  }
}

function bucketCtx(r: DashboardRequest, arn: string): Ctx {
  const p = parseBucketArn(arn);
  if (!p) throw badRequest(`${arn} is not a table bucket ARN.`);
  return internalCtx(r.rt, p.account, p.region, r.ctx.requestId);
}

function tableCtx(r: DashboardRequest, arn: string): Ctx {
  const p = parseTableArn(arn);
  if (!p) throw badRequest(`${arn} is not a table ARN.`);
  return internalCtx(r.rt, p.account, p.region, r.ctx.requestId);
}

const prefixOf = (r: DashboardRequest) => r.query.get('prefix') || undefined;

export function listTableBuckets(r: DashboardRequest): JsonAnswer {
  const out = s3t.listTableBuckets(r.ctx, {
    continuationToken: nextToken(r.query),
    maxBuckets: pageSize(r.query, PAGE, 1000),
    prefix: prefixOf(r),
  });
  return { body: { items: out.tableBuckets, next: out.continuationToken } };
}

export function getTableBucket(r: DashboardRequest, arn: string): JsonAnswer {
  const ctx = bucketCtx(r, arn);
  const input = { tableBucketARN: arn };
  const bucket = s3t.getTableBucket(ctx, input);
  return {
    body: {
      bucket,
      encryption: optional(() => s3t.getTableBucketEncryption(ctx, input))?.encryptionConfiguration,
      storageClass: optional(() => s3t.getTableBucketStorageClass(ctx, input))?.storageClassConfiguration,
      maintenance: optional(() => s3t.getTableBucketMaintenanceConfiguration(ctx, input))?.configuration,
      policy: optional(() => s3t.getTableBucketPolicy(ctx, input))?.resourcePolicy,
      replication: optional(() => s3t.getTableBucketReplication(ctx, input))?.configuration,
      metrics: optional(() => s3t.getTableBucketMetricsConfiguration(ctx, input)),
    },
  };
}

export function listNamespaces(r: DashboardRequest, arn: string): JsonAnswer {
  const out = s3t.listNamespaces(bucketCtx(r, arn), {
    tableBucketARN: arn,
    continuationToken: nextToken(r.query),
    maxNamespaces: pageSize(r.query, PAGE, 1000),
    prefix: prefixOf(r),
  });
  return { body: { items: out.namespaces, next: out.continuationToken } };
}

export function listTables(r: DashboardRequest, arn: string): JsonAnswer {
  const namespace = r.query.get('namespace') || undefined;
  const out = s3t.listTables(bucketCtx(r, arn), {
    tableBucketARN: arn,
    namespace,
    continuationToken: nextToken(r.query),
    maxTables: pageSize(r.query, PAGE, 1000),
    prefix: prefixOf(r),
  });
  return { body: { items: out.tables, next: out.continuationToken } };
}

/** What the page shows of a metadata document: all of it but the history beyond HISTORY entries. */
function metadataView(m: TableMetadata) {
  const snapshots = m.snapshots ?? [];
  return {
    formatVersion: m['format-version'],
    tableUuid: m['table-uuid'],
    location: m.location,
    lastUpdated: m['last-updated-ms'],
    currentSchemaId: m['current-schema-id'],
    schemas: m.schemas,
    defaultSpecId: m['default-spec-id'],
    partitionSpecs: m['partition-specs'],
    defaultSortOrderId: m['default-sort-order-id'],
    sortOrders: m['sort-orders'],
    properties: m.properties ?? {},
    currentSnapshotId: m['current-snapshot-id'] ?? null,
    refs: m.refs ?? {},
    snapshotCount: snapshots.length,
    snapshots: snapshots.slice(-HISTORY),
    snapshotLog: (m['snapshot-log'] ?? []).slice(-HISTORY),
    metadataLog: (m['metadata-log'] ?? []).slice(-HISTORY),
  };
}

export async function getTable(r: DashboardRequest, arn: string): Promise<JsonAnswer> {
  const ctx = tableCtx(r, arn);
  const table = s3t.getTable(ctx, { tableArn: arn });
  const byName = { tableBucketARN: arn.slice(0, arn.indexOf('/table/')), namespace: table.namespace![0]!, name: table.name! };
  const metadata = table.metadataLocation ? await readTableMetadata(ctx, table.metadataLocation) : undefined;
  return {
    body: {
      table,
      bucketArn: byName.tableBucketARN,
      warehouseBucket: table.warehouseLocation?.replace(/^s3:\/\//, ''),
      metadata: metadata ? metadataView(metadata) : undefined,
      maintenance: optional(() => s3t.getTableMaintenanceConfiguration(ctx, byName))?.configuration,
      jobStatus: optional(() => s3t.getTableMaintenanceJobStatus(ctx, byName))?.status,
      policy: optional(() => s3t.getTablePolicy(ctx, byName))?.resourcePolicy,
      bucketPolicy: optional(() => s3t.getTableBucketPolicy(ctx, { tableBucketARN: byName.tableBucketARN }))?.resourcePolicy,
      encryption: optional(() => s3t.getTableEncryption(ctx, byName))?.encryptionConfiguration,
      storageClass: optional(() => s3t.getTableStorageClass(ctx, byName))?.storageClassConfiguration,
      replication: optional(() => s3t.getTableReplication(ctx, { tableArn: arn }))?.configuration,
      replicationStatus: optional(() => s3t.getTableReplicationStatus(ctx, { tableArn: arn })),
      recordExpiration: optional(() => s3t.getTableRecordExpirationConfiguration(ctx, { tableArn: arn }))?.configuration,
    },
  };
}

/** The first rows of the current snapshot, or of `?snapshot=<id>` (time travel). */
export async function getPreview(r: DashboardRequest, arn: string): Promise<JsonAnswer> {
  const ctx = tableCtx(r, arn);
  const table = s3t.getTable(ctx, { tableArn: arn });
  if (!table.metadataLocation) return { body: { columns: [], rows: [], snapshotId: null } };
  const metadata = await readTableMetadata(ctx, table.metadataLocation);
  const given = r.query.get('snapshot');
  let snapshotId: bigint | undefined;
  if (given) {
    if (!/^-?\d+$/.test(given)) throw badRequest(`${given} is not a snapshot id.`);
    snapshotId = BigInt(given);
  }
  return { body: await previewRows(ctx, metadata, { snapshotId, limit: pageSize(r.query, 50, 500) }) };
}
