/**
 * Snapshot management (`icebergSnapshotManagement`): expires snapshots older than
 * `maxSnapshotAgeHours` while keeping at least `minSnapshotsToKeep` along `main` — Iceberg's
 * per-branch retention (spec, "Snapshot Retention Policy"; Java `RemoveSnapshots`) applied to
 * `main`, with snapshots off its ancestry kept only while younger than the cutoff. The new
 * metadata (a `remove-snapshots` update, which also prunes the snapshot log, statistics and
 * dangling refs as Java does) is committed through the table's compare-and-swap; a commit that
 * lands meanwhile wins and the expiry is planned again on top of it. Files only the expired
 * snapshots referenced (manifest lists, manifests, data and delete files, statistics; Java
 * `ReachableFileCleanup`) become noncurrent at once, as AWS documents.
 *
 * As AWS documents (S3 User Guide, "Considerations and limitations for maintenance jobs"), a table
 * with a branch or tag besides `main` (or retention set on `main`), with `history.expire.*`
 * properties or with `gc.enabled=false` expires nothing and the job fails with AWS's message.
 * A snapshot's age is Overcast's now minus the Overcast time of its `timestamp-ms` (clock.ts).
 */
import { MetadataBuilder } from '../../../iceberg/metadata-builder.js';
import type { Snapshot, TableMetadata } from '../../../iceberg/types.js';
import { commitTableMetadata } from '../table-metadata.js';
import {
  HOUR_MS,
  isConflict,
  loadTable,
  reading,
  requireGcEnabled,
  requireInWarehouse,
  warehouseOf,
  type JobEnv,
} from './job-env.js';
import { yieldNow } from './yield-now.js';
import { FAILURE, JobFailure } from './messages.js';
import { markNoncurrent } from './noncurrent.js';
import { addSnapshotFiles, reachableFromMetadata, type Reach } from './reachable.js';

export interface SnapshotSettings {
  minSnapshotsToKeep: number;
  maxSnapshotAgeHours: number;
}

const ATTEMPTS = 4;
const BATCH = 100;

/** The AWS failure that stops expiry on this table, if any. */
function unsupportedExpiry(metadata: TableMetadata): string | undefined {
  const refs = metadata.refs ?? {};
  for (const [name, ref] of Object.entries(refs)) {
    if (name !== 'main') return FAILURE.refs;
    if (ref['min-snapshots-to-keep'] !== undefined || ref['max-snapshot-age-ms'] !== undefined || ref['max-ref-age-ms'] !== undefined) {
      return FAILURE.refs;
    }
  }
  if (Object.keys(metadata.properties ?? {}).some((k) => k.startsWith('history.expire.'))) return FAILURE.expireProperties;
  return undefined;
}

/** Ids of the snapshots to expire at Overcast time `now`; `timeOf` maps a snapshot timestamp to Overcast time. */
function planExpiry(metadata: TableMetadata, settings: SnapshotSettings, now: number, timeOf: (wallMs: number) => number): bigint[] {
  const cutoff = now - settings.maxSnapshotAgeHours * HOUR_MS;
  const byId = new Map(metadata.snapshots.map((s) => [s['snapshot-id'], s]));
  const retained = new Set<bigint>();
  const headId = metadata.refs?.main?.['snapshot-id'] ?? metadata['current-snapshot-id'];
  let current = headId !== undefined && headId !== null ? byId.get(headId) : undefined;
  let kept = 0;
  while (current && !retained.has(current['snapshot-id'])) {
    if (kept >= settings.minSnapshotsToKeep && timeOf(current['timestamp-ms']) < cutoff) break;
    retained.add(current['snapshot-id']);
    kept++;
    const parent = current['parent-snapshot-id'];
    current = parent !== undefined && parent !== null ? byId.get(parent) : undefined;
  }
  const ancestry = new Set<bigint>();
  for (let s = headId != null ? byId.get(headId) : undefined; s && !ancestry.has(s['snapshot-id']); ) {
    ancestry.add(s['snapshot-id']);
    const parent = s['parent-snapshot-id'];
    s = parent !== undefined && parent !== null ? byId.get(parent) : undefined;
  }
  const expired: bigint[] = [];
  for (const s of metadata.snapshots) {
    if (retained.has(s['snapshot-id'])) continue;
    // Off main's ancestry (a rollback left it, a staged snapshot): kept while younger than the cutoff.
    if (!ancestry.has(s['snapshot-id']) && timeOf(s['timestamp-ms']) >= cutoff) continue;
    expired.push(s['snapshot-id']);
  }
  return expired;
}

interface ExpiryReport {
  expiredSnapshots: number;
  remainingSnapshots: number;
  noncurrentFiles: number;
  /** Commits tried: more than one when commits landed meanwhile and the expiry was planned again. */
  commitAttempts?: number;
}

export async function expireSnapshots(env: JobEnv, settings: SnapshotSettings): Promise<ExpiryReport | undefined> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const loaded = await loadTable(env);
    if (!loaded) return undefined;
    const { row, metadata } = loaded;
    requireGcEnabled(metadata);
    const unsupported = unsupportedExpiry(metadata);
    if (unsupported) throw new JobFailure(unsupported);
    const before = await reading(() => reachableFromMetadata(metadata, row.metadata_location!, env.cache));
    requireInWarehouse(before, row);
    const expired = planExpiry(metadata, settings, env.clock.now(), (ms) => env.clock.at(ms));
    if (expired.length === 0) return { expiredSnapshots: 0, remainingSnapshots: metadata.snapshots.length, noncurrentFiles: 0 };
    const builder = new MetadataBuilder(metadata, Date.now(), row.metadata_location!);
    builder.apply({ action: 'remove-snapshots', 'snapshot-ids': expired });
    const next = builder.build()!;
    let location: string;
    try {
      ({ location } = await commitTableMetadata(env.ctx, row, next));
    } catch (err) {
      if (isConflict(err)) continue;
      throw err;
    }
    const gone = new Set(expired);
    const noncurrent = await markExpiredOnly(env, row, metadata.snapshots.filter((s) => gone.has(s['snapshot-id'])), metadata, next, location);
    return { expiredSnapshots: expired.length, remainingSnapshots: next.snapshots.length, noncurrentFiles: noncurrent, commitAttempts: attempt };
  }
  throw new JobFailure(FAILURE.outOfDate);
}

/** Marks noncurrent what only the expired snapshots referenced; returns how many objects. */
async function markExpiredOnly(
  env: JobEnv,
  row: { warehouse: string },
  expired: Snapshot[],
  before: TableMetadata,
  after: TableMetadata,
  afterLocation: string,
): Promise<number> {
  const retained = await reading(() => reachableFromMetadata(after, afterLocation, env.cache));
  const gone: Reach = { keys: new Set(), invalid: [] };
  await reading(() => addSnapshotFiles(gone, before, expired, env.cache));
  const warehouse = warehouseOf(row);
  const prefix = `${warehouse}/`;
  const keys = [...gone.keys].filter((k) => !retained.keys.has(k) && k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  const since = env.clock.now();
  let marked = 0;
  for (let i = 0; i < keys.length; i += BATCH) {
    marked += markNoncurrent(env.ctx, warehouse, keys.slice(i, i + BATCH), since).length;
    await yieldNow();
  }
  return marked;
}
