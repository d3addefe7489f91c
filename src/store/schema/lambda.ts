/**
 * Lambda's tables: one row per function (tags, the last published version number), one per
 * version of it (`$LATEST` is version 0; published ones count from 1) holding the configuration
 * as JSON and the code's SHA-256, aliases, resource policies per qualifier, and the code packages
 * themselves, content-addressed by their SHA-256 so versions that share code share one zip.
 * Layers (lambda-002) keep the last version number they gave out, since Lambda never reuses one
 * after a delete, and one row per version with its package and resource policy; a deleted version
 * that functions still use stays as a hidden row, since those functions keep running it.
 */
import type { Migration } from '../database.js';

export const lambdaMigrations: Migration[] = [
  {
    id: 'lambda-001',
    sql: `
      CREATE TABLE lambda_functions (
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        name TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '{}',
        last_version INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (account, region, name)
      ) WITHOUT ROWID;

      CREATE TABLE lambda_versions (
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        name TEXT NOT NULL,
        version INTEGER NOT NULL,
        config TEXT NOT NULL,
        code_sha TEXT NOT NULL,
        code_size INTEGER NOT NULL,
        revision_id TEXT NOT NULL,
        last_modified INTEGER NOT NULL,
        PRIMARY KEY (account, region, name, version)
      ) WITHOUT ROWID;
      CREATE INDEX lambda_versions_by_code ON lambda_versions (code_sha);

      CREATE TABLE lambda_aliases (
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        name TEXT NOT NULL,
        alias TEXT NOT NULL,
        function_version TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        routing TEXT,
        revision_id TEXT NOT NULL,
        PRIMARY KEY (account, region, name, alias)
      ) WITHOUT ROWID;

      CREATE TABLE lambda_policies (
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        name TEXT NOT NULL,
        qualifier TEXT NOT NULL,
        statements TEXT NOT NULL,
        revision_id TEXT NOT NULL,
        PRIMARY KEY (account, region, name, qualifier)
      ) WITHOUT ROWID;

      CREATE TABLE lambda_code (
        sha256 TEXT NOT NULL PRIMARY KEY,
        size INTEGER NOT NULL,
        zip BLOB NOT NULL
      );
    `,
  },
  {
    id: 'lambda-002',
    sql: `
      CREATE TABLE lambda_layers (
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        name TEXT NOT NULL,
        last_version INTEGER NOT NULL,
        PRIMARY KEY (account, region, name)
      ) WITHOUT ROWID;

      CREATE TABLE lambda_layer_versions (
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        name TEXT NOT NULL,
        version INTEGER NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        runtimes TEXT NOT NULL DEFAULT '[]',
        architectures TEXT NOT NULL DEFAULT '[]',
        license TEXT,
        code_sha TEXT NOT NULL,
        code_size INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        policy TEXT,
        policy_revision TEXT,
        deleted INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (account, region, name, version)
      ) WITHOUT ROWID;
      CREATE INDEX lambda_layer_versions_by_code ON lambda_layer_versions (code_sha);
    `,
  },
  {
    // The hidden versions alone, so a function's delete or update finds those to purge without a scan.
    id: 'lambda-003',
    sql: `CREATE INDEX lambda_layer_versions_hidden ON lambda_layer_versions (account, region) WHERE deleted = 1;`,
  },
];
