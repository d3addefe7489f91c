// The request log's cost: GetTable requests/s at concurrency 32 on a server logging every request
// (`info`, the default: text, then JSON, written to a file as `overcast start > log` would, so that
// no reader shares the cores) beside the same server logging only problems (`warn`), in
// alternating rounds; and how long `overcast env` takes from spawn to exit.
import { execFile, spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, expectOk, jsonClient, load, median, stopChild, tempDir } from './lib.js';

const CONCURRENCY = 32;
const TOTAL = 20_000;
const ROUNDS = 5;

/** `overcast start` in memory with its stdout in a file; resolves once it is listening. */
async function startLogged(dir, logLevel, extraArgs) {
  const file = join(dir, `${logLevel}-${extraArgs.join('-') || 'text'}.log`);
  const out = openSync(file, 'w');
  const args = [BIN, 'start', '--port', '0', '--in-memory', '--log-level', logLevel, ...extraArgs];
  const child = spawn(process.execPath, args, { stdio: ['ignore', out, 'inherit'], env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } });
  for (let i = 0; i < 3000; i++) {
    const m = /listening on (http:\/\/[^\s"]+)/.exec(readFileSync(file, 'utf8'));
    if (m) return { child, endpoint: m[1] };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGKILL');
  throw new Error(`overcast start did not get ready: ${readFileSync(file, 'utf8')}`);
}

/** A server with one table; returns its request function and the GetTable path. */
async function serverWithTable(dir, logLevel, extraArgs = []) {
  const server = await startLogged(dir, logLevel, extraArgs);
  const request = jsonClient(server.endpoint, { service: 's3tables' });
  const bucket = expectOk(await request('PUT', '/buckets', { name: 'bench' }), 'CreateTableBucket').arn;
  expectOk(await request('PUT', `/namespaces/${encodeURIComponent(bucket)}`, { namespace: ['ns'] }), 'CreateNamespace');
  const table = expectOk(await request('PUT', `/tables/${encodeURIComponent(bucket)}/ns`, { name: 't', format: 'ICEBERG' }), 'CreateTable').tableARN;
  const path = `/get-table?tableArn=${encodeURIComponent(table)}`;
  expectOk(await request('GET', path), 'GetTable');
  return { server, request, path };
}

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Requests/s and the server's CPU µs per request, on `logged` and on `quiet`, rounds alternating. */
async function besideQuiet(quiet, logged) {
  const round = async (s) => {
    const cpu = cpuSeconds(s.server.child.pid);
    const rate = await load({ concurrency: CONCURRENCY, total: TOTAL, fn: () => s.request('GET', s.path) });
    return { rate, cpuUs: ((cpuSeconds(s.server.child.pid) - cpu) / TOTAL) * 1e6 };
  };
  await load({ concurrency: CONCURRENCY, total: 1000, fn: () => quiet.request('GET', quiet.path) });
  await load({ concurrency: CONCURRENCY, total: 1000, fn: () => logged.request('GET', logged.path) });
  const a = [];
  const b = [];
  for (let i = 0; i < ROUNDS; i++) {
    b.push(await round(quiet));
    a.push(await round(logged));
  }
  const m = (xs, k) => median(xs.map((x) => x[k]));
  return { rate: [m(a, 'rate'), m(b, 'rate')], cpu: [m(a, 'cpuUs'), m(b, 'cpuUs')] };
}

export async function run(report) {
  const dir = tempDir();
  const quiet = await serverWithTable(dir.path, 'warn');
  try {
    for (const format of ['text', 'json']) {
      const logged = await serverWithTable(dir.path, 'info', ['--log-format', format]);
      try {
        const { rate, cpu } = await besideQuiet(quiet, logged);
        const what = `a ${format} line per request (beside --log-level warn)`;
        report({ area: 'log', metric: `GetTable, concurrency 32, ${what}`, value: rate[0], floor: rate[1], unit: 'req/s' });
        report({ area: 'log', metric: `server CPU per GetTable, ${what}`, value: cpu[0], floor: cpu[1], unit: 'µs' });
      } finally {
        await stopChild(logged.server.child);
      }
    }
  } finally {
    await stopChild(quiet.server.child);
    dir.cleanup();
  }
  const times = [];
  for (let i = 0; i < 7; i++) {
    const started = process.hrtime.bigint();
    await new Promise((resolve, reject) => execFile(process.execPath, [BIN, 'env'], (err) => (err ? reject(err) : resolve())));
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  report({ area: 'start-up', metric: '`overcast env`: spawn → exit', value: median(times), unit: 'ms' });
}
