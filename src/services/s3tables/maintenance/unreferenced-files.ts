/**
 * Unreferenced file removal (`icebergUnreferencedFileRemoval`, configured on the table bucket, run
 * per table): two timers, as AWS documents them (S3 User Guide, "Maintenance for table buckets").
 * First, noncurrent objects older than `nonCurrentDays` are deleted for good; then every object of
 * the warehouse that the table's metadata does not reference (reachable.ts: every metadata.json
 * the current one lists, manifest lists, manifests, data and delete files, statistics) and whose
 * creation lies `unreferencedDays` back becomes noncurrent. Deleting before marking means a run
 * moves a file one state at most. Creation times are judged on Overcast's clock, so a file an
 * in-flight commit wrote after a clock advance is young and untouched.
 *
 * The warehouse is listed a page at a time; each page is marked in one transaction that first
 * checks the table's version token, so a commit that lands during the run wins: the reference set
 * is computed again from the new metadata and the page re-examined. Nothing referenced is marked.
 */
import type { TableRow } from '../../../store/s3tables-repo.js';
import { repo } from '../lookup.js';
import { repo as s3Repo } from '../../s3/provider.js';
import { DAY_MS, loadTable, reading, requireGcEnabled, requireInWarehouse, warehouseOf, type JobEnv, type LoadedTable } from './job-env.js';
import { yieldNow } from './yield-now.js';
import { deleteDueNoncurrent, markNoncurrent } from './noncurrent.js';
import { reachableFromMetadata, type Reach } from './reachable.js';

export interface RemovalSettings {
  unreferencedDays: number;
  nonCurrentDays: number;
}

interface RemovalReport {
  /** Objects deleted for good (noncurrent for `nonCurrentDays`). */
  deletedFiles: number;
  deletedBytes: number;
  /** Objects marked noncurrent by this run. */
  noncurrentFiles: number;
  noncurrentBytes: number;
  /** How often a commit landing during the run made it compute the references again. */
  replans: number;
}

const PAGE = 200;

class TableMoved extends Error {}

export async function removeUnreferencedFiles(env: JobEnv, settings: RemovalSettings): Promise<RemovalReport | undefined> {
  let loaded = await loadTable(env);
  if (!loaded) return undefined;
  requireGcEnabled(loaded.metadata);
  const report: RemovalReport = { deletedFiles: 0, deletedBytes: 0, noncurrentFiles: 0, noncurrentBytes: 0, replans: 0 };
  const warehouse = warehouseOf(loaded.row);
  const now = env.clock.now();

  // Noncurrent long enough: gone for good.
  for (;;) {
    const rows = deleteDueNoncurrent(env.ctx, warehouse, now - settings.nonCurrentDays * DAY_MS, PAGE);
    report.deletedFiles += rows.length;
    for (const r of rows) report.deletedBytes += r.size;
    if (rows.length < PAGE || env.stopping()) break;
    await yieldNow();
  }

  // Unreferenced long enough: noncurrent.
  let reach = await references(env, loaded);
  const cutoff = now - settings.unreferencedDays * DAY_MS;
  const s3 = s3Repo(env.ctx);
  let after = '';
  for (;;) {
    if (env.stopping()) break;
    const page = s3.objectPage(warehouse, after, PAGE);
    if (page.length === 0) break;
    const candidates = page.filter((o) => !reach.keys.has(`${warehouse}/${o.key}`) && env.clock.at(o.last_modified) <= cutoff);
    const token = loaded.row.version_token;
    try {
      const marked = markNoncurrent(
        env.ctx,
        warehouse,
        candidates.map((o) => o.key),
        now,
        () => {
          if (repo(env.ctx).getTable(env.tableId)?.version_token !== token) throw new TableMoved();
        },
      );
      const sizes = new Map(candidates.map((o) => [o.key, o.size]));
      report.noncurrentFiles += marked.length;
      for (const key of marked) report.noncurrentBytes += sizes.get(key) ?? 0;
    } catch (err) {
      if (!(err instanceof TableMoved)) throw err;
      // A commit landed: what it references is protected; this page is looked at again.
      const fresh = await loadTable(env);
      if (!fresh) break;
      loaded = fresh;
      reach = await references(env, loaded);
      report.replans++;
      continue;
    }
    after = page[page.length - 1]!.key;
    await yieldNow();
  }
  return report;
}

async function references(env: JobEnv, loaded: LoadedTable): Promise<Reach> {
  const { row, metadata } = loaded;
  const reach = await reading(() => reachableFromMetadata(metadata, row.metadata_location!, env.cache));
  requireInWarehouse(reach, row as TableRow);
  return reach;
}
