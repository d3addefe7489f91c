// S3 object traffic: GetObject / PutObject of 1 KiB at concurrency 1 and 32, and 64 MiB PUT and GET
// throughput, for Overcast (spawned, on-disk store) beside a raw Node http file server in its own
// process, driven by the same load generator. Both run side by side and every measurement
// alternates between them, several times, so a noisy machine weighs on both alike; the figures are
// medians with the spread of the paired ratios. Small-object rates come from wrk when installed
// (load-generator.js), with both servers on one core and the client on the other. The floor
// streams every file as a file server does and keeps Overcast's durability: small bodies are
// written without fsync (Overcast commits them to its WAL, which survives a process crash), large
// ones are fsynced before the answer, as Overcast fsyncs its blob files.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { load, makeRequester, spawnUntil, startOvercast, stopChild, tempDir } from './lib.js';
import { cpuMicros, measureRate, paired, pairedRow } from './load-generator.js';

const REPEATS = 5;
/** A 64 MiB PUT takes ~0.25 s and swings with the floor's final fsync: nine pairs for its median. */
const LARGE_REPEATS = 9;
const KiB = 1024;
const MiB = 1024 * KiB;
const SMALL = 1 * KiB;
const LARGE = 64 * MiB;
const INLINE_LIMIT = 128 * KiB;
// A SigV4 header as the SDKs send it (Overcast routes on its credential scope; it never verifies).
const AUTH =
  'AWS4-HMAC-SHA256 Credential=AKIDBENCH/20250101/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=0000000000000000000000000000000000000000000000000000000000000000';
const SIGNED = { authorization: AUTH, 'x-amz-date': '20250101T000000Z', 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' };

/**
 * The floor: raw node:http serving files. GET streams the file; PUT streams the body to a temporary file and renames it into place, fsyncing
 * above Overcast's inline limit.
 */
const FLOOR = `
  import { createReadStream, createWriteStream, rename, statSync } from 'node:fs';
  import http from 'node:http';
  import { join } from 'node:path';
  const dir = process.env.FLOOR_DIR;
  const inlineLimit = ${INLINE_LIMIT};
  let seq = 0;
  const memory = Buffer.alloc(${SMALL}, 7);
  const server = http.createServer((req, res) => {
    if (req.url === '/memory/small') {
      res.writeHead(200, { 'content-length': memory.length, 'content-type': 'application/octet-stream' });
      res.end(memory);
      return;
    }
    const path = join(dir, encodeURIComponent(req.url.split('?')[0]));
    if (req.method === 'PUT') {
      const size = Number(req.headers['content-length'] ?? 0);
      const tmp = path + '.' + seq++ + '.tmp';
      const out = createWriteStream(tmp, { flush: size > inlineLimit });
      req.pipe(out);
      out.on('close', () => rename(tmp, path, (err) => { res.writeHead(err ? 500 : 200, { etag: '"0"' }); res.end(); }));
      return;
    }
    let size;
    try { size = statSync(path).size; } catch { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-length': size, 'content-type': 'application/octet-stream' });
    createReadStream(path, { highWaterMark: ${256 * KiB} }).pipe(res);
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write('listening on http://127.0.0.1:' + server.address().port + '\\n'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

/** A body of `size` bytes streamed in 1 MiB chunks of one buffer (no client-side allocation). */
function bodyOf(size, block) {
  return Readable.from(
    (function* () {
      for (let sent = 0; sent < size; sent += block.length) yield sent + block.length <= size ? block : block.subarray(0, size - sent);
    })(),
  );
}

/** The operations measured, against one target (`prefix` is where its objects live). */
function operations(endpoint, prefix, headers, pid) {
  const wrkGet = (path, connections, nodeFn) => () => measureRate(endpoint, path, { pid, method: 'GET', headers, connections, nodeFn });
  const wrkPut = (path, connections, nodeFn) => () =>
    measureRate(endpoint, path, { pid, method: 'PUT', headers, body: 'a'.repeat(SMALL), connections, nodeFn });
  const request = makeRequester(endpoint, 64);
  const small = Buffer.alloc(SMALL, 7);
  const block = Buffer.alloc(MiB, 9);
  const put = (path, body, size) =>
    request('PUT', path, { body, headers: { ...headers, 'content-length': size } }).then((r) => {
      if (r.status !== 200) throw new Error(`PUT ${path} answered ${r.status}`);
    });
  let n = 0;
  const get = (path, size) =>
    request('GET', path, { headers }).then((r) => {
      if (r.status !== 200 || r.bytes !== size) throw new Error(`GET ${path} answered ${r.status} with ${r.bytes} bytes`);
    });
  const seconds = async (fn) => {
    const started = process.hrtime.bigint();
    await fn();
    return Number(process.hrtime.bigint() - started) / 1e9;
  };
  /** MB/s of one request, with the server's CPU for it (µs, all its threads) where /proc tells. */
  const timed = async (fn) => {
    const before = cpuMicros(pid);
    const rate = LARGE / MiB / (await seconds(fn));
    const after = cpuMicros(pid);
    return { rate, cpu: before !== undefined && after !== undefined ? after - before : undefined };
  };
  return {
    setup: async () => {
      await put(`${prefix}/small`, small, SMALL);
      await put(`${prefix}/large`, bodyOf(LARGE, block), LARGE);
      // Warm page cache and JIT alike for both: large reads, then small ones.
      for (let i = 0; i < 4; i++) await get(`${prefix}/large`, LARGE);
      await load({ concurrency: 8, total: 2000, fn: () => get(`${prefix}/small`, SMALL) });
      await load({ concurrency: 8, total: 500, fn: () => put(`${prefix}/p${n++ % 256}`, small, SMALL) });
    },
    'get-1': wrkGet(`${prefix}/small`, 1, () => load({ concurrency: 1, total: 1500, fn: () => get(`${prefix}/small`, SMALL) })),
    'get-32': wrkGet(`${prefix}/small`, 32, () => load({ concurrency: 32, total: 6000, fn: () => get(`${prefix}/small`, SMALL) })),
    // The floor's bare-HTTP ceiling: the same body from memory, no file system at all.
    'get-1-memory': wrkGet('/memory/small', 1, () => load({ concurrency: 1, total: 1500, fn: () => get('/memory/small', SMALL) })),
    'get-32-memory': wrkGet('/memory/small', 32, () => load({ concurrency: 32, total: 6000, fn: () => get('/memory/small', SMALL) })),
    'put-1': wrkPut(`${prefix}/p1`, 1, () => load({ concurrency: 1, total: 800, fn: () => put(`${prefix}/p${n++ % 256}`, small, SMALL) })),
    'put-32': wrkPut(`${prefix}/p32`, 32, () => load({ concurrency: 32, total: 3000, fn: () => put(`${prefix}/p${n++ % 256}`, small, SMALL) })),
    'put-large': () => timed(() => put(`${prefix}/large-put`, bodyOf(LARGE, block), LARGE)),
    'get-large': async () => LARGE / MiB / (await seconds(() => get(`${prefix}/large`, LARGE))),
  };
}

/** MD5 throughput of this process's core (pinned like the load generator), in MB/s as the rows count them. */
function md5Rate() {
  const body = Buffer.alloc(LARGE, 9);
  const rates = [];
  for (let round = 0; round < 5; round++) {
    const started = process.hrtime.bigint();
    const hash = createHash('md5');
    for (let at = 0; at < LARGE; at += MiB) hash.update(body.subarray(at, at + MiB));
    hash.digest();
    rates.push(LARGE / MiB / (Number(process.hrtime.bigint() - started) / 1e9));
  }
  return rates.sort((a, b) => a - b)[2];
}

/**
 * What one core allows the 64 MiB PUT ratio, given that Overcast must also spend the MD5: with
 * the floor's CPU known, the floor's time over that CPU plus the MD5 (hashing overlapping all the
 * floor's waiting for the disk); without it, as if the floor never waited.
 */
function ceiling(putLarge, md5) {
  const floorMs = (LARGE / MiB / putLarge.floor) * 1000;
  const md5Ms = (LARGE / MiB / md5) * 1000;
  const floorCpuMs = putLarge.cpu ? putLarge.cpu[1] / 1000 : floorMs;
  const ours = putLarge.cpu ? `; Overcast's server CPU per PUT ${(putLarge.cpu[0] / 1000).toFixed(0)} ms` : '';
  return `${md5Ms.toFixed(0)} ms, the floor's server CPU per PUT ${floorCpuMs.toFixed(0)} ms of its ${floorMs.toFixed(0)}${ours}: the PUT ratio's ceiling on one core is ${(floorMs / (floorCpuMs + md5Ms)).toFixed(2)}×`;
}

export async function run(report) {
  const data = tempDir();
  const files = tempDir();
  const oc = await startOvercast({ dataDir: data.path });
  const raw = await spawnUntil(
    process.execPath,
    ['--input-type=module', '-e', FLOOR],
    /listening on (http:\/\/[^\s]+)/,
    { FLOOR_DIR: files.path },
    { server: true },
  );
  try {
    const create = await fetch(`${oc.endpoint}/bench-bucket`, { method: 'PUT', headers: SIGNED });
    if (create.status !== 200) throw new Error(`CreateBucket answered ${create.status}`);
    const ours = operations(oc.endpoint, '/bench-bucket', SIGNED, oc.child.pid);
    const floor = operations(raw.match[1], '', {}, raw.child.pid);
    await ours.setup();
    await floor.setup();
    const row = async (metric, key, unit, target, floorKey = key, rounds = REPEATS) => {
      const result = await paired(ours[key], floor[floorKey], rounds);
      report({ area: 's3', metric, ...pairedRow(result), unit, target });
      return result;
    };
    await row('GetObject 1 KiB, concurrency 1', 'get-1', 'ops/s', '≥ 80% of raw node http');
    await row('GetObject 1 KiB, concurrency 32', 'get-32', 'ops/s', '≥ 80% of raw node http');
    await row('GetObject 1 KiB, concurrency 1 (floor: raw http from memory)', 'get-1', 'ops/s', '', 'get-1-memory');
    await row('GetObject 1 KiB, concurrency 32 (floor: raw http from memory)', 'get-32', 'ops/s', '', 'get-32-memory');
    await row('PutObject 1 KiB, concurrency 1', 'put-1', 'ops/s');
    await row('PutObject 1 KiB, concurrency 32', 'put-32', 'ops/s');
    const putLarge = await row('PutObject 64 MiB', 'put-large', 'MB/s', '≥ 0.9× raw node http + fsync', 'put-large', LARGE_REPEATS);
    const md5 = md5Rate();
    report({
      area: 's3',
      metric: `MD5 of 64 MiB on one core (the ETag a PUT computes and the floor does not): ${ceiling(putLarge, md5)}`,
      value: md5,
      unit: 'MB/s',
    });
    await row('GetObject 64 MiB', 'get-large', 'MB/s', '≥ 90% of raw node http');
  } finally {
    await stopChild(oc.child);
    await stopChild(raw.child);
    data.cleanup();
    files.cleanup();
  }
}
