/**
 * S3's rows: typed reads and writes of buckets, objects, uploads and parts over the metadata
 * store. Every statement is indexed: lookups by primary key, listings as range scans of
 * (bucket, key) starting after the last key returned, so a page costs the page.
 */
import type { MetadataStore } from './database.js';

export interface BucketRow {
  name: string;
  account: string;
  region: string;
  created_at: number;
  config: string;
}

export interface ObjectRow {
  id: number;
  bucket: string;
  key: string;
  size: number;
  etag: string;
  last_modified: number;
  storage_class: string;
  meta: string;
  blob_ids: string | null;
  inline: Buffer | null;
}

export type ObjectSummaryRow = Pick<ObjectRow, 'key' | 'size' | 'etag' | 'last_modified' | 'storage_class'>;

export class S3Repo {
  constructor(private readonly store: MetadataStore) {}

  getBucket(name: string): BucketRow | undefined {
    return this.store.stmt('SELECT * FROM s3_buckets WHERE name = ?').get(name) as BucketRow | undefined;
  }

  insertBucket(row: BucketRow): void {
    this.store
      .stmt('INSERT INTO s3_buckets (name, account, region, created_at, config) VALUES (?, ?, ?, ?, ?)')
      .run(row.name, row.account, row.region, row.created_at, row.config);
  }

  updateBucketConfig(name: string, config: string): void {
    this.store.stmt('UPDATE s3_buckets SET config = ? WHERE name = ?').run(config, name);
  }

  deleteBucket(name: string): void {
    this.store.stmt('DELETE FROM s3_buckets WHERE name = ?').run(name);
  }

  listBuckets(account: string, after: string, limit: number, prefix = ''): BucketRow[] {
    return this.store
      .stmt(
        `SELECT * FROM s3_buckets WHERE account = ? AND name > ? AND name >= ? AND name < ?
         ORDER BY name LIMIT ?`,
      )
      .all(account, after, prefix, upperBound(prefix), limit) as BucketRow[];
  }

  bucketHasObjects(bucket: string): boolean {
    return this.store.stmt('SELECT 1 FROM s3_objects WHERE bucket = ? LIMIT 1').get(bucket) !== undefined;
  }

  bucketHasUploads(bucket: string): boolean {
    return this.store.stmt('SELECT 1 FROM s3_uploads WHERE bucket = ? LIMIT 1').get(bucket) !== undefined;
  }

  getObject(bucket: string, key: string): ObjectRow | undefined {
    return this.store.stmt('SELECT * FROM s3_objects WHERE bucket = ? AND key = ?').get(bucket, key) as
      | ObjectRow
      | undefined;
  }

  /** Inserts or replaces the object; returns the blob ids of the replaced version, if any. */
  putObject(row: Omit<ObjectRow, 'id'>): string[] {
    const old = this.store.stmt('SELECT blob_ids FROM s3_objects WHERE bucket = ? AND key = ?').get(row.bucket, row.key) as
      | { blob_ids: string | null }
      | undefined;
    this.store
      .stmt(
        `INSERT INTO s3_objects (bucket, key, size, etag, last_modified, storage_class, meta, blob_ids, inline)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (bucket, key) DO UPDATE SET size = excluded.size, etag = excluded.etag,
           last_modified = excluded.last_modified, storage_class = excluded.storage_class,
           meta = excluded.meta, blob_ids = excluded.blob_ids, inline = excluded.inline`,
      )
      .run(row.bucket, row.key, row.size, row.etag, row.last_modified, row.storage_class, row.meta, row.blob_ids, row.inline);
    return old?.blob_ids ? blobIdsOf(old.blob_ids) : [];
  }

  /** Deletes the object; returns its blob ids, or undefined when there was none. */
  deleteObject(bucket: string, key: string): string[] | undefined {
    const old = this.store
      .stmt('DELETE FROM s3_objects WHERE bucket = ? AND key = ? RETURNING blob_ids')
      .get(bucket, key) as { blob_ids: string | null } | undefined;
    if (!old) return undefined;
    return old.blob_ids ? blobIdsOf(old.blob_ids) : [];
  }

  /** Deletes up to `limit` objects and parts of the bucket; returns how many rows and their blobs. */
  deleteContentsBatch(bucket: string, limit: number): { count: number; blobIds: string[] } {
    const blobIds: string[] = [];
    const objects = this.store
      .stmt(
        `DELETE FROM s3_objects WHERE id IN (SELECT id FROM s3_objects WHERE bucket = ? LIMIT ?) RETURNING blob_ids`,
      )
      .all(bucket, limit) as { blob_ids: string | null }[];
    let count = objects.length;
    for (const o of objects) if (o.blob_ids) blobIds.push(...blobIdsOf(o.blob_ids));
    if (count < limit) {
      const uploads = this.store
        .stmt('SELECT upload_id FROM s3_uploads WHERE bucket = ? LIMIT ?')
        .all(bucket, limit - count) as { upload_id: string }[];
      for (const { upload_id } of uploads) {
        const parts = this.store
          .stmt('DELETE FROM s3_parts WHERE upload_id = ? RETURNING blob_ids')
          .all(upload_id) as { blob_ids: string | null }[];
        for (const p of parts) if (p.blob_ids) blobIds.push(...blobIdsOf(p.blob_ids));
        this.store.stmt('DELETE FROM s3_uploads WHERE upload_id = ?').run(upload_id);
      }
      count += uploads.length;
    }
    return { count, blobIds };
  }

  /** Keys in [from, to) after `after`, in order: one index range scan. */
  listObjects(bucket: string, after: string, from: string, to: string | undefined, limit: number): ObjectSummaryRow[] {
    if (to === undefined) {
      return this.store
        .stmt(
          `SELECT key, size, etag, last_modified, storage_class FROM s3_objects
           WHERE bucket = ? AND key > ? AND key >= ? ORDER BY key LIMIT ?`,
        )
        .all(bucket, after, from, limit) as ObjectSummaryRow[];
    }
    return this.store
      .stmt(
        `SELECT key, size, etag, last_modified, storage_class FROM s3_objects
         WHERE bucket = ? AND key > ? AND key >= ? AND key < ? ORDER BY key LIMIT ?`,
      )
      .all(bucket, after, from, to, limit) as ObjectSummaryRow[];
  }
}

/**
 * A string greater than every string starting with `prefix`. Keys compare as UTF-8 bytes, like
 * S3's, and U+10FFFF sorts after every other code point.
 */
export function upperBound(prefix: string): string {
  return prefix === '' ? '\u{10FFFF}' : `${prefix}\u{10FFFF}`;
}

/** The blob ids of a `blob_ids` column (JSON list of {id, size} segments). */
export function blobIdsOf(json: string): string[] {
  return (JSON.parse(json) as { id: string }[]).map((b) => b.id);
}
