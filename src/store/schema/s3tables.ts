/**
 * S3 Tables' tables: table buckets keyed by (account, region, name), namespaces by (account,
 * region, bucket, name), tables clustered by their listing key (account, region, bucket,
 * namespace, name) so a page of ListTables is one contiguous range read, with indexes on their
 * immutable id and on (…, name) for name-prefix listings across a whole bucket, table
 * configurations (policies up to 20 KB) in a table of their own, in creation order and found by
 * table id, and the warehouse buckets waiting to be purged (deleted tables, interrupted
 * creations) so a restart resumes their removal. Configurations are JSON.
 */
import type { Migration } from '../database.js';

export const s3tablesMigrations: Migration[] = [
  {
    id: 's3tables-001',
    sql: `
      CREATE TABLE s3t_buckets (
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        name TEXT NOT NULL,
        id TEXT NOT NULL,
        type TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        encryption TEXT NOT NULL,
        storage_class TEXT NOT NULL,
        maintenance TEXT NOT NULL,
        metrics_id TEXT,
        policy TEXT,
        replication TEXT,
        replication_token TEXT,
        tags TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (account, region, name)
      ) WITHOUT ROWID;
      CREATE INDEX s3t_buckets_by_type ON s3t_buckets (account, region, type, name);

      CREATE TABLE s3t_namespaces (
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        bucket TEXT NOT NULL,
        name TEXT NOT NULL,
        id TEXT NOT NULL,
        bucket_id TEXT NOT NULL,
        owner TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        created_by TEXT NOT NULL,
        PRIMARY KEY (account, region, bucket, name)
      ) WITHOUT ROWID;

      CREATE TABLE s3t_tables (
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        bucket TEXT NOT NULL,
        namespace TEXT NOT NULL,
        name TEXT NOT NULL,
        id TEXT NOT NULL,
        bucket_id TEXT NOT NULL,
        namespace_id TEXT NOT NULL,
        type TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        modified_at INTEGER NOT NULL,
        owner TEXT NOT NULL,
        format TEXT NOT NULL,
        warehouse TEXT NOT NULL,
        version_token TEXT NOT NULL,
        metadata_location TEXT,
        created_by TEXT NOT NULL,
        modified_by TEXT NOT NULL,
        PRIMARY KEY (account, region, bucket, namespace, name)
      ) WITHOUT ROWID;
      CREATE TABLE s3t_table_configs (
        id TEXT PRIMARY KEY,
        encryption TEXT NOT NULL,
        storage_class TEXT NOT NULL,
        maintenance TEXT NOT NULL,
        policy TEXT,
        replication TEXT,
        replication_token TEXT,
        record_expiration TEXT,
        tags TEXT NOT NULL DEFAULT '{}'
      ) WITHOUT ROWID;
      CREATE UNIQUE INDEX s3t_tables_by_id ON s3t_tables (id);
      CREATE INDEX s3t_tables_by_name ON s3t_tables (account, region, bucket, name);

      CREATE TABLE s3t_purges (
        bucket TEXT PRIMARY KEY,
        queued_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    // Table configurations in a rowid table, appended in creation order, found through a unique
    // index on the id: keyed by the table id itself (random when this was written; it begins with
    // its creation time since), each new row (~450 bytes) landed on a random leaf, so creating 100
    // tables rewrote nearly every page of the table (65 of 65 with 600 tables, and growing with
    // their number) where the rows now fill about 11 new pages and the index entries, ten times
    // smaller, touch ten times fewer.
    id: 's3tables-002',
    sql: `
      CREATE TABLE s3t_table_configs_002 (
        id TEXT NOT NULL UNIQUE,
        encryption TEXT NOT NULL,
        storage_class TEXT NOT NULL,
        maintenance TEXT NOT NULL,
        policy TEXT,
        replication TEXT,
        replication_token TEXT,
        record_expiration TEXT,
        tags TEXT NOT NULL DEFAULT '{}'
      );
      INSERT INTO s3t_table_configs_002 (id, encryption, storage_class, maintenance, policy, replication, replication_token, record_expiration, tags)
        SELECT id, encryption, storage_class, maintenance, policy, replication, replication_token, record_expiration, tags
        FROM s3t_table_configs;
      DROP TABLE s3t_table_configs;
      ALTER TABLE s3t_table_configs_002 RENAME TO s3t_table_configs;
    `,
  },
];
