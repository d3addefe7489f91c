// The Iceberg REST catalog: commits (an append of one snapshot: requirements checked, metadata.json
// written into the warehouse, the pointer swapped) per second on one connection — driven by wrk,
// beside a bare server answering the same bytes, with the server's CPU per commit — and at
// concurrency 32; loadTable beside GetTable of the S3 Tables API in the same run (the catalog
// reads and answers the whole metadata document where GetTable answers a row); listTables
// first-page latency with 100 and with 100,000 tables in a namespace (filled in-process before
// the server starts).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { measureRate, paired, pairedRow } from './load-generator.js';
import { expectOk, jsonClient, load, median, ROOT, signedHeaders, startJsonFloor, startOvercast, stopChild, tempDir } from './lib.js';

const REGION = 'us-east-1';
const ACCOUNT = '000000000000';
// OVERCAST_BENCH_BIG_TABLES shrinks the big namespace for a quick run while working on the server.
const BIG = Number(process.env.OVERCAST_BENCH_BIG_TABLES ?? 100_000);
const SMALL = 100;
const PAGE = 100;
const SCHEMA = {
  type: 'struct',
  'schema-id': 0,
  fields: [
    { id: 1, name: 'id', type: 'long', required: true },
    { id: 2, name: 'customer', type: 'string', required: false },
    { id: 3, name: 'amount', type: 'decimal(12, 2)', required: false },
    { id: 4, name: 'ordered_at', type: 'timestamptz', required: false },
  ],
};

const dist = (path) => import(pathToFileURL(join(ROOT, 'dist', path)).href);

const client = (endpoint, maxSockets = 64) => jsonClient(endpoint, { service: 's3tables', region: REGION, maxSockets });

/** Two namespaces of bare tables (100 and 100,000), made through the provider before start-up. */
export async function populate(dataDir) {
  const { createRuntime } = await dist('server/server.js');
  const { configFromEnv } = await dist('config.js');
  const { internalCtx } = await dist('runtime/runtime.js');
  const s3t = await dist('services/s3tables/provider.js');
  const rt = createRuntime({ ...configFromEnv({}), dataDir, logLevel: 'error' });
  const ctx = internalCtx(rt, ACCOUNT, REGION, 'bench');
  const { arn } = s3t.createTableBucket(ctx, { name: 'bench-iceberg' });
  for (const [ns, count] of [['small', SMALL], ['big', BIG]]) {
    s3t.createNamespace(ctx, { tableBucketARN: arn, namespace: [ns] });
    for (let i = 0; i < count; i += 5000) {
      rt.meta.db.exec('BEGIN');
      for (let j = i; j < Math.min(count, i + 5000); j++) {
        await s3t.createTable(ctx, { tableBucketARN: arn, namespace: ns, name: `t_${String(j).padStart(6, '0')}`, format: 'ICEBERG' });
      }
      rt.meta.db.exec('COMMIT');
    }
  }
  s3t.createNamespace(ctx, { tableBucketARN: arn, namespace: ['bench'] });
  // Tables for the one-connection commit rounds, each round on its own set (see restCommits).
  const young = [];
  rt.meta.db.exec('BEGIN');
  for (let i = 0; i < YOUNG_ROUNDS * YOUNG_PER_ROUND; i++) {
    const name = `young_${i}`;
    await s3t.createTable(ctx, { tableBucketARN: arn, namespace: 'bench', name, format: 'ICEBERG', metadata: { iceberg: { schema: S3T_SCHEMA } } });
    young.push({ name, location: s3t.getTable(ctx, { tableBucketARN: arn, namespace: 'bench', name }).warehouseLocation });
  }
  rt.meta.db.exec('COMMIT');
  await new Promise((resolve) => setImmediate(resolve));
  rt.blobs.close();
  rt.meta.close();
  return { arn, young };
}

// A warm-up and five paired rounds, each on tables of its own: a round starts from tables without
// snapshots, so wrk's script knows every table's current snapshot without asking, and at up to
// 5,000 commits/s for two seconds no table passes 10 snapshots.
const YOUNG_ROUNDS = 6;
const YOUNG_PER_ROUND = 1000;
const S3T_SCHEMA = { fields: [{ name: 'id', type: 'long', required: true }, { name: 'customer', type: 'string' }, { name: 'amount', type: 'decimal(12, 2)' }, { name: 'ordered_at', type: 'timestamptz' }] };
const luaString = (v) => JSON.stringify(v);

/**
 * One-connection appends through wrk, round robin over one round's tables: the Lua script keeps
 * each table's current snapshot id and sequence number, so every commit carries the requirement
 * and parent a writer sends (assert-ref-snapshot-id on main) and must succeed.
 */
export function restCommits(ours, prefix, young) {
  let round = 0;
  return () => {
    const tables = young.slice(round * YOUNG_PER_ROUND, ++round * YOUNG_PER_ROUND);
    const prelude = [
      `names = {${tables.map((t) => luaString(t.name)).join(',')}}`,
      `locations = {${tables.map((t) => luaString(t.location)).join(',')}}`,
      'current = {}',
      'seqs = {}',
      'i = 0',
      `id = ${round * 10_000_000}`,
      `now = ${Date.now()}`,
      `base = ${luaString(`/iceberg/v1/${prefix}/namespaces/bench/tables/`)}`,
    ].join('\n');
    const requestFn = `function()
      i = i + 1
      local k = ((i - 1) % #names) + 1
      id = id + 1
      local cur = current[k]
      local seq = (seqs[k] or 0) + 1
      pending = {k, id, seq}
      local req = 'null'
      local parent = ''
      if cur then
        req = string.format('%d', cur)
        parent = string.format('"parent-snapshot-id":%d,', cur)
      end
      local body = string.format('{"requirements":[{"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":%s}],"updates":[{"action":"add-snapshot","snapshot":{"snapshot-id":%d,%s"sequence-number":%d,"timestamp-ms":%d,"manifest-list":"%s/metadata/snap-%d-1-bench.avro","summary":{"operation":"append","added-data-files":"1","added-records":"100","total-records":"%d"},"schema-id":0}},{"action":"set-snapshot-ref","ref-name":"main","type":"branch","snapshot-id":%d}]}', req, id, parent, seq, now + i, locations[k], id, seq * 100, id)
      return wrk.format(nil, base .. names[k], nil, body)
    end`;
    return measureRate(ours.endpoint, '/', {
      pid: ours.pid,
      method: 'POST',
      headers: { ...signedHeaders('s3tables', REGION), 'content-type': 'application/json' },
      connections: 1,
      prelude,
      requestFn,
      // wrk may build a request it never sends (it does so once at start), so a table's state
      // advances only when an answer confirms the commit (one connection: answers come in order).
      chain: 'if status < 300 and pending then current[pending[1]] = pending[2] seqs[pending[1]] = pending[3] end',
      nodeFn: () => {
        throw new Error('the REST commit rate needs wrk');
      },
    });
  };
}

let snapshotId = 1;

/** An append commit on `table`: add a snapshot whose parent is the current one and move main. */
function appendBody(table) {
  const id = snapshotId++;
  const body = {
    requirements: [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': table.current }],
    updates: [
      {
        action: 'add-snapshot',
        snapshot: {
          'snapshot-id': id,
          ...(table.current === null ? {} : { 'parent-snapshot-id': table.current }),
          'sequence-number': ++table.seq,
          'timestamp-ms': Date.now(),
          'manifest-list': `${table.location}/metadata/snap-${id}-1-bench.avro`,
          summary: { operation: 'append', 'added-data-files': '1', 'added-records': '100', 'total-records': String(table.seq * 100) },
          'schema-id': 0,
        },
      },
      { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': id },
    ],
  };
  table.current = id;
  return body;
}

/** `total` appends by `workers` clients, each taking the next table in turn (so tables grow alike). */
async function commits(request, prefix, tables, total, workers = tables.length) {
  let issued = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = w; issued < total; i += workers) {
        issued++;
        const table = tables[i % tables.length];
        expectOk(await request('POST', `/iceberg/v1/${prefix}/namespaces/bench/tables/${table.name}`, appendBody(table)), 'commit');
      }
    }),
  );
  return total / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function createTables(request, prefix, names) {
  const tables = [];
  for (const name of names) {
    const out = expectOk(await request('POST', `/iceberg/v1/${prefix}/namespaces/bench/tables`, { name, schema: SCHEMA }), 'createTable');
    tables.push({ name, current: null, seq: 0, location: out.metadata.location });
  }
  return tables;
}

async function firstPageLatency(request, path, rounds = 300) {
  for (let i = 0; i < 30; i++) expectOk(await request('GET', path), 'listTables');
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = process.hrtime.bigint();
    const res = await request('GET', path);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (JSON.parse(res.body).identifiers.length !== PAGE) throw new Error('short page');
  }
  return median(times);
}

export async function run(report) {
  const dir = tempDir();
  const t0 = Date.now();
  const { arn, young: youngTables } = await populate(dir.path);
  console.error(`  (populated ${SMALL} + ${BIG.toLocaleString('en-US')} tables in-process in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const overcast = await startOvercast({ dataDir: dir.path });
  const request = client(overcast.endpoint);
  const prefix = encodeURIComponent(arn);
  let floor;
  try {
    // Appends on one connection to young tables (≤ 10 snapshots), beside a bare server taking a
    // body of the same size and answering the bytes Overcast answers a young table's commit.
    const single = client(overcast.endpoint, 1);
    const [probe] = await createTables(single, prefix, ['probe']);
    const commitBody = JSON.stringify(appendBody(probe));
    const commitAnswer = (await single('POST', `/iceberg/v1/${prefix}/namespaces/bench/tables/probe`, JSON.parse(commitBody))).body;
    floor = await startJsonFloor({ '*': commitAnswer });
    const bare = { endpoint: floor.endpoint, pid: floor.child.pid };
    const floorCommit = () =>
      measureRate(bare.endpoint, '/commit', {
        pid: bare.pid,
        method: 'POST',
        headers: { ...signedHeaders('s3tables', REGION), 'content-type': 'application/json' },
        connections: 1,
        body: commitBody,
        nodeFn: () => load({ concurrency: 1, total: 2000, fn: () => jsonClient(bare.endpoint, { service: 's3tables', maxSockets: 1 })('POST', '/commit', JSON.parse(commitBody)) }),
      });
    const ours = { endpoint: overcast.endpoint, pid: overcast.child.pid };
    const young = await paired(restCommits(ours, prefix, youngTables), floorCommit);
    const serverSide = young.cpu ? ` — server-side ${Math.round(1e6 / young.cpu[0]).toLocaleString('en-US')} commits per CPU-second` : '';
    report({ area: 'iceberg', metric: `REST commit (append, ≤ 10 snapshots), one connection${serverSide}`, ...pairedRow(young), unit: 'commits/s', target: '≥ 2,000/s server-side' });
    // Appends round-robin over 32 tables growing from 10 to 100 snapshots: a table's metadata.json
    // (written by every commit and answered by it) holds every snapshot and the last 100 metadata
    // files, so a commit costs more as the table's history grows.
    const solo = await createTables(single, prefix, Array.from({ length: 32 }, (_, i) => `solo_${i}`));
    await commits(single, prefix, solo, 32 * 10, 1);
    const grown = await commits(single, prefix, solo, 32 * 90, 1);
    report({ area: 'iceberg', metric: 'REST commit (append, 10–100 snapshots), one connection', value: grown, unit: 'commits/s' });
    const many = await createTables(request, prefix, Array.from({ length: 32 }, (_, i) => `w_${i}`));
    await commits(request, prefix, many, 32 * 10);
    const concurrent = await commits(request, prefix, many, 32 * 90);
    report({ area: 'iceberg', metric: 'REST commit (append, 10–100 snapshots), concurrency 32', value: concurrent, unit: 'commits/s' });

    // loadTable of a table with 20 snapshots beside GetTable of the same table, alternating rounds.
    const [reader] = await createTables(request, prefix, ['reader']);
    await commits(single, prefix, [reader], 20, 1);
    const loadPath = `/iceberg/v1/${prefix}/namespaces/bench/tables/reader`;
    const getPath = `/get-table?tableBucketARN=${encodeURIComponent(arn)}&namespace=bench&name=reader`;
    expectOk(await request('GET', getPath), 'GetTable');
    const rate = (path) => () =>
      measureRate(overcast.endpoint, path, {
        pid: overcast.child.pid,
        method: 'GET',
        headers: signedHeaders('s3tables', REGION),
        connections: 32,
        nodeFn: () => load({ concurrency: 32, total: 5000, fn: async () => expectOk(await request('GET', path), 'read') }),
      });
    const reads = await paired(rate(loadPath), rate(getPath));
    report({ area: 'iceberg', metric: 'loadTable (20 snapshots) beside GetTable of the same table, concurrency 32', ...pairedRow(reads), unit: 'req/s', target: '≥ 0.5× GetTable' });

    const list = (ns) => `/iceberg/v1/${prefix}/namespaces/${ns}/tables?pageSize=${PAGE}`;
    const small = await firstPageLatency(request, list('small'));
    const big = await firstPageLatency(request, list('big'));
    report({ area: 'iceberg', metric: `listTables first page (${PAGE}) with ${SMALL} tables`, value: small, unit: 'ms' });
    report({
      area: 'iceberg',
      metric: `listTables first page (${PAGE}) with ${BIG.toLocaleString('en-US')} tables`,
      value: big,
      unit: 'ms',
      floorNote: `ratio to ${SMALL} tables: ${(big / small).toFixed(2)}`,
      target: 'ratio ≤ 1.2',
    });
  } finally {
    await stopChild(overcast.child);
    if (floor) await stopChild(floor.child);
    dir.cleanup();
  }
}
