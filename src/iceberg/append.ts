/**
 * Appending rows to a table: rows (in the convention of `values.ts`, keyed by the current schema's
 * field names) are split by the partition of the default spec, each partition written as Parquet
 * files under `<data dir>/<partition path>/` named as Java names them
 * (`00000-0-<commit id>-00001.parquet`), described with their metrics, and committed by
 * `snapshot-producer.ts` as an `append` snapshot on the branch. The caller commits the returned
 * snapshot (REST `add-snapshot` and `set-snapshot-ref`).
 */
import { randomUUID } from 'node:crypto';
import type { DataFile, PartitionSpec, Schema, TableMetadata } from './types.js';
import type { FileIO } from './file-io.js';
import { contentFileOf, writeParquet } from './parquet-writer.js';
import { defaultSpec, schemaById } from './model.js';
import { commitFiles, dataDir, type CommitOptions, type CommitResult, type NewFile } from './snapshot-producer.js';
import { partitioner } from './transforms.js';
import { tupleKey } from './values.js';

export interface WriteOptions extends CommitOptions {
  /** Most rows per data file (default unlimited: one file per partition). */
  maxRowsPerFile?: number;
}

interface AppendResult extends CommitResult {
  dataFiles: DataFile[];
}

/** Names files of one commit as Java's `OutputFileFactory` does: `<partitionId>-<taskId>-<operation id>-<count>`. */
export class FileNamer {
  private count = 0;
  constructor(readonly commitId: string = randomUUID()) {}
  next(suffix = ''): string {
    this.count += 1;
    return `00000-0-${this.commitId}-${String(this.count).padStart(5, '0')}${suffix}.parquet`;
  }
}

interface PartitionGroup {
  values: unknown[];
  path: string;
  rows: Record<string, unknown>[];
}

/** Rows grouped by their partition tuple under a spec, in first-seen order. */
export function groupByPartition(rows: readonly Record<string, unknown>[], spec: PartitionSpec, schema: Schema): PartitionGroup[] {
  const p = partitioner(spec, schema);
  if (p.unpartitioned) return [{ values: [], path: '', rows: [...rows] }];
  const groups = new Map<string, PartitionGroup>();
  for (const row of rows) {
    const values = p.values(row);
    const key = tupleKey(values);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { values, path: p.path(values), rows: [] }));
    g.rows.push(row);
  }
  return [...groups.values()];
}

/** Writes rows as Parquet data files of the default spec; returns them as manifest data files. */
export async function writeDataFiles(
  io: FileIO,
  metadata: TableMetadata,
  rows: readonly Record<string, unknown>[],
  namer: FileNamer,
  options: WriteOptions = {},
): Promise<NewFile[]> {
  const schema = schemaById(metadata, metadata['current-schema-id']);
  const spec = defaultSpec(metadata);
  const fields = partitioner(spec, schema).fields;
  const base = dataDir(metadata);
  const sortOrderId = metadata['default-sort-order-id'] === 0 ? 0 : null;
  const max = options.maxRowsPerFile ?? Infinity;
  const chunks: { group: PartitionGroup; rows: Record<string, unknown>[] }[] = [];
  for (const group of groupByPartition(rows, spec, schema)) {
    const size = Number.isFinite(max) && max > 0 ? max : group.rows.length;
    for (let i = 0; i < group.rows.length; i += size) chunks.push({ group, rows: group.rows.slice(i, i + size) });
  }
  // Promise.all keeps the files in the order of their partitions' first rows.
  return Promise.all(
    chunks.map(async ({ group, rows: chunk }) => {
      const written = writeParquet(schema, chunk, { properties: metadata.properties, sortOrder: sortOrderOf(metadata) });
      const location = `${base}/${group.path ? `${group.path}/` : ''}${namer.next()}`;
      await io.write(location, written.bytes);
      const partition: Record<string, unknown> = {};
      fields.forEach((f, i) => (partition[f.name] = group.values[i]));
      const file = contentFileOf(location, written, partition, { sort_order_id: sortOrderId });
      return { file, specId: spec['spec-id'] };
    }),
  );
}

export const sortOrderOf = (metadata: TableMetadata) =>
  metadata['sort-orders']?.find((o) => o['order-id'] === metadata['default-sort-order-id']);

/**
 * Appends rows: data files (one per partition of the default spec, or more with `maxRowsPerFile`),
 * one manifest, a manifest list carrying the branch's manifests, and the `append` snapshot.
 */
export async function appendRows(
  io: FileIO,
  metadata: TableMetadata,
  rows: readonly Record<string, unknown>[],
  options: WriteOptions = {},
): Promise<AppendResult> {
  const namer = new FileNamer(options.commitId);
  const data = rows.length ? await writeDataFiles(io, metadata, rows, namer, options) : [];
  const result = await commitFiles(io, metadata, 'append', { data, written: data.map((d) => d.file.file_path) }, { ...options, commitId: namer.commitId });
  return { ...result, dataFiles: data.map((d) => d.file) };
}
