/**
 * `overcast clock` shows Overcast's clock and `overcast clock advance 72h` moves it forward (for
 * every age-based maintenance rule), through `GET`/`POST /_overcast/clock` of the running Overcast
 * at AWS_ENDPOINT_URL.
 */
import { parseArgs } from 'node:util';
import { endpointOf, explain } from './deploy.js';

const USAGE = 'usage: overcast clock [advance DURATION]   (DURATION: 72h, 10d, 1d12h, 90m, 30s)';

export async function clock(argv: string[]): Promise<void> {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args: argv, options: {}, strict: true, allowPositionals: true }));
  } catch (err) {
    process.stderr.write(`overcast clock: ${(err as Error).message}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const [action, duration, ...extra] = positionals;
  const advancing = action === 'advance';
  if ((action !== undefined && !advancing) || (advancing && duration === undefined) || extra.length > 0 || (!advancing && duration !== undefined)) {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const endpoint = endpointOf();
  try {
    const res = await fetch(`${endpoint}/_overcast/clock`, {
      method: advancing ? 'POST' : 'GET',
      ...(advancing ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance: duration }) } : {}),
    });
    const body = (await res.json().catch(() => ({}))) as { now?: string; offsetMs?: number; message?: string };
    if (res.status === 400) {
      process.stderr.write(`overcast clock: ${body.message}\n`);
      process.exitCode = 2;
      return;
    }
    if (!res.ok || body.now === undefined) throw new Error(`${endpoint} answered ${res.status} ${res.statusText}: is it Overcast?`);
    const ahead = (body.offsetMs ?? 0) / 3_600_000;
    process.stdout.write(`Overcast's clock: ${body.now} (${ahead === 0 ? 'the wall clock' : `${Number(ahead.toFixed(3))} h ahead of the wall clock`})\n`);
  } catch (err) {
    const cause = (err as { cause?: { code?: string; errors?: { code?: string }[] } }).cause;
    const code = cause?.code ?? cause?.errors?.[0]?.code;
    process.stderr.write(`overcast clock: ${explain(code ? { code } : err)}\n`);
    process.exitCode = 1;
  }
}
