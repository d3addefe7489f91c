/**
 * `overcast reset`: wipes all state of a running Overcast (endpoint from AWS_ENDPOINT_URL) through
 * `POST /_overcast/reset` — stacks, buckets, objects, table buckets, parameters — while it keeps
 * running.
 */
import { parseArgs } from 'node:util';
import { endpointOf, explain } from './deploy.js';
import { usageLine } from './help.js';

export async function reset(argv: string[]): Promise<void> {
  try {
    parseArgs({ args: argv, options: {}, strict: true });
  } catch (err) {
    process.stderr.write(`${usageLine('reset', err, ['--help'])}\n`);
    process.exitCode = 2;
    return;
  }
  const endpoint = endpointOf();
  try {
    const res = await fetch(`${endpoint}/_overcast/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    if (!res.ok) throw new Error(`${endpoint} answered ${res.status} ${res.statusText}: is it Overcast?`);
    process.stdout.write(`Overcast at ${endpoint} reset: all state wiped.\n`);
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    process.stderr.write(`overcast reset: ${explain(cause?.code ? cause : err)}\n`);
    process.exitCode = 1;
  }
}
