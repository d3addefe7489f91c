/**
 * Step Functions' rows: typed reads and writes of state machines and executions over the metadata
 * store, bound by name. Lookups are by ARN (the primary key); listings are index range scans
 * starting after the last key returned.
 */
import type { MetadataStore } from './database.js';

export interface StateMachineRow {
  arn: string;
  account: string;
  region: string;
  name: string;
  definition: string;
  role_arn: string;
  type: string;
  /** JSON array of `{key, value}`. */
  tags: string;
  revision_id: string;
  created_at: number;
}

export interface ExecutionRow {
  arn: string;
  state_machine_arn: string;
  name: string;
  status: string;
  input: string;
  output: string | null;
  error: string | null;
  cause: string | null;
  started_at: number;
  stopped_at: number | null;
}

export class StepFunctionsRepo {
  constructor(private readonly store: MetadataStore) {}

  getStateMachine(arn: string): StateMachineRow | undefined {
    return this.store.stmt('SELECT * FROM sfn_state_machines WHERE arn = ?').get(arn) as StateMachineRow | undefined;
  }

  putStateMachine(row: StateMachineRow): void {
    this.store
      .stmt(
        `INSERT OR REPLACE INTO sfn_state_machines (arn, account, region, name, definition, role_arn, type, tags, revision_id, created_at)
         VALUES (@arn, @account, @region, @name, @definition, @role_arn, @type, @tags, @revision_id, @created_at)`,
      )
      .run(row);
  }

  deleteStateMachine(arn: string): void {
    this.store.stmt('DELETE FROM sfn_state_machines WHERE arn = ?').run(arn);
  }

  /** State machines of the account and region whose ARN sorts after `after`. */
  listStateMachines(account: string, region: string, after: string, limit: number): StateMachineRow[] {
    return this.store
      .stmt('SELECT * FROM sfn_state_machines WHERE account = ? AND region = ? AND arn > ? ORDER BY arn LIMIT CAST(? AS INTEGER)')
      .all(account, region, after, limit) as StateMachineRow[];
  }

  getExecution(arn: string): ExecutionRow | undefined {
    return this.store.stmt('SELECT * FROM sfn_executions WHERE arn = ?').get(arn) as ExecutionRow | undefined;
  }

  putExecution(row: ExecutionRow): void {
    this.store
      .stmt(
        `INSERT OR REPLACE INTO sfn_executions (arn, state_machine_arn, name, status, input, output, error, cause, started_at, stopped_at)
         VALUES (@arn, @state_machine_arn, @name, @status, @input, @output, @error, @cause, @started_at, @stopped_at)`,
      )
      .run(row);
  }

  /** Ends a running execution (what is not given is null); false when it had already ended. */
  finishExecution(arn: string, status: string, end: { output?: string | undefined; error?: string | undefined; cause?: string | undefined }, stoppedAt = Date.now()): boolean {
    const out = this.store
      .stmt(
        `UPDATE sfn_executions SET status = @status, output = @output, error = @error, cause = @cause, stopped_at = @stopped_at
         WHERE arn = @arn AND status = 'RUNNING'`,
      )
      .run({ arn, status, output: end.output ?? null, error: end.error ?? null, cause: end.cause ?? null, stopped_at: stoppedAt });
    return out.changes > 0;
  }

  /** A state machine's executions, newest first, after the (started_at, arn) position given. */
  listExecutions(machine: string, status: string | undefined, before: { at: number; arn: string }, limit: number): ExecutionRow[] {
    return this.store
      .stmt(
        `SELECT * FROM sfn_executions WHERE state_machine_arn = @machine AND (@status IS NULL OR status = @status)
           AND (started_at < @at OR (started_at = @at AND arn < @arn))
         ORDER BY started_at DESC, arn DESC LIMIT CAST(@limit AS INTEGER)`,
      )
      .all({ machine, status: status ?? null, at: before.at, arn: before.arn, limit }) as ExecutionRow[];
  }

  /** Every execution left running (by an earlier process, at start-up). */
  runningExecutions(): string[] {
    return (this.store.stmt("SELECT arn FROM sfn_executions WHERE status = 'RUNNING'").all() as { arn: string }[]).map((r) => r.arn);
  }
}
