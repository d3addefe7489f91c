// Shared benchmark machinery: spawning Overcast (built, from dist/) and the floor servers it is
// compared with in the same run (a bare fastify server; raw Node http streaming files), a bounded
// closed-loop load generator over keep-alive connections, and medians.
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PIN, pinned } from './load-generator.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
// OVERCAST_BENCH_BIN runs another build of the server (an earlier one, for a before/after).
export const BIN = process.env.OVERCAST_BENCH_BIN ?? join(ROOT, 'bin', 'overcast.js');

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function tempDir(prefix = 'overcast-bench-') {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * Spawns a process (on the server core when `server` is set and pinning is available) and
 * resolves once `ready` matches its stdout; reports spawn→ready time.
 */
export function spawnUntil(command, args, ready, env = {}, { server = false } = {}) {
  const started = process.hrtime.bigint();
  const [cmd, argv] = server ? pinned(PIN?.server, command, args) : [command, args];
  const child = spawn(cmd, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out waiting for ${command} ${args.join(' ')}: ${out}`));
    }, 30_000);
    let matched = false;
    // Once ready, the output (a request log, at info) is read and dropped, never collected.
    child.stdout.on('data', (d) => {
      if (matched) return;
      out += d;
      const m = ready.exec(out);
      if (m) {
        matched = true;
        clearTimeout(timer);
        resolve({ child, match: m, ms: Number(process.hrtime.bigint() - started) / 1e6 });
      }
    });
    child.stderr.on('data', (d) => {
      if (!matched) out += d;
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}: ${out}`));
    });
  });
}

export async function stopChild(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(t);
}

/** Polls `url` until it answers 200; returns the milliseconds from `startedNs`. */
export async function firstHealthy(url, startedNs) {
  for (let i = 0; i < 3000; i++) {
    try {
      const res = await fetch(url);
      if (res.ok) {
        await res.arrayBuffer();
        return Number(process.hrtime.bigint() - startedNs) / 1e6;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`${url} never became healthy`);
}

/**
 * Starts `overcast start` on a free port; resolves with its endpoint and child process.
 * OVERCAST_BENCH_NODE_ARGS adds Node options to the server alone (`--cpu-prof` to profile it).
 */
export async function startOvercast({ inMemory = false, dataDir, extraArgs = [], logLevel = 'error' } = {}) {
  const nodeArgs = process.env.OVERCAST_BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const args = [...nodeArgs, BIN, 'start', '--port', '0', '--log-level', logLevel, ...extraArgs];
  if (inMemory) args.push('--in-memory');
  else args.push('--data-dir', dataDir);
  const { child, match } = await spawnUntil(
    process.execPath,
    args,
    /listening on (http:\/\/[^\s]+)/,
    { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    { server: true },
  );
  return { child, endpoint: match[1] };
}

/** RSS of a process in MiB, from /proc. */
export function rssMiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * Closed-loop load: `concurrency` workers each issue `fn()` back to back until `total` requests
 * are done. Returns requests per second.
 */
export async function load({ concurrency, total, fn }) {
  let issued = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (issued < total) {
      issued++;
      await fn();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return total / seconds;
}

/** A keep-alive HTTP request helper that reads the whole response; resolves {status, bytes}. */
export function makeRequester(endpoint, maxSockets = 64) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const url = new URL(endpoint);
  return (method, path, { body, headers = {} } = {}) =>
    new Promise((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, method, path, agent, headers },
        (res) => {
          let bytes = 0;
          res.on('data', (c) => (bytes += c.length));
          res.on('end', () => resolve({ status: res.statusCode, bytes }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (body && typeof body.pipe === 'function') body.pipe(req);
      else req.end(body);
    });
}

/**
 * Raw Node http file server, the floor for object traffic: GET streams a file, PUT writes the
 * body to a file (fsynced, as Overcast fsyncs large bodies).
 */
export function startRawFileServer(dir) {
  const server = http.createServer((req, res) => {
    const path = join(dir, encodeURIComponent(req.url));
    if (req.method === 'PUT') {
      const out = createWriteStream(path, { flush: true });
      req.pipe(out);
      out.on('close', () => {
        res.writeHead(200);
        res.end();
      });
      return;
    }
    let size;
    try {
      size = statSync(path).size;
    } catch {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-length': size });
    createReadStream(path).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, endpoint: `http://127.0.0.1:${server.address().port}` })),
  );
}

/**
 * A bare fastify server in a child process answering every request with a fixed JSON body: the
 * first path segment picks the body from `bodies` (`{ 'get-table': '{…}', tables: '{…}' }`),
 * else `bodies['*']`. The floor for JSON APIs, measured with the same load generator.
 */
export async function startJsonFloor(bodies) {
  const script = `
    import Fastify from 'fastify';
    const bodies = JSON.parse(process.env.FLOOR_BODIES);
    const app = Fastify();
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_req, _payload, done) => done(null));
    app.all('*', async (req, reply) => {
      const first = req.url.split('?')[0].split('/')[1] ?? '';
      reply.header('content-type', 'application/json');
      return bodies[first] ?? bodies['*'] ?? '{}';
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    process.stdout.write('listening on http://127.0.0.1:' + app.server.address().port + '\\n');
    process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
  `;
  const { child, match } = await spawnUntil(
    process.execPath,
    ['--input-type=module', '-e', script],
    /listening on (http:\/\/[^\s]+)/,
    { FLOOR_BODIES: JSON.stringify(bodies) },
    { server: true },
  );
  return { child, endpoint: match[1] };
}

/** The Authorization header of a JSON API request (the scope names the service). */
export function signedHeaders(service, region = 'us-east-1') {
  return { authorization: `AWS4-HMAC-SHA256 Credential=test/20250101/${region}/${service}/aws4_request, SignedHeaders=host, Signature=0` };
}

/**
 * A keep-alive JSON client for the AWS JSON APIs: every request carries an Authorization header
 * naming `service` in its credential scope (Overcast routes by it; signatures are not verified).
 * Resolves {status, body} with the body as text.
 */
export function jsonClient(endpoint, { service, region = 'us-east-1', maxSockets = 64 }) {
  const { authorization } = signedHeaders(service, region);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const url = new URL(endpoint);
  return (method, path, body) =>
    new Promise((resolve, reject) => {
      const headers = { authorization };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const req = http.request({ host: url.hostname, port: url.port, method, path, agent, headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
}

/** The parsed body of a 2xx answer; throws with the answer otherwise. */
export function expectOk(res, what) {
  if (res.status >= 300) throw new Error(`${what} answered ${res.status}: ${res.body}`);
  return res.body ? JSON.parse(res.body) : {};
}
