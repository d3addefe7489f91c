/**
 * S3's tables: buckets (names unique across the emulator, owned by an account and placed in a
 * region) and their stored configurations (one row per kind: policy, tagging, cors, …), objects
 * keyed by (bucket, key) so listing is an index range scan, multipart uploads keyed by (bucket,
 * key, upload id) — ids sort by initiation time — and their parts. Small bodies live inline in
 * the row (last column, so listings never read them); larger ones are blob files named in
 * `blob_ids`, a JSON list of {id, size} segments (a completed multipart object is its parts'
 * blobs, in order, never a copy).
 */
import type { Migration } from '../database.js';

export const s3Migrations: Migration[] = [
  {
    id: 's3-001',
    sql: `
      CREATE TABLE s3_buckets (
        name TEXT PRIMARY KEY,
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX s3_buckets_by_account ON s3_buckets (account, name);

      CREATE TABLE s3_bucket_configs (
        bucket TEXT NOT NULL,
        kind TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (bucket, kind)
      ) WITHOUT ROWID;

      CREATE TABLE s3_objects (
        id INTEGER PRIMARY KEY,
        bucket TEXT NOT NULL,
        key TEXT NOT NULL,
        size INTEGER NOT NULL,
        etag TEXT NOT NULL,
        last_modified INTEGER NOT NULL,
        storage_class TEXT NOT NULL DEFAULT 'STANDARD',
        checksum_algorithm TEXT,
        checksum_type TEXT,
        checksum TEXT,
        parts_count INTEGER,
        meta TEXT NOT NULL DEFAULT '{}',
        blob_ids TEXT,
        inline BLOB
      );
      CREATE UNIQUE INDEX s3_objects_by_key ON s3_objects (bucket, key);

      CREATE TABLE s3_uploads (
        upload_id TEXT PRIMARY KEY,
        bucket TEXT NOT NULL,
        key TEXT NOT NULL,
        initiated INTEGER NOT NULL,
        initiator TEXT NOT NULL,
        meta TEXT NOT NULL DEFAULT '{}'
      ) WITHOUT ROWID;
      CREATE INDEX s3_uploads_by_key ON s3_uploads (bucket, key, upload_id);

      CREATE TABLE s3_parts (
        id INTEGER PRIMARY KEY,
        upload_id TEXT NOT NULL,
        part_number INTEGER NOT NULL,
        size INTEGER NOT NULL,
        etag TEXT NOT NULL,
        last_modified INTEGER NOT NULL,
        checksum_algorithm TEXT,
        checksum TEXT,
        blob_ids TEXT,
        inline BLOB
      );
      CREATE UNIQUE INDEX s3_parts_by_number ON s3_parts (upload_id, part_number);
    `,
  },
  {
    // The account index leaves out S3 Tables warehouses (owner 's3tables-service', WAREHOUSE_OWNER
    // in s3-repo.ts): their names, random when this was written (they begin with the table id's
    // creation time since), put each new one on a random leaf, one more page written per table
    // created, for listings that only the dashboard's warehouse view makes, which page through the
    // bucket names instead.
    id: 's3-002',
    sql: `
      DROP INDEX s3_buckets_by_account;
      CREATE INDEX s3_buckets_by_account ON s3_buckets (account, name) WHERE account <> 's3tables-service';
    `,
  },
];
