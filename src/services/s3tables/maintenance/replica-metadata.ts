/**
 * A replica's next metadata from one source metadata version, by AWS's merge rules (S3 User Guide,
 * "How S3 Tables replication works"): snapshots merged by id — the replica keeps those the source
 * has since expired, and takes from the source only snapshots newer than the last sequence number
 * it has, so one it expired itself does not come back — the snapshot log merged in time order,
 * schemas, partition specs and sort orders merged by id; properties, statistics and the current
 * state (current snapshot, schema, spec, sort order, sequence number, row ids, encryption keys,
 * refs) copied; location, every file path and the metadata log the replica's own. Metadata times
 * stay wall-clock times, later than the replica's last update.
 */
import type { Snapshot, SnapshotLogEntry, TableMetadata } from '../../../iceberg/types.js';
import type { TableRow } from '../../../store/s3tables-repo.js';
import type { PathMap } from './replica-files.js';

const PATH_PROPERTIES = ['write.data.path', 'write.metadata.path', 'write.object-storage.path', 'write.folder-storage.path'];
const PREVIOUS_VERSIONS_MAX = 100;

interface MergedReplica {
  metadata: TableMetadata;
  /** Source snapshots the replica gains (their files must be copied first). */
  added: Snapshot[];
}

function byKey<T>(key: (x: T) => number): (a: readonly T[], b: readonly T[]) => T[] {
  return (base, incoming) => {
    const out = new Map(base.map((x) => [key(x), x]));
    for (const x of incoming) out.set(key(x), x);
    return [...out.values()].sort((x, y) => key(x) - key(y));
  };
}

const mergeSchemas = byKey<TableMetadata['schemas'][number]>((s) => s['schema-id']);
const mergeSpecs = byKey<TableMetadata['partition-specs'][number]>((s) => s['spec-id']);
const mergeOrders = byKey<TableMetadata['sort-orders'][number]>((o) => o['order-id']);

export function mergeReplicaMetadata(source: TableMetadata, replica: TableMetadata | undefined, replicaRow: TableRow, paths: PathMap): MergedReplica {
  const have = new Set((replica?.snapshots ?? []).map((s) => s['snapshot-id']));
  const lastSeq = replica ? replica['last-sequence-number'] : -1;
  const must = new Set<bigint>();
  for (const ref of Object.values(source.refs ?? {})) must.add(ref['snapshot-id']);
  const added = source.snapshots.filter(
    (s) => !have.has(s['snapshot-id']) && ((s['sequence-number'] ?? 0) > lastSeq || must.has(s['snapshot-id'])),
  );
  const snapshots = [...(replica?.snapshots ?? []), ...added.map((s) => ({ ...s, 'manifest-list': paths.map(s['manifest-list']) }))];
  const live = new Set(snapshots.map((s) => s['snapshot-id']));

  const seen = new Set<string>();
  const log: SnapshotLogEntry[] = [];
  for (const e of [...(replica?.['snapshot-log'] ?? []), ...(source['snapshot-log'] ?? [])]) {
    const k = `${e['timestamp-ms']}/${e['snapshot-id']}`;
    if (seen.has(k) || !live.has(e['snapshot-id'])) continue;
    seen.add(k);
    log.push(e);
  }
  log.sort((a, b) => a['timestamp-ms'] - b['timestamp-ms'] || (a['snapshot-id'] < b['snapshot-id'] ? -1 : 1));

  const properties = { ...source.properties };
  for (const key of PATH_PROPERTIES) {
    const v = properties[key];
    if (v && /^s3[an]?:\/\//.test(v)) properties[key] = paths.map(v);
  }
  const metadataLog = [...(replica?.['metadata-log'] ?? [])];
  if (replica && replicaRow.metadata_location) {
    metadataLog.push({ 'timestamp-ms': replica['last-updated-ms'], 'metadata-file': replicaRow.metadata_location });
  }
  const metadata: TableMetadata = {
    ...source,
    location: paths.map(source.location),
    'last-updated-ms': Math.max(Date.now(), replica?.['last-updated-ms'] ?? 0),
    schemas: mergeSchemas(replica?.schemas ?? [], source.schemas),
    'partition-specs': mergeSpecs(replica?.['partition-specs'] ?? [], source['partition-specs']),
    'sort-orders': mergeOrders(replica?.['sort-orders'] ?? [], source['sort-orders']),
    properties,
    snapshots,
    'snapshot-log': log,
    'metadata-log': metadataLog.slice(-PREVIOUS_VERSIONS_MAX),
    refs: Object.fromEntries(Object.entries(source.refs ?? {}).filter(([, r]) => live.has(r['snapshot-id']))),
    statistics: (source.statistics ?? [])
      .filter((s) => live.has(s['snapshot-id']))
      .map((s) => ({ ...s, 'statistics-path': paths.map(s['statistics-path']) })),
    'partition-statistics': (source['partition-statistics'] ?? [])
      .filter((s) => live.has(s['snapshot-id']))
      .map((s) => ({ ...s, 'statistics-path': paths.map(s['statistics-path']) })),
  };
  return { metadata, added };
}
