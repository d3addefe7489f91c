/**
 * Lambda's rows: typed reads and writes of functions, their versions (`$LATEST` = 0), aliases,
 * resource policies and code packages over the metadata store. Every lookup is by primary key and
 * every listing an index range starting after the last key returned, so a page costs the page.
 * Code packages are shared by content (function versions and layer versions alike): one is dropped
 * once nothing refers to it. Rows are written with named parameters, so a column added later
 * cannot shift the others.
 */
import type { MetadataStore } from './database.js';

export interface FunctionRow {
  account: string;
  region: string;
  name: string;
  /** JSON object of tag key → value. */
  tags: string;
  last_version: number;
  created_at: number;
}

export interface VersionRow {
  account: string;
  region: string;
  name: string;
  /** 0 for `$LATEST`. */
  version: number;
  /** JSON of the stored configuration (see services/lambda/configuration.ts). */
  config: string;
  code_sha: string;
  code_size: number;
  revision_id: string;
  last_modified: number;
}

export interface AliasRow {
  account: string;
  region: string;
  name: string;
  alias: string;
  function_version: string;
  description: string;
  routing: string | null;
  revision_id: string;
}

interface PolicyRow {
  statements: string;
  revision_id: string;
}

export interface LayerVersionRow {
  account: string;
  region: string;
  name: string;
  version: number;
  description: string;
  /** JSON array of runtime names. */
  runtimes: string;
  /** JSON array of architectures. */
  architectures: string;
  license: string | null;
  code_sha: string;
  code_size: number;
  created_at: number;
  /** JSON array of the version's policy statements, or null. */
  policy: string | null;
  policy_revision: string | null;
  /** 1 once deleted through the API while functions still used it (hidden from every read but theirs). */
  deleted?: number;
}

export class LambdaRepo {
  constructor(private readonly store: MetadataStore) {}

  getFunction(account: string, region: string, name: string): FunctionRow | undefined {
    return this.store
      .stmt('SELECT * FROM lambda_functions WHERE account = ? AND region = ? AND name = ?')
      .get(account, region, name) as FunctionRow | undefined;
  }

  insertFunction(row: FunctionRow): void {
    this.store
      .stmt('INSERT INTO lambda_functions (account, region, name, tags, last_version, created_at) VALUES (@account, @region, @name, @tags, @last_version, @created_at)')
      .run(row);
  }

  setTags(account: string, region: string, name: string, tags: string): void {
    this.store.stmt('UPDATE lambda_functions SET tags = ? WHERE account = ? AND region = ? AND name = ?').run(tags, account, region, name);
  }

  setLastVersion(account: string, region: string, name: string, version: number): void {
    this.store
      .stmt('UPDATE lambda_functions SET last_version = ? WHERE account = ? AND region = ? AND name = ?')
      .run(version, account, region, name);
  }

  /** Deletes the function with its versions, aliases and policies; returns the code hashes it used. */
  deleteFunction(account: string, region: string, name: string): string[] {
    const shas = this.store
      .stmt('SELECT DISTINCT code_sha FROM lambda_versions WHERE account = ? AND region = ? AND name = ?')
      .all(account, region, name) as { code_sha: string }[];
    for (const table of ['lambda_functions', 'lambda_versions', 'lambda_aliases', 'lambda_policies']) {
      this.store.stmt(`DELETE FROM ${table} WHERE account = ? AND region = ? AND name = ?`).run(account, region, name);
    }
    return shas.map((s) => s.code_sha);
  }

  getVersion(account: string, region: string, name: string, version: number): VersionRow | undefined {
    return this.store
      .stmt('SELECT * FROM lambda_versions WHERE account = ? AND region = ? AND name = ? AND version = ?')
      .get(account, region, name, version) as VersionRow | undefined;
  }

  /** Inserts a version or replaces it (`$LATEST` on every update). */
  putVersion(row: VersionRow): void {
    this.store
      .stmt(
        `INSERT OR REPLACE INTO lambda_versions (account, region, name, version, config, code_sha, code_size, revision_id, last_modified)
         VALUES (@account, @region, @name, @version, @config, @code_sha, @code_size, @revision_id, @last_modified)`,
      )
      .run(row);
  }

  deleteVersion(account: string, region: string, name: string, version: number): string | undefined {
    const row = this.getVersion(account, region, name, version);
    this.store.stmt('DELETE FROM lambda_versions WHERE account = ? AND region = ? AND name = ? AND version = ?').run(account, region, name, version);
    this.store
      .stmt('DELETE FROM lambda_policies WHERE account = ? AND region = ? AND name = ? AND qualifier = ?')
      .run(account, region, name, String(version));
    return row?.code_sha;
  }

  /** `$LATEST` of the functions after `after`, in name order. */
  listLatest(account: string, region: string, after: string, limit: number): VersionRow[] {
    return this.store
      .stmt(
        `SELECT * FROM lambda_versions WHERE account = ? AND region = ? AND name > ? AND version = 0
         ORDER BY name LIMIT CAST(? AS INTEGER)`,
      )
      .all(account, region, after, limit) as VersionRow[];
  }

  /** Every version of every function after (`after`, `afterVersion`), in (name, version) order. */
  listAllVersions(account: string, region: string, after: string, afterVersion: number, limit: number): VersionRow[] {
    return this.store
      .stmt(
        `SELECT * FROM lambda_versions WHERE account = ? AND region = ? AND (name > ? OR (name = ? AND version > ?))
         ORDER BY name, version LIMIT CAST(? AS INTEGER)`,
      )
      .all(account, region, after, after, afterVersion, limit) as VersionRow[];
  }

  /** The versions of one function after `afterVersion` (`$LATEST` first). */
  listVersions(account: string, region: string, name: string, afterVersion: number, limit: number): VersionRow[] {
    return this.store
      .stmt(
        `SELECT * FROM lambda_versions WHERE account = ? AND region = ? AND name = ? AND version > ?
         ORDER BY version LIMIT CAST(? AS INTEGER)`,
      )
      .all(account, region, name, afterVersion, limit) as VersionRow[];
  }

  getAlias(account: string, region: string, name: string, alias: string): AliasRow | undefined {
    return this.store
      .stmt('SELECT * FROM lambda_aliases WHERE account = ? AND region = ? AND name = ? AND alias = ?')
      .get(account, region, name, alias) as AliasRow | undefined;
  }

  putAlias(row: AliasRow): void {
    this.store
      .stmt(
        `INSERT OR REPLACE INTO lambda_aliases (account, region, name, alias, function_version, description, routing, revision_id)
         VALUES (@account, @region, @name, @alias, @function_version, @description, @routing, @revision_id)`,
      )
      .run(row);
  }

  deleteAlias(account: string, region: string, name: string, alias: string): void {
    this.store.stmt('DELETE FROM lambda_aliases WHERE account = ? AND region = ? AND name = ? AND alias = ?').run(account, region, name, alias);
    this.store
      .stmt('DELETE FROM lambda_policies WHERE account = ? AND region = ? AND name = ? AND qualifier = ?')
      .run(account, region, name, alias);
  }

  /** Aliases after `after` in name order, only those pointing at `version` when one is given. */
  listAliases(account: string, region: string, name: string, after: string, limit: number, version?: string): AliasRow[] {
    return this.store
      .stmt(
        `SELECT * FROM lambda_aliases WHERE account = ? AND region = ? AND name = ? AND alias > ?
           AND (? IS NULL OR function_version = ?)
         ORDER BY alias LIMIT CAST(? AS INTEGER)`,
      )
      .all(account, region, name, after, version ?? null, version ?? null, limit) as AliasRow[];
  }

  /** Whether an alias points at `version`. */
  versionHasAlias(account: string, region: string, name: string, version: string): boolean {
    return (
      this.store
        .stmt('SELECT 1 FROM lambda_aliases WHERE account = ? AND region = ? AND name = ? AND function_version = ? LIMIT 1')
        .get(account, region, name, version) !== undefined
    );
  }

  /** The policy of one qualifier (`''` for the unqualified function). */
  getPolicy(account: string, region: string, name: string, qualifier: string): PolicyRow | undefined {
    return this.store
      .stmt('SELECT statements, revision_id FROM lambda_policies WHERE account = ? AND region = ? AND name = ? AND qualifier = ?')
      .get(account, region, name, qualifier) as PolicyRow | undefined;
  }

  /** Writes the policy; an empty statement list removes it. */
  putPolicy(account: string, region: string, name: string, qualifier: string, statements: unknown[], revisionId: string): void {
    if (statements.length === 0) {
      this.store
        .stmt('DELETE FROM lambda_policies WHERE account = ? AND region = ? AND name = ? AND qualifier = ?')
        .run(account, region, name, qualifier);
      return;
    }
    this.store
      .stmt('INSERT OR REPLACE INTO lambda_policies (account, region, name, qualifier, statements, revision_id) VALUES (?, ?, ?, ?, ?, ?)')
      .run(account, region, name, qualifier, JSON.stringify(statements), revisionId);
  }

  hasCode(sha: string): boolean {
    return this.store.stmt('SELECT 1 FROM lambda_code WHERE sha256 = ?').get(sha) !== undefined;
  }

  putCode(sha: string, zip: Buffer): void {
    this.store.stmt('INSERT OR IGNORE INTO lambda_code (sha256, size, zip) VALUES (?, ?, ?)').run(sha, zip.length, zip);
  }

  getCode(sha: string): Buffer | undefined {
    const row = this.store.stmt('SELECT zip FROM lambda_code WHERE sha256 = ?').get(sha) as { zip: Buffer } | undefined;
    return row?.zip;
  }

  /** Drops the packages no function or layer version refers to any more. */
  dropUnusedCode(shas: Iterable<string>): void {
    for (const sha of new Set(shas)) {
      this.store
        .stmt(
          `DELETE FROM lambda_code WHERE sha256 = @sha AND NOT EXISTS (SELECT 1 FROM lambda_versions WHERE code_sha = @sha)
             AND NOT EXISTS (SELECT 1 FROM lambda_layer_versions WHERE code_sha = @sha)`,
        )
        .run({ sha });
    }
  }

  /** Gives out the layer's next version number (never one given before, even after deletes). */
  nextLayerVersion(account: string, region: string, name: string): number {
    const row = this.store
      .stmt(
        `INSERT INTO lambda_layers (account, region, name, last_version) VALUES (?, ?, ?, 1)
         ON CONFLICT (account, region, name) DO UPDATE SET last_version = last_version + 1 RETURNING last_version`,
      )
      .get(account, region, name) as { last_version: number };
    return row.last_version;
  }

  putLayerVersion(row: LayerVersionRow): void {
    this.store
      .stmt(
        `INSERT OR REPLACE INTO lambda_layer_versions
           (account, region, name, version, description, runtimes, architectures, license, code_sha, code_size, created_at, policy, policy_revision, deleted)
         VALUES (@account, @region, @name, @version, @description, @runtimes, @architectures, @license, @code_sha, @code_size, @created_at, @policy, @policy_revision, @deleted)`,
      )
      .run({ deleted: 0, ...row });
  }

  /** A layer version; one deleted while functions still use it only when `withDeleted`. */
  getLayerVersion(account: string, region: string, name: string, version: number, withDeleted = false): LayerVersionRow | undefined {
    const row = this.store
      .stmt('SELECT * FROM lambda_layer_versions WHERE account = ? AND region = ? AND name = ? AND version = ?')
      .get(account, region, name, version) as LayerVersionRow | undefined;
    return row && (withDeleted || !row.deleted) ? row : undefined;
  }

  /**
   * Deletes a layer version (`arn` is its ARN); returns its code hash when the row went. A version
   * some function version still names is only hidden: finding those scans the functions'
   * configurations, which a delete of a layer can afford.
   */
  deleteLayerVersion(account: string, region: string, name: string, version: number, arn: string): string | undefined {
    if (this.layerVersionInUse(account, region, arn)) {
      this.store
        .stmt('UPDATE lambda_layer_versions SET deleted = 1 WHERE account = ? AND region = ? AND name = ? AND version = ?')
        .run(account, region, name, version);
      return undefined;
    }
    return this.dropLayerVersion(account, region, name, version);
  }

  /** Whether a function version names the layer version `arn`: a scan of the configurations, which deletes can afford. */
  private layerVersionInUse(account: string, region: string, arn: string): boolean {
    return !!this.store
      .stmt('SELECT 1 FROM lambda_versions WHERE account = ? AND region = ? AND instr(config, ?) > 0 LIMIT 1')
      .get(account, region, JSON.stringify(arn));
  }

  private dropLayerVersion(account: string, region: string, name: string, version: number): string | undefined {
    const row = this.store
      .stmt('DELETE FROM lambda_layer_versions WHERE account = ? AND region = ? AND name = ? AND version = ? RETURNING code_sha')
      .get(account, region, name, version) as { code_sha: string } | undefined;
    return row?.code_sha;
  }

  /**
   * Removes the hidden layer versions (deleted while in use) that no function version names any
   * more; returns their code hashes. `arnOf` gives a version's ARN, as configurations name it.
   */
  purgeHiddenLayerVersions(account: string, region: string, arnOf: (name: string, version: number) => string): string[] {
    const hidden = this.store
      .stmt('SELECT name, version FROM lambda_layer_versions WHERE account = ? AND region = ? AND deleted = 1')
      .all(account, region) as { name: string; version: number }[];
    const shas: string[] = [];
    for (const { name, version } of hidden) {
      if (this.layerVersionInUse(account, region, arnOf(name, version))) continue;
      const sha = this.dropLayerVersion(account, region, name, version);
      if (sha) shas.push(sha);
    }
    return shas;
  }

  /** A layer's versions below `before` that match the filters, newest first (as ListLayerVersions answers). */
  listLayerVersions(account: string, region: string, name: string, before: number, limit: number, filter: LayerFilter): LayerVersionRow[] {
    return this.store
      .stmt(
        `SELECT * FROM lambda_layer_versions WHERE account = @account AND region = @region AND name = @name AND version < @before
           AND ${MATCHES} ORDER BY version DESC LIMIT CAST(@limit AS INTEGER)`,
      )
      .all({ account, region, name, before, limit, ...filterParams(filter) }) as LayerVersionRow[];
  }

  /** The newest version matching the filters of each layer after `after`, in name order. */
  listLatestLayerVersions(account: string, region: string, after: string, limit: number, filter: LayerFilter): LayerVersionRow[] {
    return this.store
      .stmt(
        `SELECT v.* FROM (SELECT name, MAX(version) AS version FROM lambda_layer_versions
             WHERE account = @account AND region = @region AND name > @after AND ${MATCHES}
             GROUP BY name ORDER BY name LIMIT CAST(@limit AS INTEGER)) AS latest
           JOIN lambda_layer_versions v ON v.account = @account AND v.region = @region AND v.name = latest.name AND v.version = latest.version
           ORDER BY v.name`,
      )
      .all({ account, region, after, limit, ...filterParams(filter) }) as LayerVersionRow[];
  }
}

/** ListLayers and ListLayerVersions' filters: a runtime and an architecture the version must list. */
export interface LayerFilter {
  runtime?: string;
  architecture?: string;
}

const MATCHES =
  'deleted = 0 AND (@runtime IS NULL OR EXISTS (SELECT 1 FROM json_each(runtimes) WHERE value = @runtime)) ' +
  'AND (@architecture IS NULL OR EXISTS (SELECT 1 FROM json_each(architectures) WHERE value = @architecture))';

function filterParams(filter: LayerFilter): { runtime: string | null; architecture: string | null } {
  return { runtime: filter.runtime ?? null, architecture: filter.architecture ?? null };
}
