/**
 * CloudFormation's records that stand beside the stacks: drift detections (by id, for
 * DescribeStackDriftDetectionStatus) and stack refactors (by id, and listed newest first per
 * account and region by sequence, so a page costs the page).
 */
import type { MetadataStore } from './database.js';

interface DriftDetectionRow {
  id: string;
  stack_id: string;
  account: string;
  region: string;
  started_at: number;
  data: string;
}

export interface RefactorRow {
  seq: number;
  id: string;
  account: string;
  region: string;
  created_at: number;
  execution_status: string;
  data: string;
}

export class CloudFormationRecords {
  constructor(private readonly store: MetadataStore) {}

  // ---- drift detections

  putDriftDetection(row: DriftDetectionRow): void {
    this.store
      .stmt(
        `INSERT INTO cfn_drift_detections (id, stack_id, account, region, started_at, data) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET data = excluded.data`,
      )
      .run(row.id, row.stack_id, row.account, row.region, row.started_at, row.data);
  }

  getDriftDetection(id: string): DriftDetectionRow | undefined {
    return this.store.stmt('SELECT * FROM cfn_drift_detections WHERE id = ?').get(id) as DriftDetectionRow | undefined;
  }

  // ---- stack refactors

  insertRefactor(row: Omit<RefactorRow, 'seq'>): void {
    this.store
      .stmt('INSERT INTO cfn_refactors (id, account, region, created_at, execution_status, data) VALUES (?, ?, ?, ?, ?, ?)')
      .run(row.id, row.account, row.region, row.created_at, row.execution_status, row.data);
  }

  getRefactor(id: string): RefactorRow | undefined {
    return this.store.stmt('SELECT * FROM cfn_refactors WHERE id = ?').get(id) as RefactorRow | undefined;
  }

  updateRefactor(id: string, executionStatus: string, data: string): void {
    this.store.stmt('UPDATE cfn_refactors SET execution_status = ?, data = ? WHERE id = ?').run(executionStatus, data, id);
  }

  /** Refactors of an account and region, newest first, before sequence `before`. */
  listRefactors(account: string, region: string, before: number, limit: number): RefactorRow[] {
    return this.store
      .stmt('SELECT * FROM cfn_refactors WHERE account = ? AND region = ? AND seq < ? ORDER BY seq DESC LIMIT CAST(? AS INTEGER)')
      .all(account, region, before, limit) as RefactorRow[];
  }
}
