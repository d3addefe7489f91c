/**
 * Which data files compaction rewrites, after Iceberg's bin-pack planner (Java
 * `SizeBasedFileRewritePlanner`, `BinPackRewriteFilePlanner`) with AWS's target size: a data file is
 * a candidate when it is smaller than 75 % of the target, larger than 180 % of it, or has row-level
 * deletes that apply to it. Candidates are grouped by partition — files of the current spec by
 * their partition tuple, files of older specs together, to be written in the current spec — and
 * packed into bins of at most the target size (a larger file is a bin of its own and is split). A
 * bin is rewritten when it holds two files or more (Iceberg's default asks for five; AWS does not
 * say, and two is what "combines small files" needs), when a file in it has deletes to apply, or
 * when it is one oversized file. Also the sort orders of the `sort` and `z-order` strategies.
 */
import type { DeletePlan, LiveFile } from '../../../iceberg/scan.js';
import { accessor, partitionType, primitive, resultTypeOf, schemaById, specById } from '../../../iceberg/model.js';
import { applyTransform } from '../../../iceberg/transforms.js';
import type { Schema, SortOrder, TableMetadata } from '../../../iceberg/types.js';
import { compareValues, tupleKey, unscaled, uuidBytes } from '../../../iceberg/values.js';

export interface CompactionSettings {
  targetFileSizeMB: number;
  strategy: 'auto' | 'binpack' | 'sort' | 'z-order';
}

export interface Bin {
  /** Partition of the current spec (`spec/tuple`), or `older-specs`. */
  group: string;
  files: LiveFile[];
  bytes: number;
  /** The files in it with deletes to apply. */
  withDeletes: number;
}

const MB = 1024 * 1024;

function targetBytes(settings: CompactionSettings): number {
  return settings.targetFileSizeMB * MB;
}

/** The bins to rewrite (see the module header). */
export function planBins(metadata: TableMetadata, data: readonly LiveFile[], plan: DeletePlan, settings: CompactionSettings): Bin[] {
  const target = targetBytes(settings);
  const min = 0.75 * target;
  const max = 1.8 * target;
  const schema = schemaById(metadata, metadata['current-schema-id']);
  const defaultSpecId = metadata['default-spec-id'];
  const names = new Map<number, string[]>();
  const groups = new Map<string, { file: LiveFile; deletes: boolean }[]>();
  for (const f of data) {
    const deletes = plan.applicable(f).length > 0;
    const size = f.file.file_size_in_bytes;
    if (!(size < min || size > max || deletes)) continue;
    let key = 'older-specs';
    if (f.specId === defaultSpecId) {
      if (!names.has(f.specId)) names.set(f.specId, partitionType(specById(metadata, f.specId), schema).map((p) => p.name));
      key = `${f.specId}/${tupleKey(names.get(f.specId)!.map((n) => f.file.partition[n]))}`;
    }
    const list = groups.get(key) ?? [];
    list.push({ file: f, deletes });
    groups.set(key, list);
  }
  const bins: Bin[] = [];
  for (const [group, files] of groups) {
    // First fit, largest first: few bins, each at most the target (an oversized file alone).
    const open: Bin[] = [];
    for (const { file, deletes } of [...files].sort((a, b) => b.file.file.file_size_in_bytes - a.file.file.file_size_in_bytes)) {
      const size = file.file.file_size_in_bytes;
      let bin = open.find((b) => b.bytes + size <= target);
      if (!bin) open.push((bin = { group, files: [], bytes: 0, withDeletes: 0 }));
      bin.files.push(file);
      bin.bytes += size;
      if (deletes) bin.withDeletes++;
    }
    for (const bin of open) {
      if (bin.files.length >= 2 || bin.withDeletes > 0 || bin.bytes > max) bins.push(bin);
    }
  }
  return bins;
}

/** How many files a bin's rows go into: near the target each, never more than 1.4 × target. */
export function outputCount(bytes: number, settings: CompactionSettings): number {
  const target = targetBytes(settings);
  return Math.max(1, Math.round(bytes / target), Math.ceil(bytes / (1.4 * target)));
}

type Row = Record<string, unknown>;

interface SortKey {
  get: (row: Row) => unknown;
  type: string;
  desc: boolean;
  nullsFirst: boolean;
}

function sortKeys(order: SortOrder, schema: Schema): SortKey[] {
  return order.fields.map((f) => {
    const source = accessor(schema, f['source-id']);
    const sourceType = findType(schema, f['source-id']);
    const type = resultTypeOf(f.transform, sourceType);
    return {
      get: (row: Row) => {
        const v = source(row);
        return v === null || v === undefined ? null : applyTransform(f.transform, sourceType, v);
      },
      type,
      desc: f.direction === 'desc',
      nullsFirst: f['null-order'] === 'nulls-first',
    };
  });
}

function findType(schema: Schema, id: number): string {
  const walk = (fields: Schema['fields']): string | undefined => {
    for (const f of fields) {
      if (f.id === id) return typeof f.type === 'string' ? f.type : undefined;
      if (typeof f.type === 'object' && f.type.type === 'struct') {
        const inner = walk(f.type.fields);
        if (inner) return inner;
      }
    }
    return undefined;
  };
  const found = walk(schema.fields);
  if (!found) throw new Error(`sort field ${id} is not a primitive column of the schema`);
  return found;
}

/** Rows ordered by a sort order (its transforms, directions and null orders), stable. */
export function sortRows(rows: Row[], order: SortOrder, schema: Schema): Row[] {
  const keys = sortKeys(order, schema);
  const decorated = rows.map((row, i) => ({ row, i, values: keys.map((k) => k.get(row)) }));
  decorated.sort((a, b) => {
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      const x = a.values[k];
      const y = b.values[k];
      if (x === null || y === null) {
        if (x === y) continue;
        return (x === null) === key.nullsFirst ? -1 : 1;
      }
      const c = compareValues(key.type, x, y);
      if (c !== 0) return key.desc ? -c : c;
    }
    return a.i - b.i;
  });
  return decorated.map((d) => d.row);
}

/**
 * Rows ordered along a Z-curve over the sort order's columns (Iceberg's z-order: each column an
 * 8-byte order-preserving key, bits interleaved; Java `ZOrderByteUtils`). Nulls sort first.
 */
export function zOrderRows(rows: Row[], order: SortOrder, schema: Schema): Row[] {
  const keys = sortKeys(order, schema);
  const decorated = rows.map((row, i) => ({ row, i, z: interleave(keys.map((k) => orderedBytes(k.type, k.get(row)))) }));
  decorated.sort((a, b) => Buffer.compare(a.z, b.z) || a.i - b.i);
  return decorated.map((d) => d.row);
}

/** 8 bytes whose unsigned order is the value's order (nulls: all zero). */
function orderedBytes(type: string, v: unknown): Buffer {
  const out = Buffer.alloc(8);
  if (v === null || v === undefined) return out;
  const kind = primitive(type).kind;
  const signedLong = (n: bigint) => out.writeBigUInt64BE(BigInt.asUintN(64, n) ^ (1n << 63n));
  switch (kind) {
    case 'boolean':
      out[0] = v ? 2 : 1;
      return out;
    case 'int':
      signedLong(BigInt(v as number));
      return out;
    case 'float':
    case 'double': {
      out.writeDoubleBE(v as number);
      // IEEE 754 order: flip every bit of negatives, only the sign bit of the rest.
      if (out[0]! & 0x80) for (let i = 0; i < 8; i++) out[i] = ~out[i]! & 0xff;
      else out[0] = out[0]! | 0x80;
      return out;
    }
    case 'date':
      signedLong(BigInt(Math.round((v as Date).getTime() / 86_400_000)));
      return out;
    case 'string':
      Buffer.from(v as string, 'utf8').copy(out, 0, 0, 8);
      return out;
    case 'binary':
    case 'fixed':
      Buffer.from(v as Uint8Array).copy(out, 0, 0, 8);
      return out;
    case 'decimal':
      signedLong(unscaled(v as string, primitive(type).scale!));
      return out;
    case 'uuid':
      Buffer.from(uuidBytes(v as string)).copy(out, 0, 0, 8);
      return out;
    default:
      signedLong(v as bigint);
      return out;
  }
}

function interleave(columns: Buffer[]): Buffer {
  const n = columns.length;
  const out = Buffer.alloc(8 * n);
  let bit = 0;
  for (let b = 0; b < 64; b++) {
    for (let c = 0; c < n; c++) {
      if ((columns[c]![b >> 3]! >> (7 - (b & 7))) & 1) out[bit >> 3] = out[bit >> 3]! | (1 << (7 - (bit & 7)));
      bit++;
    }
  }
  return out;
}
