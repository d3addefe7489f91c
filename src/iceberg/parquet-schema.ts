/**
 * Iceberg schemas as Parquet schemas (spec, Appendix A "Parquet"; Java `TypeToMessageType`):
 * every element carries its Iceberg field id; structs are groups, lists the 3-level
 * `<name> (LIST) { repeated group list { element } }` with the element id, maps the 3-level
 * `<name> (MAP) { repeated group key_value { key; value } }` with key and value ids; date is
 * INT32 DATE, time INT64 TIME(MICROS), timestamps INT64 TIMESTAMP(MICROS|NANOS) adjusted to UTC
 * for the tz types, decimals INT32/INT64/FIXED by precision, uuid FIXED[16] UUID; names made
 * Avro-compatible as Java does. `unknown` columns are left out of files.
 */
import type { SchemaElement } from 'hyparquet';
import type { IcebergType, NestedField, StructType } from './types.js';
import { avroName } from './avro-schema.js';
import { decimalRequiredBytes, isList, isMap, isStruct, primitive } from './model.js';

type Repetition = 'REQUIRED' | 'OPTIONAL' | 'REPEATED';

/** The flattened Parquet schema (root first) for an Iceberg struct, as hyparquet-writer takes it. */
export function parquetSchemaOf(schema: StructType): SchemaElement[] {
  const fields = schema.fields.filter((f) => !isUnknown(f.type));
  const out: SchemaElement[] = [{ name: 'table', num_children: fields.length }];
  for (const f of fields) field(out, f.name, f.type, f.required ? 'REQUIRED' : 'OPTIONAL', f.id);
  return out;
}

const isUnknown = (t: IcebergType): boolean => typeof t === 'string' && primitive(t).kind === 'unknown';

function field(out: SchemaElement[], name: string, type: IcebergType, repetition: Repetition, id: number): void {
  const pname = avroName(name);
  if (isStruct(type)) {
    const children = type.fields.filter((f) => !isUnknown(f.type));
    out.push({ name: pname, repetition_type: repetition, num_children: children.length, field_id: id });
    for (const f of children) field(out, f.name, f.type, f.required ? 'REQUIRED' : 'OPTIONAL', f.id);
    return;
  }
  if (isList(type)) {
    out.push({ name: pname, repetition_type: repetition, num_children: 1, converted_type: 'LIST', logical_type: { type: 'LIST' }, field_id: id });
    out.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 });
    field(out, 'element', type.element, type['element-required'] ? 'REQUIRED' : 'OPTIONAL', type['element-id']);
    return;
  }
  if (isMap(type)) {
    out.push({ name: pname, repetition_type: repetition, num_children: 1, converted_type: 'MAP', logical_type: { type: 'MAP' }, field_id: id });
    out.push({ name: 'key_value', repetition_type: 'REPEATED', num_children: 2 });
    field(out, 'key', type.key, 'REQUIRED', type['key-id']);
    field(out, 'value', type.value, type['value-required'] ? 'REQUIRED' : 'OPTIONAL', type['value-id']);
    return;
  }
  out.push({ name: pname, repetition_type: repetition, field_id: id, ...primitiveElement(type) });
}

function primitiveElement(type: string): Omit<SchemaElement, 'name'> {
  const p = primitive(type);
  switch (p.kind) {
    case 'boolean':
      return { type: 'BOOLEAN' };
    case 'int':
      return { type: 'INT32' };
    case 'long':
      return { type: 'INT64' };
    case 'float':
      return { type: 'FLOAT' };
    case 'double':
      return { type: 'DOUBLE' };
    case 'date':
      return { type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } };
    case 'time':
      // Legacy converted types (TIME_MICROS, TIMESTAMP_MICROS) mean "adjusted to UTC": local ones carry none.
      return { type: 'INT64', logical_type: { type: 'TIME', isAdjustedToUTC: false, unit: 'MICROS' } };
    case 'timestamp':
    case 'timestamptz': {
      const utc = p.kind === 'timestamptz';
      return { type: 'INT64', ...(utc ? { converted_type: 'TIMESTAMP_MICROS' as const } : {}), logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: utc, unit: 'MICROS' } };
    }
    case 'timestamp_ns':
    case 'timestamptz_ns':
      return { type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: p.kind === 'timestamptz_ns', unit: 'NANOS' } };
    case 'string':
      return { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
    case 'uuid':
      return { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 16, logical_type: { type: 'UUID' } };
    case 'fixed':
      return { type: 'FIXED_LEN_BYTE_ARRAY', type_length: p.length! };
    case 'binary':
      return { type: 'BYTE_ARRAY' };
    case 'decimal': {
      const precision = p.precision!;
      const scale = p.scale!;
      const annotation = { converted_type: 'DECIMAL' as const, scale, precision, logical_type: { type: 'DECIMAL' as const, precision, scale } };
      if (precision <= 9) return { type: 'INT32', ...annotation };
      if (precision <= 18) return { type: 'INT64', ...annotation };
      return { type: 'FIXED_LEN_BYTE_ARRAY', type_length: decimalRequiredBytes(precision), ...annotation };
    }
    default:
      throw new Error(`writing ${type} to Parquet is not supported`);
  }
}

/** A nested field list for the top-level columns of a struct (what `parquetSchemaOf` writes). */
export const writtenFields = (schema: StructType): NestedField[] => schema.fields.filter((f) => !isUnknown(f.type));
