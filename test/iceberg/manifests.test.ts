/**
 * Manifests and manifest lists as other Avro readers see them: decoded by avsc's own container
 * reader and by icebird's `avroMetadata`/`avroRead` from a table the library wrote on a test
 * server — the spec's field ids on every field (as the Java writer names and nests them), the
 * required key-value metadata, ADDED entries with the snapshot id and null sequence numbers — and
 * the library's own decoding: sequence-number, snapshot-id and v3 first-row-id inheritance, list
 * sequence-number assignment, 63-bit ids, both codecs.
 */
import { Readable } from 'node:stream';
import avsc from 'avsc';
import { avroMetadata, avroRead } from 'icebird';
import { describe, expect, it } from '../helpers/fixture.js';
import { appendRows } from '../../src/iceberg/append.js';
import { readAvro, writeAvro } from '../../src/iceberg/avro.js';
import { decodeManifest, decodeManifestList, encodeManifest, encodeManifestList, UNASSIGNED_SEQ } from '../../src/iceberg/manifests.js';
import type { ManifestEntry, ManifestFile, PartitionSpec, Schema } from '../../src/iceberg/types.js';
import { commitSnapshot, createIcebergTable } from '../helpers/iceberg-table.js';
import { s3FileIO, type CountingFileIO } from '../helpers/s3-file-io.js';

let io: CountingFileIO;
it.beforeAll(async ({ server: t }) => {
  io = s3FileIO(t);
});

type Json = Record<string, any>;

/** avsc's container decoder, with longs as bigints (snapshot ids exceed 2^53). */
async function avscDecode(bytes: Uint8Array): Promise<{ meta: Record<string, string>; codec: string; schema: Json; records: Json[] }> {
  const LongType = avsc.types.LongType as unknown as { __with(m: Record<string, unknown>): avsc.Type };
  const bigLong = LongType.__with({
    fromBuffer: (b: Buffer) => b.readBigInt64LE(),
    toBuffer: (n: bigint) => {
      const b = Buffer.alloc(8);
      b.writeBigInt64LE(n);
      return b;
    },
    fromJSON: BigInt,
    toJSON: Number,
    isValid: (n: unknown) => typeof n === 'bigint',
    compare: (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0),
  });
  const decoder = new avsc.streams.BlockDecoder({
    parseHook: (schema: avsc.Schema) =>
      avsc.Type.forSchema(schema, { wrapUnions: 'never', typeHook: (s) => (s === 'long' ? bigLong : undefined) }),
  } as never);
  let header: { meta: Record<string, Buffer> } | undefined;
  let codec = '';
  decoder.on('metadata', (_type: unknown, c: string, h: { meta: Record<string, Buffer> }) => {
    header = h;
    codec = c;
  });
  const records: Json[] = [];
  Readable.from([Buffer.from(bytes)]).pipe(decoder);
  for await (const r of decoder) records.push(r as Json);
  const meta = Object.fromEntries(Object.entries(header!.meta).map(([k, v]) => [k, v.toString('utf8')]));
  return { meta, codec, schema: JSON.parse(meta['avro.schema']!), records };
}

function icebirdDecode(bytes: Uint8Array): { metadata: Json; records: Json[] } {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const reader = { view: new DataView(buffer), offset: 0 };
  const { metadata, syncMarker } = avroMetadata(reader as never) as unknown as { metadata: Json; syncMarker: Uint8Array };
  return { metadata, records: avroRead({ reader, metadata, syncMarker } as never) as Json[] };
}

/** `name@id` for every field, element, key and value id of an Avro schema, depth first. */
function ids(schema: unknown, prefix = ''): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s) => ids(s, prefix));
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Json;
  if (s.type === 'record') {
    return s.fields.flatMap((f: Json) => [`${prefix}${f.name}@${f['field-id']}`, ...ids(f.type, `${prefix}${f.name}.`)]);
  }
  if (s.type === 'array') return [...(s['element-id'] !== undefined ? [`${prefix}element@${s['element-id']}`] : []), ...ids(s.items, prefix)];
  return [];
}

const SCHEMA = {
  schemaV2: {
    type: 'struct' as const,
    fields: [
      { id: 1, name: 'id', type: 'long', required: true },
      { id: 2, name: 'category', type: 'string', required: false },
      { id: 3, name: 'day', type: 'date', required: false },
    ],
  },
  partitionSpec: { fields: [{ sourceId: 2, transform: 'identity', name: 'category' }, { sourceId: 3, transform: 'day', name: 'day_day' }] },
};

describe('manifests read by avsc and icebird', () => {
  it('carry the spec field ids, the required metadata and ADDED entries that inherit sequence numbers', async ({ server: t, s3tables: s3t }) => {
    let table = await createIcebergTable(io, s3t, SCHEMA);
    const day = new Date('2024-03-01T00:00:00Z');
    const first = await appendRows(io, table.metadata, [{ id: 1n, category: 'a', day }]);
    table = await commitSnapshot(t, table, first.snapshot);
    const second = await appendRows(io, table.metadata, [{ id: 2n, category: 'b', day }, { id: 3n, category: 'b', day }]);
    const firstId = first.snapshot['snapshot-id'];
    const secondId = second.snapshot['snapshot-id'];

    const listBytes = await io.read(second.manifestList);
    const list = await avscDecode(listBytes);
    expect(list.codec).toBe('deflate');
    expect(list.meta).toMatchObject({ 'snapshot-id': String(secondId), 'parent-snapshot-id': String(firstId), 'sequence-number': '2', 'format-version': '2' });
    expect(list.schema.name).toBe('manifest_file');
    expect(ids(list.schema)).toEqual([
      'manifest_path@500', 'manifest_length@501', 'partition_spec_id@502', 'content@517', 'sequence_number@515',
      'min_sequence_number@516', 'added_snapshot_id@503', 'added_files_count@504', 'existing_files_count@505',
      'deleted_files_count@506', 'added_rows_count@512', 'existing_rows_count@513', 'deleted_rows_count@514',
      'partitions@507', 'partitions.element@508', 'partitions.contains_null@509', 'partitions.contains_nan@518',
      'partitions.lower_bound@510', 'partitions.upper_bound@511', 'key_metadata@519',
    ]);
    expect(list.records.map((r) => [r.added_snapshot_id, r.sequence_number, r.min_sequence_number, r.added_files_count, r.added_rows_count])).toEqual([
      [secondId, 2n, 2n, 1, 2n],
      [firstId, 1n, 1n, 1, 1n],
    ]);
    // Bounds as Appendix D bytes: 'b' in UTF-8, 2024-03-01 as day 19783 (0x4d47) little-endian.
    expect(list.records[0]!.partitions.map((p: Json) => [p.contains_null, p.contains_nan, p.lower_bound?.toString('hex'), p.upper_bound?.toString('hex')])).toEqual([
      [false, false, '62', '62'],
      [false, false, '474d0000', '474d0000'],
    ]);
    const icebirdList = icebirdDecode(listBytes);
    expect(icebirdList.metadata['snapshot-id']).toBe(String(secondId));
    expect(icebirdList.records.map((r) => [r.manifest_path, r.added_snapshot_id, r.sequence_number])).toEqual([
      [second.manifests[0]!.manifest_path, secondId, 2n],
      [first.manifests[0]!.manifest_path, firstId, 1n],
    ]);

    const manifestBytes = await io.read(second.manifests[0]!.manifest_path);
    const manifest = await avscDecode(manifestBytes);
    expect(manifest.meta).toMatchObject({ 'schema-id': '0', 'partition-spec-id': '0', 'format-version': '2', content: 'data' });
    expect(JSON.parse(manifest.meta.schema!)).toEqual(table.metadata.schemas[0]);
    expect(JSON.parse(manifest.meta['partition-spec']!)).toEqual(table.metadata['partition-specs'][0]!.fields);
    expect(manifest.schema.name).toBe('manifest_entry');
    const dataFile = manifest.schema.fields.find((f: Json) => f.name === 'data_file').type;
    expect(dataFile.name).toBe('r2');
    expect(dataFile.fields.find((f: Json) => f.name === 'partition').type.name).toBe('r102');
    const columnSizes = dataFile.fields.find((f: Json) => f.name === 'column_sizes').type[1];
    expect(columnSizes).toMatchObject({ type: 'array', logicalType: 'map', items: { type: 'record', name: 'k117_v118' } });
    expect(ids(manifest.schema)).toEqual([
      'status@0', 'snapshot_id@1', 'sequence_number@3', 'file_sequence_number@4', 'data_file@2',
      'data_file.content@134', 'data_file.file_path@100', 'data_file.file_format@101', 'data_file.partition@102',
      'data_file.partition.category@1000', 'data_file.partition.day_day@1001', 'data_file.record_count@103',
      'data_file.file_size_in_bytes@104', 'data_file.column_sizes@108', 'data_file.column_sizes.key@117', 'data_file.column_sizes.value@118',
      'data_file.value_counts@109', 'data_file.value_counts.key@119', 'data_file.value_counts.value@120',
      'data_file.null_value_counts@110', 'data_file.null_value_counts.key@121', 'data_file.null_value_counts.value@122',
      'data_file.nan_value_counts@137', 'data_file.nan_value_counts.key@138', 'data_file.nan_value_counts.value@139',
      'data_file.lower_bounds@125', 'data_file.lower_bounds.key@126', 'data_file.lower_bounds.value@127',
      'data_file.upper_bounds@128', 'data_file.upper_bounds.key@129', 'data_file.upper_bounds.value@130',
      'data_file.key_metadata@131', 'data_file.split_offsets@132', 'data_file.split_offsets.element@133',
      'data_file.equality_ids@135', 'data_file.equality_ids.element@136', 'data_file.sort_order_id@140',
      'data_file.referenced_data_file@143',
    ]);
    expect(manifest.records).toHaveLength(1);
    const entry = manifest.records[0]!;
    expect([entry.status, entry.snapshot_id, entry.sequence_number, entry.file_sequence_number]).toEqual([1, secondId, null, null]);
    expect(entry.data_file).toMatchObject({ content: 0, file_format: 'PARQUET', partition: { category: 'b', day_day: 19783 }, record_count: 2n });
    const bounds = (list: Json[]) => list.map((kv) => [kv.key, kv.value.toString('hex')]);
    expect(bounds(entry.data_file.lower_bounds)).toEqual([[1, '0200000000000000'], [2, '62'], [3, '474d0000']]);
    expect(bounds(entry.data_file.upper_bounds)).toEqual([[1, '0300000000000000'], [2, '62'], [3, '474d0000']]);

    const icebirdEntries = icebirdDecode(manifestBytes).records;
    expect(icebirdEntries[0]).toMatchObject({ status: 1, snapshot_id: secondId, sequence_number: undefined, data_file: { partition: { category: 'b', day_day: day } } });

    // The library's reader inherits the sequence numbers from the list.
    const decoded = decodeManifest(manifestBytes, second.manifests[0]);
    expect(decoded.entries.map((e) => [e.sequence_number, e.file_sequence_number, e.snapshot_id])).toEqual([[2, 2, secondId]]);
    expect(decoded.entries[0]!.data_file.partition).toEqual({ category: 'b', day_day: day });
  });
});

const schema: Schema = {
  type: 'struct',
  'schema-id': 0,
  fields: [
    { id: 1, name: 'id', required: true, type: 'long' },
    { id: 2, name: 'ts', required: false, type: 'timestamp' },
  ],
};
const spec: PartitionSpec = { 'spec-id': 3, fields: [{ 'source-id': 2, 'field-id': 1000, name: 'ts', transform: 'identity' }] };
const file = (path: string, records: number, firstRowId: number | null = null, ts: bigint | null = 5n): ManifestEntry['data_file'] => ({
  content: 0,
  file_path: path,
  file_format: 'PARQUET',
  partition: { ts },
  record_count: records,
  file_size_in_bytes: 100,
  first_row_id: firstRowId,
});

describe('manifest encoding and inheritance', () => {
  const bigId = 2n ** 63n - 1n;
  const entries: ManifestEntry[] = [
    { status: 1, snapshot_id: null, sequence_number: null, file_sequence_number: null, data_file: file('s3://b/added', 10) },
    { status: 0, snapshot_id: 7n, sequence_number: 3, file_sequence_number: 4, data_file: file('s3://b/existing', 5, 100, null) },
    { status: 2, snapshot_id: 8n, sequence_number: 2, file_sequence_number: 2, data_file: file('s3://b/deleted', 1) },
    { status: 1, snapshot_id: null, sequence_number: null, file_sequence_number: null, data_file: file('s3://b/added2', 7, null, -1n) },
  ];

  it('describes a manifest for its list entry and inherits ids and sequence numbers on read (v3 row ids too)', () => {
    const { bytes, summary } = encodeManifest({ schema, spec, formatVersion: 3, content: 'data', snapshotId: bigId, entries });
    expect(summary).toMatchObject({
      partition_spec_id: 3, content: 0, sequence_number: UNASSIGNED_SEQ, min_sequence_number: 3, added_snapshot_id: bigId,
      added_files_count: 2, existing_files_count: 1, deleted_files_count: 1, added_rows_count: 17, existing_rows_count: 5, deleted_rows_count: 1,
    });
    expect(summary.partitions).toEqual([{ contains_null: true, contains_nan: false, lower_bound: Uint8Array.from(Buffer.from('ffffffffffffffff', 'hex')), upper_bound: Uint8Array.from(Buffer.from('0500000000000000', 'hex')) }]);
    const listEntry: ManifestFile = { ...summary, manifest_path: 's3://b/m.avro', manifest_length: bytes.length, sequence_number: 9, min_sequence_number: 3, first_row_id: 1000 };
    const out = decodeManifest(bytes, listEntry);
    expect(out.formatVersion).toBe(3);
    expect(out.entries.map((e) => [e.status, e.snapshot_id, e.sequence_number, e.file_sequence_number, e.data_file.first_row_id, e.data_file.partition.ts])).toEqual([
      [1, bigId, 9, 9, 1000, 5n],
      [0, 7n, 3, 4, 100, null],
      [2, 8n, 2, 2, 1010, 5n],
      [1, bigId, 9, 9, 1011, -1n],
    ]);
    // Without the list entry, entries stay as stored.
    expect(decodeManifest(bytes).entries[0]).toMatchObject({ snapshot_id: null, sequence_number: null, data_file: { first_row_id: null } });
  });

  it('assigns the snapshot sequence number and v3 first row ids in the list, and refuses a foreign unassigned manifest', () => {
    const mine: ManifestFile = {
      manifest_path: 's3://b/new.avro', manifest_length: 1, partition_spec_id: 0, content: 0, sequence_number: UNASSIGNED_SEQ, min_sequence_number: UNASSIGNED_SEQ,
      added_snapshot_id: 42n, added_files_count: 1, existing_files_count: 0, deleted_files_count: 0, added_rows_count: 10, existing_rows_count: 2, deleted_rows_count: 0,
    };
    const old: ManifestFile = { ...mine, manifest_path: 's3://b/old.avro', sequence_number: 1, min_sequence_number: 1, added_snapshot_id: 41n, first_row_id: 0 };
    const deletes: ManifestFile = { ...mine, manifest_path: 's3://b/del.avro', content: 1 };
    const { bytes, manifests, addedRows } = encodeManifestList({ snapshotId: 42n, parentSnapshotId: 41n, sequenceNumber: 2, formatVersion: 3, firstRowId: 50, manifests: [mine, deletes, old] });
    expect(manifests.map((m) => [m.sequence_number, m.min_sequence_number, m.first_row_id])).toEqual([[2, 2, 50], [2, 2, null], [1, 1, 0]]);
    expect(addedRows).toBe(12);
    const back = decodeManifestList(bytes);
    expect(back.metadata).toMatchObject({ 'snapshot-id': '42', 'parent-snapshot-id': '41', 'sequence-number': '2', 'first-row-id': '50', 'format-version': '3' });
    expect(back.manifests).toEqual(manifests.map((m) => ({ ...m, partitions: null, key_metadata: null })));
    expect(() => encodeManifestList({ snapshotId: 43n, parentSnapshotId: 42n, sequenceNumber: 3, formatVersion: 2, manifests: [mine] })).toThrow(/no sequence number/);
  });

  it('writes Avro with either codec and keeps 63-bit ids exact', () => {
    const s = { type: 'record', name: 'r', fields: [{ name: 'id', type: 'long', 'field-id': 1 }, { name: 'n', type: ['null', 'long'], default: null, 'field-id': 2 }] };
    for (const codec of ['null', 'deflate'] as const) {
      const bytes = writeAvro(s, [{ id: 2n ** 63n - 1n, n: 5 }, { id: 1n, n: null }], { codec, bigintFieldIds: new Set([1]), metadata: { k: 'v' } });
      const back = readAvro(bytes, { bigintFieldIds: new Set([1]) });
      expect(back.codec).toBe(codec);
      expect(back.metadata.k).toBe('v');
      expect(back.records.map((r) => ({ ...(r as object) }))).toEqual([{ id: 2n ** 63n - 1n, n: 5 }, { id: 1n, n: null }]);
    }
  });
});
