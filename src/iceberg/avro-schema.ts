/**
 * Iceberg types as Avro schemas, laid out as the Java library's `TypeToSchema` writes them (spec,
 * Appendix A "Avro"): records named `r<field id>` (the root takes the caller's name), optional
 * fields as `["null", T]` with `"default": null`, `field-id` on every record field, `element-id`
 * on arrays, maps with non-string keys as arrays of `k<key id>_v<value id>` records with
 * `logicalType: map`, string-keyed maps as Avro maps with `key-id`/`value-id`, decimals and uuids
 * as named fixed types (`decimal_P_S`, `uuid_fixed`, `fixed_L`), timestamps with
 * `adjust-to-utc`. Also the mapping of values between the convention of `values.ts` and what
 * avsc reads and writes for those schemas.
 */
import type { IcebergType, NestedField } from './types.js';
import { decimalRequiredBytes, isList, isMap, isPrimitive, isStruct, primitive } from './model.js';
import { dateOfDays, daysOf, decimalString, fixedBigEndian, fromBigEndian, unscaled, uuidBytes, uuidString } from './values.js';
import type { AvroSchemaJson } from './avro.js';

const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Java `AvroSchemaUtil.makeCompatibleName`: invalid characters as `_x<HEX>`, a leading digit as `_<digit>`. */
export function avroName(name: string): string {
  if (VALID_NAME.test(name)) return name;
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    const ok = i === 0 ? /[A-Za-z_]/.test(c) : /[A-Za-z0-9_]/.test(c);
    if (ok) out += c;
    else if (/[0-9]/.test(c)) out += `_${c}`;
    else out += `_x${c.charCodeAt(0).toString(16).toUpperCase()}`;
  }
  return out;
}

/** Converts a struct to an Avro record schema; `rootName` names the top record. */
export function structToAvro(fields: readonly NestedField[], rootName: string): AvroSchemaJson {
  const defined = new Set<string>();
  return recordSchema(fields, rootName, defined);
}

function recordSchema(fields: readonly NestedField[], name: string, defined: Set<string>): AvroSchemaJson {
  return {
    type: 'record',
    name,
    fields: fields.map((f) => {
      const type = typeToAvro(f.type, f.id, defined);
      const out: Record<string, unknown> = { name: avroName(f.name), type: f.required ? type : ['null', type] };
      if (f.doc) out.doc = f.doc;
      if (!f.required) out.default = null;
      out['field-id'] = f.id;
      if (out.name !== f.name) out['iceberg-field-name'] = f.name;
      return out;
    }),
  };
}

function named(defined: Set<string>, name: string, schema: Record<string, unknown>): AvroSchemaJson {
  // Avro names are defined once per file; later uses refer to the name.
  if (defined.has(name)) return name;
  defined.add(name);
  return schema;
}

function typeToAvro(type: IcebergType, fieldId: number, defined: Set<string>): AvroSchemaJson {
  if (isStruct(type)) return recordSchema(type.fields, `r${fieldId}`, defined);
  if (isList(type)) {
    const element = typeToAvro(type.element, type['element-id'], defined);
    return { type: 'array', items: type['element-required'] ? element : ['null', element], 'element-id': type['element-id'] };
  }
  if (isMap(type)) {
    const key = typeToAvro(type.key, type['key-id'], defined);
    const value = typeToAvro(type.value, type['value-id'], defined);
    const optionalValue = type['value-required'] ? value : ['null', value];
    if (key === 'string') {
      return { type: 'map', values: optionalValue, 'key-id': type['key-id'], 'value-id': type['value-id'] };
    }
    const valueField: Record<string, unknown> = { name: 'value', type: optionalValue };
    if (!type['value-required']) valueField.default = null;
    valueField['field-id'] = type['value-id'];
    return {
      type: 'array',
      items: {
        type: 'record',
        name: `k${type['key-id']}_v${type['value-id']}`,
        fields: [{ name: 'key', type: key, 'field-id': type['key-id'] }, valueField],
      },
      logicalType: 'map',
    };
  }
  const p = primitive(type);
  switch (p.kind) {
    case 'unknown':
      return 'null';
    case 'boolean':
    case 'int':
    case 'long':
    case 'float':
    case 'double':
    case 'string':
      return p.kind;
    case 'binary':
    case 'geometry':
    case 'geography':
      return 'bytes';
    case 'date':
      return { type: 'int', logicalType: 'date' };
    case 'time':
      return { type: 'long', logicalType: 'time-micros' };
    case 'timestamp':
    case 'timestamptz':
      return { type: 'long', logicalType: 'timestamp-micros', 'adjust-to-utc': p.kind === 'timestamptz' };
    case 'timestamp_ns':
    case 'timestamptz_ns':
      return { type: 'long', logicalType: 'timestamp-nanos', 'adjust-to-utc': p.kind === 'timestamptz_ns' };
    case 'uuid':
      return named(defined, 'uuid_fixed', { type: 'fixed', name: 'uuid_fixed', size: 16, logicalType: 'uuid' });
    case 'fixed':
      return named(defined, `fixed_${p.length}`, { type: 'fixed', name: `fixed_${p.length}`, size: p.length });
    case 'decimal': {
      const name = `decimal_${p.precision}_${p.scale}`;
      return named(defined, name, {
        type: 'fixed',
        name,
        size: decimalRequiredBytes(p.precision!),
        logicalType: 'decimal',
        precision: p.precision,
        scale: p.scale,
      });
    }
    default:
      throw new Error(`no Avro form for ${type}`);
  }
}

/** Field ids of long-based fields of a struct (they read as bigint by the value convention). */
export function longFieldIds(fields: readonly NestedField[]): number[] {
  const out: number[] = [];
  for (const f of fields) {
    if (isPrimitive(f.type)) {
      const k = primitive(f.type).kind;
      if (k === 'long' || k === 'time' || k.startsWith('timestamp')) out.push(f.id);
    }
  }
  return out;
}

/** A convention value of a primitive type as avsc writes it. */
export function toAvroValue(type: string, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  const p = primitive(type);
  switch (p.kind) {
    case 'date':
      return daysOf(v as Date);
    case 'uuid':
      return Buffer.from(uuidBytes(v as string));
    case 'decimal':
      return Buffer.from(fixedBigEndian(unscaled(v as string | number, p.scale!), decimalRequiredBytes(p.precision!)));
    case 'fixed':
    case 'binary':
      return Buffer.from((v as Uint8Array).buffer, (v as Uint8Array).byteOffset, (v as Uint8Array).byteLength);
    default:
      return v;
  }
}

/** An avsc value of a primitive type in the convention (long-based values arrive as bigints). */
export function fromAvroValue(type: string, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  const p = primitive(type);
  switch (p.kind) {
    case 'date':
      return dateOfDays(v as number);
    case 'uuid':
      return uuidString(v as Uint8Array);
    case 'decimal':
      return decimalString(fromBigEndian(v as Uint8Array), p.scale!);
    case 'fixed':
    case 'binary':
      return Uint8Array.from(v as Uint8Array);
    case 'long':
    case 'time':
    case 'timestamp':
    case 'timestamptz':
    case 'timestamp_ns':
    case 'timestamptz_ns':
      return BigInt(v as number | bigint);
    default:
      return v;
  }
}
