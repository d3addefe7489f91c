/**
 * Step Functions' tables: one row per state machine (its definition as sent, role, type, tags)
 * and one per execution (its input, status and, once it ends, output or error and cause). An
 * execution's progress lives in memory while it runs; a restart ends the ones left running.
 */
import type { Migration } from '../database.js';

export const stepfunctionsMigrations: Migration[] = [
  {
    id: 'stepfunctions-001',
    sql: `
      CREATE TABLE sfn_state_machines (
        arn TEXT NOT NULL PRIMARY KEY,
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        name TEXT NOT NULL,
        definition TEXT NOT NULL,
        role_arn TEXT NOT NULL,
        type TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]',
        revision_id TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX sfn_state_machines_by_name ON sfn_state_machines (account, region, name);

      CREATE TABLE sfn_executions (
        arn TEXT NOT NULL PRIMARY KEY,
        state_machine_arn TEXT NOT NULL,
        name TEXT NOT NULL,
        status TEXT NOT NULL,
        input TEXT NOT NULL,
        output TEXT,
        error TEXT,
        cause TEXT,
        started_at INTEGER NOT NULL,
        stopped_at INTEGER
      ) WITHOUT ROWID;
      CREATE INDEX sfn_executions_by_machine ON sfn_executions (state_machine_arn, started_at);
      CREATE INDEX sfn_executions_running ON sfn_executions (status) WHERE status = 'RUNNING';
    `,
  },
];
