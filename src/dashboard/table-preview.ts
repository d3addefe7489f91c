/**
 * A table's first rows for the dashboard: the live data files of the current snapshot (or of an
 * older one — time travel), read one at a time through the Iceberg library with position and
 * equality deletes applied, until the page has enough rows, so a preview of a large table reads
 * only its first files. Objects come through the in-process FileIO the maintenance jobs use. Values
 * become JSON a page can show: 64-bit integers as text, timestamps and dates as ISO text, binary as
 * hex (cut short), maps as key/value pairs.
 */
import { DeletePlan, liveFiles, readDataFile } from '../iceberg/scan.js';
import { refSnapshot, schemaById } from '../iceberg/model.js';
import type { IcebergType, TableMetadata } from '../iceberg/types.js';
import type { Ctx } from '../runtime/runtime.js';
import { storeFileIO } from '../services/s3tables/maintenance/store-io.js';
import { notFound } from './http.js';

interface PreviewColumn {
  id: number;
  name: string;
  type: string;
}

export interface Preview {
  snapshotId: string | null;
  schemaId: number;
  columns: PreviewColumn[];
  rows: unknown[][];
  /** Whether more rows exist than the preview shows. */
  more: boolean;
  /** Data files read for the preview and in the snapshot. */
  filesRead: number;
  filesTotal: number;
}

const BINARY_SHOWN = 32;

function typeName(t: IcebergType): string {
  if (typeof t === 'string') return t;
  if (t.type === 'list') return `list<${typeName(t.element)}>`;
  if (t.type === 'map') return `map<${typeName(t.key)}, ${typeName(t.value)}>`;
  return `struct<${t.fields.map((f) => `${f.name}: ${typeName(f.type)}`).join(', ')}>`;
}

/** A value as JSON the page shows as is. */
export function shown(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? String(v) : v.toISOString();
  if (v instanceof Uint8Array) {
    const hex = Buffer.from(v.subarray(0, BINARY_SHOWN)).toString('hex');
    return `0x${hex}${v.length > BINARY_SHOWN ? `… (${v.length} bytes)` : ''}`;
  }
  if (v instanceof Map) return [...v.entries()].map(([k, x]) => ({ key: shown(k), value: shown(x) }));
  if (Array.isArray(v)) return v.map(shown);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shown(x)]));
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return v;
}

const pad = (n: bigint, width: number) => n.toString().padStart(width, '0');

/** Iceberg's temporal values (microseconds or nanoseconds since the epoch, days) as ISO text. */
function shownAs(type: IcebergType, v: unknown): unknown {
  if (typeof type !== 'string' || v === null || v === undefined) return shown(v);
  const nanos = type.endsWith('_ns');
  if ((type.startsWith('timestamp')) && typeof v === 'bigint') {
    const perMs = nanos ? 1_000_000n : 1_000n;
    const ms = v / perMs - (v % perMs < 0n ? 1n : 0n);
    const frac = v - ms * perMs;
    const iso = new Date(Number(ms)).toISOString().slice(0, 19);
    const fraction = pad(ms % 1000n < 0n ? 1000n + (ms % 1000n) : ms % 1000n, 3) + pad(frac, nanos ? 6 : 3);
    return `${iso}.${fraction}${type.startsWith('timestamptz') ? 'Z' : ''}`;
  }
  if (type === 'date' && typeof v === 'number') return new Date(v * 86_400_000).toISOString().slice(0, 10);
  if (type === 'time' && typeof v === 'bigint') {
    const s = v / 1_000_000n;
    return `${pad(s / 3600n, 2)}:${pad((s / 60n) % 60n, 2)}:${pad(s % 60n, 2)}.${pad(v % 1_000_000n, 6)}`;
  }
  return shown(v);
}

export async function previewRows(ctx: Ctx, metadata: TableMetadata, opts: { snapshotId?: bigint; limit: number }): Promise<Preview> {
  let snapshot;
  if (opts.snapshotId !== undefined) {
    snapshot = metadata.snapshots.find((s) => s['snapshot-id'] === opts.snapshotId);
    if (!snapshot) throw notFound(`The table has no snapshot ${opts.snapshotId}.`);
  } else snapshot = refSnapshot(metadata, 'main');
  // As the library's reader: a snapshot read by id uses its own schema, the branch the table's.
  const schema = schemaById(metadata, opts.snapshotId !== undefined ? snapshot?.['schema-id'] : metadata['current-schema-id']);
  const columns = schema.fields.map((f) => ({ id: f.id, name: f.name, type: typeName(f.type) }));
  const empty = { snapshotId: snapshot ? String(snapshot['snapshot-id']) : null, schemaId: schema['schema-id'], columns, rows: [], more: false };
  if (!snapshot) return { ...empty, filesRead: 0, filesTotal: 0 };
  const io = storeFileIO(ctx);
  const { data, deletes } = await liveFiles(io, metadata, snapshot);
  const plan = new DeletePlan(io, metadata, deletes);
  const readSchema = plan.extendSchema(schema);
  const rows: unknown[][] = [];
  let filesRead = 0;
  let more = false;
  for (const file of data) {
    if (rows.length >= opts.limit) {
      more = true;
      break;
    }
    const read = await readDataFile(io, file, readSchema, schema, plan);
    filesRead++;
    for (const r of read) {
      if (rows.length >= opts.limit) {
        more = true;
        break;
      }
      rows.push(schema.fields.map((f) => shownAs(f.type, r[f.name])));
    }
  }
  return { ...empty, rows, more, filesRead, filesTotal: data.length };
}
