/**
 * S3 Tables replication: a source table with a replication configuration (its own, else its
 * bucket's) is copied to a replica table of the same namespace and name in each destination table
 * bucket inside Overcast — any account or region — created on first replication (namespace too),
 * marked as the source's replica (read-only, `managedByService`) with compaction disabled. Each
 * source metadata file not yet replicated is applied in commit order (the source's metadata log
 * after the last one replicated, then the current one): its new snapshots' files are copied with
 * their paths rewritten (replica-files.ts), then the replica's metadata is merged as AWS describes
 * (S3 User Guide, "How S3 Tables replication works": snapshots, snapshot log, schemas, specs and
 * sort orders merged — the replica keeps snapshots the source expired and never gets back ones it
 * expired itself; properties, statistics and current state copied; location and metadata log its
 * own) and committed through the replica's compare-and-swap. Progress per destination is kept in
 * the store: GetTableReplicationStatus reads `completed` when the last replicated source metadata
 * is the current one, `pending` otherwise, `failed` with the reason after a failed attempt.
 */
import type { ReplicationDestinationReport } from './reports.js';
import type { TableMetadata } from '../../../iceberg/types.js';
import type { Runtime } from '../../../runtime/runtime.js';
import { internalCtx, type Ctx } from '../../../runtime/runtime.js';
import type { ReplicationProgressRow } from '../../../store/maintenance-repo.js';
import type { TableRow } from '../../../store/s3tables-repo.js';
import { defaultTableMaintenance } from '../defaults.js';
import { bucketArnOf, repo, tableArnOf } from '../lookup.js';
import { parseBucketArn, warehouseBucketOf } from '../naming.js';
import { createNamespace } from '../namespaces.js';
import { commitTableMetadata, currentMetadata, readTableMetadata } from '../table-metadata.js';
import { createTable } from '../tables.js';
import { clockOf } from './clock.js';
import { isConflict } from './job-env.js';
import { maintenanceRepo } from './noncurrent.js';
import { copySnapshots, PathMap, ReplicationError, type CopyStats } from './replica-files.js';
import { mergeReplicaMetadata } from './replica-metadata.js';
import { storeFileIO } from './store-io.js';

type DestinationReport = ReplicationDestinationReport;

const ATTEMPTS = 4;
const locks = new WeakMap<Runtime, Map<string, Promise<unknown>>>();

/** The destination bucket ARNs of the table's configuration, else of its bucket's. */
function destinationsOf(ctx: Ctx, table: TableRow): string[] {
  let config = repo(ctx).getTableConfig(table.id).replication;
  if (!config) config = repo(ctx).getBucket(table.account, table.region, table.bucket)?.replication ?? null;
  if (!config) return [];
  const parsed = JSON.parse(config) as { rules?: { destinations?: { destinationTableBucketARN?: string }[] }[] };
  return (parsed.rules ?? []).flatMap((r) => r.destinations ?? []).map((d) => d.destinationTableBucketARN!);
}

/** Replicates the table to every destination (one replication of a table at a time). */
export async function replicateTable(rt: Runtime, sourceId: string): Promise<DestinationReport[]> {
  let m = locks.get(rt);
  if (!m) locks.set(rt, (m = new Map()));
  const previous = m.get(sourceId) ?? Promise.resolve();
  const run = previous.then(
    () => replicateNow(rt, sourceId),
    () => replicateNow(rt, sourceId),
  );
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  m.set(sourceId, settled);
  void settled.then(() => {
    if (m!.get(sourceId) === settled) m!.delete(sourceId);
  });
  return run;
}

async function replicateNow(rt: Runtime, sourceId: string): Promise<DestinationReport[]> {
  if (!rt.meta.db.open) return [];
  const base = internalCtx(rt, '000000000000', 'us-east-1', 'replication');
  const source = repo(base).getTable(sourceId);
  // Replicas are maintained by the service and not replicated further (AWS-generated tables are not).
  if (!source || source.replica_of) return [];
  const ctx = internalCtx(rt, source.account, source.region, `replication-${sourceId}`);
  const destinations = destinationsOf(ctx, source);
  if (destinations.length === 0) return [];
  const progress = new Map(maintenanceRepo(ctx).progress(sourceId).map((p) => [p.destination, p]));
  const reports: DestinationReport[] = [];
  for (const destination of destinations) {
    if (rt.background.stopping) break;
    reports.push(await replicateTo(ctx, source, destination, progress.get(destination)));
  }
  return reports;
}

async function replicateTo(ctx: Ctx, source: TableRow, destination: string, before: ReplicationProgressRow | undefined): Promise<DestinationReport> {
  const rt = ctx.rt;
  const m = maintenanceRepo(ctx);
  const row: ReplicationProgressRow = before ?? {
    source_id: source.id,
    destination,
    replica_id: null,
    replica_arn: null,
    last_source_location: null,
    last_replicated_at: null,
    status: 'pending',
    failure_message: null,
  };
  const report: DestinationReport = { destinationTableBucketArn: destination, status: 'pending' };
  if (!source.metadata_location) return report;
  if (row.status === 'completed' && row.last_source_location === source.metadata_location) {
    return { ...report, status: 'completed', ...(row.replica_arn ? { destinationTableArn: row.replica_arn } : {}), replicatedUpdates: 0, copiedFiles: 0 };
  }
  const stats: CopyStats = { copiedFiles: 0, copiedBytes: 0 };
  let applied = 0;
  try {
    const target = parseBucketArn(destination);
    if (!target) throw new ReplicationError(`The destination ${destination} is not a table bucket ARN.`);
    const dctx = internalCtx(rt, target.account, target.region, `replication-${source.id}`);
    if (!repo(dctx).getBucketCore(target.account, target.region, target.bucket)) {
      throw new ReplicationError(`The destination table bucket ${destination} does not exist.`);
    }
    const sourceArn = tableArnOf(source, ctx.partition);
    const current = await readTableMetadata(ctx, source.metadata_location);
    if (Object.keys(current.refs ?? {}).some((name) => name !== 'main')) {
      throw new ReplicationError('Replication does not support tables with tags or branches.');
    }
    const replica = await ensureReplica(dctx, source, target.bucket, sourceArn);
    row.replica_id = replica.id;
    row.replica_arn = tableArnOf(replica, dctx.partition);
    report.destinationTableArn = row.replica_arn;
    for (const location of pendingLocations(current, source.metadata_location, row.last_source_location)) {
      if (rt.background.stopping) break;
      const metadata = location === source.metadata_location ? current : await readTableMetadata(ctx, location);
      await applyUpdate(dctx, replica.id, metadata, source, stats);
      applied++;
      row.last_source_location = location;
      row.last_replicated_at = clockOf(rt).now();
      row.status = location === source.metadata_location ? 'completed' : 'pending';
      row.failure_message = null;
      if (rt.meta.db.open && repo(ctx).getTable(source.id)) m.putProgress(row);
    }
    report.status = row.last_source_location === source.metadata_location ? 'completed' : 'pending';
  } catch (err) {
    const message = err instanceof ReplicationError ? err.message : `Replication failed: ${(err as Error).message}`;
    if (!(err instanceof ReplicationError)) rt.log.warn(`replication of table ${source.id} to ${destination} failed`, err);
    row.status = 'failed';
    row.failure_message = message;
    if (rt.meta.db.open && repo(ctx).getTable(source.id)) m.putProgress(row);
    report.status = 'failed';
    report.failureMessage = message;
  }
  return { ...report, replicatedUpdates: applied, copiedFiles: stats.copiedFiles };
}

/** The source metadata files to apply, oldest first: those after the last replicated one in its log, and the current one. */
function pendingLocations(current: TableMetadata, currentLocation: string, last: string | null): string[] {
  if (last === currentLocation) return [];
  const log = (current['metadata-log'] ?? []).map((e) => e['metadata-file']);
  const i = last ? log.indexOf(last) : -1;
  return [...(i >= 0 ? log.slice(i + 1) : []), currentLocation];
}

/** The replica table in the destination bucket, created (namespace too) when missing. */
async function ensureReplica(dctx: Ctx, source: TableRow, bucket: string, sourceArn: string): Promise<TableRow> {
  const r = repo(dctx);
  const existing = r.getTableByName(dctx.account, dctx.region, bucket, source.namespace, source.name);
  if (existing) {
    if (existing.replica_of !== sourceArn) {
      throw new ReplicationError(`The destination already has a table ${source.namespace}.${source.name} that is not a replica of ${sourceArn}.`);
    }
    return existing;
  }
  const bucketArn = bucketArnOf({ account: dctx.account, region: dctx.region, name: bucket }, dctx.partition);
  if (!r.getNamespace(dctx.account, dctx.region, bucket, source.namespace)) {
    createNamespace(dctx, { tableBucketARN: bucketArn, namespace: [source.namespace] });
  }
  // Created without metadata and marked as a replica at once; the first update fills it.
  await createTable(dctx, { tableBucketARN: bucketArn, namespace: source.namespace, name: source.name, format: 'ICEBERG' });
  return dctx.rt.meta.tx(() => {
    const created = r.getTableByName(dctx.account, dctx.region, bucket, source.namespace, source.name)!;
    r.setReplicaOf(created.id, sourceArn);
    const maintenance = defaultTableMaintenance() as Record<string, { status: string }>;
    maintenance.icebergCompaction!.status = 'disabled';
    r.setTableColumn(created.id, 'maintenance', JSON.stringify(maintenance));
    return { ...created, replica_of: sourceArn };
  });
}

/** Copies one source metadata version's new files and commits the merged replica metadata. */
async function applyUpdate(dctx: Ctx, replicaId: string, source: TableMetadata, sourceRow: TableRow, stats: CopyStats): Promise<void> {
  const io = storeFileIO(dctx);
  for (let attempt = 1; ; attempt++) {
    const replica = repo(dctx).getTable(replicaId);
    if (!replica) throw new ReplicationError('The replica table was deleted during replication.');
    const paths = new PathMap(warehouseBucketOf(sourceRow.warehouse), warehouseBucketOf(replica.warehouse));
    const existing = await currentMetadata(dctx, replica);
    const merged = mergeReplicaMetadata(source, existing, replica, paths);
    await copySnapshots(dctx, io, source, merged.added, paths, stats);
    try {
      await commitTableMetadata(dctx, replica, merged.metadata);
      return;
    } catch (err) {
      // The replica's own snapshot management committed meanwhile: merge again.
      if (!isConflict(err) || attempt >= ATTEMPTS) throw err;
    }
  }
}
