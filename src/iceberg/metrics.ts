/**
 * Per-column metrics of a data or delete file for its manifest entry, as the Java library derives
 * them (`MetricsConfig`, `ParquetMetrics`, `UnicodeUtil`/`BinaryUtil` truncation): the metrics
 * mode of each field from the table properties (`write.metadata.metrics.default`,
 * `write.metadata.metrics.column.<name>`, `…max-inferred-column-defaults`, default `truncate(16)`;
 * sorted columns at least `truncate(16)`), value/null/NaN counts and lower/upper bounds of the
 * primitive fields outside lists and maps (NaN never a bound, strings and binary truncated with the
 * upper bound incremented), serialized with `conversions.ts`.
 */
import type { SortOrder, StructType } from './types.js';
import { toBytes } from './conversions.js';
import { columnNames, isList, isMap, isPrimitive, isStruct, primitive } from './model.js';
import { truncateString } from './transforms.js';
import { compareValues } from './values.js';

export type MetricsMode = { kind: 'none' } | { kind: 'counts' } | { kind: 'full' } | { kind: 'truncate'; length: number };

const DEFAULT_MODE: MetricsMode = { kind: 'truncate', length: 16 };
const NONE: MetricsMode = { kind: 'none' };

function parseMetricsMode(text: string): MetricsMode {
  const t = text.trim().toLowerCase();
  if (t === 'none') return NONE;
  if (t === 'counts') return { kind: 'counts' };
  if (t === 'full') return { kind: 'full' };
  const m = /^truncate\((\d+)\)$/.exec(t);
  if (m && Number(m[1]) > 0) return { kind: 'truncate', length: Number(m[1]) };
  throw new Error(`invalid metrics mode: ${text}`);
}

/** The metrics mode of each field id of a schema under a table's properties (Java `MetricsConfig.forTable`). */
export function metricsModes(schema: StructType, properties: Record<string, string> = {}, sortOrder?: SortOrder): (id: number) => MetricsMode {
  const names = columnNames(schema);
  const byName = new Map<string, MetricsMode>();
  let fallback = DEFAULT_MODE;
  const configured = properties['write.metadata.metrics.default'];
  if (configured !== undefined) fallback = parseMetricsMode(configured);
  else {
    const limit = Number(properties['write.metadata.metrics.max-inferred-column-defaults'] ?? 100);
    if (names.size > limit) {
      for (const id of limitFieldIds(schema, limit)) byName.set(names.get(id)!, DEFAULT_MODE);
      fallback = NONE;
    }
  }
  const sortedDefault = fallback.kind === 'none' || fallback.kind === 'counts' ? DEFAULT_MODE : fallback;
  for (const f of sortOrder?.fields ?? []) {
    const name = names.get(f['source-id']);
    if (name && f.transform === 'identity') byName.set(name, sortedDefault);
  }
  const prefix = 'write.metadata.metrics.column.';
  for (const [key, value] of Object.entries(properties)) {
    if (key.startsWith(prefix)) byName.set(key.slice(prefix.length), parseMetricsMode(value));
  }
  return (id) => {
    const name = names.get(id);
    return (name !== undefined ? byName.get(name) : undefined) ?? fallback;
  };
}

/** The first `limit` primitive field ids, level by level as Java's `limitFieldIds` visits them. */
function limitFieldIds(schema: StructType, limit: number): number[] {
  const out: number[] = [];
  const visit = (type: StructType['fields'][number]['type']): void => {
    if (out.length >= limit) return;
    if (isStruct(type)) {
      for (const f of type.fields) if (out.length < limit && isPrimitive(f.type)) out.push(f.id);
      for (const f of type.fields) visit(f.type);
    } else if (isList(type)) {
      if (out.length < limit && isPrimitive(type.element)) out.push(type['element-id']);
      visit(type.element);
    } else if (isMap(type)) {
      if (out.length < limit && isPrimitive(type.key)) out.push(type['key-id']);
      if (out.length < limit && isPrimitive(type.value)) out.push(type['value-id']);
      visit(type.key);
      visit(type.value);
    }
  };
  visit(schema);
  return out;
}

/** Running statistics of one primitive field. */
export class FieldStats {
  values = 0;
  nulls = 0;
  nans = 0;
  lower: unknown = null;
  upper: unknown = null;
  constructor(readonly type: string) {}

  add(v: unknown): void {
    this.values++;
    if (v === null || v === undefined) this.nulls++;
    else if (typeof v === 'number' && Number.isNaN(v)) this.nans++;
    else {
      if (this.lower === null || compareValues(this.type, v, this.lower) < 0) this.lower = v;
      if (this.upper === null || compareValues(this.type, v, this.upper) > 0) this.upper = v;
    }
  }
}

export interface FileMetrics {
  value_counts: Map<number, number>;
  null_value_counts: Map<number, number>;
  nan_value_counts: Map<number, number>;
  lower_bounds: Map<number, Uint8Array>;
  upper_bounds: Map<number, Uint8Array>;
}

/** Metrics maps from field statistics under the fields' modes. */
export function fileMetrics(stats: ReadonlyMap<number, FieldStats>, modeOf: (id: number) => MetricsMode): FileMetrics {
  const out: FileMetrics = {
    value_counts: new Map(),
    null_value_counts: new Map(),
    nan_value_counts: new Map(),
    lower_bounds: new Map(),
    upper_bounds: new Map(),
  };
  for (const [id, s] of stats) {
    const mode = modeOf(id);
    if (mode.kind === 'none') continue;
    out.value_counts.set(id, s.values);
    out.null_value_counts.set(id, s.nulls);
    const kind = primitive(s.type).kind;
    if (kind === 'float' || kind === 'double') out.nan_value_counts.set(id, s.nans);
    if (mode.kind === 'counts' || s.lower === null || kind === 'geometry' || kind === 'geography') continue;
    const length = mode.kind === 'truncate' ? mode.length : Infinity;
    const lower = truncateLower(kind, s.lower, length);
    const upper = truncateUpper(kind, s.upper, length);
    if (lower !== null) out.lower_bounds.set(id, toBytes(s.type, lower));
    if (upper !== null) out.upper_bounds.set(id, toBytes(s.type, upper));
  }
  return out;
}

function truncateLower(kind: string, v: unknown, length: number): unknown {
  if (length === Infinity) return v;
  if (kind === 'string') return truncateString(v as string, length);
  if (kind === 'binary') return (v as Uint8Array).slice(0, length);
  return v;
}

/** The smallest value above every value with this prefix, or null when none exists (`UnicodeUtil.truncateStringMax`). */
function truncateUpper(kind: string, v: unknown, length: number): unknown {
  if (length === Infinity) return v;
  if (kind === 'string') {
    const s = v as string;
    const prefix = truncateString(s, length);
    if (prefix.length === s.length) return s;
    const points = Array.from(prefix);
    for (let i = points.length - 1; i >= 0; i--) {
      let cp = points[i]!.codePointAt(0)! + 1;
      if (cp === 0xd800) cp = 0xe000;
      if (cp <= 0x10ffff) return points.slice(0, i).join('') + String.fromCodePoint(cp);
    }
    return null;
  }
  if (kind === 'binary') {
    const b = v as Uint8Array;
    if (b.length <= length) return b;
    for (let i = length - 1; i >= 0; i--) {
      if (b[i]! !== 0xff) {
        const out = b.slice(0, i + 1);
        out[i] = b[i]! + 1;
        return out;
      }
    }
    return null;
  }
  return v;
}

/** Field ids whose statistics are kept: primitives reachable through structs only (Java drops list and map contents). */
export function statsFieldIds(schema: StructType): Map<number, string> {
  const out = new Map<number, string>();
  const visit = (type: StructType): void => {
    for (const f of type.fields) {
      if (isStruct(f.type)) visit(f.type);
      else if (isPrimitive(f.type) && !['unknown', 'variant'].includes(primitive(f.type).kind)) out.set(f.id, f.type);
    }
  };
  visit(schema);
  return out;
}
