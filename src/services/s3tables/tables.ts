/**
 * Tables: CreateTable (warehouse bucket per table; with `metadata.iceberg`, the initial
 * metadata.json written through S3 before the table becomes visible), GetTable (by ARN or by
 * bucket/namespace/name), ListTables, DeleteTable (optional versionToken; warehouse purged in the
 * background), RenameTable (ARN, id and warehouse survive), GetTableMetadataLocation and
 * UpdateTableMetadataLocation — a compare-and-swap on the version token in one UPDATE.
 */
import { randomUUID } from 'node:crypto';
import type * as S3T from '@aws-sdk/client-s3tables';
import type { Ctx } from '../../runtime/runtime.js';
import type { NewTableRow, TableRow, TableSummaryRow } from '../../store/s3tables-repo.js';
import { defaultTableMaintenance } from './defaults.js';
import { bucketArnOf, bucketNameOf, repo, requireBucket, requireNamespace, requireTable, requireTableByArn, tableArnOf, validate } from './lookup.js';
import { DEFAULT_PAGE_SIZE, decodeToken, encodeToken } from './page-tokens.js';
import { checkEncryption, checkTags, encryptionJson } from './settings-checks.js';
import { s3tErrors } from './errors.js';
import { KEEP_JSON_TEXT } from '../../wire/shape-json.js';
import { newTableMetadata } from '../../iceberg/new-table.js';
import type { TableMetadata } from '../../iceberg/types.js';
import { planTableMetadata, type MetadataPlan } from './metadata.js';
import { movePointer, smallMetadataWriter, writeTableMetadata } from './table-metadata.js';
import { newId, newVersionToken, tableArn, validTableName, WAREHOUSE_SUFFIX, warehouseBucketName, warehouseBucketOf } from './naming.js';
import { createWarehouseBucket, schedulePurge } from './warehouse.js';
import { maintenanceRepo } from './maintenance/noncurrent.js';

const METADATA_SUFFIXES = ['.metadata.json', '.metadata.json.gz'];

/**
 * `managedByService` of a replica: AWS says only that "a replicated table is managed by the S3
 * Tables replication service" (API reference, TableSummary); this is that service's principal
 * (S3 User Guide, "Setting up S3 Tables replication").
 */
const REPLICATION_SERVICE = 'replication.s3tables.amazonaws.com';

/**
 * The row of a new table in `bucketArn`/`namespace`, re-reading bucket and namespace so that
 * inherited settings are those of the moment of creation (and a concurrent delete is noticed).
 */
function newTableRow(
  ctx: Ctx,
  input: S3T.CreateTableRequest,
  fixed: { id: string; warehouse: string; at: number; metadataLocation: string | null },
): NewTableRow {
  const b = requireBucket(ctx, input.tableBucketARN!);
  const ns = requireNamespace(ctx, b, input.namespace!);
  if (repo(ctx).getTableByName(b.account, b.region, b.name, ns.name, input.name!)) throw s3tErrors.tableExists();
  return {
    id: fixed.id,
    account: b.account,
    region: b.region,
    bucket: b.name,
    namespace: ns.name,
    name: input.name!,
    bucket_id: b.id,
    namespace_id: ns.id,
    owner: b.account,
    type: 'customer',
    format: input.format!,
    warehouse: `s3://${fixed.warehouse}`,
    version_token: newVersionToken(),
    metadata_location: fixed.metadataLocation,
    created_at: fixed.at,
    created_by: ctx.account,
    modified_at: fixed.at,
    modified_by: ctx.account,
    replica_of: null,
    // A table keeps the bucket's defaults of this moment; later bucket changes do not reach it.
    encryption: input.encryptionConfiguration ? encryptionJson(input.encryptionConfiguration) : b.encryption,
    storage_class: input.storageClassConfiguration?.storageClass ?? b.storage_class,
    maintenance: JSON.stringify(defaultTableMaintenance()),
    policy: null,
    replication: null,
    replication_token: null,
    record_expiration: null,
    tags: JSON.stringify(input.tags ?? {}),
  };
}

export async function createTable(ctx: Ctx, input: S3T.CreateTableRequest): Promise<S3T.CreateTableResponse> {
  const { tableARN, versionToken } = await createTableWithWarehouse(ctx, input);
  return { tableARN, versionToken };
}

/**
 * CreateTable, answering with the new table's warehouse location too: the CloudFormation resource
 * takes its attributes from the table it created rather than reading it back with GetTable.
 */
export async function createTableWithWarehouse(
  ctx: Ctx,
  input: S3T.CreateTableRequest,
): Promise<S3T.CreateTableResponse & { warehouseLocation: string }> {
  let plan: MetadataPlan | undefined;
  checkCreateTable(input);
  if (input.metadata !== undefined) {
    if (!input.metadata.iceberg) throw s3tErrors.badRequest('The table metadata must specify iceberg.');
    plan = planTableMetadata(input.metadata.iceberg);
  }
  const { row } = await createTableWithPlan(ctx, input, plan);
  return { tableARN: tableArnOf(row, ctx.partition), versionToken: row.version_token, warehouseLocation: row.warehouse };
}

/** The checks of a CreateTable request before its metadata (model, name, encryption, tags). */
export function checkCreateTable(input: S3T.CreateTableRequest): void {
  validate('CreateTable', input);
  if (!validTableName(input.name!)) throw s3tErrors.invalidTableName();
  checkEncryption(input.encryptionConfiguration);
  checkTags(input.tags);
}

/**
 * Creates a checked table (`checkCreateTable`), with its first metadata.json when a plan is given
 * (CreateTable's `metadata.iceberg`, or the Iceberg REST catalog's createTable).
 */
export async function createTableWithPlan(
  ctx: Ctx,
  input: S3T.CreateTableRequest,
  plan: MetadataPlan | undefined,
): Promise<{ row: NewTableRow; metadata?: TableMetadata }> {
  const id = newId();
  const warehouse = warehouseBucketName(id, ctx.region);
  const at = Date.now();
  const r = repo(ctx);
  const meta = ctx.rt.meta;

  if (!plan) {
    const row = meta.tx(() => {
      const row = newTableRow(ctx, input, { id, warehouse, at, metadataLocation: null });
      createWarehouseBucket(ctx, warehouse);
      r.insertTable(row);
      return row;
    });
    return { row };
  }

  const location = `s3://${warehouse}`;
  const metadata = newTableMetadata(plan, location, at);
  const metadataLocation = `${location}/metadata/00000-${randomUUID()}.metadata.json`;
  // A document that fits in a row is written with the bucket and the table in one transaction.
  const small = smallMetadataWriter(ctx, metadataLocation, metadata);
  if (small) {
    const row = meta.tx(() => {
      const row = newTableRow(ctx, input, { id, warehouse, at, metadataLocation });
      createWarehouseBucket(ctx, warehouse);
      small.write();
      r.insertTable(row);
      return row;
    });
    small.cache();
    return { row, metadata };
  }

  // A larger one: the bucket exists (and is recorded as an orphan-to-be) while the metadata file is
  // written; the table appears only once its metadata file exists.
  meta.tx(() => {
    newTableRow(ctx, input, { id, warehouse, at, metadataLocation: null }); // 404 / 409 before creating anything
    createWarehouseBucket(ctx, warehouse);
    r.queuePurge(warehouse, at);
  });
  try {
    await writeTableMetadata(ctx, metadataLocation, metadata);
    const row = meta.tx(() => {
      const row = newTableRow(ctx, input, { id, warehouse, at, metadataLocation });
      r.insertTable(row);
      r.unqueuePurge(warehouse);
      return row;
    });
    return { row, metadata };
  } catch (err) {
    schedulePurge(ctx, warehouse);
    throw err;
  }
}

/** How long a staged table's warehouse waits for the commit that creates the table. */
const STAGED_WAREHOUSE_MS = 60 * 60 * 1000;

/**
 * A staged create (the Iceberg REST catalog's `stage-create`, permissive mode): the metadata of a
 * table that does not exist yet, located in a warehouse made now and recorded as an orphan, which
 * `createStagedTable` adopts; unadopted, it is purged after an hour (or at the next start).
 */
export function stageTable(ctx: Ctx, input: S3T.CreateTableRequest, plan: MetadataPlan): TableMetadata {
  const warehouse = warehouseBucketName(newId(), ctx.region);
  const at = Date.now();
  const r = repo(ctx);
  ctx.rt.meta.tx(() => {
    newTableRow(ctx, input, { id: newId(), warehouse, at, metadataLocation: null }); // 404 / 409 now, as a create would
    createWarehouseBucket(ctx, warehouse);
    r.queuePurge(warehouse, at);
  });
  setTimeout(() => {
    if (ctx.rt.meta.db.open && r.isPurgeQueued(warehouse)) schedulePurge(ctx, warehouse);
  }, STAGED_WAREHOUSE_MS).unref();
  return newTableMetadata(plan, `s3://${warehouse}`, at);
}

/** Creates a table whose first metadata was staged (its location is a staged warehouse). */
export async function createStagedTable(ctx: Ctx, input: S3T.CreateTableRequest, metadata: TableMetadata): Promise<NewTableRow> {
  const warehouse = warehouseBucketOf(metadata.location);
  const r = repo(ctx);
  if (!metadata.location.startsWith('s3://') || !warehouse.endsWith(WAREHOUSE_SUFFIX) || !r.isPurgeQueued(warehouse)) {
    throw s3tErrors.badRequest(`The location ${metadata.location} is not the warehouse of a staged table.`);
  }
  const metadataLocation = `${metadata.location}/metadata/00000-${randomUUID()}.metadata.json`;
  await writeTableMetadata(ctx, metadataLocation, metadata);
  return ctx.rt.meta.tx(() => {
    if (!r.isPurgeQueued(warehouse)) throw s3tErrors.badRequest(`The location ${metadata.location} is not the warehouse of a staged table.`);
    const row = newTableRow(ctx, input, { id: newId(), warehouse, at: Date.now(), metadataLocation });
    r.insertTable(row);
    r.unqueuePurge(warehouse);
    return row;
  });
}

/**
 * Summaries of rows listed from the cache, kept with the row: such a row is frozen and replaced,
 * never changed, when its table changes, and belongs to one bucket (hence one ARN) for life. Such
 * a summary is shared by every listing that shows the row (callers read it, never change it) and
 * written to JSON once (its KEEP_JSON_TEXT slot). A row read for a cold page is not frozen yet: a
 * page listed once costs little more than it did before anything was kept (the id query).
 */
const summaries = new WeakMap<TableSummaryRow, S3T.TableSummary>();

type Summary = S3T.TableSummary & { [KEEP_JSON_TEXT]: string | null | undefined };

function tableSummary(t: TableSummaryRow, bucketArn: string): S3T.TableSummary {
  if (!Object.isFrozen(t)) return newSummary(t, bucketArn, undefined);
  let summary = summaries.get(t);
  if (!summary) summaries.set(t, (summary = newSummary(t, bucketArn, null)));
  return summary;
}

/** A summary; `keep` null asks the JSON writer to keep its text. */
function newSummary(t: TableSummaryRow, bucketArn: string, keep: null | undefined): S3T.TableSummary {
  const summary: Summary = {
    namespace: [t.namespace],
    name: t.name,
    type: t.type as S3T.TableType,
    tableARN: tableArn(bucketArn, t.id),
    createdAt: new Date(t.created_at),
    modifiedAt: new Date(t.modified_at),
    namespaceId: t.namespace_id,
    tableBucketId: t.bucket_id,
    [KEEP_JSON_TEXT]: keep,
  };
  if (t.replica_of) summary.managedByService = REPLICATION_SERVICE;
  return summary;
}

export function getTable(ctx: Ctx, input: S3T.GetTableRequest): S3T.GetTableResponse {
  validate('GetTable', input);
  let t: TableRow;
  const byName = input.tableBucketARN !== undefined || input.namespace !== undefined || input.name !== undefined;
  const fullName = input.tableBucketARN !== undefined && input.namespace !== undefined && input.name !== undefined;
  if (byName && !fullName) {
    throw s3tErrors.badRequest('Specify either tableArn, or tableBucketARN, namespace and name.');
  }
  if (input.tableArn !== undefined) {
    t = requireTableByArn(ctx, input.tableArn);
    if (byName) {
      const other = requireTable(ctx, input);
      if (other.id !== t.id) {
        throw s3tErrors.badRequest('The tableArn and the tableBucketARN, namespace and name identify different tables.');
      }
    }
  } else if (fullName) {
    t = requireTable(ctx, input);
  } else {
    throw s3tErrors.badRequest('Specify either tableArn, or tableBucketARN, namespace and name.');
  }
  return {
    name: t.name,
    type: t.type as S3T.TableType,
    tableARN: tableArnOf(t, ctx.partition),
    namespace: [t.namespace],
    namespaceId: t.namespace_id,
    versionToken: t.version_token,
    metadataLocation: t.metadata_location ?? undefined,
    warehouseLocation: t.warehouse,
    createdAt: new Date(t.created_at),
    createdBy: t.created_by,
    modifiedAt: new Date(t.modified_at),
    modifiedBy: t.modified_by,
    ownerAccountId: t.owner,
    format: t.format as S3T.OpenTableFormat,
    tableBucketId: t.bucket_id,
    ...(t.replica_of
      ? { managedByService: REPLICATION_SERVICE, managedTableInformation: { replicationInformation: { sourceTableARN: t.replica_of } } }
      : {}),
  };
}

export function listTables(ctx: Ctx, input: S3T.ListTablesRequest): S3T.ListTablesResponse {
  validate('ListTables', input);
  // The listing runs first: rows prove the bucket (and namespace) exist; only an empty page checks.
  const b = { account: ctx.account, region: ctx.region, name: bucketNameOf(ctx, input.tableBucketARN!) };
  const r = repo(ctx);
  const limit = input.maxTables ?? DEFAULT_PAGE_SIZE;
  const filters = { bucket: b.name, namespace: input.namespace, prefix: input.prefix };
  let rows: TableSummaryRow[];
  let keyOf: (t: TableSummaryRow) => string[];
  if (input.namespace !== undefined) {
    const after = decodeToken(input.continuationToken, 'tables', filters, 1)?.[0] ?? '';
    rows = r.listTablesInNamespace(b, input.namespace, { prefix: input.prefix ?? '', after, limit: limit + 1 });
    keyOf = (t) => [t.name];
  } else if (input.prefix !== undefined) {
    const after = (decodeToken(input.continuationToken, 'tables', filters, 2) ?? ['', '']) as [string, string];
    rows = r.listTablesByNamePrefix(b, { prefix: input.prefix, after, limit: limit + 1 });
    keyOf = (t) => [t.name, t.namespace];
  } else {
    const after = (decodeToken(input.continuationToken, 'tables', filters, 2) ?? ['', '']) as [string, string];
    rows = r.listTablesInBucket(b, { after, limit: limit + 1 });
    keyOf = (t) => [t.namespace, t.name];
  }
  if (rows.length === 0) {
    const bucket = requireBucket(ctx, input.tableBucketARN!);
    if (input.namespace !== undefined) requireNamespace(ctx, bucket, input.namespace);
  }
  const page = rows.slice(0, limit);
  const bucketArn = bucketArnOf(b, ctx.partition);
  return {
    tables: page.map((t) => tableSummary(t, bucketArn)),
    continuationToken: rows.length > limit ? encodeToken('tables', filters, keyOf(page[page.length - 1]!)) : undefined,
  };
}

export function deleteTable(ctx: Ctx, input: S3T.DeleteTableRequest): void {
  validate('DeleteTable', input);
  const t = requireTable(ctx, input);
  if (input.versionToken !== undefined && input.versionToken !== t.version_token) throw s3tErrors.versionTokenMismatch();
  const bucket = warehouseBucketOf(t.warehouse);
  const r = repo(ctx);
  ctx.rt.meta.tx(() => {
    r.deleteTable(t.id);
    // Its maintenance records and replication progress go with it: replication stops, replicas stay.
    maintenanceRepo(ctx).deleteTableRows(t.id);
    r.queuePurge(bucket, Date.now());
  });
  schedulePurge(ctx, bucket);
}

export function renameTable(ctx: Ctx, input: S3T.RenameTableRequest): void {
  validate('RenameTable', input);
  if (input.newName === undefined && input.newNamespaceName === undefined) {
    throw s3tErrors.badRequest('Neither a new namespace name nor a new table name is specified.');
  }
  if (input.newName !== undefined && !validTableName(input.newName)) throw s3tErrors.invalidTableName();
  const t = requireTable(ctx, input);
  if (t.replica_of) throw s3tErrors.replicaReadOnly(t.replica_of);
  const b = requireBucket(ctx, input.tableBucketARN!);
  const r = repo(ctx);
  const targetNamespace = input.newNamespaceName ?? t.namespace;
  const target = r.getNamespace(b.account, b.region, b.name, targetNamespace);
  if (!target) throw s3tErrors.destinationNamespaceNotFound();
  if (input.versionToken !== undefined && input.versionToken !== t.version_token) throw s3tErrors.versionTokenMismatch();
  const targetName = input.newName ?? t.name;
  if (targetNamespace === t.namespace && targetName === t.name) return;
  if (r.getTableByName(b.account, b.region, b.name, targetNamespace, targetName)) throw s3tErrors.tableExists();
  // The ARN is built from the immutable table id, so it (and the warehouse) survive the rename.
  r.renameTable(t.id, { namespace: targetNamespace, namespaceId: target.id, name: targetName, at: Date.now(), by: ctx.account });
}

export function getTableMetadataLocation(
  ctx: Ctx,
  input: S3T.GetTableMetadataLocationRequest,
): S3T.GetTableMetadataLocationResponse {
  validate('GetTableMetadataLocation', input);
  const t = requireTable(ctx, input);
  return {
    versionToken: t.version_token,
    metadataLocation: t.metadata_location ?? undefined,
    warehouseLocation: t.warehouse,
  };
}

export function updateTableMetadataLocation(
  ctx: Ctx,
  input: S3T.UpdateTableMetadataLocationRequest,
): S3T.UpdateTableMetadataLocationResponse {
  validate('UpdateTableMetadataLocation', input);
  const location = input.metadataLocation!;
  if (!METADATA_SUFFIXES.some((s) => location.endsWith(s))) throw s3tErrors.invalidMetadataLocation();
  const t = requireTable(ctx, input);
  if (t.replica_of) throw s3tErrors.replicaReadOnly(t.replica_of);
  // The new location must lie inside the table's own warehouse (model documentation).
  if (!location.startsWith(`${t.warehouse}/`) || location.length <= t.warehouse.length + 1) {
    throw s3tErrors.invalidMetadataLocation();
  }
  const token = movePointer(ctx, t, input.versionToken!, location);
  return { name: t.name, tableARN: tableArnOf(t, ctx.partition), namespace: [t.namespace], versionToken: token, metadataLocation: location };
}
