/**
 * Manifests and manifest lists (spec, "Manifests", "Manifest Lists", "Sequence Number
 * Inheritance", "First Row ID Inheritance"): encoding entries with the key-value metadata the spec
 * requires (`schema`, `schema-id`, `partition-spec`, `partition-spec-id`, `format-version`,
 * `content`; lists: `snapshot-id`, `parent-snapshot-id`, `sequence-number`, `format-version`, and
 * v3 `first-row-id`), the manifest-list entry (counts, partition summaries) that describes a
 * manifest, and reading both back with inheritance applied. A manifest not yet committed carries
 * sequence number -1 (as the Java library's `UNASSIGNED_SEQ`); the list writer replaces it with
 * the snapshot's sequence number.
 */
import type { DataFile, FieldSummary, ManifestEntry, ManifestFile, PartitionSpec, Schema } from './types.js';
import { readAvro, readAvroHeader, writeAvro, type AvroSchemaJson } from './avro.js';
import { avroName, fromAvroValue, longFieldIds, toAvroValue } from './avro-schema.js';
import { toBytes } from './conversions.js';
import type { FileIO } from './file-io.js';
import { stringifyIcebergJson } from './json.js';
import { manifestEntrySchema, manifestListSchema, SNAPSHOT_ID_FIELDS } from './manifest-schemas.js';
import { partitionType, type PartitionTypeField } from './model.js';
import { compareValues } from './values.js';

export const UNASSIGNED_SEQ = -1;

interface ManifestInput {
  schema: Schema;
  spec: PartitionSpec;
  formatVersion: number;
  content: 'data' | 'deletes';
  /** The snapshot writing the manifest: `added_snapshot_id` of the returned manifest-list entry. */
  snapshotId: bigint;
  entries: ManifestEntry[];
}

/** Encodes a manifest and describes it for the manifest list (`manifest_length` and path are the caller's). */
export function encodeManifest(input: ManifestInput): { bytes: Uint8Array; summary: Omit<ManifestFile, 'manifest_path' | 'manifest_length'> } {
  const partition = partitionType(input.spec, input.schema);
  const schema = manifestEntrySchema(partition, input.formatVersion);
  const metadata = {
    schema: stringifyIcebergJson(input.schema),
    'schema-id': String(input.schema['schema-id']),
    'partition-spec': stringifyIcebergJson(input.spec.fields),
    'partition-spec-id': String(input.spec['spec-id']),
    'format-version': String(input.formatVersion),
    content: input.content,
  };
  const records = input.entries.map((e) => entryToAvro(e, partition, input.formatVersion));
  const bytes = writeAvro(schema, records, { metadata, bigintFieldIds: bigintIds(partition) });
  return { bytes, summary: describe(input, partition) };
}

const bigintIds = (partition: readonly PartitionTypeField[]): Set<number> =>
  new Set([...SNAPSHOT_ID_FIELDS, ...longFieldIds(partition)]);

const entries = <V>(m: Map<number, V> | null | undefined, f: (v: V) => unknown = (v) => v) =>
  m ? [...m].map(([key, value]) => ({ key, value: f(value) })) : null;
const buf = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

function entryToAvro(e: ManifestEntry, partition: readonly PartitionTypeField[], formatVersion: number): unknown {
  const f = e.data_file;
  const part: Record<string, unknown> = {};
  for (const p of partition) part[avroName(p.name)] = toAvroValue(p.type as string, f.partition[p.name]);
  const file: Record<string, unknown> = {
    content: f.content,
    file_path: f.file_path,
    file_format: f.file_format,
    partition: part,
    record_count: f.record_count,
    file_size_in_bytes: f.file_size_in_bytes,
    column_sizes: entries(f.column_sizes),
    value_counts: entries(f.value_counts),
    null_value_counts: entries(f.null_value_counts),
    nan_value_counts: entries(f.nan_value_counts),
    lower_bounds: entries(f.lower_bounds, buf),
    upper_bounds: entries(f.upper_bounds, buf),
    key_metadata: f.key_metadata ? buf(f.key_metadata) : null,
    split_offsets: f.split_offsets ?? null,
    equality_ids: f.equality_ids ?? null,
    sort_order_id: f.sort_order_id ?? null,
    referenced_data_file: f.referenced_data_file ?? null,
  };
  if (formatVersion >= 3) {
    file.first_row_id = f.first_row_id ?? null;
    file.content_offset = f.content_offset ?? null;
    file.content_size_in_bytes = f.content_size_in_bytes ?? null;
  }
  return {
    status: e.status,
    snapshot_id: e.snapshot_id,
    sequence_number: e.sequence_number,
    file_sequence_number: e.file_sequence_number,
    data_file: file,
  };
}

/** The manifest-list entry fields a manifest's entries determine (Java `ManifestWriter.toManifestFile`). */
function describe(input: ManifestInput, partition: readonly PartitionTypeField[]): Omit<ManifestFile, 'manifest_path' | 'manifest_length'> {
  const counts = { added: 0, existing: 0, deleted: 0, addedRows: 0, existingRows: 0, deletedRows: 0 };
  let minSeq: number | undefined;
  for (const e of input.entries) {
    const rows = e.data_file.record_count;
    if (e.status === 1) (counts.added++, (counts.addedRows += rows));
    else if (e.status === 0) (counts.existing++, (counts.existingRows += rows));
    else (counts.deleted++, (counts.deletedRows += rows));
    if (e.status !== 2 && e.sequence_number !== null) minSeq = Math.min(minSeq ?? Infinity, e.sequence_number);
  }
  return {
    partition_spec_id: input.spec['spec-id'],
    content: input.content === 'data' ? 0 : 1,
    sequence_number: UNASSIGNED_SEQ,
    // Entries that inherit get the snapshot's sequence number, the largest in the table.
    min_sequence_number: minSeq ?? UNASSIGNED_SEQ,
    added_snapshot_id: input.snapshotId,
    added_files_count: counts.added,
    existing_files_count: counts.existing,
    deleted_files_count: counts.deleted,
    added_rows_count: counts.addedRows,
    existing_rows_count: counts.existingRows,
    deleted_rows_count: counts.deletedRows,
    partitions: partitionSummaries(partition, input.entries.map((e) => e.data_file)),
    key_metadata: null,
  };
}

/** Per partition field: nulls, NaNs and the bounds of the other values, as bytes (Java `PartitionSummary`). */
function partitionSummaries(partition: readonly PartitionTypeField[], files: readonly DataFile[]): FieldSummary[] {
  return partition.map((p) => {
    const type = p.type as string;
    let containsNull = false;
    let containsNaN = false;
    let lower: unknown = null;
    let upper: unknown = null;
    for (const f of files) {
      const v = f.partition[p.name];
      if (v === null || v === undefined) containsNull = true;
      else if (typeof v === 'number' && Number.isNaN(v)) containsNaN = true;
      else {
        if (lower === null || compareValues(type, v, lower) < 0) lower = v;
        if (upper === null || compareValues(type, v, upper) > 0) upper = v;
      }
    }
    return {
      contains_null: containsNull,
      contains_nan: containsNaN,
      lower_bound: lower === null ? null : toBytes(type, lower),
      upper_bound: upper === null ? null : toBytes(type, upper),
    };
  });
}

/** Writes a manifest to `location` and returns its manifest-list entry (sequence numbers unassigned). */
export async function writeManifest(io: FileIO, location: string, input: ManifestInput): Promise<ManifestFile> {
  const { bytes, summary } = encodeManifest(input);
  await io.write(location, bytes);
  return { manifest_path: location, manifest_length: bytes.length, ...summary };
}

interface DecodedManifest {
  /** The key-value metadata of the file. */
  metadata: Record<string, string>;
  formatVersion: number;
  content: 'data' | 'deletes';
  specId: number;
  partition: PartitionTypeField[];
  entries: ManifestEntry[];
}

/**
 * Decodes a manifest. With its manifest-list entry, null snapshot ids, sequence numbers and v3
 * first row ids are inherited as the spec says; without one, entries are as stored.
 */
export function decodeManifest(bytes: Uint8Array, manifest?: ManifestFile): DecodedManifest {
  const meta = readAvroHeader(bytes).metadata;
  const schema = JSON.parse(meta.schema ?? '{"type":"struct","fields":[]}') as Schema;
  const specFields = JSON.parse(meta['partition-spec'] ?? '[]') as PartitionSpec['fields'];
  const specId = Number(meta['partition-spec-id'] ?? manifest?.partition_spec_id ?? 0);
  const partition = partitionType({ 'spec-id': specId, fields: specFields }, schema);
  // Partition longs (and timestamps) are bigints by the value convention.
  const file = readAvro(bytes, { bigintFieldIds: bigintIds(partition) });
  const formatVersion = Number(meta['format-version'] ?? 1);
  const content = meta.content === 'deletes' ? 'deletes' : 'data';
  const names = partitionNames(file.schema, partition);
  const out = file.records.map((r) => entryFromAvro(r as AvroRecord, partition, names));
  if (manifest) inherit(out, manifest);
  return { metadata: meta, formatVersion, content, specId, partition, entries: out };
}

type AvroRecord = Record<string, unknown>;

/** The Avro field name of each partition field (by field id, so renamed partition fields still match). */
function partitionNames(schema: AvroSchemaJson, partition: readonly PartitionTypeField[]): Map<string, string> {
  const out = new Map<string, string>();
  const entry = schema as { fields?: { name: string; type: unknown }[] };
  const dataFile = entry.fields?.find((f) => f.name === 'data_file')?.type as { fields?: { name: string; type: unknown }[] };
  const part = dataFile?.fields?.find((f) => f.name === 'partition')?.type as { fields?: { name: string; 'field-id'?: number }[] };
  for (const f of part?.fields ?? []) {
    const p = partition.find((x) => x.id === f['field-id']);
    if (p) out.set(p.name, f.name);
  }
  return out;
}

const toMap = <V>(list: unknown, f: (v: unknown) => V = (v) => v as V): Map<number, V> | null =>
  Array.isArray(list) ? new Map(list.map((kv: { key: number; value: unknown }) => [kv.key, f(kv.value)])) : null;
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function entryFromAvro(r: AvroRecord, partition: readonly PartitionTypeField[], names: Map<string, string>): ManifestEntry {
  const f = r.data_file as AvroRecord;
  const part: Record<string, unknown> = {};
  const stored = (f.partition ?? {}) as AvroRecord;
  for (const p of partition) part[p.name] = fromAvroValue(p.type as string, stored[names.get(p.name) ?? avroName(p.name)]);
  const bytes = (v: unknown) => Uint8Array.from(v as Uint8Array);
  const file: DataFile = {
    content: (f.content ?? 0) as DataFile['content'],
    file_path: f.file_path as string,
    file_format: String(f.file_format).toUpperCase() as DataFile['file_format'],
    partition: part,
    record_count: Number(f.record_count),
    file_size_in_bytes: Number(f.file_size_in_bytes),
    column_sizes: toMap(f.column_sizes, Number),
    value_counts: toMap(f.value_counts, Number),
    null_value_counts: toMap(f.null_value_counts, Number),
    nan_value_counts: toMap(f.nan_value_counts, Number),
    lower_bounds: toMap(f.lower_bounds, bytes),
    upper_bounds: toMap(f.upper_bounds, bytes),
    key_metadata: f.key_metadata ? bytes(f.key_metadata) : null,
    split_offsets: (f.split_offsets as number[] | null | undefined)?.map(Number) ?? null,
    equality_ids: (f.equality_ids as number[] | null | undefined) ?? null,
    sort_order_id: num(f.sort_order_id),
    first_row_id: num(f.first_row_id),
    referenced_data_file: (f.referenced_data_file as string | null | undefined) ?? null,
    content_offset: num(f.content_offset),
    content_size_in_bytes: num(f.content_size_in_bytes),
  };
  return {
    status: r.status as ManifestEntry['status'],
    snapshot_id: (r.snapshot_id as bigint | null | undefined) ?? null,
    sequence_number: num(r.sequence_number),
    file_sequence_number: num(r.file_sequence_number),
    data_file: file,
  };
}

/** Spec inheritance, as Java's `InheritableMetadataFactory` and the v3 row-id assignment apply it. */
function inherit(list: ManifestEntry[], m: ManifestFile): void {
  const seq = m.sequence_number ?? 0;
  let nextRowId = m.content === 0 && m.first_row_id !== null && m.first_row_id !== undefined ? m.first_row_id : null;
  for (const e of list) {
    if (e.snapshot_id === null) e.snapshot_id = m.added_snapshot_id;
    // v1 entries (list sequence number 0) never stored sequence numbers: they inherit 0 whatever their status.
    if (e.sequence_number === null && (seq === 0 || e.status === 1)) e.sequence_number = seq;
    if (e.file_sequence_number === null && (seq === 0 || e.status === 1)) e.file_sequence_number = seq;
    if (nextRowId !== null && e.data_file.content === 0 && (e.data_file.first_row_id ?? null) === null) {
      e.data_file.first_row_id = nextRowId;
      nextRowId += e.data_file.record_count;
    }
  }
}

export async function readManifest(io: FileIO, manifest: ManifestFile): Promise<DecodedManifest> {
  return decodeManifest(await io.read(manifest.manifest_path), manifest);
}

// ---- Manifest lists ----

interface ManifestListInput {
  snapshotId: bigint;
  parentSnapshotId: bigint | null;
  sequenceNumber: number;
  formatVersion: number;
  /** v3: the table's `next-row-id`, the snapshot's `first-row-id`. */
  firstRowId?: number;
  manifests: ManifestFile[];
}

/** Encodes a manifest list; returns the manifests as written and, for v3, the row ids assigned. */
export function encodeManifestList(input: ManifestListInput): { bytes: Uint8Array; manifests: ManifestFile[]; addedRows: number } {
  const v3 = input.formatVersion >= 3;
  let nextRowId = input.firstRowId ?? 0;
  const written = input.manifests.map((m) => {
    const out: ManifestFile = { ...m };
    if (m.sequence_number === UNASSIGNED_SEQ || m.min_sequence_number === UNASSIGNED_SEQ) {
      if (m.added_snapshot_id !== input.snapshotId) {
        throw new Error(`manifest ${m.manifest_path} from snapshot ${m.added_snapshot_id} has no sequence number`);
      }
      if (m.sequence_number === UNASSIGNED_SEQ) out.sequence_number = input.sequenceNumber;
      if (m.min_sequence_number === UNASSIGNED_SEQ) out.min_sequence_number = input.sequenceNumber;
    }
    if (v3) {
      if (m.content === 0 && (m.first_row_id ?? null) === null) {
        out.first_row_id = nextRowId;
        nextRowId += m.existing_rows_count + m.added_rows_count;
      } else out.first_row_id = m.first_row_id ?? null;
    }
    return out;
  });
  const metadata: Record<string, string> = {
    'snapshot-id': String(input.snapshotId),
    'parent-snapshot-id': String(input.parentSnapshotId ?? 'null'),
    'sequence-number': String(input.sequenceNumber),
    'format-version': String(input.formatVersion),
  };
  if (v3) metadata['first-row-id'] = String(input.firstRowId ?? 0);
  const records = written.map((m) => ({
    ...m,
    partitions: m.partitions?.map((s) => ({
      contains_null: s.contains_null,
      contains_nan: s.contains_nan ?? null,
      lower_bound: s.lower_bound ? buf(s.lower_bound) : null,
      upper_bound: s.upper_bound ? buf(s.upper_bound) : null,
    })) ?? null,
    key_metadata: m.key_metadata ? buf(m.key_metadata) : null,
    first_row_id: m.first_row_id ?? null,
  }));
  const bytes = writeAvro(manifestListSchema(input.formatVersion), records, { metadata, bigintFieldIds: SNAPSHOT_ID_FIELDS });
  return { bytes, manifests: written, addedRows: nextRowId - (input.firstRowId ?? 0) };
}

export async function writeManifestList(io: FileIO, location: string, input: ManifestListInput): Promise<{ manifests: ManifestFile[]; addedRows: number }> {
  const { bytes, manifests, addedRows } = encodeManifestList(input);
  await io.write(location, bytes);
  return { manifests, addedRows };
}

/** Decodes a manifest list; v1 lists (no content or sequence numbers) read as data manifests at sequence 0. */
export function decodeManifestList(bytes: Uint8Array): { metadata: Record<string, string>; manifests: ManifestFile[] } {
  const file = readAvro(bytes, { bigintFieldIds: SNAPSHOT_ID_FIELDS });
  const manifests = file.records.map((raw) => {
    const r = raw as AvroRecord;
    const parts = r.partitions as AvroRecord[] | null | undefined;
    return {
      manifest_path: r.manifest_path as string,
      manifest_length: Number(r.manifest_length),
      partition_spec_id: Number(r.partition_spec_id),
      content: (r.content ?? 0) as 0 | 1,
      sequence_number: Number(r.sequence_number ?? 0),
      min_sequence_number: Number(r.min_sequence_number ?? 0),
      added_snapshot_id: r.added_snapshot_id as bigint,
      added_files_count: num(r.added_files_count) as number,
      existing_files_count: num(r.existing_files_count) as number,
      deleted_files_count: num(r.deleted_files_count) as number,
      added_rows_count: num(r.added_rows_count) as number,
      existing_rows_count: num(r.existing_rows_count) as number,
      deleted_rows_count: num(r.deleted_rows_count) as number,
      partitions: parts
        ? parts.map((s) => ({
            contains_null: Boolean(s.contains_null),
            contains_nan: (s.contains_nan as boolean | null | undefined) ?? null,
            lower_bound: s.lower_bound ? Uint8Array.from(s.lower_bound as Uint8Array) : null,
            upper_bound: s.upper_bound ? Uint8Array.from(s.upper_bound as Uint8Array) : null,
          }))
        : null,
      key_metadata: r.key_metadata ? Uint8Array.from(r.key_metadata as Uint8Array) : null,
      first_row_id: num(r.first_row_id),
    } satisfies ManifestFile;
  });
  return { metadata: file.metadata, manifests };
}

export async function readManifestList(io: FileIO, location: string): Promise<ManifestFile[]> {
  return decodeManifestList(await io.read(location)).manifests;
}
