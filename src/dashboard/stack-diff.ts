/**
 * The last update of a stack as a diff, read back from its events: the engine records each
 * resource's resolved properties on the event that starts its create or update, so the update's
 * own events say what it added, modified (and whether by replacement) and removed, and the newest
 * earlier event of each resource with properties says what it was before. Only the update's
 * forward phase counts (a rollback's events restore, they do not change); the walk reads events
 * newest first by index and stops after SCAN_LIMIT of them.
 */
import { REPLACEMENT_REASON } from '../services/cloudformation/engine/deploy.js';
import type { CloudFormationRepo, EventRow, StackRow } from '../store/cloudformation-repo.js';
import { iso } from './http.js';

const SCAN_LIMIT = 5_000;
const BATCH = 500;
const STACK_TYPE = 'AWS::CloudFormation::Stack';
/** Stack statuses that end the update's forward phase. */
const PHASE_END = new Set(['UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 'UPDATE_COMPLETE', 'UPDATE_ROLLBACK_IN_PROGRESS', 'UPDATE_FAILED']);
const TERMINAL = new Set(['UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE', 'UPDATE_ROLLBACK_FAILED', 'UPDATE_FAILED']);

export interface PropertyChange {
  path: string;
  before?: unknown;
  after?: unknown;
}

export interface ResourceDiff {
  logicalId: string;
  type: string;
  action: 'Add' | 'Modify' | 'Remove';
  replacement: boolean;
  before?: unknown;
  after?: unknown;
  changes: PropertyChange[];
}

interface LastUpdate {
  found: boolean;
  startedAt?: string;
  /** The status the update ended in (or the stack's, while it runs). */
  outcome?: string;
  resources: ResourceDiff[];
  /** True when the events to compare with were beyond the scan limit. */
  truncated?: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Leaf-level differences between two JSON values (paths like `Tags[0].Value`). */
function propertyChanges(before: unknown, after: unknown, path = ''): PropertyChange[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => propertyChanges(before[k], after[k], path ? `${path}.${k}` : k));
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    return before.flatMap((b, i) => propertyChanges(b, after[i], `${path}[${i}]`));
  }
  return [{ path: path || '(all)', ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) }];
}

const propsOf = (e: EventRow): unknown => (e.properties === null ? undefined : (JSON.parse(e.properties) as unknown));

export function lastUpdate(repo: CloudFormationRepo, stack: StackRow): LastUpdate {
  const isStackEvent = (e: EventRow) => e.type === STACK_TYPE && e.logical_id === stack.name;
  const newer: EventRow[] = [];
  let start: EventRow | undefined;
  let before = Number.MAX_SAFE_INTEGER;
  let scanned = 0;
  const next = (): EventRow[] => {
    if (scanned >= SCAN_LIMIT) return [];
    const rows = repo.listEvents(stack.id, before, BATCH);
    scanned += rows.length;
    if (rows.length) before = rows[rows.length - 1]!.seq;
    return rows;
  };
  for (let rows = next(); rows.length && !start; rows = start ? [] : next()) {
    for (const e of rows) {
      if (isStackEvent(e) && e.status === 'UPDATE_IN_PROGRESS') {
        start = e;
        break;
      }
      newer.push(e);
    }
  }
  if (!start) return { found: false, resources: [], ...(scanned >= SCAN_LIMIT ? { truncated: true } : {}) };
  // What came before the update is read from its start on (the batch that held the start held some).
  before = start.seq;

  const forward: EventRow[] = [];
  let outcome: string | undefined;
  let ended = false;
  for (const e of newer.reverse()) {
    if (isStackEvent(e)) {
      if (PHASE_END.has(e.status)) ended = true;
      if (TERMINAL.has(e.status)) {
        outcome = e.status;
        break;
      }
      continue;
    }
    if (!ended) forward.push(e);
    else if (e.status.startsWith('DELETE_')) forward.push(e); // cleanup: removals
  }

  const diffs = new Map<string, ResourceDiff>();
  for (const e of forward) {
    const known = diffs.get(e.logical_id);
    if (e.status === 'CREATE_IN_PROGRESS' && !known) {
      diffs.set(e.logical_id, { logicalId: e.logical_id, type: e.type, action: 'Add', replacement: false, after: propsOf(e), changes: [] });
    } else if (e.status === 'UPDATE_IN_PROGRESS' && e.properties !== null) {
      const replacement = e.reason === REPLACEMENT_REASON || known?.replacement === true;
      diffs.set(e.logical_id, { logicalId: e.logical_id, type: e.type, action: 'Modify', replacement, after: propsOf(e), changes: [] });
    } else if (e.status === 'DELETE_IN_PROGRESS' && !known) {
      diffs.set(e.logical_id, { logicalId: e.logical_id, type: e.type, action: 'Remove', replacement: false, changes: [] });
    }
  }

  // What each modified or removed resource was: its newest event with properties before the update.
  const wanted = new Set([...diffs.values()].filter((d) => d.action !== 'Add').map((d) => d.logicalId));
  for (let rows = wanted.size ? next() : []; rows.length && wanted.size; rows = wanted.size ? next() : []) {
    for (const e of rows) {
      if (!wanted.has(e.logical_id) || e.properties === null) continue;
      if (e.status !== 'CREATE_IN_PROGRESS' && e.status !== 'UPDATE_IN_PROGRESS') continue;
      diffs.get(e.logical_id)!.before = propsOf(e);
      wanted.delete(e.logical_id);
    }
  }
  for (const d of diffs.values()) d.changes = d.action === 'Add' ? [] : propertyChanges(d.before, d.after);
  return {
    found: true,
    startedAt: iso(start.ts),
    outcome: outcome ?? stack.status,
    resources: [...diffs.values()],
    ...(wanted.size ? { truncated: true } : {}),
  };
}
