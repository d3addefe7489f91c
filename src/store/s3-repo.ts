/**
 * S3's rows: typed reads and writes of buckets, bucket configurations, objects, multipart uploads
 * and parts over the metadata store. Every statement is indexed: lookups by primary key, listings
 * as lazy range scans of (bucket, key) or (bucket, key, upload id) starting after the last entry
 * returned, so a page costs the page and skipping a common prefix is one seek.
 */
import type { MetadataStore } from './database.js';

export interface BucketRow {
  name: string;
  account: string;
  region: string;
  created_at: number;
}

export interface ObjectRow {
  id: number;
  bucket: string;
  key: string;
  size: number;
  etag: string;
  last_modified: number;
  storage_class: string;
  checksum_algorithm: string | null;
  checksum_type: string | null;
  checksum: string | null;
  parts_count: number | null;
  meta: string;
  blob_ids: string | null;
  inline: Buffer | null;
}

export type ObjectSummaryRow = Pick<
  ObjectRow,
  'key' | 'size' | 'etag' | 'last_modified' | 'storage_class' | 'checksum_algorithm' | 'checksum_type'
>;

export interface UploadRow {
  upload_id: string;
  bucket: string;
  key: string;
  initiated: number;
  initiator: string;
  meta: string;
}

export interface PartRow {
  upload_id: string;
  part_number: number;
  size: number;
  etag: string;
  last_modified: number;
  checksum_algorithm: string | null;
  checksum: string | null;
  blob_ids: string | null;
  inline: Buffer | null;
}

type PartSummaryRow = Omit<PartRow, 'inline' | 'blob_ids' | 'upload_id'>;

/**
 * The owner of S3 Tables warehouse buckets (services/s3tables/warehouse.ts says why), named here
 * because the account index leaves its buckets out.
 */
export const WAREHOUSE_OWNER = 's3tables-service';

const OBJECT_CACHE_ROW = 16 * 1024;
const OBJECT_CACHE_ROWS = 4096;
const OBJECT_CACHE_BYTES = 16 * 1024 * 1024;

const SUMMARY = 'key, size, etag, last_modified, storage_class, checksum_algorithm, checksum_type';
const HEAD_COLUMNS =
  'id, bucket, key, size, etag, last_modified, storage_class, checksum_algorithm, checksum_type, checksum, parts_count, meta';

export class S3Repo {
  /**
   * Committed bucket rows by name (null: known absent). Every request looks its bucket up; only
   * this class writes the table, and each write drops the entry before it runs. Rows are cached
   * only when read outside a transaction: one read inside could see a row the transaction (or a
   * savepoint of it) then rolls back, and would outlive it.
   */
  private readonly buckets = new Map<string, BucketRow | null>();
  /**
   * Recently read object rows of small (inline) objects, by bucket + key, under the same rule:
   * filled on reads outside a transaction only, dropped by every write of that key (a whole-bucket
   * delete drops all).
   * Bounded by count and bytes; rows handed out are shared and never mutated.
   */
  private readonly objects = new Map<string, ObjectRow>();
  private objectBytes = 0;

  constructor(private readonly store: MetadataStore) {}

  /** Forgets cached rows (after the store was reset underneath). */
  clearCache(): void {
    this.buckets.clear();
    this.objects.clear();
    this.objectBytes = 0;
  }

  private forget(bucket: string, key: string): void {
    const id = `${bucket}\u0000${key}`;
    const row = this.objects.get(id);
    if (!row) return;
    this.objects.delete(id);
    this.objectBytes -= row.size;
  }

  // --- buckets ---

  getBucket(name: string): BucketRow | undefined {
    const cached = this.buckets.get(name);
    if (cached !== undefined) return cached ?? undefined;
    const row = this.store.stmt('SELECT * FROM s3_buckets WHERE name = ?').get(name) as BucketRow | undefined;
    if (this.store.db.inTransaction) return row;
    if (this.buckets.size >= 10_000) this.buckets.clear();
    this.buckets.set(name, row ?? null);
    return row;
  }

  insertBucket(row: BucketRow): void {
    this.buckets.delete(row.name);
    this.store
      .stmt('INSERT INTO s3_buckets (name, account, region, created_at) VALUES (?, ?, ?, ?)')
      .run(row.name, row.account, row.region, row.created_at);
  }

  deleteBucket(name: string): void {
    this.buckets.delete(name);
    this.store.stmt('DELETE FROM s3_bucket_configs WHERE bucket = ?').run(name);
    this.store.stmt('DELETE FROM s3_buckets WHERE name = ?').run(name);
  }

  /** The account's buckets named after `after`, starting with `prefix`, by name. */
  listBuckets(account: string, after: string, limit: number, prefix = '', region?: string): BucketRow[] {
    const lower = after > prefix ? after : prefix;
    const op = after > prefix ? '>' : '>=';
    // The account index holds every owner but the warehouses' (migration s3-002), and is used
    // only when the query names its condition; warehouses are found through the names instead.
    const owner = account === WAREHOUSE_OWNER ? 'account = ?' : `account = ? AND account <> '${WAREHOUSE_OWNER}'`;
    const inRegion = region ? ' AND region = ?' : '';
    return this.store
      .stmt(`SELECT * FROM s3_buckets WHERE ${owner} AND name ${op} ? AND name < ?${inRegion} ORDER BY name LIMIT CAST(? AS INTEGER)`)
      .all(account, lower, upperBound(prefix), ...(region ? [region] : []), limit) as BucketRow[];
  }

  bucketHasObjects(bucket: string): boolean {
    return this.store.stmt('SELECT 1 FROM s3_objects WHERE bucket = ? LIMIT 1').get(bucket) !== undefined;
  }

  bucketHasUploads(bucket: string): boolean {
    return this.store.stmt('SELECT 1 FROM s3_uploads WHERE bucket = ? LIMIT 1').get(bucket) !== undefined;
  }

  getConfig(bucket: string, kind: string): string | undefined {
    const row = this.store.stmt('SELECT value FROM s3_bucket_configs WHERE bucket = ? AND kind = ?').get(bucket, kind) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  putConfig(bucket: string, kind: string, value: string): void {
    this.store
      .stmt(
        `INSERT INTO s3_bucket_configs (bucket, kind, value) VALUES (?, ?, ?)
         ON CONFLICT (bucket, kind) DO UPDATE SET value = excluded.value`,
      )
      .run(bucket, kind, value);
  }

  deleteConfig(bucket: string, kind: string): void {
    this.store.stmt('DELETE FROM s3_bucket_configs WHERE bucket = ? AND kind = ?').run(bucket, kind);
  }

  // --- objects ---

  getObject(bucket: string, key: string): ObjectRow | undefined {
    const id = `${bucket}\u0000${key}`;
    const cached = this.objects.get(id);
    if (cached) return cached;
    const row = this.store.stmt('SELECT * FROM s3_objects WHERE bucket = ? AND key = ?').get(bucket, key) as
      | ObjectRow
      | undefined;
    if (row?.inline && row.size <= OBJECT_CACHE_ROW && !this.store.db.inTransaction) {
      if (this.objects.size >= OBJECT_CACHE_ROWS || this.objectBytes + row.size > OBJECT_CACHE_BYTES) {
        this.objects.clear();
        this.objectBytes = 0;
      }
      this.objects.set(id, row);
      this.objectBytes += row.size;
    }
    return row;
  }

  /** The object's row without its bytes (HEAD, conditions). */
  headObject(bucket: string, key: string): Omit<ObjectRow, 'inline' | 'blob_ids'> | undefined {
    const cached = this.objects.get(`${bucket}\u0000${key}`);
    if (cached) return cached;
    return this.store.stmt(`SELECT ${HEAD_COLUMNS} FROM s3_objects WHERE bucket = ? AND key = ?`).get(bucket, key) as
      | Omit<ObjectRow, 'inline' | 'blob_ids'>
      | undefined;
  }

  /** Inserts or replaces the object; returns the blob ids of the replaced version, if any. */
  putObject(row: Omit<ObjectRow, 'id'>): string[] {
    this.forget(row.bucket, row.key);
    const old = this.store.stmt('SELECT blob_ids FROM s3_objects WHERE bucket = ? AND key = ?').get(row.bucket, row.key) as
      | { blob_ids: string | null }
      | undefined;
    this.store
      .stmt(
        `INSERT INTO s3_objects (bucket, key, size, etag, last_modified, storage_class, checksum_algorithm,
           checksum_type, checksum, parts_count, meta, blob_ids, inline)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (bucket, key) DO UPDATE SET size = excluded.size, etag = excluded.etag,
           last_modified = excluded.last_modified, storage_class = excluded.storage_class,
           checksum_algorithm = excluded.checksum_algorithm, checksum_type = excluded.checksum_type,
           checksum = excluded.checksum, parts_count = excluded.parts_count, meta = excluded.meta,
           blob_ids = excluded.blob_ids, inline = excluded.inline`,
      )
      .run(
        row.bucket,
        row.key,
        row.size,
        row.etag,
        row.last_modified,
        row.storage_class,
        row.checksum_algorithm,
        row.checksum_type,
        row.checksum,
        row.parts_count,
        row.meta,
        row.blob_ids,
        row.inline,
      );
    return old?.blob_ids ? blobIdsOf(old.blob_ids) : [];
  }

  setObjectMeta(bucket: string, key: string, meta: string): void {
    this.forget(bucket, key);
    this.store.stmt('UPDATE s3_objects SET meta = ? WHERE bucket = ? AND key = ?').run(meta, bucket, key);
  }

  /** Deletes the object; returns its blob ids, or undefined when there was none. */
  deleteObject(bucket: string, key: string): string[] | undefined {
    this.forget(bucket, key);
    const old = this.store
      .stmt('DELETE FROM s3_objects WHERE bucket = ? AND key = ? RETURNING blob_ids')
      .get(bucket, key) as { blob_ids: string | null } | undefined;
    if (!old) return undefined;
    return old.blob_ids ? blobIdsOf(old.blob_ids) : [];
  }

  /**
   * Moves an object row to another bucket name (bytes untouched, one UPDATE): S3 Tables maintenance
   * hides noncurrent warehouse objects this way. False when there was no such object.
   */
  moveObject(bucket: string, key: string, toBucket: string): boolean {
    this.forget(bucket, key);
    this.forget(toBucket, key);
    return this.store.stmt('UPDATE s3_objects SET bucket = ? WHERE bucket = ? AND key = ?').run(toBucket, bucket, key).changes === 1;
  }

  /** A page of (key, size, last_modified) of the bucket's objects after `after`, in key order. */
  objectPage(bucket: string, after: string, limit: number): Pick<ObjectRow, 'key' | 'size' | 'last_modified'>[] {
    return this.store
      .stmt('SELECT key, size, last_modified FROM s3_objects WHERE bucket = ? AND key > ? ORDER BY key LIMIT CAST(? AS INTEGER)')
      .all(bucket, after, limit) as Pick<ObjectRow, 'key' | 'size' | 'last_modified'>[];
  }

  /** Deletes up to `limit` objects and uploads of the bucket; returns how many and their blobs. */
  deleteContentsBatch(bucket: string, limit: number): { count: number; blobIds: string[] } {
    this.objects.clear();
    this.objectBytes = 0;
    const blobIds: string[] = [];
    const objects = this.store
      .stmt(
        `DELETE FROM s3_objects WHERE id IN (SELECT id FROM s3_objects WHERE bucket = ? LIMIT CAST(? AS INTEGER)) RETURNING blob_ids`,
      )
      .all(bucket, limit) as { blob_ids: string | null }[];
    let count = objects.length;
    for (const o of objects) if (o.blob_ids) blobIds.push(...blobIdsOf(o.blob_ids));
    if (count < limit) {
      const uploads = this.store
        .stmt('SELECT upload_id FROM s3_uploads WHERE bucket = ? LIMIT CAST(? AS INTEGER)')
        .all(bucket, limit - count) as { upload_id: string }[];
      for (const { upload_id } of uploads) blobIds.push(...this.deleteUpload(upload_id));
      count += uploads.length;
    }
    return { count, blobIds };
  }

  /**
   * Object summaries of the bucket in key order, lazily: keys after `after` (or from `after` when
   * `inclusive`), below `upper` when given. Stop iterating (break) to release the statement.
   */
  iterateObjects(bucket: string, after: string, inclusive: boolean, upper?: string): IterableIterator<ObjectSummaryRow> {
    const op = inclusive ? '>=' : '>';
    if (upper === undefined) {
      return this.store
        .stmt(`SELECT ${SUMMARY} FROM s3_objects WHERE bucket = ? AND key ${op} ? ORDER BY key`)
        .iterate(bucket, after) as IterableIterator<ObjectSummaryRow>;
    }
    return this.store
      .stmt(`SELECT ${SUMMARY} FROM s3_objects WHERE bucket = ? AND key ${op} ? AND key < ? ORDER BY key`)
      .iterate(bucket, after, upper) as IterableIterator<ObjectSummaryRow>;
  }

  // --- multipart uploads ---

  insertUpload(row: UploadRow): void {
    this.store
      .stmt('INSERT INTO s3_uploads (upload_id, bucket, key, initiated, initiator, meta) VALUES (?, ?, ?, ?, ?, ?)')
      .run(row.upload_id, row.bucket, row.key, row.initiated, row.initiator, row.meta);
  }

  getUpload(uploadId: string): UploadRow | undefined {
    return this.store.stmt('SELECT * FROM s3_uploads WHERE upload_id = ?').get(uploadId) as UploadRow | undefined;
  }

  /** Deletes the upload and its parts; returns the parts' blob ids. */
  deleteUpload(uploadId: string): string[] {
    const parts = this.store
      .stmt('DELETE FROM s3_parts WHERE upload_id = ? RETURNING blob_ids')
      .all(uploadId) as { blob_ids: string | null }[];
    this.store.stmt('DELETE FROM s3_uploads WHERE upload_id = ?').run(uploadId);
    const ids: string[] = [];
    for (const p of parts) if (p.blob_ids) ids.push(...blobIdsOf(p.blob_ids));
    return ids;
  }

  /** Uploads of the bucket in (key, upload id) order after the given position, lazily. */
  iterateUploads(
    bucket: string,
    afterKey: string,
    afterUploadId: string | undefined,
    upper?: string,
  ): IterableIterator<UploadRow> {
    const bound = upper ?? '\u{10FFFF}\u{10FFFF}';
    if (afterUploadId === undefined) {
      return this.store
        .stmt('SELECT * FROM s3_uploads WHERE bucket = ? AND key > ? AND key < ? ORDER BY key, upload_id')
        .iterate(bucket, afterKey, bound) as IterableIterator<UploadRow>;
    }
    return this.store
      .stmt(
        `SELECT * FROM s3_uploads WHERE bucket = ? AND (key, upload_id) > (?, ?) AND key < ?
         ORDER BY key, upload_id`,
      )
      .iterate(bucket, afterKey, afterUploadId, bound) as IterableIterator<UploadRow>;
  }

  /** Inserts or replaces a part; returns the blob ids of the part it replaced. */
  putPart(row: PartRow): string[] {
    const old = this.store
      .stmt('SELECT blob_ids FROM s3_parts WHERE upload_id = ? AND part_number = ?')
      .get(row.upload_id, row.part_number) as { blob_ids: string | null } | undefined;
    this.store
      .stmt(
        `INSERT INTO s3_parts (upload_id, part_number, size, etag, last_modified, checksum_algorithm, checksum,
           blob_ids, inline)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (upload_id, part_number) DO UPDATE SET size = excluded.size, etag = excluded.etag,
           last_modified = excluded.last_modified, checksum_algorithm = excluded.checksum_algorithm,
           checksum = excluded.checksum, blob_ids = excluded.blob_ids, inline = excluded.inline`,
      )
      .run(
        row.upload_id,
        row.part_number,
        row.size,
        row.etag,
        row.last_modified,
        row.checksum_algorithm,
        row.checksum,
        row.blob_ids,
        row.inline,
      );
    return old?.blob_ids ? blobIdsOf(old.blob_ids) : [];
  }

  /** Every part of an upload with its bytes, by part number (CompleteMultipartUpload). */
  parts(uploadId: string): PartRow[] {
    return this.store.stmt('SELECT * FROM s3_parts WHERE upload_id = ? ORDER BY part_number').all(uploadId) as PartRow[];
  }

  /** A page of part summaries after `afterPart` (ListParts). */
  listParts(uploadId: string, afterPart: number, limit: number): PartSummaryRow[] {
    return this.store
      .stmt(
        `SELECT part_number, size, etag, last_modified, checksum_algorithm, checksum FROM s3_parts
         WHERE upload_id = ? AND part_number > ? ORDER BY part_number LIMIT CAST(? AS INTEGER)`,
      )
      .all(uploadId, afterPart, limit) as PartSummaryRow[];
  }

  /** Removes part rows whose blobs the completed object adopted (their blobs are not released). */
  deletePartRows(uploadId: string): void {
    this.store.stmt('DELETE FROM s3_parts WHERE upload_id = ?').run(uploadId);
    this.store.stmt('DELETE FROM s3_uploads WHERE upload_id = ?').run(uploadId);
  }
}

/**
 * A string greater than every string starting with `prefix`. Keys compare as UTF-8 bytes, like
 * S3's, and U+10FFFF sorts after every other code point.
 */
export function upperBound(prefix: string): string {
  return prefix === '' ? '\u{10FFFF}\u{10FFFF}' : `${prefix}\u{10FFFF}`;
}

/** The blob ids of a `blob_ids` column (JSON list of {id, size} segments). */
function blobIdsOf(json: string): string[] {
  return (JSON.parse(json) as { id: string }[]).map((b) => b.id);
}
