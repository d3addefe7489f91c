// The Iceberg REST catalog: commits (an append of one snapshot: requirements checked, metadata.json
// written into the warehouse, the pointer swapped) per second on one connection and at concurrency
// 32; loadTable beside GetTable of the S3 Tables API in the same run (the catalog reads and
// answers the whole metadata document where GetTable answers a row); listTables first-page latency
// with 100 and with 100,000 tables in a namespace (filled in-process before the server starts).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expectOk, jsonClient, load, median, ROOT, startOvercast, stopChild, tempDir } from './lib.js';

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
async function populate(dataDir) {
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
  await new Promise((resolve) => setImmediate(resolve));
  rt.blobs.close();
  rt.meta.close();
  return arn;
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
  const arn = await populate(dir.path);
  console.error(`  (populated ${SMALL} + ${BIG.toLocaleString('en-US')} tables in-process in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const overcast = await startOvercast({ dataDir: dir.path });
  const request = client(overcast.endpoint);
  const prefix = encodeURIComponent(arn);
  try {
    // Appends round-robin over 32 tables: while each holds at most 10 snapshots, then up to 100 — a
    // table's metadata.json (written by every commit and answered by it) holds every snapshot and
    // the last 100 metadata files, so a commit costs more as the table's history grows.
    const single = client(overcast.endpoint, 1);
    const solo = await createTables(single, prefix, Array.from({ length: 32 }, (_, i) => `solo_${i}`));
    await commits(single, prefix, solo, 32, 1);
    const young = await commits(single, prefix, solo, 32 * 9, 1);
    report({ area: 'iceberg', metric: 'REST commit (append, ≤ 10 snapshots), one connection', value: young, unit: 'commits/s', target: '≥ 2,000/s' });
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
    const a = [];
    const b = [];
    for (let i = 0; i < 5; i++) {
      a.push(await load({ concurrency: 32, total: 5000, fn: async () => expectOk(await request('GET', loadPath), 'loadTable') }));
      b.push(await load({ concurrency: 32, total: 5000, fn: async () => expectOk(await request('GET', getPath), 'GetTable') }));
    }
    report({ area: 'iceberg', metric: 'loadTable (20 snapshots), concurrency 32', value: median(a), floor: median(b), floorNote: 'GetTable', unit: 'req/s', target: '≥ 50% of GetTable' });

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
    dir.cleanup();
  }
}
