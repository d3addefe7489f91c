// S3 Tables: GetTable and ListTables requests/s at concurrency 32 beside a bare-fastify floor
// serving the same bodies in the same run; CreateTable-with-schema ops/s; ListTables first-page
// latency with 100 and with 100,000 tables in a bucket (the 100,000 are created in-process through
// the provider before the server starts); UpdateTableMetadataLocation commits/s over HTTP and
// in-process (the store's own rate).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expectOk, jsonClient, load, median, ROOT, startJsonFloor, startOvercast, stopChild, tempDir } from './lib.js';

const CONCURRENCY = 32;
const BIG = 100_000;
const SMALL = 100;
const PAGE = 100;
const ACCOUNT = '000000000000';
const REGION = 'us-east-1';
const SCHEMA = {
  iceberg: {
    schema: {
      fields: [
        { name: 'id', type: 'long', required: true },
        { name: 'customer', type: 'string' },
        { name: 'amount', type: 'decimal(12,2)' },
        { name: 'ordered_at', type: 'timestamptz' },
        { name: 'status', type: 'string' },
      ],
    },
  },
};

const dist = (path) => import(pathToFileURL(join(ROOT, 'dist', path)).href);

const client = (endpoint, maxSockets = 64) => jsonClient(endpoint, { service: 's3tables', region: REGION, maxSockets });

/** Fills the store in-process through the provider: one small and one big bucket. */
async function populate(dataDir) {
  const { createRuntime } = await dist('server/server.js');
  const { configFromEnv } = await dist('config.js');
  const { internalCtx } = await dist('runtime/runtime.js');
  const s3t = await dist('services/s3tables/provider.js');
  const rt = createRuntime({ ...configFromEnv({}), dataDir, logLevel: 'error' });
  const ctx = internalCtx(rt, ACCOUNT, REGION, 'bench');
  const made = {};
  for (const [name, count] of [['bench-small', SMALL], ['bench-big', BIG]]) {
    const { arn } = s3t.createTableBucket(ctx, { name });
    s3t.createNamespace(ctx, { tableBucketARN: arn, namespace: ['ns'] });
    const tables = [];
    for (let i = 0; i < count; i += 5000) {
      rt.meta.db.exec('BEGIN');
      for (let j = i; j < Math.min(count, i + 5000); j++) {
        const out = await s3t.createTable(ctx, { tableBucketARN: arn, namespace: 'ns', name: `t_${String(j).padStart(6, '0')}`, format: 'ICEBERG' });
        if (tables.length < CONCURRENCY) tables.push(out.tableARN);
      }
      rt.meta.db.exec('COMMIT');
    }
    made[name] = { arn, tables };
  }
  // The store's own commit rate: UpdateTableMetadataLocation through the provider, no HTTP.
  const arn = made['bench-small'].arn;
  let token = s3t.getTableMetadataLocation(ctx, { tableBucketARN: arn, namespace: 'ns', name: 't_000000' });
  const warehouse = token.warehouseLocation;
  token = token.versionToken;
  const n = 20_000;
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    token = s3t.updateTableMetadataLocation(ctx, {
      tableBucketARN: arn,
      namespace: 'ns',
      name: 't_000000',
      versionToken: token,
      metadataLocation: `${warehouse}/metadata/${String(i + 1).padStart(5, '0')}-x.metadata.json`,
    }).versionToken;
  }
  const inProcessCommits = n / (Number(process.hrtime.bigint() - started) / 1e9);
  await new Promise((resolve) => setImmediate(resolve)); // scheduled blob sweeps run before closing
  rt.blobs.close();
  rt.meta.close();
  return { made, inProcessCommits };
}

async function firstPageLatency(request, bucketArn, rounds = 300) {
  const path = `/tables/${encodeURIComponent(bucketArn)}?maxTables=${PAGE}`;
  for (let i = 0; i < 30; i++) expectOk(await request('GET', path), 'ListTables');
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = process.hrtime.bigint();
    const res = await request('GET', path);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (JSON.parse(res.body).tables.length !== PAGE) throw new Error('short page');
  }
  return median(times);
}

/**
 * Requests/s of `path` on Overcast and on the floor, in alternating rounds so that a noisy
 * neighbour slows both alike; medians of 5 rounds each.
 */
async function throughputBeside(ours, floor, path, total, floorPath = path) {
  const fn = (request, p) => () => request('GET', p);
  await load({ concurrency: CONCURRENCY, total: 1000, fn: fn(ours, path) });
  await load({ concurrency: CONCURRENCY, total: 1000, fn: fn(floor, floorPath) });
  const a = [];
  const b = [];
  for (let i = 0; i < 5; i++) {
    a.push(await load({ concurrency: CONCURRENCY, total, fn: fn(ours, path) }));
    b.push(await load({ concurrency: CONCURRENCY, total, fn: fn(floor, floorPath) }));
  }
  return [median(a), median(b)];
}

export async function run(report) {
  const dir = tempDir();
  const t0 = Date.now();
  const { made, inProcessCommits } = await populate(dir.path);
  console.error(`  (populated ${SMALL} + ${BIG.toLocaleString('en-US')} tables in-process in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const overcast = await startOvercast({ dataDir: dir.path });
  const request = client(overcast.endpoint);
  let floor;
  try {
    const small = made['bench-small'];
    const getPath = `/get-table?tableArn=${encodeURIComponent(small.tables[0])}`;
    const listPath = `/tables/${encodeURIComponent(small.arn)}?maxTables=10`;
    const onePath = `/namespaces/${encodeURIComponent(small.arn)}?maxTables=1`;
    const getBody = (await request('GET', getPath)).body;
    const listBody = (await request('GET', listPath)).body;
    const oneBody = (await request('GET', `/tables/${encodeURIComponent(small.arn)}?maxTables=1`)).body;
    // The floor answers by first path segment, so the one-item page is served under /namespaces.
    floor = await startJsonFloor({ 'get-table': getBody, tables: listBody, namespaces: oneBody });
    const floorRequest = client(floor.endpoint);

    const total = 10_000;
    const [get, getFloor] = await throughputBeside(request, floorRequest, getPath, total);
    report({ area: 's3tables', metric: 'GetTable, concurrency 32', value: get, floor: getFloor, unit: 'req/s', target: '≥ 50% of floor' });
    const [one, oneFloor] = await throughputBeside(request, floorRequest, `/tables/${encodeURIComponent(small.arn)}?maxTables=1`, total, onePath);
    report({ area: 's3tables', metric: 'ListTables (1 per page), concurrency 32', value: one, floor: oneFloor, unit: 'req/s', target: '≥ 50% of floor' });
    const [list, listFloor] = await throughputBeside(request, floorRequest, listPath, total);
    report({ area: 's3tables', metric: 'ListTables (10 per page), concurrency 32', value: list, floor: listFloor, unit: 'req/s', target: '≥ 50% of floor' });

    const latSmall = await firstPageLatency(request, small.arn);
    const latBig = await firstPageLatency(request, made['bench-big'].arn);
    report({ area: 's3tables', metric: `ListTables first page (${PAGE}) with ${SMALL} tables`, value: latSmall, unit: 'ms' });
    report({
      area: 's3tables',
      metric: `ListTables first page (${PAGE}) with ${BIG.toLocaleString('en-US')} tables`,
      value: latBig,
      unit: 'ms',
      floorNote: `ratio to ${SMALL} tables: ${(latBig / latSmall).toFixed(2)}`,
      target: 'ratio ≤ 1.2',
    });

    // CreateTable with a schema: warehouse bucket + metadata.json through S3 + the table row.
    const bucketArn = encodeURIComponent(small.arn);
    let n = 0;
    const creates = 2000;
    const createRate = await load({
      concurrency: 8,
      total: creates,
      fn: async () => {
        const name = `c_${n++}`;
        expectOk(await request('PUT', `/tables/${bucketArn}/ns`, { name, format: 'ICEBERG', metadata: SCHEMA }), 'CreateTable');
      },
    });
    report({ area: 's3tables', metric: 'CreateTable with schema, concurrency 8', value: createRate, unit: 'ops/s' });

    // UpdateTableMetadataLocation: each worker commits to its own table, chaining version tokens.
    const workers = small.tables.map((arn, i) => ({ name: `t_${String(i).padStart(6, '0')}`, arn }));
    for (const w of workers) {
      const loc = expectOk(await request('GET', `/tables/${bucketArn}/ns/${w.name}/metadata-location`), 'GetTableMetadataLocation');
      w.token = loc.versionToken;
      w.warehouse = loc.warehouseLocation;
      w.seq = 0;
    }
    const commitTotal = 20_000;
    let issued = 0;
    const startedCommits = process.hrtime.bigint();
    await Promise.all(
      workers.map(async (w) => {
        while (issued < commitTotal) {
          issued++;
          const out = expectOk(
            await request('PUT', `/tables/${bucketArn}/ns/${w.name}/metadata-location`, {
              versionToken: w.token,
              metadataLocation: `${w.warehouse}/metadata/${String(++w.seq).padStart(5, '0')}-bench.metadata.json`,
            }),
            'UpdateTableMetadataLocation',
          );
          w.token = out.versionToken;
        }
      }),
    );
    const commits = commitTotal / (Number(process.hrtime.bigint() - startedCommits) / 1e9);
    report({ area: 's3tables', metric: 'UpdateTableMetadataLocation over HTTP, concurrency 32', value: commits, unit: 'commits/s', target: '≥ 5,000/s' });
    report({ area: 's3tables', metric: 'UpdateTableMetadataLocation in-process (store commit rate)', value: inProcessCommits, unit: 'commits/s', target: '≥ 5,000/s' });
  } finally {
    if (floor) await stopChild(floor.child);
    await stopChild(overcast.child);
    dir.cleanup();
  }
}
