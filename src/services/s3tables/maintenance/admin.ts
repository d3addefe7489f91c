/**
 * Overcast's own endpoints for maintenance (under `/_overcast/`, unsigned, JSON): the clock —
 * `GET /_overcast/clock` reads it, `POST /_overcast/clock` with `{"advance": "72h"}` (or
 * `{"advanceMs": n}`) moves it forward — and `POST /_overcast/maintenance/run` (body optional,
 * `{"tableArn": "…"}` for one table), which runs every enabled job of every table now and answers
 * with what each did. `POST /_overcast/maintenance/restore` with `{"tableArn", "key"}` brings a
 * noncurrent object back (what only AWS Support can do on AWS). Bad input answers 400 and changes
 * nothing. The in-process API calls the same functions.
 */
import type { Runtime } from '../../../runtime/runtime.js';
import { internalCtx } from '../../../runtime/runtime.js';
import { parseDuration } from '../../../config.js';
import { repo } from '../lookup.js';
import { parseTableArn, warehouseBucketOf } from '../naming.js';
import { clockOf } from './clock.js';
import { restoreNoncurrent } from './noncurrent.js';
import { runMaintenance, type RunReport } from './runner.js';

interface AdminResponse {
  status: number;
  body: unknown;
}

interface ClockState {
  now: string;
  offsetMs: number;
}

const bad = (message: string): AdminResponse => ({ status: 400, body: { message } });

export function clockState(rt: Runtime): ClockState {
  const clock = clockOf(rt);
  return { now: new Date(clock.now()).toISOString(), offsetMs: clock.offset };
}

/** Milliseconds of `72h`, `10d`, `1d12h`, … or a positive number of milliseconds. */
export function durationMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const ms = parseDuration(value);
  return ms !== undefined && ms > 0 ? ms : undefined;
}

/** Moves Overcast's clock forward by a duration; throws a RangeError for anything else. */
export function advanceClock(rt: Runtime, duration: unknown): ClockState {
  const ms = durationMs(duration);
  if (ms === undefined) {
    throw new RangeError(`Invalid duration ${JSON.stringify(duration)}: give a positive duration such as 72h, 10d, 1d12h, 90m or 30s`);
  }
  clockOf(rt).advance(ms);
  return clockState(rt);
}

export async function maintenanceRun(rt: Runtime, tableArn?: string): Promise<RunReport> {
  if (tableArn !== undefined && !parseTableArn(tableArn)) throw new RangeError(`Invalid table ARN: ${tableArn}`);
  return runMaintenance(rt, { tableArn });
}

function parseBody(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export async function handleAdmin(rt: Runtime, method: string, path: string, text: string): Promise<AdminResponse | undefined> {
  if (path === '/_overcast/clock' && method === 'GET') return { status: 200, body: clockState(rt) };
  const body = parseBody(text);
  if (path === '/_overcast/clock' && method === 'POST') {
    if (!body) return bad('The body must be a JSON object such as {"advance": "72h"}.');
    const given = body.advance ?? body.advanceMs;
    try {
      return { status: 200, body: { ...advanceClock(rt, given), advancedMs: durationMs(given) } };
    } catch (err) {
      return bad((err as Error).message);
    }
  }
  if (path === '/_overcast/maintenance/run' && method === 'POST') {
    if (!body) return bad('The body must be empty or a JSON object such as {"tableArn": "…"}.');
    if (body.tableArn !== undefined && typeof body.tableArn !== 'string') return bad('tableArn must be a string.');
    try {
      return { status: 200, body: await maintenanceRun(rt, body.tableArn as string | undefined) };
    } catch (err) {
      if (err instanceof RangeError) return bad(err.message);
      throw err;
    }
  }
  if (path === '/_overcast/maintenance/restore' && method === 'POST') {
    if (!body || typeof body.tableArn !== 'string' || typeof body.key !== 'string') {
      return bad('The body must be a JSON object {"tableArn": "…", "key": "…"}.');
    }
    const parsed = parseTableArn(body.tableArn);
    const ctx = internalCtx(rt, parsed?.account ?? '000000000000', parsed?.region ?? 'us-east-1', 'maintenance-restore');
    const table = parsed ? repo(ctx).getTable(parsed.tableId) : undefined;
    if (!table) return { status: 404, body: { message: 'The specified table does not exist.' } };
    const restored = restoreNoncurrent(ctx, warehouseBucketOf(table.warehouse), body.key);
    return restored
      ? { status: 200, body: { restored: true, key: body.key } }
      : { status: 404, body: { message: 'No noncurrent object of that key can be restored.' } };
  }
  return undefined;
}
