/**
 * Helpers over the Iceberg type model of `types.ts`: primitive type strings parsed once into a
 * tagged form (`decimal(P, S)`, `fixed[L]`, …), lookups of schemas, specs and snapshots in a
 * table's metadata, every field of a schema by id (nested ones included), and the partition
 * struct a spec produces over a schema (one optional field per partition field, typed by the
 * transform's result type, with the partition field ids) — the type of `data_file.partition` in
 * manifests and of the partition tuples the writers compute.
 */
import type {
  IcebergType,
  ListType,
  MapType,
  NestedField,
  PartitionField,
  PartitionSpec,
  Schema,
  Snapshot,
  StructType,
  TableMetadata,
} from './types.js';

type PrimitiveKind =
  | 'unknown'
  | 'boolean'
  | 'int'
  | 'long'
  | 'float'
  | 'double'
  | 'decimal'
  | 'date'
  | 'time'
  | 'timestamp'
  | 'timestamptz'
  | 'timestamp_ns'
  | 'timestamptz_ns'
  | 'string'
  | 'uuid'
  | 'fixed'
  | 'binary'
  | 'variant'
  | 'geometry'
  | 'geography';

export interface Primitive {
  kind: PrimitiveKind;
  /** decimal */
  precision?: number;
  scale?: number;
  /** fixed */
  length?: number;
}

const DECIMAL = /^decimal\(\s*(\d+)\s*,\s*(-?\d+)\s*\)$/;
const FIXED = /^fixed\[\s*(\d+)\s*\]$/;
const SIMPLE = new Set<string>([
  'unknown', 'boolean', 'int', 'long', 'float', 'double', 'date', 'time', 'timestamp', 'timestamptz',
  'timestamp_ns', 'timestamptz_ns', 'string', 'uuid', 'binary', 'variant',
]);
const parsed = new Map<string, Primitive>();

/** Parses a primitive type string; throws for a string that names no Iceberg type. */
export function primitive(type: string): Primitive {
  let p = parsed.get(type);
  if (p) return p;
  const text = type.trim().toLowerCase();
  let m: RegExpExecArray | null;
  if (SIMPLE.has(text)) p = { kind: text as PrimitiveKind };
  else if ((m = DECIMAL.exec(text))) p = { kind: 'decimal', precision: Number(m[1]), scale: Number(m[2]) };
  else if ((m = FIXED.exec(text))) p = { kind: 'fixed', length: Number(m[1]) };
  else if (text.startsWith('geometry')) p = { kind: 'geometry' };
  else if (text.startsWith('geography')) p = { kind: 'geography' };
  else throw new Error(`unknown Iceberg type: ${type}`);
  parsed.set(type, p);
  return p;
}

export const isPrimitive = (t: IcebergType): t is string => typeof t === 'string';
export const isStruct = (t: IcebergType): t is StructType => typeof t === 'object' && t.type === 'struct';
export const isList = (t: IcebergType): t is ListType => typeof t === 'object' && t.type === 'list';
export const isMap = (t: IcebergType): t is MapType => typeof t === 'object' && t.type === 'map';

/** Bytes a decimal of this precision needs in a fixed-length two's complement (Java `TypeUtil.decimalRequiredBytes`). */
export function decimalRequiredBytes(precision: number): number {
  for (let bytes = 1; ; bytes++) if (precision <= Math.floor(Math.log10(2) * (8 * bytes - 1))) return bytes;
}

export function schemaById(metadata: TableMetadata, id: number | undefined): Schema {
  const wanted = id ?? metadata['current-schema-id'];
  const schema = metadata.schemas.find((s) => s['schema-id'] === wanted);
  if (!schema) throw new Error(`schema ${wanted} not found in table metadata`);
  return schema;
}

export function currentSchema(metadata: TableMetadata): Schema {
  return schemaById(metadata, metadata['current-schema-id']);
}

export function specById(metadata: TableMetadata, id: number): PartitionSpec {
  const spec = metadata['partition-specs'].find((s) => s['spec-id'] === id);
  if (!spec) throw new Error(`partition spec ${id} not found in table metadata`);
  return spec;
}

export function defaultSpec(metadata: TableMetadata): PartitionSpec {
  return specById(metadata, metadata['default-spec-id']);
}

export function snapshotById(metadata: TableMetadata, id: bigint): Snapshot {
  const snap = metadata.snapshots.find((s) => s['snapshot-id'] === id);
  if (!snap) throw new Error(`snapshot ${id} not found in table metadata`);
  return snap;
}

/** The snapshot a branch or tag points at, or undefined when the ref does not exist. */
export function refSnapshot(metadata: TableMetadata, ref = 'main'): Snapshot | undefined {
  let id = metadata.refs?.[ref]?.['snapshot-id'];
  // Older metadata may carry only `current-snapshot-id` for main.
  if (id === undefined && ref === 'main') {
    const current = metadata['current-snapshot-id'];
    if (current !== undefined && current !== null && current !== -1n) id = current;
  }
  return id === undefined ? undefined : snapshotById(metadata, id);
}

/** Every field of a struct by id, nested fields included; list elements and map keys/values as synthetic fields. */
export function fieldsById(struct: StructType): Map<number, NestedField> {
  const out = new Map<number, NestedField>();
  const visit = (type: IcebergType): void => {
    if (isStruct(type)) {
      for (const f of type.fields) {
        out.set(f.id, f);
        visit(f.type);
      }
    } else if (isList(type)) {
      out.set(type['element-id'], { id: type['element-id'], name: 'element', required: type['element-required'], type: type.element });
      visit(type.element);
    } else if (isMap(type)) {
      out.set(type['key-id'], { id: type['key-id'], name: 'key', required: true, type: type.key });
      out.set(type['value-id'], { id: type['value-id'], name: 'value', required: type['value-required'], type: type.value });
      visit(type.key);
      visit(type.value);
    }
  };
  visit(struct);
  return out;
}

/** The dotted path of names from the schema root to each field id, through structs only (partition and metrics sources). */
export function columnNames(struct: StructType): Map<number, string> {
  const out = new Map<number, string>();
  const visit = (type: IcebergType, prefix: string): void => {
    if (isStruct(type)) {
      for (const f of type.fields) {
        const name = prefix + f.name;
        out.set(f.id, name);
        visit(f.type, `${name}.`);
      }
    } else if (isList(type)) {
      const name = `${prefix}element`;
      out.set(type['element-id'], name);
      visit(type.element, `${name}.`);
    } else if (isMap(type)) {
      out.set(type['key-id'], `${prefix}key`);
      out.set(type['value-id'], `${prefix}value`);
      visit(type.key, `${prefix}key.`);
      visit(type.value, `${prefix}value.`);
    }
  };
  visit(struct, '');
  return out;
}

/**
 * A getter for a field reachable from the row through structs (partition and equality sources);
 * a null struct on the way yields null.
 */
export function accessor(struct: StructType, id: number): (row: Record<string, unknown>) => unknown {
  const path = pathTo(struct, id);
  if (!path) throw new Error(`field ${id} is not reachable through structs`);
  if (path.length === 1) {
    const name = path[0]!;
    return (row) => row[name] ?? null;
  }
  return (row) => {
    let v: unknown = row;
    for (const name of path) {
      if (v === null || v === undefined) return null;
      v = (v as Record<string, unknown>)[name];
    }
    return v ?? null;
  };
}

function pathTo(struct: StructType, id: number): string[] | undefined {
  for (const f of struct.fields) {
    if (f.id === id) return [f.name];
    if (isStruct(f.type)) {
      const rest = pathTo(f.type, id);
      if (rest) return [f.name, ...rest];
    }
  }
  return undefined;
}

/** One field of the partition struct: the partition field, its source type and its result type. */
export interface PartitionTypeField extends NestedField {
  source: string;
  transform: string;
  partitionField: PartitionField;
}

/** The partition struct of a spec over a schema (Java `PartitionSpec.partitionType()`). */
export function partitionType(spec: PartitionSpec, schema: StructType): PartitionTypeField[] {
  const byId = fieldsById(schema);
  return spec.fields.map((pf) => {
    const source = byId.get(pf['source-id']);
    // A dropped source column leaves its partition field readable; `void` keeps the field alive.
    const sourceType = source && isPrimitive(source.type) ? source.type : 'int';
    return {
      id: pf['field-id'],
      name: pf.name,
      required: false,
      type: resultTypeOf(pf.transform, sourceType),
      source: sourceType,
      transform: pf.transform,
      partitionField: pf,
    };
  });
}

/** The result type of a transform over a source type (spec, "Partition Transforms"). */
export function resultTypeOf(transform: string, source: string): string {
  const t = transform.trim().toLowerCase();
  if (t === 'identity' || t === 'void' || t.startsWith('truncate')) return source;
  if (t.startsWith('bucket') || t === 'year' || t === 'month' || t === 'hour') return 'int';
  if (t === 'day') return 'date';
  // Unknown transforms are read as their source type; writers refuse them (transforms.ts).
  return source;
}
