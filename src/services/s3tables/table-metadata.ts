/**
 * A table's Iceberg metadata as documents rather than pointers: reading the metadata.json a table
 * points at (parsed losslessly, gzip understood, kept in a small per-runtime cache keyed by its
 * location — metadata files are written once and never changed in place), and committing a new
 * document: written to `<location>/metadata/NNNNN-<uuid>.metadata.json` as the Java library names
 * them, then the table's pointer moved by UpdateTableMetadataLocation's compare-and-swap, so every
 * road that changes a table (the S3 Tables API, the REST catalog, maintenance) meets the same
 * version token. A swap that loses leaves no file behind.
 */
import { randomUUID } from 'node:crypto';
import { zlib } from '../../on-demand.js';
import { parseIcebergJson, stringifyIcebergJson } from '../../iceberg/json.js';
import type { TableMetadata } from '../../iceberg/types.js';
import type { Ctx, Runtime } from '../../runtime/runtime.js';
import type { TableRow } from '../../store/s3tables-repo.js';
import { isAwsError } from '../../wire/errors.js';
import { INLINE_LIMIT } from '../../store/blobs.js';
import { deleteObject, getObjectBytes, putSmallObject } from '../s3/objects.js';
import { s3tErrors } from './errors.js';
import { newVersionToken } from './naming.js';
import { repo } from './lookup.js';
import { writeWarehouseObject } from './warehouse.js';
import { tableCommitted } from './maintenance/commit-hook.js';

/** AWS refuses a metadata.json over 50 MB on the Iceberg REST endpoint (S3 User Guide). */
const MAX_METADATA_BYTES = 50 * 1024 * 1024;
// The cache holds documents by the bytes of their text, so a round of commits over a thousand
// young tables stays in it as well as a few large tables do.
const CACHE_BYTES = 16 * 1024 * 1024;
const CACHE_MAX_DOCUMENT = 4 * 1024 * 1024;

/** A metadata document and its JSON text (the file's, unless members it lacked were filled in). */
interface MetadataFile {
  doc: TableMetadata;
  text: string;
}

interface Cache {
  files: Map<string, MetadataFile>;
  bytes: number;
}

const caches = new WeakMap<Runtime, Cache>();

function cacheOf(rt: Runtime): Cache {
  let c = caches.get(rt);
  if (!c) {
    const created: Cache = { files: new Map(), bytes: 0 };
    rt.resetHooks.push(() => {
      created.files.clear();
      created.bytes = 0;
    });
    caches.set(rt, created);
    c = created;
  }
  return c;
}

function forget(rt: Runtime, location: string): void {
  const c = cacheOf(rt);
  const old = c.files.get(location);
  if (!old) return;
  c.files.delete(location);
  c.bytes -= old.text.length;
}

function remember(rt: Runtime, location: string, file: MetadataFile): void {
  if (file.text.length > CACHE_MAX_DOCUMENT) return;
  const c = cacheOf(rt);
  forget(rt, location);
  c.files.set(location, file);
  c.bytes += file.text.length;
  while (c.bytes > CACHE_BYTES) forget(rt, c.files.keys().next().value as string);
}

export function splitLocation(location: string): { bucket: string; key: string } | undefined {
  const m = /^s3a?:\/\/([^/]+)\/(.+)$/.exec(location);
  return m ? { bucket: m[1]!, key: m[2]! } : undefined;
}

const unreadable = (location: string, why: string) =>
  s3tErrors.badRequest(`The table's metadata file ${location} cannot be read as Iceberg table metadata: ${why}`);

/** The metadata document at `location` (a table's current metadata file). */
export async function readTableMetadata(ctx: Ctx, location: string): Promise<TableMetadata> {
  return (await readMetadataFile(ctx, location)).doc;
}

/** The metadata document at `location` with its text (as written; gzip undone). */
export async function readMetadataFile(ctx: Ctx, location: string): Promise<MetadataFile> {
  const hit = cacheOf(ctx.rt).files.get(location);
  if (hit) return hit;
  const where = splitLocation(location);
  if (!where) throw unreadable(location, 'not an s3:// location');
  let bytes: Buffer;
  try {
    bytes = await getObjectBytes(ctx, { Bucket: where.bucket, Key: where.key });
  } catch (err) {
    if (isAwsError(err) && err.status === 404) throw unreadable(location, 'the file does not exist');
    throw err;
  }
  let parsed: unknown;
  let text: string;
  try {
    text = (location.endsWith('.gz') ? zlib().gunzipSync(bytes) : bytes).toString('utf8');
    parsed = parseIcebergJson(text);
  } catch (err) {
    throw unreadable(location, (err as Error).message);
  }
  const m = parsed as Partial<TableMetadata> | null;
  if (!m || typeof m !== 'object' || typeof m['format-version'] !== 'number' || typeof m['table-uuid'] !== 'string' || !Array.isArray(m.schemas)) {
    throw unreadable(location, 'format-version, table-uuid or schemas is missing');
  }
  const doc = withDefaults(m as TableMetadata);
  // The text answers REST clients as is unless members had to be filled in.
  const complete = Object.keys(doc).every((k) => k in m);
  const file = { doc, text: complete ? text : stringifyIcebergJson(doc) };
  remember(ctx.rt, location, file);
  return file;
}

/** Members writers may leave out (v1 documents, older writers), filled as the Java parser does. */
function withDefaults(m: TableMetadata): TableMetadata {
  return {
    ...m,
    properties: m.properties ?? {},
    snapshots: m.snapshots ?? [],
    'snapshot-log': m['snapshot-log'] ?? [],
    'metadata-log': m['metadata-log'] ?? [],
    refs: m.refs ?? (m['current-snapshot-id'] != null && m['current-snapshot-id'] !== -1n
      ? { main: { 'snapshot-id': m['current-snapshot-id'], type: 'branch' } }
      : {}),
    statistics: m.statistics ?? [],
    'partition-statistics': m['partition-statistics'] ?? [],
    'sort-orders': m['sort-orders'] ?? [{ 'order-id': 0, fields: [] }],
    'default-sort-order-id': m['default-sort-order-id'] ?? 0,
    'last-sequence-number': m['last-sequence-number'] ?? 0,
  };
}

/** The current metadata of a table, or undefined when it has none yet (created without metadata). */
export async function currentMetadata(ctx: Ctx, table: TableRow): Promise<TableMetadata | undefined> {
  return table.metadata_location ? readTableMetadata(ctx, table.metadata_location) : undefined;
}

/** `…/00007-<uuid>.metadata.json` → 7; -1 when the name does not follow the convention. */
function versionOf(location: string | null): number {
  const name = location?.slice(location.lastIndexOf('/') + 1) ?? '';
  const m = /^(\d+)-/.exec(name);
  return m ? Number(m[1]) : -1;
}

/** Where the next metadata file of a table goes (Java: `%05d-%s.metadata.json` in `<location>/metadata`). */
export function nextMetadataLocation(metadata: TableMetadata, previous: string | null): string {
  const version = String(versionOf(previous) + 1).padStart(5, '0');
  return `${metadata.location.replace(/\/+$/, '')}/metadata/${version}-${randomUUID()}.metadata.json`;
}

/** Writes a metadata document where `location` says (inside a warehouse) and caches it; its text. */
export async function writeTableMetadata(
  ctx: Ctx,
  location: string,
  metadata: TableMetadata,
  text = stringifyIcebergJson(metadata),
): Promise<string> {
  const where = splitLocation(location);
  if (!where) throw s3tErrors.invalidMetadataLocation();
  if (Buffer.byteLength(text) > MAX_METADATA_BYTES) {
    throw s3tErrors.badRequest('The table metadata exceeds the maximum size of 50 MB.');
  }
  await writeWarehouseObject(ctx, where.bucket, where.key, text);
  remember(ctx.rt, location, { doc: metadata, text });
  return text;
}

/**
 * The writer of a table's first metadata document when it fits in a row (undefined otherwise):
 * `write` runs inside the caller's transaction, so the warehouse bucket, its metadata file and the
 * table row land together with no orphan to record; `cache` once that transaction has committed.
 */
export function smallMetadataWriter(ctx: Ctx, location: string, metadata: TableMetadata): { write: () => void; cache: () => void } | undefined {
  const text = stringifyIcebergJson(metadata);
  const bytes = Buffer.from(text, 'utf8');
  const where = splitLocation(location);
  if (bytes.length > INLINE_LIMIT || !where) return undefined;
  return {
    write: () => putSmallObject(ctx, { Bucket: where.bucket, Key: where.key, Body: bytes, ContentType: 'application/json' }),
    cache: () => remember(ctx.rt, location, { doc: metadata, text }),
  };
}

/**
 * Writes `next` as the table's new metadata file and moves the pointer from `table`'s version; a
 * lost race (ConflictException) leaves no file behind. A document that fits in a row is written in
 * the very transaction that moves the pointer; a larger one goes first and is removed on failure.
 */
export async function commitTableMetadata(
  ctx: Ctx,
  table: TableRow,
  next: TableMetadata,
): Promise<{ location: string; versionToken: string; text: string }> {
  const location = nextMetadataLocation(next, table.metadata_location);
  if (!location.startsWith(`${table.warehouse}/`)) {
    throw s3tErrors.badRequest(`The table location must be inside the table's warehouse ${table.warehouse}.`);
  }
  const text = stringifyIcebergJson(next);
  const bytes = Buffer.from(text, 'utf8');
  const where = splitLocation(location)!;
  let versionToken = '';
  // By id, not name: a rename racing the commit does not make it fail.
  const swap = () => {
    versionToken = movePointer(ctx, table, table.version_token, location);
  };
  if (bytes.length <= INLINE_LIMIT) {
    putSmallObject(ctx, { Bucket: where.bucket, Key: where.key, Body: bytes, ContentType: 'application/json' }, swap);
  } else {
    await writeTableMetadata(ctx, location, next, text);
    try {
      swap();
    } catch (err) {
      try {
        deleteObject(ctx, { Bucket: where.bucket, Key: where.key });
      } catch {
        // The table may be gone (and its warehouse with it): nothing is left to remove.
      }
      throw err;
    }
  }
  remember(ctx.rt, location, { doc: next, text });
  // The file just replaced is read again only by time travel: let current documents have the room.
  if (table.metadata_location) forget(ctx.rt, table.metadata_location);
  return { location, versionToken, text };
}

/**
 * The compare-and-swap behind every metadata commit: moves table `t`'s pointer to `location` if
 * its version token is still `expectedToken` (409 ConflictException otherwise); the new token.
 */
export function movePointer(ctx: Ctx, t: Pick<TableRow, 'id'>, expectedToken: string, location: string): string {
  const token = newVersionToken();
  const swapped = repo(ctx).swapMetadataLocation(t.id, expectedToken, { location, token, at: Date.now(), by: ctx.account });
  if (!swapped) throw s3tErrors.versionTokenMismatch();
  tableCommitted(ctx.rt, t.id);
  return token;
}
