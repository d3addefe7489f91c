/**
 * S3 Tables' rows: typed reads and writes of table buckets, namespaces, tables and pending
 * warehouse purges. Every statement uses an index: lookups by primary key, listings as range
 * scans that start after the last key of the previous page (row-value comparisons), so a page
 * costs the page however many rows the account holds.
 */
import type { MetadataStore } from './database.js';
import { bucketKey, keepPage, pageKey, remember } from './row-cache.js';

export interface TableBucketRow {
  account: string;
  region: string;
  name: string;
  id: string;
  type: string;
  created_at: number;
  /** JSON EncryptionConfiguration. */
  encryption: string;
  storage_class: string;
  /** JSON map TableBucketMaintenanceType → value. */
  maintenance: string;
  metrics_id: string | null;
  policy: string | null;
  /** JSON TableBucketReplicationConfiguration. */
  replication: string | null;
  replication_token: string | null;
  /** JSON map of tags. */
  tags: string;
}

type TableBucketSummaryRow = Pick<TableBucketRow, 'account' | 'name' | 'id' | 'type' | 'created_at'>;
/** The columns every operation under a bucket reads (policies and other documents stay on disk). */
export type TableBucketCore = Pick<
  TableBucketRow,
  'account' | 'region' | 'name' | 'id' | 'type' | 'created_at' | 'encryption' | 'storage_class'
>;
/** Where a bucket lives: enough to address its namespaces and tables. */
type BucketKey = Pick<TableBucketRow, 'account' | 'region' | 'name'>;
const BUCKET_CORE_COLUMNS = 'account, region, name, id, type, created_at, encryption, storage_class';

export interface NamespaceRow {
  account: string;
  region: string;
  bucket: string;
  name: string;
  id: string;
  bucket_id: string;
  owner: string;
  created_at: number;
  created_by: string;
}

/** A table's identity and state: what every table operation reads (one narrow indexed lookup). */
export interface TableRow {
  id: string;
  account: string;
  region: string;
  bucket: string;
  namespace: string;
  name: string;
  bucket_id: string;
  namespace_id: string;
  owner: string;
  type: string;
  format: string;
  warehouse: string;
  version_token: string;
  metadata_location: string | null;
  created_at: number;
  created_by: string;
  modified_at: number;
  modified_by: string;
  /** The source table ARN when the table is a replica that S3 Tables replication maintains. */
  replica_of: string | null;
}

/** A table's stored configuration, read only by the operations that need it. */
interface TableConfigRow {
  encryption: string;
  storage_class: string;
  maintenance: string;
  policy: string | null;
  replication: string | null;
  replication_token: string | null;
  record_expiration: string | null;
  tags: string;
}

export type NewTableRow = TableRow & TableConfigRow;

/** A listed table: account, region and bucket are those of the listing. */
export type TableSummaryRow = Pick<
  TableRow,
  'id' | 'namespace' | 'name' | 'bucket_id' | 'namespace_id' | 'type' | 'created_at' | 'modified_at' | 'replica_of'
>;

/** Bucket-level columns a configuration call may set. */
type BucketConfigColumn = 'encryption' | 'storage_class' | 'maintenance' | 'metrics_id' | 'policy' | 'tags';
/** Table-level columns a configuration call may set. */
type TableConfigColumn = 'maintenance' | 'policy' | 'record_expiration' | 'tags';

/** The smallest string greater than every string starting with `prefix`. */
function prefixEnd(prefix: string): string {
  return `${prefix}\u{10FFFF}`;
}

const SUMMARY_COLUMNS = 'id, namespace, name, bucket_id, namespace_id, type, created_at, modified_at, replica_of';
const TABLE_COLUMNS =
  'id, account, region, bucket, namespace, name, bucket_id, namespace_id, owner, type, format, warehouse, version_token, ' +
  'metadata_location, created_at, created_by, modified_at, modified_by, replica_of';
const TABLE_CONFIG_COLUMNS = 'encryption, storage_class, maintenance, policy, replication, replication_token, record_expiration, tags';
const TABLE_KEYS = TABLE_COLUMNS.split(', ') as (keyof TableRow)[];
const CONFIG_KEYS = TABLE_CONFIG_COLUMNS.split(', ') as (keyof TableConfigRow)[];

// Positional parameters: binding 28 named ones from objects cost ~3 µs more per table created.
const INSERT_TABLE = `INSERT INTO s3t_tables (${TABLE_COLUMNS}) VALUES (${TABLE_KEYS.map(() => '?').join(', ')})`;
const INSERT_TABLE_CONFIG = `INSERT INTO s3t_table_configs (id, ${TABLE_CONFIG_COLUMNS}) VALUES (?, ${CONFIG_KEYS.map(() => '?').join(', ')})`;

/**
 * Committed table rows kept by id, one cache per store whichever repo instance reads or writes:
 * GetTable and every commit read a row, and it costs two B-tree searches. Listed rows (summaries)
 * are kept beside them: a listing reads its page's ids and answers from the cache when it holds
 * every one, which spares turning nine columns of each row into JavaScript values (two thirds of a
 * ten-table page's time in the store). Bounds and keys are in row-cache.ts.
 */
interface RowCache {
  rows: Map<string, Readonly<TableRow>>;
  summaries: Map<string, Readonly<TableSummaryRow>>;
  /** Buckets' core columns by `account/region/name`: nearly every operation reads one first. */
  buckets: Map<string, Readonly<TableBucketCore>>;
  /**
   * Listed pages' ids by listing and parameters, all dropped whenever a table is created, deleted
   * or renamed (which may change any listing's members or order; a commit changes neither).
   */
  pages: Map<string, readonly string[]>;
}

const rowCaches = new WeakMap<MetadataStore, RowCache>();

export class S3TablesRepo {
  private readonly cache: RowCache;

  constructor(private readonly store: MetadataStore) {
    let cache = rowCaches.get(store);
    if (!cache) rowCaches.set(store, (cache = { rows: new Map(), summaries: new Map(), buckets: new Map(), pages: new Map() }));
    this.cache = cache;
  }

  /** Forgets every cached row (the store was reset). */
  clearCache(): void {
    this.cache.rows.clear();
    this.cache.summaries.clear();
    this.cache.buckets.clear();
    this.cache.pages.clear();
  }

  /** Forgets one table's cached rows: called before every write to it. */
  private forget(id: string): void {
    this.cache.rows.delete(id);
    this.cache.summaries.delete(id);
  }

  // ---- table buckets ----

  getBucket(account: string, region: string, name: string): TableBucketRow | undefined {
    return this.store
      .stmt('SELECT * FROM s3t_buckets WHERE account = ? AND region = ? AND name = ?')
      .get(account, region, name) as TableBucketRow | undefined;
  }

  /** A bucket's core columns, cached (outside transactions) like table rows until a write to the bucket. */
  getBucketCore(account: string, region: string, name: string): TableBucketCore | undefined {
    const key = bucketKey(account, region, name);
    const hit = this.cache.buckets.get(key);
    if (hit) return hit;
    const row = this.store
      .stmt(`SELECT ${BUCKET_CORE_COLUMNS} FROM s3t_buckets WHERE account = ? AND region = ? AND name = ?`)
      .get(account, region, name) as TableBucketCore | undefined;
    if (row && !this.store.db.inTransaction) remember(this.cache.buckets, key, Object.freeze(row));
    return row;
  }

  insertBucket(row: TableBucketRow): void {
    this.cache.buckets.delete(bucketKey(row.account, row.region, row.name));
    this.store
      .stmt(
        `INSERT INTO s3t_buckets (account, region, name, id, type, created_at, encryption, storage_class, maintenance,
           metrics_id, policy, replication, replication_token, tags)
         VALUES (@account, @region, @name, @id, @type, @created_at, @encryption, @storage_class, @maintenance,
           @metrics_id, @policy, @replication, @replication_token, @tags)`,
      )
      .run(row);
  }

  deleteBucket(account: string, region: string, name: string): void {
    this.cache.buckets.delete(bucketKey(account, region, name));
    this.store.stmt('DELETE FROM s3t_buckets WHERE account = ? AND region = ? AND name = ?').run(account, region, name);
  }

  setBucketColumn(b: TableBucketCore, column: BucketConfigColumn, value: string | null): void {
    this.cache.buckets.delete(bucketKey(b.account, b.region, b.name));
    this.store
      .stmt(`UPDATE s3t_buckets SET ${column} = ? WHERE account = ? AND region = ? AND name = ?`)
      .run(value, b.account, b.region, b.name);
  }

  setBucketReplication(b: TableBucketCore, config: string | null, token: string | null): void {
    this.cache.buckets.delete(bucketKey(b.account, b.region, b.name));
    this.store
      .stmt('UPDATE s3t_buckets SET replication = ?, replication_token = ? WHERE account = ? AND region = ? AND name = ?')
      .run(config, token, b.account, b.region, b.name);
  }

  listBuckets(
    account: string,
    region: string,
    opts: { prefix: string; type?: string; after: string; limit: number },
  ): TableBucketSummaryRow[] {
    const cols = 'account, name, id, type, created_at';
    if (opts.type) {
      return this.store
        .stmt(
          `SELECT ${cols} FROM s3t_buckets WHERE account = ? AND region = ? AND type = ? AND name > ? AND name >= ? AND name < ?
           ORDER BY name LIMIT CAST(? AS INTEGER)`,
        )
        .all(account, region, opts.type, opts.after, opts.prefix, prefixEnd(opts.prefix), opts.limit) as TableBucketSummaryRow[];
    }
    return this.store
      .stmt(
        `SELECT ${cols} FROM s3t_buckets WHERE account = ? AND region = ? AND name > ? AND name >= ? AND name < ?
         ORDER BY name LIMIT CAST(? AS INTEGER)`,
      )
      .all(account, region, opts.after, opts.prefix, prefixEnd(opts.prefix), opts.limit) as TableBucketSummaryRow[];
  }

  bucketHasNamespaces(b: TableBucketCore): boolean {
    return (
      this.store
        .stmt('SELECT 1 FROM s3t_namespaces WHERE account = ? AND region = ? AND bucket = ? LIMIT 1')
        .get(b.account, b.region, b.name) !== undefined
    );
  }

  // ---- namespaces ----

  getNamespace(account: string, region: string, bucket: string, name: string): NamespaceRow | undefined {
    return this.store
      .stmt('SELECT * FROM s3t_namespaces WHERE account = ? AND region = ? AND bucket = ? AND name = ?')
      .get(account, region, bucket, name) as NamespaceRow | undefined;
  }

  insertNamespace(row: NamespaceRow): void {
    this.store
      .stmt(
        `INSERT INTO s3t_namespaces (account, region, bucket, name, id, bucket_id, owner, created_at, created_by)
         VALUES (@account, @region, @bucket, @name, @id, @bucket_id, @owner, @created_at, @created_by)`,
      )
      .run(row);
  }

  deleteNamespace(ns: NamespaceRow): void {
    this.store
      .stmt('DELETE FROM s3t_namespaces WHERE account = ? AND region = ? AND bucket = ? AND name = ?')
      .run(ns.account, ns.region, ns.bucket, ns.name);
  }

  listNamespaces(b: TableBucketCore, opts: { prefix: string; after: string; limit: number }): NamespaceRow[] {
    return this.store
      .stmt(
        `SELECT * FROM s3t_namespaces WHERE account = ? AND region = ? AND bucket = ? AND name > ? AND name >= ? AND name < ?
         ORDER BY name LIMIT CAST(? AS INTEGER)`,
      )
      .all(b.account, b.region, b.name, opts.after, opts.prefix, prefixEnd(opts.prefix), opts.limit) as NamespaceRow[];
  }

  namespaceHasTables(ns: NamespaceRow): boolean {
    return (
      this.store
        .stmt('SELECT 1 FROM s3t_tables WHERE account = ? AND region = ? AND bucket = ? AND namespace = ? LIMIT 1')
        .get(ns.account, ns.region, ns.bucket, ns.name) !== undefined
    );
  }

  // ---- tables ----

  /**
   * The table with this id. Rows read outside a transaction are cached, frozen, until a write to
   * the row through this repo: every write to s3t_tables goes through it, and a write forgets the
   * row before it runs, so a rolled-back transaction leaves nothing stale behind.
   */
  getTable(id: string): TableRow | undefined {
    const hit = this.cache.rows.get(id);
    if (hit) return hit;
    const row = this.store.stmt(`SELECT ${TABLE_COLUMNS} FROM s3t_tables WHERE id = ?`).get(id) as TableRow | undefined;
    if (row && !this.store.db.inTransaction) remember(this.cache.rows, id, Object.freeze(row));
    return row;
  }

  /**
   * The table whose warehouse is the S3 bucket `bucket`: a warehouse name starts with the first 19
   * characters of its table's id, so this is a short range of the id index.
   */
  getTableByWarehouse(bucket: string): TableRow | undefined {
    const head = bucket.slice(0, 19);
    return this.store
      .stmt(`SELECT ${TABLE_COLUMNS} FROM s3t_tables WHERE id >= ? AND id < ? AND warehouse = ?`)
      .get(head, prefixEnd(head), `s3://${bucket}`) as TableRow | undefined;
  }

  /** Tables of every account in id order after `afterId` (maintenance walks them page by page). */
  tablesAfter(afterId: string, limit: number): TableRow[] {
    return this.store
      .stmt(`SELECT ${TABLE_COLUMNS} FROM s3t_tables WHERE id > ? ORDER BY id LIMIT CAST(? AS INTEGER)`)
      .all(afterId, limit) as TableRow[];
  }

  /** Marks a table as the replica of `sourceArn`, or (null) as an ordinary table again. */
  setReplicaOf(id: string, sourceArn: string | null): void {
    this.forget(id);
    this.store.stmt('UPDATE s3t_tables SET replica_of = ? WHERE id = ?').run(sourceArn, id);
  }

  getTableByName(account: string, region: string, bucket: string, namespace: string, name: string): TableRow | undefined {
    return this.store
      .stmt(`SELECT ${TABLE_COLUMNS} FROM s3t_tables WHERE account = ? AND region = ? AND bucket = ? AND namespace = ? AND name = ?`)
      .get(account, region, bucket, namespace, name) as TableRow | undefined;
  }

  getTableConfig(id: string): TableConfigRow {
    return this.store.stmt(`SELECT ${TABLE_CONFIG_COLUMNS} FROM s3t_table_configs WHERE id = ?`).get(id) as TableConfigRow;
  }

  insertTable(row: NewTableRow): void {
    this.forget(row.id);
    this.cache.pages.clear();
    this.store.stmt(INSERT_TABLE).run(TABLE_KEYS.map((k) => row[k]));
    this.store.stmt(INSERT_TABLE_CONFIG).run(row.id, CONFIG_KEYS.map((k) => row[k]));
  }

  deleteTable(id: string): void {
    this.cache.pages.clear();
    this.forget(id);
    this.store.stmt('DELETE FROM s3t_tables WHERE id = ?').run(id);
    this.store.stmt('DELETE FROM s3t_table_configs WHERE id = ?').run(id);
  }

  /** Compare-and-swap of the metadata location: true when `expectedToken` was current. */
  swapMetadataLocation(
    id: string,
    expectedToken: string,
    change: { location: string; token: string; at: number; by: string },
  ): boolean {
    this.forget(id);
    const res = this.store
      .stmt(
        `UPDATE s3t_tables SET metadata_location = ?, version_token = ?, modified_at = ?, modified_by = ?
         WHERE id = ? AND version_token = ?`,
      )
      .run(change.location, change.token, change.at, change.by, id, expectedToken);
    return res.changes === 1;
  }

  renameTable(id: string, change: { namespace: string; namespaceId: string; name: string; at: number; by: string }): void {
    this.cache.pages.clear();
    this.forget(id);
    this.store
      .stmt('UPDATE s3t_tables SET namespace = ?, namespace_id = ?, name = ?, modified_at = ?, modified_by = ? WHERE id = ?')
      .run(change.namespace, change.namespaceId, change.name, change.at, change.by, id);
  }

  setTableColumn(id: string, column: TableConfigColumn, value: string | null): void {
    this.store.stmt(`UPDATE s3t_table_configs SET ${column} = ? WHERE id = ?`).run(value, id);
  }

  setTableReplication(id: string, config: string | null, token: string | null): void {
    this.store.stmt('UPDATE s3t_table_configs SET replication = ?, replication_token = ? WHERE id = ?').run(config, token, id);
  }

  /**
   * A page of listed tables: `query` is the listing's `FROM … WHERE … ORDER BY … LIMIT` with its
   * `params`. A page listed before (its ids kept, see RowCache.pages) whose rows are all cached is
   * answered from the cache, each row frozen. Otherwise the rows are read as arrays (better-sqlite3's
   * raw mode, about a third cheaper per row than the driver's objects) and, outside a transaction,
   * kept with the page's ids; nothing may change them.
   */
  private summaries(query: string, params: unknown[]): TableSummaryRow[] {
    // Inside a transaction nothing is kept: what it reads may not be committed.
    const key = this.store.db.inTransaction ? undefined : pageKey(query, params);
    const ids = key === undefined ? undefined : this.cache.pages.get(key);
    if (!ids) return this.readSummaries(query, params, key);
    const page: TableSummaryRow[] = [];
    for (const id of ids) {
      const hit = this.cachedSummary(id);
      if (!hit) return this.readSummaries(query, params, key);
      // Frozen when first listed from the cache, which tells callers the row is worth keeping
      // derived values for (a row listed once, cold, is not).
      page.push(Object.isFrozen(hit) ? hit : Object.freeze(hit));
    }
    return page;
  }

  /** A table's cached row, listed or read whole (a whole row is a summary too). */
  private cachedSummary(id: string): TableSummaryRow | undefined {
    return this.cache.summaries.get(id) ?? this.cache.rows.get(id);
  }

  private readSummaries(query: string, params: unknown[], key: string | undefined): TableSummaryRow[] {
    const rows = this.store.stmt(`SELECT ${SUMMARY_COLUMNS} ${query}`).raw(true).all(...params) as unknown[][];
    const page = rows.map((r): TableSummaryRow => {
      const id = r[0] as string;
      // A row still cached is current (every write forgets it first): keep it, and what callers
      // keep with it.
      const cached = key === undefined ? undefined : this.cachedSummary(id);
      if (cached) return cached;
      const summary: TableSummaryRow = {
        id,
        namespace: r[1] as string,
        name: r[2] as string,
        bucket_id: r[3] as string,
        namespace_id: r[4] as string,
        type: r[5] as string,
        created_at: r[6] as number,
        modified_at: r[7] as number,
        replica_of: r[8] as string | null,
      };
      if (key !== undefined) remember(this.cache.summaries, id, summary);
      return summary;
    });
    if (key !== undefined) keepPage(this.cache.pages, key, page.map((t) => t.id));
    return page;
  }

  /** Tables of one namespace by name. */
  listTablesInNamespace(
    b: BucketKey,
    namespace: string,
    opts: { prefix: string; after: string; limit: number },
  ): TableSummaryRow[] {
    return this.summaries(
      `FROM s3t_tables
       WHERE account = ? AND region = ? AND bucket = ? AND namespace = ? AND name > ? AND name >= ? AND name < ?
       ORDER BY name LIMIT CAST(? AS INTEGER)`,
      [b.account, b.region, b.name, namespace, opts.after, opts.prefix, prefixEnd(opts.prefix), opts.limit],
    );
  }

  /** Tables of a whole bucket by (namespace, name). */
  listTablesInBucket(b: BucketKey, opts: { after: [string, string]; limit: number }): TableSummaryRow[] {
    return this.summaries(
      `FROM s3t_tables
       WHERE account = ? AND region = ? AND bucket = ? AND (namespace, name) > (?, ?)
       ORDER BY namespace, name LIMIT CAST(? AS INTEGER)`,
      [b.account, b.region, b.name, opts.after[0], opts.after[1], opts.limit],
    );
  }

  /** Tables of a whole bucket whose name starts with `prefix`, by (name, namespace). */
  listTablesByNamePrefix(
    b: BucketKey,
    opts: { prefix: string; after: [string, string]; limit: number },
  ): TableSummaryRow[] {
    return this.summaries(
      `FROM s3t_tables
       WHERE account = ? AND region = ? AND bucket = ? AND name >= ? AND name < ? AND (name, namespace) > (?, ?)
       ORDER BY name, namespace LIMIT CAST(? AS INTEGER)`,
      [b.account, b.region, b.name, opts.prefix, prefixEnd(opts.prefix), opts.after[0], opts.after[1], opts.limit],
    );
  }

  // ---- warehouse purges ----

  queuePurge(bucket: string, at: number): void {
    this.store.stmt('INSERT OR IGNORE INTO s3t_purges (bucket, queued_at) VALUES (?, ?)').run(bucket, at);
  }

  unqueuePurge(bucket: string): void {
    this.store.stmt('DELETE FROM s3t_purges WHERE bucket = ?').run(bucket);
  }

  isPurgeQueued(bucket: string): boolean {
    return this.store.stmt('SELECT 1 FROM s3t_purges WHERE bucket = ?').get(bucket) !== undefined;
  }

  pendingPurges(limit: number): string[] {
    return (
      this.store.stmt('SELECT bucket FROM s3t_purges ORDER BY queued_at LIMIT CAST(? AS INTEGER)').all(limit) as { bucket: string }[]
    ).map((r) => r.bucket);
  }
}
