/**
 * Row-level deletes (spec, "Delete Formats"): position delete files (`file_path` 2147483546,
 * `pos` 2147483545, sorted by path then position, one file per partition of the data files they
 * reference, `referenced_data_file` set when they name a single file, full metrics on both
 * columns as Java's `MetricsConfig.forPositionDelete`) and equality delete files (the equality
 * columns of the table schema, partitioned like the rows they delete), committed with optional new
 * data as one snapshot — `delete` when only deletes are added, `overwrite` with data too (Java's
 * `RowDelta`). Format v3 tables take deletion vectors instead of position delete files; those
 * are not written here.
 */
import type { DataFile, StructType, TableMetadata } from './types.js';
import type { FileIO } from './file-io.js';
import { FileNamer, groupByPartition, sortOrderOf, writeDataFiles, type WriteOptions } from './append.js';
import { contentFileOf, writeParquet } from './parquet-writer.js';
import { defaultSpec, partitionType, refSnapshot, schemaById, specById } from './model.js';
import { liveFiles, POSITION_DELETE_SCHEMA, select } from './scan.js';
import { commitFiles, dataDir, type CommitResult, type NewFile } from './snapshot-producer.js';
import { partitioner } from './transforms.js';
import { compareStrings, tupleKey } from './values.js';

interface PositionDelete {
  file_path: string;
  pos: number | bigint;
}

export interface EqualityDeletes {
  /** Field ids compared (the file's `equality_ids`). */
  equalityIds: number[];
  /** Rows with the equality columns and the default spec's partition source columns. */
  rows: Record<string, unknown>[];
}

interface RowDeltaInput {
  rows?: Record<string, unknown>[];
  positionDeletes?: PositionDelete[];
  equalityDeletes?: EqualityDeletes;
}

interface RowDeltaResult extends CommitResult {
  dataFiles: DataFile[];
  deleteFiles: DataFile[];
}


/** Writes position delete files against the live data files of the branch head. */
async function writePositionDeletes(io: FileIO, metadata: TableMetadata, deletes: readonly PositionDelete[], namer: FileNamer, branch = 'main'): Promise<NewFile[]> {
  if (metadata['format-version'] >= 3) throw new Error('format version 3 tables take deletion vectors, not position delete files');
  const head = refSnapshot(metadata, branch);
  if (!head) throw new Error('position deletes need a snapshot with data files');
  const targets = new Map((await liveFiles(io, metadata, head)).data.map((f) => [f.file.file_path, f]));
  const schema = schemaById(metadata, metadata['current-schema-id']);
  const groups = new Map<string, { specId: number; partition: Record<string, unknown>; rows: PositionDelete[] }>();
  for (const d of deletes) {
    const target = targets.get(d.file_path);
    if (!target) throw new Error(`${d.file_path} is not a live data file of the table`);
    const names = partitionType(specById(metadata, target.specId), schema).map((f) => f.name);
    const key = `${target.specId}/${tupleKey(names.map((n) => target.file.partition[n]))}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { specId: target.specId, partition: target.file.partition, rows: [] }));
    g.rows.push(d);
  }
  const base = dataDir(metadata);
  return Promise.all(
    [...groups.values()].map(async (g) => {
      const rows = g.rows
        .map((d) => ({ file_path: d.file_path, pos: BigInt(d.pos) }))
        .sort((a, b) => compareStrings(a.file_path, b.file_path) || (a.pos < b.pos ? -1 : a.pos > b.pos ? 1 : 0));
      const written = writeParquet(POSITION_DELETE_SCHEMA, rows, { metricsMode: () => ({ kind: 'full' }) });
      const p = partitioner(specById(metadata, g.specId), schema);
      const path = p.path(p.fields.map((f) => g.partition[f.name]));
      const location = `${base}/${path ? `${path}/` : ''}${namer.next('-deletes')}`;
      await io.write(location, written.bytes);
      const paths = new Set(rows.map((r) => r.file_path));
      const referenced = paths.size === 1 ? [...paths][0]! : null;
      return { file: contentFileOf(location, written, g.partition, { content: 1, referenced_data_file: referenced }), specId: g.specId };
    }),
  );
}

/** Writes equality delete files, one per partition of the default spec the rows fall in. */
async function writeEqualityDeletes(io: FileIO, metadata: TableMetadata, input: EqualityDeletes, namer: FileNamer): Promise<NewFile[]> {
  const schema = schemaById(metadata, metadata['current-schema-id']);
  const spec = defaultSpec(metadata);
  const deleteSchema = select(schema, new Set(input.equalityIds));
  const found = new Set<number>();
  const collect = (s: StructType): void => s.fields.forEach((f) => (found.add(f.id), typeof f.type === 'object' && f.type.type === 'struct' && collect(f.type)));
  collect(deleteSchema);
  const missing = input.equalityIds.filter((id) => !found.has(id));
  if (missing.length) throw new Error(`equality ids ${missing.join(', ')} are not fields of the table schema outside lists and maps`);
  for (const pf of spec.fields) {
    const source = schema.fields.find((f) => f.id === pf['source-id']);
    if (source && input.rows.some((r) => r[source.name] === undefined)) {
      throw new Error(`equality delete rows must carry the partition source column ${source.name}`);
    }
  }
  const fields = partitioner(spec, schema).fields;
  const base = dataDir(metadata);
  return Promise.all(
    groupByPartition(input.rows, spec, schema).map(async (group) => {
      const written = writeParquet(deleteSchema, group.rows, { properties: metadata.properties, sortOrder: sortOrderOf(metadata) });
      const location = `${base}/${group.path ? `${group.path}/` : ''}${namer.next('-deletes')}`;
      await io.write(location, written.bytes);
      const partition: Record<string, unknown> = {};
      fields.forEach((f, i) => (partition[f.name] = group.values[i]));
      return { file: contentFileOf(location, written, partition, { content: 2, equality_ids: [...input.equalityIds] }), specId: spec['spec-id'] };
    }),
  );
}

/** Adds data and delete files in one snapshot: `append`, `delete` or `overwrite` as Java's `RowDelta` names it. */
export async function rowDelta(io: FileIO, metadata: TableMetadata, input: RowDeltaInput, options: WriteOptions = {}): Promise<RowDeltaResult> {
  const namer = new FileNamer(options.commitId);
  const data = input.rows?.length ? await writeDataFiles(io, metadata, input.rows, namer, options) : [];
  const deletes = [
    ...(input.positionDeletes?.length ? await writePositionDeletes(io, metadata, input.positionDeletes, namer, options.branch) : []),
    ...(input.equalityDeletes?.rows.length ? await writeEqualityDeletes(io, metadata, input.equalityDeletes, namer) : []),
  ];
  const operation = deletes.length === 0 ? 'append' : data.length === 0 ? 'delete' : 'overwrite';
  const written = [...data, ...deletes].map((f) => f.file.file_path);
  const result = await commitFiles(io, metadata, operation, { data, deletes, written }, { ...options, commitId: namer.commitId });
  return { ...result, dataFiles: data.map((d) => d.file), deleteFiles: deletes.map((d) => d.file) };
}
