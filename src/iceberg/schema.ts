/**
 * Checking and normalising Iceberg schemas, partition specs and sort orders as their JSON arrives
 * (S3 Tables CreateTable's `schemaV2`, a REST createTable or `add-schema`): primitive types as the
 * Java library writes them (`decimal(10, 2)`, `fixed[16]`), nested struct/list/map types with
 * unique field ids, identifier fields, transforms that apply to their source type (spec,
 * "Partition Transforms"), partition field ids from 1000, and the unsorted order's reserved id 0.
 * Everything throws `InvalidMetadataError` with a sentence a user can act on; callers add their
 * service's wording around it.
 */
import type { IcebergType, NestedField, PartitionField, Schema, SortField } from './types.js';

export class InvalidMetadataError extends Error {}

const invalid = (message: string) => new InvalidMetadataError(message);

/** What the checks know of each field id of a schema. */
interface FieldInfo {
  type: IcebergType;
  primitive: boolean;
  required: boolean;
  /** Reachable through required structs only (no list/map/optional parent): may be an identifier field. */
  plainPath: boolean;
  /** Not inside a list or map: may be a partition or sort source. */
  outsideCollections: boolean;
}

type FieldIndex = Map<number, FieldInfo>;

const PRIMITIVES = new Set([
  'boolean', 'int', 'long', 'float', 'double', 'date', 'time', 'timestamp', 'timestamptz', 'string', 'uuid', 'binary',
]);
const V3_PRIMITIVES = new Set(['timestamp_ns', 'timestamptz_ns', 'unknown', 'variant']);
const DECIMAL = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/i;
const FIXED = /^fixed\[\s*(\d+)\s*\]$/i;
const GEO = /^(geometry|geography)(\(.*\))?$/i;

/** A primitive type string, normalised as Iceberg's Java library writes it. */
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

function checkId(id: unknown, where: string, ids: FieldIndex): number {
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) throw invalid(`${where} must have a non-negative integer id`);
  if (ids.has(id)) throw invalid(`field id ${id} is used more than once`);
  return id;
}

interface Walk {
  formatVersion: number;
  ids: FieldIndex;
}

function child(w: Walk, id: number, required: boolean, raw: unknown, where: string): IcebergType {
  const info: FieldInfo = { type: '', primitive: false, required, plainPath: false, outsideCollections: false };
  w.ids.set(id, info);
  info.type = nestedType(raw, where, w, false, false);
  info.primitive = typeof info.type === 'string';
  return info.type;
}

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
      const element = child(w, id, elementRequired, o.element, `${where}.element`);
      return { type: 'list', 'element-id': id, element, 'element-required': elementRequired };
    }
    case 'map': {
      const valueRequired = o['value-required'];
      if (typeof valueRequired !== 'boolean') throw invalid(`map ${where} needs a boolean value-required`);
      const keyId = checkId(o['key-id'], `the key of map ${where}`, w.ids);
      const key = child(w, keyId, true, o.key, `${where}.key`);
      const valueId = checkId(o['value-id'], `the value of map ${where}`, w.ids);
      const value = child(w, valueId, valueRequired, o.value, `${where}.value`);
      return { type: 'map', 'key-id': keyId, key, 'value-id': valueId, value, 'value-required': valueRequired };
    }
    default:
      throw invalid(`type of ${where} must be a primitive type, struct, list or map`);
  }
}

function structFields(fields: unknown, where: string, w: Walk, plainPath: boolean, outside: boolean): NestedField[] {
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
    const out: NestedField = { id, name, required: field.required, type: info.type };
    if (field.doc !== undefined) {
      if (typeof field.doc !== 'string') throw invalid(`doc of field '${name}' must be a string`);
      out.doc = field.doc;
    }
    for (const key of ['initial-default', 'write-default'] as const) {
      if (field[key] === undefined) continue;
      if (w.formatVersion < 3) throw invalid(`${key} of field '${name}' requires format-version 3`);
      out[key] = field[key];
    }
    return out;
  });
}

export interface CheckedSchema {
  schema: Schema;
  ids: FieldIndex;
  /** The highest field id anywhere in the schema (nested types included). */
  highestFieldId: number;
}

/**
 * A schema in Iceberg JSON (`{type: 'struct', 'schema-id'?, 'identifier-field-ids'?, fields}`),
 * checked and normalised. `schema-id` defaults to 0.
 */
export function checkSchema(raw: unknown, formatVersion: number): CheckedSchema {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalid('the schema must be an object');
  const o = raw as Record<string, unknown>;
  if (o.type !== undefined && o.type !== 'struct') throw invalid("the schema's type must be struct");
  const w: Walk = { formatVersion, ids: new Map() };
  const fields = structFields(o.fields, 'schema', w, true, true);
  const schemaId = o['schema-id'] ?? 0;
  if (typeof schemaId !== 'number' || !Number.isInteger(schemaId) || schemaId < 0) {
    throw invalid('schema-id must be a non-negative integer');
  }
  const identifierIds = o['identifier-field-ids'] ?? [];
  if (!Array.isArray(identifierIds)) throw invalid('identifier-field-ids must be a list of field ids');
  for (const id of identifierIds) {
    const info = typeof id === 'number' ? w.ids.get(id) : undefined;
    if (!info) throw invalid(`identifier field id ${String(id)} does not reference a schema field`);
    const t = typeof info.type === 'string' ? info.type : '';
    if (!info.primitive || !info.required || !info.plainPath || t === 'float' || t === 'double') {
      throw invalid(
        `identifier field id ${id} must reference a required primitive field (not float or double) outside lists, maps and optional structs`,
      );
    }
  }
  const schema: Schema = { type: 'struct', 'schema-id': schemaId, fields };
  if (identifierIds.length > 0) schema['identifier-field-ids'] = [...(identifierIds as number[])];
  return { schema, ids: w.ids, highestFieldId: Math.max(0, ...w.ids.keys()) };
}

const TIME_TYPES = new Set(['date', 'timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns']);
const HOUR_TYPES = new Set(['timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns']);
const BUCKET_TYPES = new Set(['int', 'long', 'date', 'time', 'timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns', 'string', 'uuid', 'binary']);
const TRUNCATE_TYPES = new Set(['int', 'long', 'string', 'binary']);

/** Normalised transform text, after checking it applies to `type` (spec, "Partition Transforms"). */
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

function sourceField(ids: FieldIndex, sourceId: unknown, where: string): FieldInfo & { type: string } {
  const info = typeof sourceId === 'number' ? ids.get(sourceId) : undefined;
  if (!info) throw invalid(`source-id ${String(sourceId)} of ${where} does not reference a schema field`);
  if (!info.primitive) throw invalid(`source-id ${sourceId} of ${where} references a non-primitive field`);
  if (!info.outsideCollections) throw invalid(`source-id ${sourceId} of ${where} references a field inside a list or map`);
  return info as FieldInfo & { type: string };
}

/** Iceberg's PARTITION_DATA_ID_START: partition field ids begin at 1000; 999 means none yet. */
export const PARTITION_ID_BASE = 1000;

/**
 * A partition spec's fields checked against a schema; missing `field-id`s are assigned after
 * `lastPartitionId` (and after every id given), as the Java builder does.
 */
export function checkPartitionFields(
  raw: unknown,
  checked: CheckedSchema,
  lastPartitionId: number = PARTITION_ID_BASE - 1,
): PartitionField[] {
  const specFields = raw ?? [];
  if (!Array.isArray(specFields)) throw invalid('the partition spec needs a list of fields');
  const given = new Set<number>();
  for (const p of specFields as Record<string, unknown>[]) {
    const id = p?.['field-id'];
    if (id === undefined) continue;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) throw invalid('partition field-id must be a non-negative integer');
    if (given.has(id) || checked.ids.has(id)) throw invalid(`partition field-id ${id} is used more than once`);
    given.add(id);
  }
  const topNames = new Map(checked.schema.fields.map((f) => [f.name, f.id]));
  const names = new Set<string>();
  const pairs = new Set<string>();
  let next = lastPartitionId + 1;
  return (specFields as unknown[]).map((f, i) => {
    const where = `partition field ${i + 1}`;
    if (!f || typeof f !== 'object') throw invalid(`${where} must be an object`);
    const p = f as Record<string, unknown>;
    const sourceId = p['source-id'];
    const source = sourceField(checked.ids, sourceId, where);
    if (typeof p.transform !== 'string') throw invalid(`${where} needs a transform`);
    const transform = transformFor(p.transform, source.type, where);
    const name = p.name;
    if (typeof name !== 'string' || name === '') throw invalid(`${where} needs a name`);
    if (names.has(name)) throw invalid(`partition field name '${name}' appears more than once`);
    names.add(name);
    if (topNames.has(name) && !(transform === 'identity' && topNames.get(name) === sourceId)) {
      throw invalid(`partition field name '${name}' conflicts with a schema field`);
    }
    const pair = `${sourceId}:${transform}`;
    if (pairs.has(pair)) throw invalid(`${where} repeats the transform ${transform} of source-id ${sourceId}`);
    pairs.add(pair);
    let fieldId = p['field-id'] as number | undefined;
    if (fieldId === undefined) {
      while (given.has(next)) next++;
      fieldId = next++;
    }
    return { name, transform, 'source-id': sourceId as number, 'field-id': fieldId };
  });
}

const DIRECTIONS = new Set(['asc', 'desc']);
const NULL_ORDERS = new Set(['nulls-first', 'nulls-last']);

/** A sort order's fields checked against a schema. */
export function checkSortFields(raw: unknown, checked: CheckedSchema): SortField[] {
  const fields = raw ?? [];
  if (!Array.isArray(fields)) throw invalid('the sort order needs a list of fields');
  return fields.map((f, i) => {
    const where = `sort field ${i + 1}`;
    if (!f || typeof f !== 'object') throw invalid(`${where} must be an object`);
    const s = f as Record<string, unknown>;
    const source = sourceField(checked.ids, s['source-id'], where);
    if (typeof s.transform !== 'string') throw invalid(`${where} needs a transform`);
    if (typeof s.direction !== 'string' || !DIRECTIONS.has(s.direction)) throw invalid(`${where} needs a direction, asc or desc`);
    const nullOrder = s['null-order'];
    if (typeof nullOrder !== 'string' || !NULL_ORDERS.has(nullOrder)) {
      throw invalid(`${where} needs a null-order, nulls-first or nulls-last`);
    }
    return {
      transform: transformFor(s.transform, source.type, where),
      'source-id': s['source-id'] as number,
      direction: s.direction as SortField['direction'],
      'null-order': nullOrder as SortField['null-order'],
    };
  });
}

/** The sort order id rules: 0 is the unsorted order and only it; ids are non-negative. */
export function checkSortOrderId(orderId: unknown, fieldCount: number): number {
  if (orderId !== undefined && (typeof orderId !== 'number' || !Number.isInteger(orderId) || orderId < 0)) {
    throw invalid('order-id must be a non-negative integer');
  }
  if (fieldCount === 0 && orderId !== undefined && orderId !== 0) throw invalid('an unsorted write order must have order-id 0');
  if (fieldCount > 0 && orderId === 0) throw invalid('order-id 0 is reserved for the unsorted order');
  return (orderId as number | undefined) ?? (fieldCount === 0 ? 0 : 1);
}

/** `properties["format-version"]` → 2 or 3 (default 2). */
export function formatVersionOf(properties: Record<string, string> | undefined): number {
  const raw = properties?.['format-version'];
  if (raw === undefined) return 2;
  if (raw === '2' || raw === '3') return Number(raw);
  throw invalid(`format-version '${raw}' is not supported; use 2 or 3`);
}
