/**
 * Reading a table at a snapshot (spec, "Scan Planning"): the live files of a snapshot (manifest
 * list, then its manifests in parallel, entries not DELETED, with inheritance applied), and rows
 * read from the data files projected onto the snapshot's schema by field id, with position deletes
 * (same partition, data sequence number ≤ the delete's, `referenced_data_file` and `file_path`
 * bounds honoured) and equality deletes (data sequence number < the delete's, same partition or a
 * global delete from an unpartitioned spec) applied. Each delete file is read once, and only when
 * some data file needs it.
 */
import type { DataFile, ManifestEntry, ManifestFile, PartitionSpec, Schema, Snapshot, StructType, TableMetadata } from './types.js';
import type { FileIO } from './file-io.js';
import { fromBytes } from './conversions.js';
import { readManifest, readManifestList } from './manifests.js';
import { openFile, readParquet } from './parquet-reader.js';
import { accessor, fieldsById, isStruct, partitionType, refSnapshot, schemaById, snapshotById, specById } from './model.js';
import { compareStrings, tupleKey } from './values.js';

export const POSITION_DELETE_FILE_PATH = 2147483546;
export const POSITION_DELETE_POS = 2147483545;

/** The schema of a position delete file (spec: "Position Delete Files"). */
export const POSITION_DELETE_SCHEMA: StructType = {
  type: 'struct',
  fields: [
    { id: POSITION_DELETE_FILE_PATH, name: 'file_path', required: true, type: 'string' },
    { id: POSITION_DELETE_POS, name: 'pos', required: true, type: 'long' },
  ],
};

/** A live file of a snapshot with the manifest that lists it. */
export interface LiveFile {
  entry: ManifestEntry;
  file: DataFile;
  manifest: ManifestFile;
  specId: number;
  /** The data sequence number, inherited where the entry left it null. */
  sequenceNumber: number;
}

/**
 * The live data and delete files of a snapshot. With `step`, manifests are decoded one at a time
 * and `step` is awaited between them (background work yields to requests); else all at once.
 */
export async function liveFiles(
  io: FileIO,
  metadata: TableMetadata,
  snapshot: Snapshot,
  step?: () => Promise<void>,
): Promise<{ data: LiveFile[]; deletes: LiveFile[] }> {
  // A manifest whose entries are all DELETED holds no live file (spec: skipped by its file counts).
  const manifests = (await readManifestList(io, snapshot['manifest-list'])).filter(
    (m) => m.added_files_count === null || m.existing_files_count === null || m.added_files_count + m.existing_files_count > 0,
  );
  let decoded: Awaited<ReturnType<typeof readManifest>>[];
  if (step) {
    decoded = [];
    for (const m of manifests) {
      decoded.push(await readManifest(io, m));
      await step();
    }
  } else decoded = await Promise.all(manifests.map((m) => readManifest(io, m)));
  const data: LiveFile[] = [];
  const deletes: LiveFile[] = [];
  decoded.forEach((d, i) => {
    const manifest = manifests[i]!;
    for (const entry of d.entries) {
      if (entry.status === 2) continue;
      const live = { entry, file: entry.data_file, manifest, specId: manifest.partition_spec_id, sequenceNumber: entry.sequence_number ?? 0 };
      (manifest.content === 1 || entry.data_file.content !== 0 ? deletes : data).push(live);
    }
  });
  return { data, deletes };
}

interface ReadOptions {
  /** Time travel: read this snapshot (default: the head of `ref`). */
  snapshotId?: bigint;
  /** Branch or tag to read (default `main`). */
  ref?: string;
  /** Project onto this schema (default: the table's for a branch, the snapshot's for a snapshot id or tag). */
  schema?: Schema;
  /** Data files read at once (default 8). */
  concurrency?: number;
}

/** The rows of a snapshot with deletes applied, projected onto its schema. */
export async function readRows(io: FileIO, metadata: TableMetadata, options: ReadOptions = {}): Promise<Record<string, unknown>[]> {
  const ref = options.ref ?? 'main';
  const snapshot = options.snapshotId !== undefined ? snapshotById(metadata, options.snapshotId) : refSnapshot(metadata, ref);
  if (!snapshot) return [];
  // As Java's `SnapshotUtil.schemaFor`: a branch reads with the table's schema, a snapshot id or a tag with the snapshot's.
  const asOfSnapshot = options.snapshotId !== undefined || metadata.refs?.[ref]?.type === 'tag';
  const schema = options.schema ?? schemaById(metadata, asOfSnapshot ? snapshot['schema-id'] : metadata['current-schema-id']);
  const { data, deletes } = await liveFiles(io, metadata, snapshot);
  const plan = new DeletePlan(io, metadata, deletes);
  const readSchema = plan.extendSchema(schema);
  const out: Record<string, unknown>[][] = new Array(data.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < data.length) {
      const i = next++;
      out[i] = await readDataFile(io, data[i]!, readSchema, schema, plan);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 8, data.length) }, worker));
  return out.flat();
}

/** One data file's rows with the deletes that apply to it, projected onto `schema` (`readSchema` = `plan.extendSchema(schema)`). */
export async function readDataFile(io: FileIO, live: LiveFile, readSchema: StructType, schema: Schema, plan: DeletePlan): Promise<Record<string, unknown>[]> {
  const buffer = await openFile(io, live.file.file_path, live.file.file_size_in_bytes);
  let rows = await readParquet(buffer, readSchema);
  const positions = await plan.positionsFor(live);
  if (positions.size) rows = rows.filter((_, i) => !positions.has(i));
  for (const eq of await plan.equalityFor(live, readSchema)) rows = rows.filter((r) => !eq.keys.has(tupleKey(eq.get.map((g) => g(r)))));
  if (readSchema !== schema) {
    const keep = new Set(schema.fields.map((f) => f.name));
    rows = rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => keep.has(k))));
  }
  return rows;
}

interface EqualityDeletes {
  keys: Set<string>;
  get: ((row: Record<string, unknown>) => unknown)[];
}

/** Which delete files apply to which data file, with each delete file's content loaded once. */
export class DeletePlan {
  private readonly specs = new Map<number, { spec: PartitionSpec; names: string[]; global: boolean }>();
  private readonly positionFiles: LiveFile[] = [];
  private readonly equalityFiles: LiveFile[] = [];
  private readonly loadedPositions = new Map<string, Promise<Map<string, number[]>>>();
  private readonly loadedEqualities = new Map<string, Promise<Set<string>>>();
  /** Equality fields of deletes, by id: the table schema that defines them (for projection and access). */
  private readonly equalitySchema: StructType;

  constructor(
    private readonly io: FileIO,
    private readonly metadata: TableMetadata,
    deletes: readonly LiveFile[],
  ) {
    for (const d of deletes) {
      if (d.file.file_format === 'PUFFIN') throw new Error(`deletion vectors are not supported yet (${d.file.file_path})`);
      (d.file.content === 1 ? this.positionFiles : this.equalityFiles).push(d);
    }
    const ids = new Set(this.equalityFiles.flatMap((d) => d.file.equality_ids ?? []));
    this.equalitySchema = selectFromSchemas(metadata, ids);
  }

  private specInfo(id: number) {
    let info = this.specs.get(id);
    if (!info) {
      const spec = specById(this.metadata, id);
      const fields = partitionType(spec, schemaById(this.metadata, this.metadata['current-schema-id']));
      info = { spec, names: fields.map((f) => f.name), global: fields.every((f) => f.transform === 'void') };
      this.specs.set(id, info);
    }
    return info;
  }

  private partitionKey(f: LiveFile): string {
    return `${f.specId}/${tupleKey(this.specInfo(f.specId).names.map((n) => f.file.partition[n]))}`;
  }

  /** The read schema plus top-level fields that equality deletes compare and the schema lacks. */
  extendSchema(schema: Schema): Schema {
    const have = fieldsById(schema);
    const extra = this.equalitySchema.fields.filter((f) => !have.has(f.id));
    return extra.length ? { ...schema, fields: [...schema.fields, ...extra] } : schema;
  }

  /** The delete files that may apply to a data file (by partition, sequence number and path bounds), unread. */
  applicable(data: LiveFile): LiveFile[] {
    const key = this.partitionKey(data);
    const path = data.file.file_path;
    const positions = this.positionFiles.filter(
      (d) =>
        d.sequenceNumber >= data.sequenceNumber &&
        this.partitionKey(d) === key &&
        (!d.file.referenced_data_file || d.file.referenced_data_file === path) &&
        mayContainPath(d.file, path),
    );
    const equalities = this.equalityFiles.filter(
      (d) => d.sequenceNumber > data.sequenceNumber && (this.specInfo(d.specId).global || this.partitionKey(d) === key),
    );
    return [...positions, ...equalities];
  }

  async positionsFor(data: LiveFile): Promise<Set<number>> {
    const out = new Set<number>();
    const key = this.partitionKey(data);
    const path = data.file.file_path;
    for (const d of this.positionFiles) {
      if (d.sequenceNumber < data.sequenceNumber || this.partitionKey(d) !== key) continue;
      if (d.file.referenced_data_file && d.file.referenced_data_file !== path) continue;
      if (!mayContainPath(d.file, path)) continue;
      for (const pos of (await this.loadPositions(d)).get(path) ?? []) out.add(pos);
    }
    return out;
  }

  async equalityFor(data: LiveFile, readSchema: StructType): Promise<EqualityDeletes[]> {
    const out: EqualityDeletes[] = [];
    const key = this.partitionKey(data);
    for (const d of this.equalityFiles) {
      if (d.sequenceNumber <= data.sequenceNumber) continue;
      if (!this.specInfo(d.specId).global && this.partitionKey(d) !== key) continue;
      const ids = d.file.equality_ids ?? [];
      out.push({ keys: await this.loadEqualities(d, ids), get: ids.map((id) => accessor(readSchema, id)) });
    }
    return out;
  }

  private loadPositions(d: LiveFile): Promise<Map<string, number[]>> {
    let p = this.loadedPositions.get(d.file.file_path);
    if (!p) {
      p = (async () => {
        const rows = await readParquet(await openFile(this.io, d.file.file_path, d.file.file_size_in_bytes), POSITION_DELETE_SCHEMA);
        const byPath = new Map<string, number[]>();
        for (const r of rows) {
          const list = byPath.get(r.file_path as string) ?? [];
          list.push(Number(r.pos));
          byPath.set(r.file_path as string, list);
        }
        return byPath;
      })();
      this.loadedPositions.set(d.file.file_path, p);
    }
    return p;
  }

  private loadEqualities(d: LiveFile, ids: number[]): Promise<Set<string>> {
    let p = this.loadedEqualities.get(d.file.file_path);
    if (!p) {
      p = (async () => {
        const schema = select(this.equalitySchema, new Set(ids));
        const rows = await readParquet(await openFile(this.io, d.file.file_path, d.file.file_size_in_bytes), schema);
        const get = ids.map((id) => accessor(schema, id));
        return new Set(rows.map((r) => tupleKey(get.map((g) => g(r)))));
      })();
      this.loadedEqualities.set(d.file.file_path, p);
    }
    return p;
  }
}

/** Whether a position delete file's `file_path` bounds admit this data file. */
function mayContainPath(file: DataFile, path: string): boolean {
  const lower = file.lower_bounds?.get(POSITION_DELETE_FILE_PATH);
  const upper = file.upper_bounds?.get(POSITION_DELETE_FILE_PATH);
  if (lower && compareStrings(path, fromBytes('string', lower) as string) < 0) return false;
  if (upper && compareStrings(path, fromBytes('string', upper) as string) > 0) return false;
  return true;
}

/** The fields of a struct on the way to the given ids (Java `TypeUtil.select`, structs only). */
export function select(struct: StructType, ids: ReadonlySet<number>): StructType {
  const fields = [];
  for (const f of struct.fields) {
    if (ids.has(f.id)) fields.push(f);
    else if (isStruct(f.type)) {
      const inner = select(f.type, ids);
      if (inner.fields.length) fields.push({ ...f, type: inner });
    }
  }
  return { type: 'struct', fields };
}

/** The ids selected from the newest schema that has each (a dropped equality column still applies). */
function selectFromSchemas(metadata: TableMetadata, ids: ReadonlySet<number>): StructType {
  const remaining = new Set(ids);
  const fields: StructType['fields'] = [];
  const schemas = [...metadata.schemas].sort((a, b) => b['schema-id'] - a['schema-id']);
  for (const s of schemas) {
    if (!remaining.size) break;
    const picked = select(s, remaining);
    for (const f of picked.fields) {
      if (fields.some((x) => x.id === f.id)) continue;
      fields.push(f);
      for (const id of fieldsById({ type: 'struct', fields: [f] }).keys()) remaining.delete(id);
    }
  }
  return { type: 'struct', fields };
}
