/**
 * Rows (in the convention of `values.ts`) to a Parquet file through hyparquet-writer, with the
 * Iceberg schema of `parquet-schema.ts` (field ids on every element), the table schema as JSON in
 * the footer under `iceberg.schema` (as Java writes it), snappy pages, and in the same pass the
 * manifest metrics of `metrics.ts`: value/null/NaN counts and bounds per field, plus column sizes
 * (compressed bytes per leaf field id) and split offsets (row group starts) from the written footer.
 */
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { parquetSchema, type SchemaTree } from 'hyparquet';
import type { DataFile, IcebergType, SortOrder, StructType } from './types.js';
import { avroName } from './avro-schema.js';
import { stringifyIcebergJson } from './json.js';
import { FieldStats, fileMetrics, metricsModes, statsFieldIds, type FileMetrics, type MetricsMode } from './metrics.js';
import { parquetSchemaOf, writtenFields } from './parquet-schema.js';
import { isList, isMap, isStruct, primitive } from './model.js';
import { daysOf, unscaled, uuidBytes } from './values.js';

interface ParquetWriteOptions {
  /** Table properties (metrics modes). */
  properties?: Record<string, string>;
  sortOrder?: SortOrder;
  /** Overrides the modes the properties give (position deletes use `full` for their two columns). */
  metricsMode?: (id: number) => MetricsMode;
  /** Rows per row group (default one million). */
  rowGroupSize?: number;
}

export interface WrittenParquet {
  bytes: Uint8Array;
  recordCount: number;
  metrics: FileMetrics & { column_sizes: Map<number, number> };
  splitOffsets: number[];
}

type Convert = (v: unknown, parentNull: boolean) => unknown;

/** Writes rows of `schema` (a table schema or a delete-file schema) as one Parquet file. */
/**
 * The manifest's description of a Parquet file written at `location`: a data file (content 0)
 * unless `extra` says otherwise (delete files set `content`, `equality_ids`, `referenced_data_file`).
 */
export function contentFileOf(location: string, written: WrittenParquet, partition: Record<string, unknown>, extra: Partial<DataFile> = {}): DataFile {
  return {
    content: 0,
    file_path: location,
    file_format: 'PARQUET',
    partition,
    record_count: written.recordCount,
    file_size_in_bytes: written.bytes.length,
    ...written.metrics,
    key_metadata: null,
    split_offsets: written.splitOffsets,
    equality_ids: null,
    sort_order_id: null,
    ...extra,
  };
}

export function writeParquet(schema: StructType, rows: readonly Record<string, unknown>[], options: ParquetWriteOptions = {}): WrittenParquet {
  const statTypes = statsFieldIds(schema);
  const stats = new Map<number, FieldStats>();
  for (const [id, type] of statTypes) stats.set(id, new FieldStats(type));
  const fields = writtenFields(schema);
  const columnData = fields.map((f) => {
    const convert = compile(f.type, f.required, f.name, stats, f.id);
    const data = new Array<unknown>(rows.length);
    for (let i = 0; i < rows.length; i++) data[i] = convert(rows[i]![f.name], false);
    return { name: avroName(f.name), data };
  });

  const elements = parquetSchemaOf(schema);
  const writer = new ByteWriter();
  const pq = new ParquetWriter({
    writer,
    // hyparquet-writer types its schema with its own copy of hyparquet; the shape is the same.
    schema: elements as unknown as ConstructorParameters<typeof ParquetWriter>[0]['schema'],
    codec: 'SNAPPY',
    kvMetadata: [{ key: 'iceberg.schema', value: stringifyIcebergJson(schema) }],
    // "<app> version <v>": parquet-mr distrusts binary statistics when it cannot parse created_by.
    createdBy: 'overcast version 0.1.0',
  });
  pq.write({ columnData, rowGroupSize: options.rowGroupSize ?? 1_000_000 });
  pq.finish();
  const bytes = new Uint8Array(writer.getBuffer());

  const modeOf = options.metricsMode ?? metricsModes(schema, options.properties, options.sortOrder);
  const leafIds = leafFieldIds(parquetSchema({ schema: elements } as Parameters<typeof parquetSchema>[0]));
  const columnSizes = new Map<number, number>();
  const splitOffsets: number[] = [];
  for (const rg of pq.row_groups) {
    const first = rg.columns[0]?.meta_data;
    if (first) splitOffsets.push(Number(first.dictionary_page_offset ?? first.data_page_offset));
    for (const c of rg.columns) {
      const id = c.meta_data ? leafIds.get(c.meta_data.path_in_schema.join('.')) : undefined;
      if (id === undefined || modeOf(id).kind === 'none') continue;
      columnSizes.set(id, (columnSizes.get(id) ?? 0) + Number(c.meta_data!.total_compressed_size));
    }
  }
  return { bytes, recordCount: rows.length, metrics: { column_sizes: columnSizes, ...fileMetrics(stats, modeOf) }, splitOffsets };
}

function leafFieldIds(tree: SchemaTree): Map<string, number> {
  const out = new Map<string, number>();
  const visit = (node: SchemaTree): void => {
    if (node.children.length === 0) {
      if (node.element.field_id !== undefined) out.set(node.path.join('.'), node.element.field_id);
    } else node.children.forEach(visit);
  };
  visit(tree);
  return out;
}

/** A converter from the value convention to what hyparquet-writer takes for `type`, feeding `stats`. */
function compile(type: IcebergType, required: boolean, name: string, stats: Map<number, FieldStats>, id?: number): Convert {
  const check = (v: unknown, parentNull: boolean): boolean => {
    if (v !== null && v !== undefined) return true;
    if (required && !parentNull) throw new TypeError(`required field ${name} is null`);
    return false;
  };
  if (isStruct(type)) {
    const children = type.fields
      .filter((f) => typeof f.type !== 'string' || primitive(f.type).kind !== 'unknown')
      .map((f) => ({ name: f.name, pname: avroName(f.name), convert: compile(f.type, f.required, `${name}.${f.name}`, stats, f.id) }));
    return (v, parentNull) => {
      const present = check(v, parentNull);
      const obj = present ? (v as Record<string, unknown>) : undefined;
      const out: Record<string, unknown> = {};
      for (const c of children) out[c.pname] = c.convert(obj ? obj[c.name] : null, !present || parentNull);
      return present ? out : null;
    };
  }
  if (isList(type)) {
    // Contents of lists and maps carry no statistics (as Java), so their converters get none.
    const element = compile(type.element, type['element-required'], `${name}.element`, new Map());
    return (v, parentNull) => {
      if (!check(v, parentNull)) return null;
      if (!Array.isArray(v)) throw new TypeError(`list field ${name} must be an array`);
      return v.map((e) => element(e, false));
    };
  }
  if (isMap(type)) {
    const key = compile(type.key, true, `${name}.key`, new Map());
    const value = compile(type.value, type['value-required'], `${name}.value`, new Map());
    return (v, parentNull) => {
      if (!check(v, parentNull)) return null;
      const pairs = v instanceof Map ? [...v] : Array.isArray(v) ? v : Object.entries(v as object);
      return pairs.map(([k, x]: [unknown, unknown]) => ({ key: key(k, false), value: value(x, false) }));
    };
  }
  const stat = id !== undefined ? stats.get(id) : undefined;
  const toParquet = primitiveConverter(type, name);
  return (v, parentNull) => {
    const present = check(v, parentNull);
    stat?.add(present ? v : null);
    return present ? toParquet(v) : null;
  };
}

function primitiveConverter(type: string, name: string): (v: unknown) => unknown {
  const p = primitive(type);
  const bad = (v: unknown): never => {
    throw new TypeError(`field ${name} (${type}) cannot take ${typeof v === 'bigint' ? `${v}n` : JSON.stringify(v) ?? String(v)}`);
  };
  switch (p.kind) {
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : bad(v));
    case 'int':
      return (v) => (Number.isInteger(v) && (v as number) >= -2147483648 && (v as number) <= 2147483647 ? v : bad(v));
    case 'float':
    case 'double':
      return (v) => (typeof v === 'number' ? v : bad(v));
    case 'long':
    case 'time':
    case 'timestamp':
    case 'timestamptz':
    case 'timestamp_ns':
    case 'timestamptz_ns':
      return (v) => (typeof v === 'bigint' ? BigInt.asIntN(64, v) === v ? v : bad(v) : Number.isSafeInteger(v) ? BigInt(v as number) : bad(v));
    case 'date':
      return (v) => (v instanceof Date ? daysOf(v) : bad(v));
    case 'decimal':
      return (v) => {
        if (typeof v !== 'string' && typeof v !== 'number') bad(v);
        const u = unscaled(v as string | number, p.scale!);
        if ((u < 0n ? -u : u).toString().length > p.precision!) bad(v);
        return u;
      };
    case 'string':
      return (v) => (typeof v === 'string' ? v : bad(v));
    case 'uuid':
      return (v) => (typeof v === 'string' ? uuidBytes(v) : bad(v));
    case 'fixed':
      return (v) => (v instanceof Uint8Array && v.length === p.length ? v : bad(v));
    case 'binary':
      return (v) => (v instanceof Uint8Array ? v : bad(v));
    default:
      throw new Error(`writing ${type} to Parquet is not supported`);
  }
}
