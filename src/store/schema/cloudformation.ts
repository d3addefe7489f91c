/**
 * CloudFormation's tables: stacks (one row per stack id; a live name is unique per account and
 * region while deleted stacks stay readable by id), their resources (the persisted truth about
 * which physical resources exist, plus the journal of the running operation so a restart can roll
 * back or finish it), events (append-only, read newest first), change sets, the exports and
 * imports of each account and region, drift detections and stack refactors. Large texts
 * (templates, JSON documents) are the last columns so listings never read them.
 */
import type { Migration } from '../database.js';

export const cloudformationMigrations: Migration[] = [
  {
    id: 'cloudformation-001',
    sql: `
      CREATE TABLE cfn_stacks (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        name TEXT NOT NULL,
        status TEXT NOT NULL,
        status_reason TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER,
        deleted_at INTEGER,
        parent_id TEXT,
        root_id TEXT,
        description TEXT,
        data TEXT NOT NULL DEFAULT '{}',
        op TEXT,
        template TEXT
      );
      CREATE UNIQUE INDEX cfn_stacks_live_name ON cfn_stacks (account, region, name) WHERE deleted_at IS NULL;
      CREATE INDEX cfn_stacks_by_region ON cfn_stacks (account, region, seq);
      CREATE INDEX cfn_stacks_by_status ON cfn_stacks (status);
      CREATE INDEX cfn_stacks_by_parent ON cfn_stacks (parent_id) WHERE parent_id IS NOT NULL;

      CREATE TABLE cfn_resources (
        stack_id TEXT NOT NULL,
        logical_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        physical_id TEXT,
        status TEXT NOT NULL,
        status_reason TEXT,
        updated_at INTEGER NOT NULL,
        data TEXT NOT NULL,
        pending TEXT,
        PRIMARY KEY (stack_id, logical_id)
      ) WITHOUT ROWID;
      CREATE INDEX cfn_resources_by_order ON cfn_resources (stack_id, seq);
      CREATE INDEX cfn_resources_by_physical ON cfn_resources (physical_id) WHERE physical_id IS NOT NULL;

      CREATE TABLE cfn_events (
        seq INTEGER PRIMARY KEY,
        stack_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        ts INTEGER NOT NULL,
        logical_id TEXT NOT NULL,
        physical_id TEXT,
        type TEXT NOT NULL,
        status TEXT NOT NULL,
        reason TEXT,
        token TEXT,
        operation_id TEXT,
        properties TEXT
      );
      CREATE INDEX cfn_events_by_stack ON cfn_events (stack_id, seq);

      CREATE TABLE cfn_change_sets (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        stack_id TEXT NOT NULL,
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        status TEXT NOT NULL,
        execution_status TEXT NOT NULL,
        status_reason TEXT,
        data TEXT NOT NULL,
        template TEXT
      );
      CREATE UNIQUE INDEX cfn_change_sets_by_name ON cfn_change_sets (stack_id, name);
      CREATE INDEX cfn_change_sets_by_stack ON cfn_change_sets (stack_id, seq);

      CREATE TABLE cfn_exports (
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        name TEXT NOT NULL,
        stack_id TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (account, region, name)
      ) WITHOUT ROWID;
      CREATE INDEX cfn_exports_by_stack ON cfn_exports (stack_id);

      CREATE TABLE cfn_imports (
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        export_name TEXT NOT NULL,
        stack_id TEXT NOT NULL,
        stack_name TEXT NOT NULL,
        PRIMARY KEY (account, region, export_name, stack_id)
      ) WITHOUT ROWID;
      CREATE INDEX cfn_imports_by_stack ON cfn_imports (stack_id);
    `,
  },
  {
    // Drift: the latest check of each stack and resource beside its row (so every listing shows
    // DriftInformation without another read), and the detections by id. Stack refactors.
    id: 'cloudformation-002',
    sql: `
      ALTER TABLE cfn_stacks ADD COLUMN drift TEXT;
      ALTER TABLE cfn_resources ADD COLUMN drift TEXT;

      CREATE TABLE cfn_drift_detections (
        id TEXT PRIMARY KEY,
        stack_id TEXT NOT NULL,
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        data TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX cfn_drift_detections_by_stack ON cfn_drift_detections (stack_id, started_at);

      CREATE TABLE cfn_refactors (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        execution_status TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX cfn_refactors_by_region ON cfn_refactors (account, region, seq);
    `,
  },
  {
    // Resources in a rowid table: a resource row (its properties, attributes and declaration, about
    // 1.3 KB for an S3 Tables table) is past the ~1,000 bytes a WITHOUT ROWID row keeps in its
    // b-tree page, so each one took an overflow page of its own — 124 of the 419 pages a 100-table
    // stack wrote to the log. Rows now sit three to a page, appended in creation order; the key
    // (stack, logical id) is a unique index.
    id: 'cloudformation-003',
    sql: `
      CREATE TABLE cfn_resources_003 (
        stack_id TEXT NOT NULL,
        logical_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        physical_id TEXT,
        status TEXT NOT NULL,
        status_reason TEXT,
        updated_at INTEGER NOT NULL,
        data TEXT NOT NULL,
        pending TEXT,
        drift TEXT,
        PRIMARY KEY (stack_id, logical_id)
      );
      INSERT INTO cfn_resources_003 (stack_id, logical_id, seq, type, physical_id, status, status_reason, updated_at, data, pending, drift)
        SELECT stack_id, logical_id, seq, type, physical_id, status, status_reason, updated_at, data, pending, drift
        FROM cfn_resources ORDER BY stack_id, seq;
      DROP TABLE cfn_resources;
      ALTER TABLE cfn_resources_003 RENAME TO cfn_resources;
      CREATE INDEX cfn_resources_by_order ON cfn_resources (stack_id, seq);
      CREATE INDEX cfn_resources_by_physical ON cfn_resources (physical_id) WHERE physical_id IS NOT NULL;
    `,
  },
];
