/**
 * The requirements and updates of a table commit (REST spec `TableRequirement`, `TableUpdate`),
 * read from their JSON into typed values. Every member is checked for presence and type with the
 * Java parsers' wording ("Cannot parse missing string: uuid"), an unknown `type` or `action` is
 * refused rather than ignored, and view-only actions are refused on a table. Nested documents a
 * later step checks against the table (schemas, specs, sort orders) stay raw here.
 */
import { InvalidMetadataError } from './schema.js';
import type { EncryptionKey, PartitionStatisticsFile, Snapshot, StatisticsFile } from './types.js';

export type TableRequirement =
  | { type: 'assert-create' }
  | { type: 'assert-table-uuid'; uuid: string }
  | { type: 'assert-ref-snapshot-id'; ref: string; 'snapshot-id': bigint | null }
  | { type: 'assert-last-assigned-field-id'; 'last-assigned-field-id': number }
  | { type: 'assert-current-schema-id'; 'current-schema-id': number }
  | { type: 'assert-last-assigned-partition-id'; 'last-assigned-partition-id': number }
  | { type: 'assert-default-spec-id'; 'default-spec-id': number }
  | { type: 'assert-default-sort-order-id'; 'default-sort-order-id': number };

export type TableUpdate =
  | { action: 'assign-uuid'; uuid: string }
  | { action: 'upgrade-format-version'; 'format-version': number }
  | { action: 'add-schema'; schema: unknown; 'last-column-id'?: number }
  | { action: 'set-current-schema'; 'schema-id': number }
  | { action: 'add-spec'; spec: Record<string, unknown> }
  | { action: 'set-default-spec'; 'spec-id': number }
  | { action: 'add-sort-order'; 'sort-order': Record<string, unknown> }
  | { action: 'set-default-sort-order'; 'sort-order-id': number }
  | { action: 'add-snapshot'; snapshot: Snapshot }
  | {
      action: 'set-snapshot-ref';
      'ref-name': string;
      type: 'branch' | 'tag';
      'snapshot-id': bigint;
      'max-ref-age-ms'?: number;
      'max-snapshot-age-ms'?: number;
      'min-snapshots-to-keep'?: number;
    }
  | { action: 'remove-snapshots'; 'snapshot-ids': bigint[] }
  | { action: 'remove-snapshot-ref'; 'ref-name': string }
  | { action: 'set-location'; location: string }
  | { action: 'set-properties'; updates: Record<string, string> }
  | { action: 'remove-properties'; removals: string[] }
  | { action: 'set-statistics'; statistics: StatisticsFile }
  | { action: 'remove-statistics'; 'snapshot-id': bigint }
  | { action: 'set-partition-statistics'; 'partition-statistics': PartitionStatisticsFile }
  | { action: 'remove-partition-statistics'; 'snapshot-id': bigint }
  | { action: 'remove-partition-specs'; 'spec-ids': number[] }
  | { action: 'remove-schemas'; 'schema-ids': number[] }
  | { action: 'add-encryption-key'; 'encryption-key': EncryptionKey }
  | { action: 'remove-encryption-key'; 'key-id': string };

type Json = Record<string, unknown>;

const fail = (message: string) => new InvalidMetadataError(message);

function show(v: unknown): string {
  return typeof v === 'bigint' ? v.toString() : JSON.stringify(v) ?? String(v);
}

/** Typed member readers with the Java JsonUtil's messages. */
export const read = {
  object(o: Json, key: string): Json {
    const v = o[key];
    if (v === undefined || v === null) throw fail(`Cannot parse missing field: ${key}`);
    if (typeof v !== 'object' || Array.isArray(v)) throw fail(`Cannot parse ${key} from non-object value: ${show(v)}`);
    return v as Json;
  },
  string(o: Json, key: string): string {
    const v = o[key];
    if (v === undefined || v === null) throw fail(`Cannot parse missing string: ${key}`);
    if (typeof v !== 'string') throw fail(`Cannot parse to a string value: ${key}: ${show(v)}`);
    return v;
  },
  int(o: Json, key: string): number {
    const v = o[key];
    if (v === undefined || v === null) throw fail(`Cannot parse missing int: ${key}`);
    if (typeof v !== 'number' || !Number.isInteger(v) || Math.abs(v) > 2 ** 31) {
      throw fail(`Cannot parse to an integer value: ${key}: ${show(v)}`);
    }
    return v;
  },
  long(o: Json, key: string): number {
    const v = o[key];
    if (v === undefined || v === null) throw fail(`Cannot parse missing long: ${key}`);
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw fail(`Cannot parse to a long value: ${key}: ${show(v)}`);
    return v;
  },
  /** Snapshot ids (`bigint` after parseIcebergJson). */
  id(o: Json, key: string): bigint {
    const v = o[key];
    if (v === undefined || v === null) throw fail(`Cannot parse missing long: ${key}`);
    if (typeof v !== 'bigint') throw fail(`Cannot parse to a long value: ${key}: ${show(v)}`);
    return v;
  },
  optionalLong(o: Json, key: string): number | undefined {
    return o[key] === undefined || o[key] === null ? undefined : read.long(o, key);
  },
  optionalInt(o: Json, key: string): number | undefined {
    return o[key] === undefined || o[key] === null ? undefined : read.int(o, key);
  },
  stringMap(o: Json, key: string): Record<string, string> {
    const m = read.object(o, key);
    for (const [k, v] of Object.entries(m)) {
      if (typeof v !== 'string') throw fail(`Cannot parse to a string value: ${k}: ${show(v)}`);
    }
    return m as Record<string, string>;
  },
  list(o: Json, key: string): unknown[] {
    const v = o[key];
    if (v === undefined || v === null) throw fail(`Cannot parse missing list: ${key}`);
    if (!Array.isArray(v)) throw fail(`Cannot parse JSON array from non-array value: ${key}: ${show(v)}`);
    return v;
  },
  stringList(o: Json, key: string): string[] {
    return read.list(o, key).map((v) => {
      if (typeof v !== 'string') throw fail(`Cannot parse string from non-text value in ${key}: ${show(v)}`);
      return v;
    });
  },
  intList(o: Json, key: string): number[] {
    return read.list(o, key).map((v) => {
      if (typeof v !== 'number' || !Number.isInteger(v)) throw fail(`Cannot parse integer from non-int value in ${key}: ${show(v)}`);
      return v;
    });
  },
  idList(o: Json, key: string): bigint[] {
    return read.list(o, key).map((v) => {
      if (typeof v !== 'bigint') throw fail(`Cannot parse long from non-long value in ${key}: ${show(v)}`);
      return v;
    });
  },
};

function asObject(value: unknown, what: string): Json {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw fail(`Cannot parse ${what} from non-object value: ${show(value)}`);
  return value as Json;
}

export function parseRequirement(value: unknown): TableRequirement {
  const o = asObject(value, 'update requirement');
  const type = read.string(o, 'type');
  switch (type) {
    case 'assert-create':
      return { type };
    case 'assert-table-uuid':
      return { type, uuid: read.string(o, 'uuid') };
    case 'assert-ref-snapshot-id': {
      const ref = read.string(o, 'ref');
      const id = o['snapshot-id'];
      return { type, ref, 'snapshot-id': id === null || id === undefined ? null : read.id(o, 'snapshot-id') };
    }
    case 'assert-last-assigned-field-id':
    case 'assert-current-schema-id':
    case 'assert-last-assigned-partition-id':
    case 'assert-default-spec-id':
    case 'assert-default-sort-order-id': {
      const key = type.slice('assert-'.length);
      return { type, [key]: read.int(o, key) } as TableRequirement;
    }
    default:
      throw fail(`Cannot parse update requirement. Invalid update requirement type: ${type}`);
  }
}

function parseSnapshot(value: unknown): Snapshot {
  const o = asObject(value, 'snapshot');
  const summaryRaw = o.summary === undefined || o.summary === null ? undefined : read.stringMap(o, 'summary');
  if (!summaryRaw?.operation) throw fail('Cannot parse missing string: operation');
  const snapshot: Snapshot = {
    'snapshot-id': read.id(o, 'snapshot-id'),
    'timestamp-ms': read.long(o, 'timestamp-ms'),
    'manifest-list': read.string(o, 'manifest-list'),
    summary: summaryRaw as Snapshot['summary'],
  };
  if (o['parent-snapshot-id'] !== undefined && o['parent-snapshot-id'] !== null) {
    snapshot['parent-snapshot-id'] = read.id(o, 'parent-snapshot-id');
  }
  const seq = read.optionalLong(o, 'sequence-number');
  if (seq !== undefined) snapshot['sequence-number'] = seq;
  const schemaId = read.optionalInt(o, 'schema-id');
  if (schemaId !== undefined) snapshot['schema-id'] = schemaId;
  const firstRowId = read.optionalLong(o, 'first-row-id');
  if (firstRowId !== undefined) snapshot['first-row-id'] = firstRowId;
  const addedRows = read.optionalLong(o, 'added-rows');
  if (addedRows !== undefined) snapshot['added-rows'] = addedRows;
  if (o['key-id'] !== undefined && o['key-id'] !== null) snapshot['key-id'] = read.string(o, 'key-id');
  // Order the members as the Java writer does, so re-written documents read the same.
  return reorder(snapshot, [
    'sequence-number', 'snapshot-id', 'parent-snapshot-id', 'timestamp-ms', 'manifest-list', 'summary', 'schema-id',
    'first-row-id', 'added-rows', 'key-id',
  ]);
}

function reorder<T extends object>(o: T, order: string[]): T {
  const out: Record<string, unknown> = {};
  for (const k of order) if ((o as Record<string, unknown>)[k] !== undefined) out[k] = (o as Record<string, unknown>)[k];
  return out as T;
}

function parseStatistics(value: unknown): StatisticsFile {
  const o = asObject(value, 'statistics file');
  const blobs = read.list(o, 'blob-metadata').map((b) => {
    const blob = asObject(b, 'blob metadata');
    const out: StatisticsFile['blob-metadata'][number] = {
      type: read.string(blob, 'type'),
      'snapshot-id': read.id(blob, 'snapshot-id'),
      'sequence-number': read.long(blob, 'sequence-number'),
      fields: read.intList(blob, 'fields'),
    };
    if (blob.properties !== undefined && blob.properties !== null) out.properties = read.stringMap(blob, 'properties');
    return out;
  });
  const file: StatisticsFile = {
    'snapshot-id': read.id(o, 'snapshot-id'),
    'statistics-path': read.string(o, 'statistics-path'),
    'file-size-in-bytes': read.long(o, 'file-size-in-bytes'),
    'file-footer-size-in-bytes': read.long(o, 'file-footer-size-in-bytes'),
    'blob-metadata': blobs,
  };
  if (o['key-metadata'] !== undefined && o['key-metadata'] !== null) file['key-metadata'] = read.string(o, 'key-metadata');
  return file;
}

function parsePartitionStatistics(value: unknown): PartitionStatisticsFile {
  const o = asObject(value, 'partition statistics file');
  return {
    'snapshot-id': read.id(o, 'snapshot-id'),
    'statistics-path': read.string(o, 'statistics-path'),
    'file-size-in-bytes': read.long(o, 'file-size-in-bytes'),
  };
}

function parseEncryptionKey(value: unknown): EncryptionKey {
  const o = asObject(value, 'encryption key');
  const key: EncryptionKey = { 'key-id': read.string(o, 'key-id'), 'encrypted-key-metadata': read.string(o, 'encrypted-key-metadata') };
  if (o['encrypted-by-id'] !== undefined && o['encrypted-by-id'] !== null) key['encrypted-by-id'] = read.string(o, 'encrypted-by-id');
  if (o.properties !== undefined && o.properties !== null) key.properties = read.stringMap(o, 'properties');
  return key;
}

const VIEW_ACTIONS = new Set(['add-view-version', 'set-current-view-version']);

export function parseUpdate(value: unknown): TableUpdate {
  const o = asObject(value, 'metadata update');
  const action = read.string(o, 'action');
  switch (action) {
    case 'assign-uuid':
      return { action, uuid: read.string(o, 'uuid') };
    case 'upgrade-format-version':
      return { action, 'format-version': read.int(o, 'format-version') };
    case 'add-schema': {
      const u: TableUpdate = { action, schema: read.object(o, 'schema') };
      const last = read.optionalInt(o, 'last-column-id');
      if (last !== undefined) u['last-column-id'] = last;
      return u;
    }
    case 'set-current-schema':
      return { action, 'schema-id': read.int(o, 'schema-id') };
    case 'add-spec':
      return { action, spec: read.object(o, 'spec') };
    case 'set-default-spec':
      return { action, 'spec-id': read.int(o, 'spec-id') };
    case 'add-sort-order':
      return { action, 'sort-order': read.object(o, 'sort-order') };
    case 'set-default-sort-order':
      return { action, 'sort-order-id': read.int(o, 'sort-order-id') };
    case 'add-snapshot':
      return { action, snapshot: parseSnapshot(o.snapshot ?? null) };
    case 'set-snapshot-ref': {
      const type = read.string(o, 'type').toLowerCase();
      if (type !== 'branch' && type !== 'tag') throw fail(`Invalid snapshot ref type: ${o.type}`);
      const u: TableUpdate = { action, 'ref-name': read.string(o, 'ref-name'), type, 'snapshot-id': read.id(o, 'snapshot-id') };
      for (const key of ['max-ref-age-ms', 'max-snapshot-age-ms', 'min-snapshots-to-keep'] as const) {
        const v = key === 'min-snapshots-to-keep' ? read.optionalInt(o, key) : read.optionalLong(o, key);
        if (v !== undefined) u[key] = v;
      }
      return u;
    }
    case 'remove-snapshots':
      return { action, 'snapshot-ids': read.idList(o, 'snapshot-ids') };
    case 'remove-snapshot-ref':
      return { action, 'ref-name': read.string(o, 'ref-name') };
    case 'set-location':
      return { action, location: read.string(o, 'location') };
    case 'set-properties':
      return { action, updates: read.stringMap(o, 'updates') };
    case 'remove-properties':
      return { action, removals: read.stringList(o, 'removals') };
    case 'set-statistics':
      return { action, statistics: parseStatistics(o.statistics ?? null) };
    case 'remove-statistics':
      return { action, 'snapshot-id': read.id(o, 'snapshot-id') };
    case 'set-partition-statistics':
      return { action, 'partition-statistics': parsePartitionStatistics(o['partition-statistics'] ?? null) };
    case 'remove-partition-statistics':
      return { action, 'snapshot-id': read.id(o, 'snapshot-id') };
    case 'remove-partition-specs':
      return { action, 'spec-ids': read.intList(o, 'spec-ids') };
    case 'remove-schemas':
      return { action, 'schema-ids': read.intList(o, 'schema-ids') };
    case 'add-encryption-key':
      return { action, 'encryption-key': parseEncryptionKey(o['encryption-key'] ?? null) };
    case 'remove-encryption-key':
      return { action, 'key-id': read.string(o, 'key-id') };
    default:
      if (VIEW_ACTIONS.has(action)) throw fail(`Cannot apply ${action} to a table: it is a view update`);
      throw fail(`Cannot convert metadata update action from json: ${action}`);
  }
}
