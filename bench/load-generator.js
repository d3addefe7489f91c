// The load generator and the pairing discipline behind every server-side throughput figure: wrk
// when it is installed (a C client that saturates a bare fastify server where a Node client tops
// out at a third of its rate), else the in-process Node generator of lib.js, named as such in the
// report. Servers run on the first core and the client on the others when the machine has at
// least two and `taskset` exists; Overcast and its floor are measured in alternating rounds and
// each round's ratio is kept, so the report gives the median ratio with its spread.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

function onPath(command) {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const CORES = cpus().length;
const HAVE_TASKSET = CORES >= 2 && process.platform === 'linux' && onPath('taskset');
export const HAVE_WRK = process.env.OVERCAST_BENCH_NODE_CLIENT ? false : onPath('wrk');

/** Core lists: servers on core 0, clients on the rest (undefined when pinning is unavailable). */
export const PIN = HAVE_TASKSET ? { server: '0', client: CORES > 2 ? `1-${CORES - 1}` : '1' } : undefined;

/** `[command, args]` running `command` pinned to `cores` when pinning is available. */
export function pinned(cores, command, args) {
  return PIN && cores ? ['taskset', ['-c', cores, command, ...args]] : [command, args];
}

/** Pins this (client) process to the client cores, so the Node load generator stays off the server's. */
export function pinSelfToClientCores() {
  if (!PIN) return;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', PIN.client, String(process.pid)], { stdio: 'ignore' });
  } catch {
    // A container may refuse; the figures then say nothing is pinned.
  }
}

export function describeSetup() {
  const client = HAVE_WRK ? 'wrk' : 'the Node load generator (wrk not installed; floors may be unsaturated)';
  const pin = PIN ? `server pinned to core ${PIN.server}, client to core ${PIN.client}` : 'nothing pinned';
  return `${client}; ${pin}`;
}

const luaString = (s) => `"${String(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/**
 * A wrk Lua script for one request. `chain` (optional) is Lua run on every response with `body` in
 * scope, and `bodyExpr` a Lua expression for each request's body, for requests that depend on the
 * previous answer (a version token). `requestFn` (Lua, a function) replaces the whole request
 * when the path varies too.
 */
function script({ method, headers, body, bodyExpr, requestFn, chain, prelude = '' }) {
  const lines = [`wrk.method = ${luaString(method)}`];
  for (const [k, v] of Object.entries(headers ?? {})) lines.push(`wrk.headers[${luaString(k)}] = ${luaString(v)}`);
  if (body !== undefined) lines.push(`wrk.body = ${luaString(body)}`);
  lines.push(prelude);
  if (bodyExpr) lines.push(`request = function() return wrk.format(nil, nil, nil, ${bodyExpr}) end`);
  if (requestFn) lines.push(`request = ${requestFn}`);
  // Any answer other than 2xx fails the run: a benchmark of errors measures nothing.
  lines.push('bad = 0');
  lines.push(`response = function(status, headers, body) if status >= 300 then bad = bad + 1 if bad == 1 then io.stderr:write("wrk-first-error " .. status .. " " .. body .. "\\n") end end ${chain ?? ''} end`);
  lines.push('done = function(summary, latency, requests) io.stderr:write("wrk-errors " .. (summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout) .. "\\n") end');
  return lines.join('\n');
}

function runWrk({ url, connections, seconds, threads = 1, ...request }) {
  const dir = mkdtempSync(join(tmpdir(), 'overcast-wrk-'));
  const file = join(dir, 'request.lua');
  writeFileSync(file, script(request));
  const [command, args] = pinned(PIN?.client, 'wrk', [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, '-s', file, url]);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', () => {
      rmSync(dir, { recursive: true, force: true });
      const rate = /Requests\/sec:\s+([\d.]+)/.exec(out);
      const requests = /(\d+) requests in/.exec(out);
      const errors = /wrk-errors (\d+)/.exec(err);
      if (!rate) return reject(new Error(`wrk gave no rate: ${out}${err}`));
      if (errors && Number(errors[1]) > 0) return reject(new Error(`wrk saw ${errors[1]} failed requests against ${url}: ${out}${/wrk-first-error .*/.exec(err)?.[0] ?? ''}`));
      resolve({ rate: Number(rate[1]), requests: Number(requests?.[1] ?? 0) });
    });
  });
}

/** CPU time (user + system) a process has used, in microseconds, from /proc; undefined elsewhere. */
export function cpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000; // clock ticks of 10 ms
  } catch {
    return undefined;
  }
}

/**
 * One measurement against `endpoint`: wrk for `seconds`, or the fallback `nodeFn` (a function
 * returning requests/s) when wrk is absent. With `pid` (the server's), also the server's CPU time
 * per request: on a machine shared with other work, throughput swings with the neighbours while
 * the CPU a request costs the server holds much steadier. Resolves {rate, cpu?} (cpu in µs).
 */
export async function measureRate(endpoint, path, { connections = 32, seconds = 2, nodeFn, pid, ...request }) {
  if (!HAVE_WRK) return { rate: await nodeFn() };
  const before = pid ? cpuMicros(pid) : undefined;
  const { rate, requests } = await runWrk({ url: `${endpoint}${path}`, connections, seconds, ...request });
  const after = pid ? cpuMicros(pid) : undefined;
  return { rate, cpu: before !== undefined && after !== undefined && requests > 0 ? (after - before) / requests : undefined };
}

function quantile(sorted, q) {
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (i - lo);
}

const median = (v) => quantile([...v].sort((p, q) => p - q), 0.5);

/**
 * Overcast (`ours`) and its floor, each a function resolving to a rate or {rate, cpu}, measured
 * in `rounds` alternating rounds (the order flips each round so neither always follows the
 * other). Returns the medians, the paired ratios (their median and min–max spread) and, when
 * both sides report it, the median server CPU per request of each.
 */
export async function paired(ours, floor, rounds = 5) {
  const norm = async (fn) => {
    const r = await fn();
    return typeof r === 'number' ? { rate: r } : r;
  };
  await norm(ours);
  await norm(floor);
  const a = [];
  const b = [];
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      a.push(await norm(ours));
      b.push(await norm(floor));
    } else {
      b.push(await norm(floor));
      a.push(await norm(ours));
    }
  }
  const ratios = a.map((x, i) => x.rate / b[i].rate).sort((p, q) => p - q);
  const withCpu = a.every((x) => x.cpu !== undefined) && b.every((x) => x.cpu !== undefined);
  return {
    value: median(a.map((x) => x.rate)),
    floor: median(b.map((x) => x.rate)),
    ratio: quantile(ratios, 0.5),
    spread: [ratios[0], ratios[ratios.length - 1]],
    cpu: withCpu ? [median(a.map((x) => x.cpu)), median(b.map((x) => x.cpu))] : undefined,
  };
}

/** The row fields of a paired measurement, for `report`. */
export function pairedRow(result) {
  return { value: result.value, floor: result.floor, ratio: result.ratio, spread: result.spread, cpu: result.cpu };
}
