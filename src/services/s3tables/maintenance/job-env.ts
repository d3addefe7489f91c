/**
 * What every maintenance job of one table works with: an internal context in the table's account
 * and region, the in-process FileIO, Overcast's clock, the run's manifest cache, and helpers that
 * read the table fresh (row and metadata; unreadable Iceberg files end the job with AWS's
 * validation message), tell a lost compare-and-swap from other errors, check that every file the
 * metadata names lies in the table's warehouse, and yield to requests between steps (time-sliced).
 */
import type { TableMetadata } from '../../../iceberg/types.js';
import type { Ctx } from '../../../runtime/runtime.js';
import type { TableRow } from '../../../store/s3tables-repo.js';
import { isAwsError } from '../../../wire/errors.js';
import { repo } from '../lookup.js';
import { s3tErrors } from '../errors.js';
import { warehouseBucketOf } from '../naming.js';
import { readTableMetadata } from '../table-metadata.js';
import type { OvercastClock } from './clock.js';
import { FAILURE, JobFailure } from './messages.js';
import type { ManifestCache, Reach } from './reachable.js';
import type { StoreFileIO } from './store-io.js';

export interface JobEnv {
  ctx: Ctx;
  io: StoreFileIO;
  clock: OvercastClock;
  cache: ManifestCache;
  tableId: string;
  /** Set when the server is stopping: jobs end at their next step. */
  stopping(): boolean;
}

export interface LoadedTable {
  row: TableRow;
  metadata: TableMetadata;
}

/** The table now (row and current metadata), or undefined when it is gone or has no metadata yet. */
export async function loadTable(env: JobEnv): Promise<LoadedTable | undefined> {
  const row = repo(env.ctx).getTable(env.tableId);
  if (!row?.metadata_location) return undefined;
  try {
    return { row, metadata: await readTableMetadata(env.ctx, row.metadata_location) };
  } catch (err) {
    throw new JobFailure(FAILURE.validation, (err as Error).message);
  }
}

/** Runs an Iceberg read; a failure (missing or corrupt file) ends the job with the validation message. */
export async function reading<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof JobFailure) throw err;
    throw new JobFailure(FAILURE.validation, (err as Error).message);
  }
}

/** A lost compare-and-swap of the table's pointer (someone committed meanwhile). */
export function isConflict(err: unknown): boolean {
  const expected = s3tErrors.versionTokenMismatch();
  return isAwsError(err) && err.code === expected.code && err.message === expected.message;
}

export function warehouseOf(row: Pick<TableRow, 'warehouse'>): string {
  return warehouseBucketOf(row.warehouse);
}

/** AWS maintenance refuses tables whose metadata names files outside the table's storage. */
export function requireInWarehouse(reach: Reach, row: Pick<TableRow, 'warehouse'>): void {
  const prefix = `${warehouseOf(row)}/`;
  const outside = reach.invalid.length ? reach.invalid[0] : [...reach.keys].find((k) => !k.startsWith(prefix));
  if (outside !== undefined) throw new JobFailure(FAILURE.validation, `${outside} is outside the table's warehouse`);
}

/** `gc.enabled=false` stops snapshot management and unreferenced file removal alike. */
export function requireGcEnabled(metadata: TableMetadata): void {
  if ((metadata.properties?.['gc.enabled'] ?? '').trim().toLowerCase() === 'false') throw new JobFailure(FAILURE.gcDisabled);
}

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

