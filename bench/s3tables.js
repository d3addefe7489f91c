// S3 Tables: GetTable and ListTables requests/s at concurrency 32 beside a bare-fastify floor
// serving the same bodies, in paired rounds (load-generator.js); CreateTable-with-schema ops/s;
// ListTables first-page latency with 100 and with 100,000 tables in a bucket (the 100,000 are
// created in-process through the provider before the server starts), and per page of one walk
// through the big bucket before anything listed it (nothing cached); UpdateTableMetadataLocation
// commits/s on one connection (each request carrying the token the last answer gave) beside the
// floor answering the same bytes, at concurrency 32, and in-process (the store's own rate).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expectOk, jsonClient, load, median, ROOT, signedHeaders, startJsonFloor, startOvercast, stopChild, tempDir } from './lib.js';
import { measureRate, paired, pairedRow } from './load-generator.js';

const CONCURRENCY = 32;
// OVERCAST_BENCH_BIG_TABLES shrinks the big bucket for a quick run while working on the server.
const BIG = Number(process.env.OVERCAST_BENCH_BIG_TABLES ?? 100_000);
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

/** The median time per page of one walk through a bucket's tables, page after page. */
async function walkPages(request, bucketArn) {
  const times = [];
  let token;
  do {
    const query = `maxTables=${PAGE}${token ? `&continuationToken=${encodeURIComponent(token)}` : ''}`;
    const t0 = process.hrtime.bigint();
    const page = expectOk(await request('GET', `/tables/${encodeURIComponent(bucketArn)}?${query}`), 'ListTables');
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    token = page.continuationToken;
  } while (token);
  return median(times);
}

/** Requests/s of GET `path` on Overcast and of `floorPath` on the floor, in paired rounds. */
function throughputBeside(ours, floor, path, floorPath = path) {
  const get = (target, p) => () =>
    measureRate(target.endpoint, p, {
      pid: target.pid,
      method: 'GET',
      headers: signedHeaders('s3tables', REGION),
      connections: CONCURRENCY,
      nodeFn: () => load({ concurrency: CONCURRENCY, total: 10_000, fn: () => target.request('GET', p) }),
    });
  return paired(get(ours, path), get(floor, floorPath));
}

/**
 * Commits/s on one connection: UpdateTableMetadataLocation back to back, each carrying the
 * version token of the previous answer (fetched fresh before each round).
 */
function commitsOnOneConnection(ours, bucketArn, name, seqBase) {
  const path = `/tables/${bucketArn}/ns/${name}/metadata-location`;
  let round = 0;
  return async () => {
    const loc = expectOk(await ours.request('GET', path), 'GetTableMetadataLocation');
    const base = seqBase + 100_000 * ++round;
    return measureRate(ours.endpoint, path, {
      pid: ours.pid,
      method: 'PUT',
      headers: { ...signedHeaders('s3tables', REGION), 'content-type': 'application/json' },
      connections: 1,
      prelude: `token = ${JSON.stringify(loc.versionToken)}\nseq = ${base}\nwarehouse = ${JSON.stringify(loc.warehouseLocation)}`,
      bodyExpr: `(function() seq = seq + 1 return string.format('{"versionToken":"%s","metadataLocation":"%s/metadata/%07d-bench.metadata.json"}', token, warehouse, seq) end)()`,
      chain: `local t = body:match('"versionToken":"([^"]+)"') if t then token = t end`,
      nodeFn: async () => {
        let token = loc.versionToken;
        const n = 2000;
        const started = process.hrtime.bigint();
        for (let i = 0; i < n; i++) {
          const out = expectOk(
            await ours.request('PUT', path, {
              versionToken: token,
              metadataLocation: `${loc.warehouseLocation}/metadata/${String(base + i).padStart(7, '0')}-bench.metadata.json`,
            }),
            'UpdateTableMetadataLocation',
          );
          token = out.versionToken;
        }
        return n / (Number(process.hrtime.bigint() - started) / 1e9);
      },
    });
  };
}

/** The floor's side of the one-connection commit: a PUT of the same size answered with the same bytes. */
function floorCommits(floor, body) {
  return () =>
    measureRate(floor.endpoint, '/commit', {
      pid: floor.pid,
      method: 'PUT',
      headers: { ...signedHeaders('s3tables', REGION), 'content-type': 'application/json' },
      connections: 1,
      body,
      nodeFn: () => load({ concurrency: 1, total: 2000, fn: () => floor.request('PUT', '/commit', JSON.parse(body)) }),
    });
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
    const bucketPath = `/buckets/${encodeURIComponent(small.arn)}`;
    const bucketBody = (await request('GET', bucketPath)).body;
    const listBody = (await request('GET', listPath)).body;
    const oneBody = (await request('GET', `/tables/${encodeURIComponent(small.arn)}?maxTables=1`)).body;
    const commitBody = JSON.stringify({ versionToken: 'x'.repeat(20), metadataLocation: `s3://${'x'.repeat(63)}--table-s3/metadata/0000001-bench.metadata.json` });
    const commitAnswer = JSON.stringify({ versionToken: 'x'.repeat(20), metadataLocation: JSON.parse(commitBody).metadataLocation, name: 't_000031', tableARN: small.tables[31] ?? '', namespace: ['ns'] });
    // The floor answers by first path segment, so the one-item page is served under /namespaces.
    floor = await startJsonFloor({ buckets: bucketBody, 'get-table': getBody, tables: listBody, namespaces: oneBody, commit: commitAnswer });
    const ours = { endpoint: overcast.endpoint, request, pid: overcast.child.pid };
    const bare = { endpoint: floor.endpoint, request: client(floor.endpoint), pid: floor.child.pid };

    const bucket = await throughputBeside(ours, bare, bucketPath);
    report({ area: 's3tables', metric: 'GetTableBucket, concurrency 32', ...pairedRow(bucket), unit: 'req/s', target: '≥ 0.5× floor' });
    const get = await throughputBeside(ours, bare, getPath);
    report({ area: 's3tables', metric: 'GetTable, concurrency 32', ...pairedRow(get), unit: 'req/s', target: '≥ 0.5× floor' });
    const one = await throughputBeside(ours, bare, `/tables/${encodeURIComponent(small.arn)}?maxTables=1`, onePath);
    report({ area: 's3tables', metric: 'ListTables (1 per page), concurrency 32', ...pairedRow(one), unit: 'req/s', target: '≥ 0.5× floor' });
    const list = await throughputBeside(ours, bare, listPath);
    report({ area: 's3tables', metric: 'ListTables (10 per page), concurrency 32', ...pairedRow(list), unit: 'req/s', target: '≥ 0.35× floor' });
    // The last of the 32 worker tables, which the concurrency-32 commits below leave alone.
    const commitOne = await paired(commitsOnOneConnection(ours, encodeURIComponent(small.arn), 't_000031', 0), floorCommits(bare, commitBody));
    report({ area: 's3tables', metric: 'UpdateTableMetadataLocation, one connection', ...pairedRow(commitOne), unit: 'commits/s', target: '≥ 5,000/s' });

    // Every page of the big bucket once, before anything listed it: no cached rows or page ids.
    const walk = await walkPages(request, made['bench-big'].arn);
    report({
      area: 's3tables',
      metric: `ListTables, every page (${PAGE}) of ${BIG.toLocaleString('en-US')} tables once, none listed before (per page)`,
      value: walk,
      unit: 'ms',
    });
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
    const workers = small.tables.slice(0, CONCURRENCY - 1).map((arn, i) => ({ name: `t_${String(i).padStart(6, '0')}`, arn }));
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
