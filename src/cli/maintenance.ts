/**
 * `overcast maintenance run [--table ARN] [--json]`: runs every enabled table maintenance job now
 * (compaction, snapshot management, unreferenced file removal, then replication) through `POST
 * /_overcast/maintenance/run` of the running Overcast at AWS_ENDPOINT_URL, and prints what each
 * did, one line per table and job (or the whole report as JSON).
 */
import { parseArgs } from 'node:util';
import { endpointOf, explain } from './deploy.js';

const USAGE = 'usage: overcast maintenance run [--table TABLE_ARN] [--json]';

interface Report {
  tables: { tableArn: string; namespace: string; name: string; jobs: Record<string, Record<string, unknown>>; replication?: Record<string, unknown>[] }[];
}

const QUIET = new Set(['status', 'failureMessage', 'lastRunTimestamp', 'reason', 'durationMs']);

function details(job: Record<string, unknown>): string {
  const parts = Object.entries(job)
    .filter(([k, v]) => !QUIET.has(k) && v !== undefined && v !== 0)
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  const why = job.failureMessage ?? job.reason;
  return [...parts, ...(why ? [`— ${String(why)}`] : [])].join(' ');
}

export async function maintenance(argv: string[]): Promise<void> {
  let values: { table?: string; json?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: { table: { type: 'string' }, json: { type: 'boolean' } },
      strict: true,
      allowPositionals: true,
    }));
  } catch (err) {
    process.stderr.write(`overcast maintenance: ${(err as Error).message}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (positionals.length !== 1 || positionals[0] !== 'run') {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const endpoint = endpointOf();
  try {
    const res = await fetch(`${endpoint}/_overcast/maintenance/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(values.table ? { tableArn: values.table } : {}),
    });
    const body = (await res.json().catch(() => ({}))) as Report & { message?: string };
    if (res.status === 400) {
      process.stderr.write(`overcast maintenance: ${body.message}\n`);
      process.exitCode = 2;
      return;
    }
    if (!res.ok || !Array.isArray(body.tables)) throw new Error(`${endpoint} answered ${res.status} ${res.statusText}: is it Overcast?`);
    if (values.json) {
      process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
      return;
    }
    if (body.tables.length === 0) process.stdout.write(values.table ? `No table ${values.table}.\n` : 'No tables.\n');
    for (const t of body.tables) {
      process.stdout.write(`${t.namespace}.${t.name}  ${t.tableArn}\n`);
      for (const [type, job] of Object.entries(t.jobs)) process.stdout.write(`  ${type.padEnd(31)} ${String(job.status).padEnd(11)} ${details(job)}\n`);
      for (const r of t.replication ?? []) {
        process.stdout.write(`  replication → ${String(r.destinationTableBucketArn)}  ${String(r.status)} ${details({ ...r, destinationTableBucketArn: undefined })}\n`);
      }
    }
  } catch (err) {
    const cause = (err as { cause?: { code?: string; errors?: { code?: string }[] } }).cause;
    const code = cause?.code ?? cause?.errors?.[0]?.code;
    process.stderr.write(`overcast maintenance: ${explain(code ? { code } : err)}\n`);
    process.exitCode = 1;
  }
}
