/**
 * CloudFormation's rows: typed reads and writes of stacks, resources, events, change sets, exports
 * and imports over the metadata store (drift detections and stack refactors:
 * cloudformation-records-repo.ts). Every lookup is by key or index; listings are index range
 * scans that start after the last row returned (stacks and change sets by sequence, events newest
 * first by sequence, exports by name), so a page costs the page. JSON documents travel as text;
 * the service layer gives them their types.
 */
import type { MetadataStore } from './database.js';

export interface StackRow {
  seq: number;
  id: string;
  account: string;
  region: string;
  name: string;
  status: string;
  status_reason: string | null;
  created_at: number;
  updated_at: number | null;
  deleted_at: number | null;
  parent_id: string | null;
  root_id: string | null;
  description: string | null;
  data: string;
  op: string | null;
  template: string | null;
  /** The latest drift check (JSON), null before any. */
  drift?: string | null;
}

export type StackSummaryRow = Omit<StackRow, 'data' | 'op' | 'template'>;

export interface ResourceRow {
  stack_id: string;
  logical_id: string;
  seq: number;
  type: string;
  physical_id: string | null;
  status: string;
  status_reason: string | null;
  updated_at: number;
  data: string;
  pending: string | null;
  /** The latest drift check of the resource (JSON), null before any. */
  drift?: string | null;
}

export interface EventRow {
  seq: number;
  stack_id: string;
  event_id: string;
  ts: number;
  logical_id: string;
  physical_id: string | null;
  type: string;
  status: string;
  reason: string | null;
  token: string | null;
  operation_id: string | null;
  properties: string | null;
}

export interface ChangeSetRow {
  seq: number;
  id: string;
  stack_id: string;
  name: string;
  created_at: number;
  status: string;
  execution_status: string;
  status_reason: string | null;
  data: string;
  template: string | null;
}

type ChangeSetSummaryRow = Omit<ChangeSetRow, 'data' | 'template'>;

interface ExportRow {
  account: string;
  region: string;
  name: string;
  stack_id: string;
  value: string;
}

const STACK_SUMMARY_COLUMNS =
  'seq, id, account, region, name, status, status_reason, created_at, updated_at, deleted_at, parent_id, root_id, description, drift';

const CHANGE_SET_SUMMARY_COLUMNS = 'seq, id, stack_id, name, created_at, status, execution_status, status_reason';

type Patch<T> = Partial<Omit<T, 'seq'>>;

export class CloudFormationRepo {
  constructor(private readonly store: MetadataStore) {}

  tx<T>(fn: () => T): T {
    return this.store.tx(fn);
  }

  /** `UPDATE table SET a = ?, b = ? WHERE …`: one cached statement per combination of columns. */
  private update(table: string, where: string, whereArgs: unknown[], patch: Record<string, unknown>): void {
    const keys = Object.keys(patch).filter((k) => patch[k] !== undefined).sort();
    if (keys.length === 0) return;
    const sql = `UPDATE ${table} SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE ${where}`;
    this.store.stmt(sql).run(...keys.map((k) => patch[k]), ...whereArgs);
  }

  // ---- stacks

  insertStack(row: Omit<StackRow, 'seq'>): void {
    this.store
      .stmt(
        `INSERT INTO cfn_stacks (id, account, region, name, status, status_reason, created_at, updated_at,
           deleted_at, parent_id, root_id, description, data, op, template)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.id,
        row.account,
        row.region,
        row.name,
        row.status,
        row.status_reason,
        row.created_at,
        row.updated_at,
        row.deleted_at,
        row.parent_id,
        row.root_id,
        row.description,
        row.data,
        row.op,
        row.template,
      );
  }

  getStack(id: string): StackRow | undefined {
    return this.store.stmt('SELECT * FROM cfn_stacks WHERE id = ?').get(id) as StackRow | undefined;
  }

  getLiveStack(account: string, region: string, name: string): StackRow | undefined {
    return this.store
      .stmt('SELECT * FROM cfn_stacks WHERE account = ? AND region = ? AND name = ? AND deleted_at IS NULL')
      .get(account, region, name) as StackRow | undefined;
  }

  /** `patch` values of null clear a column; undefined leaves it alone. */
  updateStack(id: string, patch: Patch<StackRow>): void {
    this.update('cfn_stacks', 'id = ?', [id], patch);
  }

  /** Stacks of an account and region, newest first, after sequence `before` (exclusive). */
  listStacks(account: string, region: string, before: number, limit: number, liveOnly: boolean): StackSummaryRow[] {
    const live = liveOnly ? 'AND deleted_at IS NULL' : '';
    return this.store
      .stmt(
        `SELECT ${STACK_SUMMARY_COLUMNS} FROM cfn_stacks
         WHERE account = ? AND region = ? AND seq < ? ${live} ORDER BY seq DESC LIMIT CAST(? AS INTEGER)`,
      )
      .all(account, region, before, limit) as StackSummaryRow[];
  }

  /** Full rows of live stacks, newest first (DescribeStacks without a name). */
  listLiveStacks(account: string, region: string, before: number, limit: number): StackRow[] {
    return this.store
      .stmt(
        `SELECT * FROM cfn_stacks WHERE account = ? AND region = ? AND seq < ? AND deleted_at IS NULL
         ORDER BY seq DESC LIMIT CAST(? AS INTEGER)`,
      )
      .all(account, region, before, limit) as StackRow[];
  }

  /** Stacks an operation was running on (REVIEW_IN_PROGRESS waits for a user, so it is not one). */
  stacksInProgress(): StackSummaryRow[] {
    return this.store
      .stmt(
        `SELECT ${STACK_SUMMARY_COLUMNS} FROM cfn_stacks
         WHERE status IN ('CREATE_IN_PROGRESS', 'ROLLBACK_IN_PROGRESS', 'DELETE_IN_PROGRESS', 'UPDATE_IN_PROGRESS',
           'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 'UPDATE_ROLLBACK_IN_PROGRESS',
           'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS', 'IMPORT_IN_PROGRESS', 'IMPORT_ROLLBACK_IN_PROGRESS')`,
      )
      .all() as StackSummaryRow[];
  }

  // ---- resources

  getResource(stackId: string, logicalId: string): ResourceRow | undefined {
    return this.store
      .stmt('SELECT * FROM cfn_resources WHERE stack_id = ? AND logical_id = ?')
      .get(stackId, logicalId) as ResourceRow | undefined;
  }

  /** Resources of a stack in the order they were first created, after sequence `after`. */
  listResources(stackId: string, after = -1, limit = 100_000): ResourceRow[] {
    return this.store
      .stmt('SELECT * FROM cfn_resources WHERE stack_id = ? AND seq > ? ORDER BY seq LIMIT CAST(? AS INTEGER)')
      .all(stackId, after, limit) as ResourceRow[];
  }

  findResourceByPhysicalId(physicalId: string): ResourceRow[] {
    return this.store
      .stmt('SELECT * FROM cfn_resources WHERE physical_id = ? LIMIT 10')
      .all(physicalId) as ResourceRow[];
  }

  nextResourceSeq(stackId: string): number {
    const row = this.store
      .stmt('SELECT seq FROM cfn_resources WHERE stack_id = ? ORDER BY seq DESC LIMIT 1')
      .get(stackId) as { seq: number } | undefined;
    return row ? row.seq + 1 : 0;
  }

  putResource(row: ResourceRow): void {
    this.store
      .stmt(
        `INSERT INTO cfn_resources (stack_id, logical_id, seq, type, physical_id, status, status_reason, updated_at, data, pending)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (stack_id, logical_id) DO UPDATE SET type = excluded.type, physical_id = excluded.physical_id,
           status = excluded.status, status_reason = excluded.status_reason, updated_at = excluded.updated_at,
           data = excluded.data, pending = excluded.pending`,
      )
      .run(
        row.stack_id,
        row.logical_id,
        row.seq,
        row.type,
        row.physical_id,
        row.status,
        row.status_reason,
        row.updated_at,
        row.data,
        row.pending,
      );
  }

  updateResource(stackId: string, logicalId: string, patch: Patch<Omit<ResourceRow, 'stack_id' | 'logical_id'>>): void {
    this.update('cfn_resources', 'stack_id = ? AND logical_id = ?', [stackId, logicalId], patch);
  }

  deleteResource(stackId: string, logicalId: string): void {
    this.store.stmt('DELETE FROM cfn_resources WHERE stack_id = ? AND logical_id = ?').run(stackId, logicalId);
  }

  // ---- events

  insertEvent(row: Omit<EventRow, 'seq'>): void {
    this.store
      .stmt(
        `INSERT INTO cfn_events (stack_id, event_id, ts, logical_id, physical_id, type, status, reason, token,
           operation_id, properties) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.stack_id,
        row.event_id,
        row.ts,
        row.logical_id,
        row.physical_id,
        row.type,
        row.status,
        row.reason,
        row.token,
        row.operation_id,
        row.properties,
      );
  }

  /** Events of a stack, newest first, before sequence `before` (exclusive). */
  listEvents(stackId: string, before: number, limit: number): EventRow[] {
    return this.store
      .stmt('SELECT * FROM cfn_events WHERE stack_id = ? AND seq < ? ORDER BY seq DESC LIMIT CAST(? AS INTEGER)')
      .all(stackId, before, limit) as EventRow[];
  }

  /** Events of a stack, oldest first, after sequence `after` (exclusive): what a live view has not seen. */
  eventsAfter(stackId: string, after: number, limit: number): EventRow[] {
    return this.store
      .stmt('SELECT * FROM cfn_events WHERE stack_id = ? AND seq > ? ORDER BY seq LIMIT CAST(? AS INTEGER)')
      .all(stackId, after, limit) as EventRow[];
  }

  lastEventTs(stackId: string): number {
    const row = this.store
      .stmt('SELECT ts FROM cfn_events WHERE stack_id = ? ORDER BY seq DESC LIMIT 1')
      .get(stackId) as { ts: number } | undefined;
    return row?.ts ?? 0;
  }

  // ---- change sets

  insertChangeSet(row: Omit<ChangeSetRow, 'seq'>): void {
    this.store
      .stmt(
        `INSERT INTO cfn_change_sets (id, stack_id, name, created_at, status, execution_status, status_reason, data, template)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.id,
        row.stack_id,
        row.name,
        row.created_at,
        row.status,
        row.execution_status,
        row.status_reason,
        row.data,
        row.template,
      );
  }

  getChangeSet(id: string): ChangeSetRow | undefined {
    return this.store.stmt('SELECT * FROM cfn_change_sets WHERE id = ?').get(id) as ChangeSetRow | undefined;
  }

  getChangeSetByName(stackId: string, name: string): ChangeSetRow | undefined {
    return this.store
      .stmt('SELECT * FROM cfn_change_sets WHERE stack_id = ? AND name = ?')
      .get(stackId, name) as ChangeSetRow | undefined;
  }

  listChangeSets(stackId: string, after: number, limit: number): ChangeSetSummaryRow[] {
    return this.store
      .stmt(
        `SELECT ${CHANGE_SET_SUMMARY_COLUMNS}, data FROM cfn_change_sets WHERE stack_id = ? AND seq > ? ORDER BY seq LIMIT CAST(? AS INTEGER)`,
      )
      .all(stackId, after, limit) as (ChangeSetSummaryRow & { data: string })[];
  }

  updateChangeSet(id: string, patch: Patch<Omit<ChangeSetRow, 'id'>>): void {
    this.update('cfn_change_sets', 'id = ?', [id], patch);
  }

  deleteChangeSet(id: string): void {
    this.store.stmt('DELETE FROM cfn_change_sets WHERE id = ?').run(id);
  }

  deleteChangeSetsOfStack(stackId: string): void {
    this.store.stmt('DELETE FROM cfn_change_sets WHERE stack_id = ?').run(stackId);
  }

  /** Moves a resource row to another stack and/or logical id (a stack refactor), drift record and all. */
  moveResource(stackId: string, logicalId: string, toStackId: string, toLogicalId: string, seq: number): void {
    this.store
      .stmt('UPDATE cfn_resources SET stack_id = ?, logical_id = ?, seq = ? WHERE stack_id = ? AND logical_id = ?')
      .run(toStackId, toLogicalId, seq, stackId, logicalId);
  }

  setResourceDrift(stackId: string, logicalId: string, drift: string): void {
    this.store.stmt('UPDATE cfn_resources SET drift = ? WHERE stack_id = ? AND logical_id = ?').run(drift, stackId, logicalId);
  }

  /** Resources of a stack that have a drift record, in order, after sequence `after`. */
  listDriftedResources(stackId: string, after: number, limit: number): ResourceRow[] {
    return this.store
      .stmt('SELECT * FROM cfn_resources WHERE stack_id = ? AND seq > ? AND drift IS NOT NULL ORDER BY seq LIMIT CAST(? AS INTEGER)')
      .all(stackId, after, limit) as ResourceRow[];
  }

  // ---- exports and imports

  getExport(account: string, region: string, name: string): ExportRow | undefined {
    return this.store
      .stmt('SELECT * FROM cfn_exports WHERE account = ? AND region = ? AND name = ?')
      .get(account, region, name) as ExportRow | undefined;
  }

  listExports(account: string, region: string, after: string, limit: number): ExportRow[] {
    return this.store
      .stmt('SELECT * FROM cfn_exports WHERE account = ? AND region = ? AND name > ? ORDER BY name LIMIT CAST(? AS INTEGER)')
      .all(account, region, after, limit) as ExportRow[];
  }

  exportsOfStack(stackId: string): ExportRow[] {
    return this.store.stmt('SELECT * FROM cfn_exports WHERE stack_id = ?').all(stackId) as ExportRow[];
  }

  putExport(row: ExportRow): void {
    this.store
      .stmt(
        `INSERT INTO cfn_exports (account, region, name, stack_id, value) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (account, region, name) DO UPDATE SET stack_id = excluded.stack_id, value = excluded.value`,
      )
      .run(row.account, row.region, row.name, row.stack_id, row.value);
  }

  deleteExport(account: string, region: string, name: string): void {
    this.store.stmt('DELETE FROM cfn_exports WHERE account = ? AND region = ? AND name = ?').run(account, region, name);
  }

  /** Names of the stacks importing an export, after `after` (a stack name) in name order. */
  importersOf(account: string, region: string, exportName: string, after = '', limit = 1000): { stack_id: string; stack_name: string }[] {
    return this.store
      .stmt(
        `SELECT stack_id, stack_name FROM cfn_imports WHERE account = ? AND region = ? AND export_name = ?
         AND stack_id > ? ORDER BY stack_id LIMIT CAST(? AS INTEGER)`,
      )
      .all(account, region, exportName, after, limit) as { stack_id: string; stack_name: string }[];
  }

  importsOfStack(stackId: string): string[] {
    return (
      this.store.stmt('SELECT export_name FROM cfn_imports WHERE stack_id = ?').all(stackId) as { export_name: string }[]
    ).map((r) => r.export_name);
  }

  setImports(account: string, region: string, stackId: string, stackName: string, names: readonly string[]): void {
    this.store.stmt('DELETE FROM cfn_imports WHERE stack_id = ?').run(stackId);
    const insert = this.store.stmt(
      'INSERT OR IGNORE INTO cfn_imports (account, region, export_name, stack_id, stack_name) VALUES (?, ?, ?, ?, ?)',
    );
    for (const name of names) insert.run(account, region, name, stackId, stackName);
  }
}
