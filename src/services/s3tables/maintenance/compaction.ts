/**
 * Compaction (`icebergCompaction`): the bins compaction-plan.ts picks from the head of `main` are
 * read with their row-level deletes applied (position and equality deletes, by the scan rules),
 * projected onto the current schema by field id, sorted by the table's sort order for `sort` (and
 * `auto` when the table has one) or along a Z-curve for `z-order`, written as Parquet files of the
 * current spec near the target size — field ids, types, nulls and metrics exactly as the project's
 * writer gives them — and committed as one `replace` snapshot (replace-commit.ts). Delete files
 * that applied only to rewritten files go with them. When a commit lands meanwhile, the rewrite is
 * validated against the new head (every rewritten file still live, no new position deletes in
 * their partitions) and committed on top of it; otherwise the written files are removed and the
 * job fails with AWS's out-of-date message. Format-version 3 tables (row lineage, deletion
 * vectors) and tables with `fixed` columns (which AWS does not compact) are skipped, saying why.
 */
import { randomUUID } from 'node:crypto';
import { FileNamer, sortOrderOf } from '../../../iceberg/append.js';
import { MetadataBuilder } from '../../../iceberg/metadata-builder.js';
import { checkRequirement } from '../../../iceberg/requirements.js';
import { defaultSpec, refSnapshot, schemaById } from '../../../iceberg/model.js';
import { contentFileOf } from '../../../iceberg/parquet-writer.js';
import { DeletePlan, liveFiles, type LiveFile } from '../../../iceberg/scan.js';
import { dataDir, type NewFile } from '../../../iceberg/snapshot-producer.js';
import type { IcebergType, SortOrder, TableMetadata } from '../../../iceberg/types.js';
import { partitioner } from '../../../iceberg/transforms.js';
import { tupleKey } from '../../../iceberg/values.js';
import { deleteObject } from '../../s3/provider.js';
import { splitLocation, commitTableMetadata } from '../table-metadata.js';
import { planBins, type Bin, type CompactionSettings } from './compaction-plan.js';
import { openRewriter, type Rewriter } from './compaction-pool.js';
import type { BinTask } from './compaction-rewrite.js';
import { isConflict, loadTable, reading, type JobEnv } from './job-env.js';
import { yieldNow } from './yield-now.js';
import { FAILURE, JobFailure } from './messages.js';
import { writeReplaceSnapshot, type Rewrite } from './replace-commit.js';

export type { CompactionSettings } from './compaction-plan.js';

interface CompactionReport {
  strategy: string;
  rewrittenFiles: number;
  addedFiles: number;
  removedDeleteFiles: number;
  rewrittenBytes: number;
  addedBytes: number;
  snapshotId?: string;
  /** Commits tried: more than one when commits landed meanwhile and the rewrite was re-validated. */
  commitAttempts?: number;
  skipped?: string;
}

const ATTEMPTS = 4;
type Row = Record<string, unknown>;

function hasFixed(type: IcebergType): boolean {
  if (typeof type === 'string') return type.startsWith('fixed');
  if (type.type === 'struct') return type.fields.some((f) => hasFixed(f.type));
  if (type.type === 'list') return hasFixed(type.element);
  return hasFixed(type.key) || hasFixed(type.value);
}

/** The strategy that runs: `auto` sorts when the table has a sort order; sort and z-order without one bin-pack. */
function effectiveStrategy(settings: CompactionSettings, order: SortOrder | undefined): 'binpack' | 'sort' | 'z-order' {
  const sorted = (order?.fields.length ?? 0) > 0;
  if (settings.strategy === 'z-order') return sorted ? 'z-order' : 'binpack';
  if (settings.strategy === 'sort' || settings.strategy === 'auto') return sorted ? 'sort' : 'binpack';
  return 'binpack';
}

export async function compactTable(env: JobEnv, settings: CompactionSettings): Promise<CompactionReport | undefined> {
  const loaded = await loadTable(env);
  if (!loaded) return undefined;
  const { metadata } = loaded;
  const order = sortOrderOf(metadata);
  const strategy = effectiveStrategy(settings, order);
  const report: CompactionReport = { strategy, rewrittenFiles: 0, addedFiles: 0, removedDeleteFiles: 0, rewrittenBytes: 0, addedBytes: 0 };
  if (metadata['format-version'] >= 3) return { ...report, skipped: 'format-version 3 tables (row lineage, deletion vectors) are not compacted by Overcast' };
  const schema = schemaById(metadata, metadata['current-schema-id']);
  if (hasFixed(schema)) return { ...report, skipped: 'tables with fixed columns are not compacted (S3 User Guide, maintenance limitations)' };
  const head = refSnapshot(metadata, 'main');
  if (!head) return report;

  const { data, deletes } = await reading(() => liveFiles(env.io, metadata, head, yieldNow));
  const plan = new DeletePlan(env.io, metadata, deletes);
  const bins = planBins(metadata, data, plan, settings);
  if (bins.length === 0) return report;

  const namer = new FileNamer(randomUUID());
  const written: string[] = [];
  const rewriter = openRewriter();
  try {
    const added: NewFile[] = [];
    for (const bin of bins) {
      if (env.stopping()) throw new JobFailure(FAILURE.internal, 'the server stopped');
      added.push(...(await rewriteBin(env, rewriter, metadata, bin, plan, strategy, order, settings, namer, written)));
      env.ctx.rt.log.debug(`maintenance: compaction of table ${env.tableId} rewrote a bin of ${bin.files.length} file(s)`);
    }
    const removedData = bins.flatMap((b) => b.files);
    const removedDeletes = danglingDeletes(data, removedData, deletes, plan);
    const rewrite: Rewrite = { added, removedData, removedDeletes, startSequence: head['sequence-number'] ?? 0 };
    const { snapshotId, attempts } = await commitRewrite(env, rewrite, head['snapshot-id'], namer.commitId, written);
    return {
      ...report,
      rewrittenFiles: removedData.length,
      addedFiles: added.length,
      removedDeleteFiles: removedDeletes.length,
      rewrittenBytes: removedData.reduce((n, f) => n + f.file.file_size_in_bytes, 0),
      addedBytes: added.reduce((n, f) => n + f.file.file_size_in_bytes, 0),
      snapshotId: String(snapshotId),
      commitAttempts: attempts,
    };
  } catch (err) {
    removeWritten(env, written);
    throw err;
  } finally {
    await rewriter.close();
  }
}

/** Rewrites one bin (in the rewriter's thread) and writes its files; their descriptions. */
async function rewriteBin(
  env: JobEnv,
  rewriter: Rewriter,
  metadata: TableMetadata,
  bin: Bin,
  plan: DeletePlan,
  strategy: 'binpack' | 'sort' | 'z-order',
  order: SortOrder | undefined,
  settings: CompactionSettings,
  namer: FileNamer,
  written: string[],
): Promise<NewFile[]> {
  const deletes = [...new Map(bin.files.flatMap((f) => plan.applicable(f)).map((d) => [d.file.file_path, d])).values()];
  const bytes = new Map<string, Uint8Array>();
  for (const f of [...bin.files, ...deletes]) {
    bytes.set(f.file.file_path, await reading(() => env.io.read(f.file.file_path)));
    await yieldNow();
  }
  // The worker needs schemas, specs, sort orders and properties, not the table's history.
  const slim: TableMetadata = { ...metadata, snapshots: [], 'snapshot-log': [], 'metadata-log': [], refs: {}, statistics: [], 'partition-statistics': [] };
  const task: BinTask = { metadata: slim, files: bin.files, deletes, bytes, binBytes: bin.bytes, strategy, order, settings };
  const outputs = await reading(() => rewriter.run(task));
  const spec = defaultSpec(metadata);
  const fields = partitioner(spec, schemaById(metadata, metadata['current-schema-id'])).fields;
  const base = dataDir(metadata);
  const out: NewFile[] = [];
  for (const o of outputs) {
    const location = `${base}/${o.path ? `${o.path}/` : ''}${namer.next()}`;
    written.push(location);
    await env.io.write(location, o.parquet.bytes);
    const partition: Row = {};
    fields.forEach((f, k) => (partition[f.name] = o.values[k]));
    const sortOrderId = strategy === 'sort' ? metadata['default-sort-order-id'] : null;
    out.push({ file: contentFileOf(location, o.parquet, partition, { sort_order_id: sortOrderId }), specId: spec['spec-id'] });
    await yieldNow();
  }
  return out;
}

/** Delete files that applied to rewritten files only: no remaining data file needs them. */
function danglingDeletes(data: readonly LiveFile[], removed: readonly LiveFile[], deletes: readonly LiveFile[], plan: DeletePlan): LiveFile[] {
  const gone = new Set(removed.map((f) => f.file.file_path));
  const needed = new Set<string>();
  for (const f of data) {
    if (gone.has(f.file.file_path)) continue;
    for (const d of plan.applicable(f)) needed.add(d.file.file_path);
  }
  const used = new Set<string>();
  for (const f of removed) for (const d of plan.applicable(f)) used.add(d.file.file_path);
  return deletes.filter((d) => used.has(d.file.file_path) && !needed.has(d.file.file_path));
}

/** Commits the rewrite on the head it started from, or on a newer head it is still valid against. */
async function commitRewrite(
  env: JobEnv,
  rewrite: Rewrite,
  startId: bigint,
  commitId: string,
  written: string[],
): Promise<{ snapshotId: bigint; attempts: number }> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const loaded = await loadTable(env);
    if (!loaded) throw new JobFailure(FAILURE.outOfDate, 'the table is gone');
    const { row, metadata } = loaded;
    const head = refSnapshot(metadata, 'main');
    if (!head) throw new JobFailure(FAILURE.outOfDate, 'main was removed');
    let current = rewrite;
    if (head['snapshot-id'] !== startId) current = await revalidate(env, metadata, rewrite);
    const { snapshot, written: files } = await reading(() =>
      writeReplaceSnapshot(env.io, metadata, head, current, `${commitId}-${attempt}`, yieldNow),
    );
    written.push(...files);
    const builder = new MetadataBuilder(metadata, Date.now(), row.metadata_location!);
    checkRequirement(metadata, { type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': head['snapshot-id'] });
    builder.apply({ action: 'add-snapshot', snapshot });
    builder.apply({ action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': snapshot['snapshot-id'] });
    try {
      await commitTableMetadata(env.ctx, row, builder.build()!);
      // Committed: only the manifests of lost attempts are left to remove.
      const keep = new Set([...files, ...current.added.map((f) => f.file.file_path)]);
      const stale = written.filter((w) => !keep.has(w));
      written.length = 0;
      removeWritten(env, stale);
      return { snapshotId: snapshot['snapshot-id'], attempts: attempt };
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }
  throw new JobFailure(FAILURE.outOfDate);
}

/** The rewrite against a newer head: every rewritten file still live, no new position deletes where they live. */
async function revalidate(env: JobEnv, metadata: TableMetadata, rewrite: Rewrite): Promise<Rewrite> {
  const head = refSnapshot(metadata, 'main')!;
  const { data, deletes } = await reading(() => liveFiles(env.io, metadata, head, yieldNow));
  const live = new Set(data.map((f) => f.file.file_path));
  if (!rewrite.removedData.every((f) => live.has(f.file.file_path))) {
    throw new JobFailure(FAILURE.outOfDate, 'a file compaction rewrote was removed by a concurrent commit');
  }
  const partitions = new Set(rewrite.removedData.map((f) => `${f.specId}/${tupleKey(Object.values(f.file.partition))}`));
  const conflicting = deletes.some(
    (d) => d.file.content === 1 && d.sequenceNumber > rewrite.startSequence && partitions.has(`${d.specId}/${tupleKey(Object.values(d.file.partition))}`),
  );
  if (conflicting) throw new JobFailure(FAILURE.outOfDate, 'a concurrent commit added position deletes to rewritten files');
  const liveDeletes = new Set(deletes.map((d) => d.file.file_path));
  return { ...rewrite, removedDeletes: rewrite.removedDeletes.filter((d) => liveDeletes.has(d.file.file_path)) };
}

function removeWritten(env: JobEnv, locations: readonly string[]): void {
  for (const location of locations) {
    const where = splitLocation(location);
    if (!where || !env.ctx.rt.meta.db.open) continue;
    try {
      deleteObject(env.ctx, { Bucket: where.bucket, Key: where.key });
    } catch {
      // The table (and its warehouse) may be gone.
    }
  }
}
