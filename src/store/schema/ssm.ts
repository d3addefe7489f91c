/**
 * SSM Parameter Store's tables: the current state of each parameter keyed by (account, region,
 * name) with its hierarchy parent (so a one-level GetParametersByPath is an index range on
 * `parent`, a recursive one a range on `name`), and every retained version keyed by (account,
 * region, name, version) with its labels. The current version is copied into the parameter row so
 * reads and listings never touch the history.
 */
import type { Migration } from '../database.js';

export const ssmMigrations: Migration[] = [
  {
    id: 'ssm-001',
    sql: `
      CREATE TABLE ssm_parameters (
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        name TEXT NOT NULL,
        parent TEXT NOT NULL,
        version INTEGER NOT NULL,
        type TEXT NOT NULL,
        description TEXT,
        key_id TEXT,
        allowed_pattern TEXT,
        tier TEXT NOT NULL,
        policies TEXT,
        data_type TEXT NOT NULL,
        last_modified INTEGER NOT NULL,
        last_modified_user TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '{}',
        value TEXT NOT NULL,
        PRIMARY KEY (account, region, name)
      ) WITHOUT ROWID;
      CREATE INDEX ssm_parameters_by_parent ON ssm_parameters (account, region, parent, name);

      CREATE TABLE ssm_parameter_versions (
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        name TEXT NOT NULL,
        version INTEGER NOT NULL,
        type TEXT NOT NULL,
        description TEXT,
        key_id TEXT,
        allowed_pattern TEXT,
        tier TEXT NOT NULL,
        policies TEXT,
        data_type TEXT NOT NULL,
        last_modified INTEGER NOT NULL,
        last_modified_user TEXT NOT NULL,
        labels TEXT NOT NULL DEFAULT '[]',
        value TEXT NOT NULL,
        PRIMARY KEY (account, region, name, version)
      ) WITHOUT ROWID;
    `,
  },
];
