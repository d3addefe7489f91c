/**
 * The Iceberg table metadata (format version 2, or 3 when `properties["format-version"]` asks)
 * that CreateTable writes when the request carries `metadata.iceberg`: the schema (flat `schema`
 * with field ids assigned 1…N where omitted, or nested `schemaV2` with struct/list/map types), the
 * partition spec (field ids from 1000) and sort order with their ids, properties, and every field
 * the Iceberg table spec requires ("Table Metadata Fields"), laid out as the Java reference
 * implementation writes it. `planTableMetadata` validates everything before anything is written;
 * `renderTableMetadata` produces the JSON once the warehouse location is known.
 */
import { randomUUID } from 'node:crypto';
import type * as S3T from '@aws-sdk/client-s3tables';
import { s3tErrors } from './errors.js';

type IcebergType = string | Record<string, unknown>;

interface FieldInfo {
  type: IcebergType;
  primitive: boolean;
  required: boolean;
  /** Reachable through required structs only (no list/map/optional parent): may be an identifier field. */
  plainPath: boolean;
  /** Not inside a list or map: may be a partition or sort source. */
  outsideCollections: boolean;
}

export interface MetadataPlan {
  formatVersion: number;
  schema: Record<string, unknown>;
  lastColumnId: number;
  partitionSpec: { 'spec-id': number; fields: Record<string, unknown>[] };
  lastPartitionId: number;
  sortOrder: { 'order-id': number; fields: Record<string, unknown>[] };
  properties: Record<string, string>;
}

const invalid = (message: string) => s3tErrors.badRequest(`Invalid Iceberg metadata: ${message}`);

const PRIMITIVES = new Set([
  'boolean',
  'int',
  'long',
  'float',
  'double',
  'date',
  'time',
  'timestamp',
  'timestamptz',
  'string',
  'uuid',
  'binary',
]);
const V3_PRIMITIVES = new Set(['timestamp_ns', 'timestamptz_ns', 'unknown', 'variant']);
const DECIMAL = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/i;
const FIXED = /^fixed\[\s*(\d+)\s*\]$/i;
const GEO = /^(geometry|geography)(\(.*\))?$/i;

/** A primitive type string, normalised as Iceberg's Java library writes it (`decimal(10, 2)`, `fixed[16]`). */
function primitiveType(raw: string, formatVersion: number, where: string): string {
  const text = raw.trim();
  const lower = text.toLowerCase();
  if (PRIMITIVES.has(lower)) return lower;
  if (V3_PRIMITIVES.has(lower) || GEO.test(text)) {
    if (formatVersion < 3) throw invalid(`type '${raw}' of ${where} requires format-version 3`);
    return GEO.test(text) ? text.replace(/^(geometry|geography)/i, (m) => m.toLowerCase()) : lower;
  }
  const dec = DECIMAL.exec(text);
  if (dec) {
    const precision = Number(dec[1]);
    const scale = Number(dec[2]);
    if (precision < 1 || precision > 38) throw invalid(`decimal precision of ${where} must be between 1 and 38`);
    if (scale > precision) throw invalid(`decimal scale of ${where} must not exceed its precision`);
    return `decimal(${precision}, ${scale})`;
  }
  const fixed = FIXED.exec(text);
  if (fixed) {
    if (Number(fixed[1]) < 1) throw invalid(`fixed length of ${where} must be at least 1`);
    return `fixed[${Number(fixed[1])}]`;
  }
  throw invalid(`unknown type '${raw}' for ${where}`);
}

function checkId(id: unknown, where: string, ids: Map<number, FieldInfo>): number {
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) throw invalid(`${where} must have a non-negative integer id`);
  if (ids.has(id)) throw invalid(`field id ${id} is used more than once`);
  return id;
}

interface Walk {
  formatVersion: number;
  ids: Map<number, FieldInfo>;
}

/** Validates and normalises a schemaV2 type (primitive string or struct/list/map object). */
function nestedType(t: unknown, where: string, w: Walk, plainPath: boolean, outside: boolean): IcebergType {
  if (typeof t === 'string') return primitiveType(t, w.formatVersion, where);
  if (!t || typeof t !== 'object' || Array.isArray(t)) throw invalid(`type of ${where} must be a string or a type object`);
  const o = t as Record<string, unknown>;
  switch (o.type) {
    case 'struct':
      return { type: 'struct', fields: structFields(o.fields, where, w, plainPath, outside) };
    case 'list': {
      const elementRequired = o['element-required'];
      if (typeof elementRequired !== 'boolean') throw invalid(`list ${where} needs a boolean element-required`);
      const id = checkId(o['element-id'], `the element of list ${where}`, w.ids);
      const info: FieldInfo = { type: '', primitive: false, required: elementRequired, plainPath: false, outsideCollections: false };
      w.ids.set(id, info);
      info.type = nestedType(o.element, `${where}.element`, w, false, false);
      info.primitive = typeof info.type === 'string';
      return { type: 'list', 'element-id': id, element: info.type, 'element-required': elementRequired };
    }
    case 'map': {
      const valueRequired = o['value-required'];
      if (typeof valueRequired !== 'boolean') throw invalid(`map ${where} needs a boolean value-required`);
      const keyId = checkId(o['key-id'], `the key of map ${where}`, w.ids);
      const keyInfo: FieldInfo = { type: '', primitive: false, required: true, plainPath: false, outsideCollections: false };
      w.ids.set(keyId, keyInfo);
      keyInfo.type = nestedType(o.key, `${where}.key`, w, false, false);
      keyInfo.primitive = typeof keyInfo.type === 'string';
      const valueId = checkId(o['value-id'], `the value of map ${where}`, w.ids);
      const valueInfo: FieldInfo = { type: '', primitive: false, required: valueRequired, plainPath: false, outsideCollections: false };
      w.ids.set(valueId, valueInfo);
      valueInfo.type = nestedType(o.value, `${where}.value`, w, false, false);
      valueInfo.primitive = typeof valueInfo.type === 'string';
      return { type: 'map', 'key-id': keyId, key: keyInfo.type, 'value-id': valueId, value: valueInfo.type, 'value-required': valueRequired };
    }
    default:
      throw invalid(`type of ${where} must be a primitive type, struct, list or map`);
  }
}

function structFields(fields: unknown, where: string, w: Walk, plainPath: boolean, outside: boolean): Record<string, unknown>[] {
  if (!Array.isArray(fields)) throw invalid(`struct ${where} needs a list of fields`);
  const names = new Set<string>();
  return fields.map((f, i) => {
    if (!f || typeof f !== 'object') throw invalid(`field ${i + 1} of ${where} must be an object`);
    const field = f as Record<string, unknown>;
    const name = field.name;
    if (typeof name !== 'string' || name === '') throw invalid(`field ${i + 1} of ${where} needs a name`);
    if (names.has(name)) throw invalid(`field name '${name}' appears more than once in ${where}`);
    names.add(name);
    if (typeof field.required !== 'boolean') throw invalid(`field '${name}' needs a boolean required`);
    const id = checkId(field.id, `field '${name}'`, w.ids);
    const info: FieldInfo = { type: '', primitive: false, required: field.required, plainPath, outsideCollections: outside };
    w.ids.set(id, info);
    const path = where === 'schema' ? name : `${where}.${name}`;
    info.type = nestedType(field.type, path, w, plainPath && field.required, outside);
    info.primitive = typeof info.type === 'string';
    const out: Record<string, unknown> = { id, name, required: field.required, type: info.type };
    if (field.doc !== undefined) {
      if (typeof field.doc !== 'string') throw invalid(`doc of field '${name}' must be a string`);
      out.doc = field.doc;
    }
    return out;
  });
}

const TIME_TYPES = new Set(['date', 'timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns']);
const HOUR_TYPES = new Set(['timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns']);
const BUCKET_TYPES = new Set(['int', 'long', 'date', 'time', 'timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns', 'string', 'uuid', 'binary']);
const TRUNCATE_TYPES = new Set(['int', 'long', 'string', 'binary']);

/** Normalised transform text, after checking it applies to `type` (Iceberg spec, "Partition Transforms"). */
function transformFor(raw: string, type: string, where: string): string {
  const t = raw.trim().toLowerCase();
  const base = type.startsWith('decimal') ? 'decimal' : type.startsWith('fixed') ? 'fixed' : type;
  const bucket = /^bucket\[\s*(\d+)\s*\]$/.exec(t);
  const truncate = /^truncate\[\s*(\d+)\s*\]$/.exec(t);
  let ok: boolean;
  let text = t;
  if (t === 'identity' || t === 'void') ok = base !== 'variant' && base !== 'unknown';
  else if (t === 'year' || t === 'month' || t === 'day') ok = TIME_TYPES.has(base);
  else if (t === 'hour') ok = HOUR_TYPES.has(base);
  else if (bucket) {
    if (Number(bucket[1]) < 1) throw invalid(`bucket count of ${where} must be at least 1`);
    ok = BUCKET_TYPES.has(base) || base === 'decimal' || base === 'fixed';
    text = `bucket[${Number(bucket[1])}]`;
  } else if (truncate) {
    if (Number(truncate[1]) < 1) throw invalid(`truncate width of ${where} must be at least 1`);
    ok = TRUNCATE_TYPES.has(base) || base === 'decimal';
    text = `truncate[${Number(truncate[1])}]`;
  } else throw invalid(`unknown transform '${raw}' in ${where}`);
  if (!ok) throw invalid(`transform '${raw}' in ${where} cannot be applied to type ${type}`);
  return text;
}

function sourceField(ids: Map<number, FieldInfo>, sourceId: number | undefined, where: string): FieldInfo & { type: string } {
  const info = sourceId === undefined ? undefined : ids.get(sourceId);
  if (!info) throw invalid(`source-id ${sourceId} of ${where} does not reference a schema field`);
  if (!info.primitive) throw invalid(`source-id ${sourceId} of ${where} references a non-primitive field`);
  if (!info.outsideCollections) throw invalid(`source-id ${sourceId} of ${where} references a field inside a list or map`);
  return info as FieldInfo & { type: string };
}

function formatVersionOf(properties: Record<string, string> | undefined): number {
  const raw = properties?.['format-version'];
  if (raw === undefined) return 2;
  if (raw === '2' || raw === '3') return Number(raw);
  throw invalid(`format-version '${raw}' is not supported; use 2 or 3`);
}

/** Validates `metadata.iceberg` and computes everything the metadata file holds except its location. */
export function planTableMetadata(iceberg: S3T.IcebergMetadata): MetadataPlan {
  if (iceberg.schema && iceberg.schemaV2) throw invalid('specify either schema or schemaV2, not both');
  const formatVersion = formatVersionOf(iceberg.properties);
  const w: Walk = { formatVersion, ids: new Map() };
  let fields: Record<string, unknown>[];
  let schemaId = 0;
  let identifierIds: number[] | undefined;

  if (iceberg.schemaV2) {
    const v2 = iceberg.schemaV2;
    fields = structFields(v2.fields, 'schema', w, true, true);
    if (v2.schemaId !== undefined) {
      if (v2.schemaId < 0) throw invalid('schema-id must not be negative');
      schemaId = v2.schemaId;
    }
    identifierIds = v2.identifierFieldIds;
    for (const id of identifierIds ?? []) {
      const info = w.ids.get(id);
      if (!info) throw invalid(`identifier field id ${id} does not reference a schema field`);
      const t = typeof info.type === 'string' ? info.type : '';
      if (!info.primitive || !info.required || !info.plainPath || t === 'float' || t === 'double') {
        throw invalid(`identifier field id ${id} must reference a required primitive field (not float or double) outside lists, maps and optional structs`);
      }
    }
  } else {
    const flat = iceberg.schema?.fields ?? [];
    const given = new Set<number>();
    for (const f of flat) {
      if (f.id === undefined) continue;
      if (!Number.isInteger(f.id) || f.id < 0) throw invalid(`field '${f.name}' must have a non-negative integer id`);
      if (given.has(f.id)) throw invalid(`field id ${f.id} is used more than once`);
      given.add(f.id);
    }
    let next = 1;
    const names = new Set<string>();
    fields = flat.map((f, i) => {
      const name = f.name ?? '';
      if (name === '') throw invalid(`field ${i + 1} of schema needs a name`);
      if (names.has(name)) throw invalid(`field name '${name}' appears more than once in schema`);
      names.add(name);
      let id = f.id;
      if (id === undefined) {
        while (given.has(next)) next++;
        id = next++;
      }
      const rawType = f.type ?? '';
      if (/[<>{}]/.test(rawType) || /^(struct|list|map)\b/i.test(rawType.trim())) {
        throw invalid(`type '${rawType}' of field '${name}' is not a primitive type; use schemaV2 for nested types`);
      }
      const type = primitiveType(rawType, formatVersion, `field '${name}'`);
      const required = f.required ?? false;
      w.ids.set(id, { type, primitive: true, required, plainPath: true, outsideCollections: true });
      return { id, name, required, type };
    });
  }
  const lastColumnId = Math.max(0, ...w.ids.keys());
  const schema: Record<string, unknown> = { type: 'struct', 'schema-id': schemaId };
  if (identifierIds && identifierIds.length > 0) schema['identifier-field-ids'] = [...identifierIds];
  schema.fields = fields;

  // Partition spec: field ids from 1000 (Iceberg's PARTITION_DATA_ID_START), 999 when unpartitioned.
  const specFields = iceberg.partitionSpec?.fields ?? [];
  const specId = iceberg.partitionSpec?.specId ?? 0;
  if (specId < 0) throw invalid('spec-id must not be negative');
  const givenPartitionIds = new Set<number>();
  for (const p of specFields) {
    if (p.fieldId === undefined) continue;
    if (p.fieldId < 0) throw invalid('partition field-id must not be negative');
    if (givenPartitionIds.has(p.fieldId) || w.ids.has(p.fieldId)) throw invalid(`partition field-id ${p.fieldId} is used more than once`);
    givenPartitionIds.add(p.fieldId);
  }
  const topNames = new Map(fields.map((f) => [f.name as string, f.id as number]));
  const partitionNames = new Set<string>();
  const pairs = new Set<string>();
  let nextPartitionId = 1000;
  const partitionFields = specFields.map((p, i) => {
    const where = `partition field ${i + 1}`;
    const source = sourceField(w.ids, p.sourceId, where);
    const transform = transformFor(p.transform ?? '', source.type, where);
    const name = p.name ?? '';
    if (name === '') throw invalid(`${where} needs a name`);
    if (partitionNames.has(name)) throw invalid(`partition field name '${name}' appears more than once`);
    partitionNames.add(name);
    if (topNames.has(name) && !(transform === 'identity' && topNames.get(name) === p.sourceId)) {
      throw invalid(`partition field name '${name}' conflicts with a schema field`);
    }
    const pair = `${p.sourceId}:${transform}`;
    if (pairs.has(pair)) throw invalid(`${where} repeats the transform ${transform} of source-id ${p.sourceId}`);
    pairs.add(pair);
    let fieldId = p.fieldId;
    if (fieldId === undefined) {
      while (givenPartitionIds.has(nextPartitionId)) nextPartitionId++;
      fieldId = nextPartitionId++;
    }
    return { name, transform, 'source-id': p.sourceId, 'field-id': fieldId };
  });
  const lastPartitionId = Math.max(999, ...partitionFields.map((f) => f['field-id'] as number));

  // Sort order: 0 is reserved for the unsorted order.
  let sortOrder: MetadataPlan['sortOrder'] = { 'order-id': 0, fields: [] };
  const order = iceberg.writeOrder;
  if (order) {
    const sortFields = order.fields ?? [];
    if (sortFields.length === 0 && order.orderId !== 0) throw invalid('an unsorted write order must have order-id 0');
    if (sortFields.length > 0 && order.orderId === 0) throw invalid('order-id 0 is reserved for the unsorted order');
    if (order.orderId !== undefined && order.orderId < 0) throw invalid('order-id must not be negative');
    sortOrder = {
      'order-id': order.orderId ?? 1,
      fields: sortFields.map((s, i) => {
        const where = `sort field ${i + 1}`;
        const source = sourceField(w.ids, s.sourceId, where);
        return {
          transform: transformFor(s.transform ?? '', source.type, where),
          'source-id': s.sourceId,
          direction: s.direction,
          'null-order': s.nullOrder,
        };
      }),
    };
  }

  const properties: Record<string, string> = {};
  for (const [k, v] of Object.entries(iceberg.properties ?? {})) if (k !== 'format-version') properties[k] = v;

  return {
    formatVersion,
    schema,
    lastColumnId,
    partitionSpec: { 'spec-id': specId, fields: partitionFields },
    lastPartitionId,
    sortOrder,
    properties,
  };
}

/** The metadata.json text for a plan, a table location and a creation time (epoch ms). */
export function renderTableMetadata(plan: MetadataPlan, location: string, nowMs: number, tableUuid = randomUUID()): string {
  const doc: Record<string, unknown> = {
    'format-version': plan.formatVersion,
    'table-uuid': tableUuid,
    location,
    'last-sequence-number': 0,
    'last-updated-ms': nowMs,
    'last-column-id': plan.lastColumnId,
    'current-schema-id': plan.schema['schema-id'],
    schemas: [plan.schema],
    'default-spec-id': plan.partitionSpec['spec-id'],
    'partition-specs': [plan.partitionSpec],
    'last-partition-id': plan.lastPartitionId,
    'default-sort-order-id': plan.sortOrder['order-id'],
    'sort-orders': [plan.sortOrder],
    properties: plan.properties,
    // The Java reference writes -1 for "no current snapshot" up to v2 and null from v3.
    'current-snapshot-id': plan.formatVersion >= 3 ? null : -1,
    refs: {},
    snapshots: [],
    statistics: [],
    'partition-statistics': [],
    'snapshot-log': [],
    'metadata-log': [],
  };
  if (plan.formatVersion >= 3) doc['next-row-id'] = 0;
  return JSON.stringify(doc);
}
