// Table maintenance: a table of 1,000 small data files in 100 snapshots (100 appends of ten
// partitions, written in-process with the project's Iceberg writer before the server starts);
// the clock advanced past the snapshot age and one maintenance run — compaction (1,000 files into
// 10), snapshot expiry (100 snapshots) and unreferenced file removal — timed, with the server's
// peak RSS, while GetTable of another table runs at concurrency 4 beside it (p99 against the same
// load with nothing running); then, 11 days later, the run that deletes the noncurrent files.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expectOk, jsonClient, median, ROOT, rssMiB, startOvercast, stopChild, tempDir } from './lib.js';

const ACCOUNT = '000000000000';
const REGION = 'us-east-1';
const SNAPSHOTS = 100;
const PARTITIONS = 10;
const ROWS_PER_FILE = 20;
const PROBE_CONCURRENCY = 4;

const dist = (path) => import(pathToFileURL(join(ROOT, 'dist', path)).href);

/** The big table (1,000 files, 100 snapshots) and a small one to probe, made in-process. */
async function populate(dataDir) {
  const { createRuntime } = await dist('server/server.js');
  const { configFromEnv } = await dist('config.js');
  const { internalCtx } = await dist('runtime/runtime.js');
  const s3t = await dist('services/s3tables/provider.js');
  const { commitTableMetadata, currentMetadata } = await dist('services/s3tables/table-metadata.js');
  const { storeFileIO } = await dist('services/s3tables/maintenance/store-io.js');
  const { appendRows } = await dist('iceberg/append.js');
  const { MetadataBuilder } = await dist('iceberg/metadata-builder.js');
  const { repo } = await dist('services/s3tables/lookup.js');
  const rt = createRuntime({ ...configFromEnv({}), dataDir, logLevel: 'error' });
  const ctx = internalCtx(rt, ACCOUNT, REGION, 'bench');
  const { arn } = s3t.createTableBucket(ctx, { name: 'bench-maintenance' });
  s3t.createNamespace(ctx, { tableBucketARN: arn, namespace: ['ns'] });
  const schema = {
    fields: [
      { name: 'id', type: 'long', required: true },
      { name: 'category', type: 'string' },
      { name: 'amount', type: 'double' },
      { name: 'note', type: 'string' },
    ],
  };
  const big = await s3t.createTable(ctx, {
    tableBucketARN: arn,
    namespace: 'ns',
    name: 'big',
    format: 'ICEBERG',
    metadata: { iceberg: { schema, partitionSpec: { fields: [{ sourceId: 2, transform: 'identity', name: 'category' }] } } },
  });
  const probe = await s3t.createTable(ctx, { tableBucketARN: arn, namespace: 'ns', name: 'probe', format: 'ICEBERG', metadata: { iceberg: { schema } } });
  const io = storeFileIO(ctx);
  const id = big.tableARN.split('/table/')[1];
  let n = 0;
  for (let s = 0; s < SNAPSHOTS; s++) {
    const rows = [];
    for (let p = 0; p < PARTITIONS; p++) {
      for (let r = 0; r < ROWS_PER_FILE; r++, n++) rows.push({ id: BigInt(n), category: `c${p}`, amount: n * 0.5, note: `row ${n}` });
    }
    const row = repo(ctx).getTable(id);
    const metadata = await currentMetadata(ctx, row);
    const { snapshot } = await appendRows(io, metadata, rows);
    const builder = new MetadataBuilder(metadata, Date.now(), row.metadata_location);
    builder.apply({ action: 'add-snapshot', snapshot });
    builder.apply({ action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': snapshot['snapshot-id'] });
    await commitTableMetadata(ctx, row, builder.build());
  }
  await new Promise((resolve) => setImmediate(resolve));
  rt.blobs.close();
  rt.meta.close();
  return { big: big.tableARN, probe: probe.tableARN, rows: n };
}

function p99(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.99))];
}

/** GetTable of the probe table at a fixed concurrency until `until()` is true (or `count` requests). */
async function probeLoad(call, probeArn, { count, until }) {
  const latencies = [];
  let issued = 0;
  const path = `/get-table?tableArn=${encodeURIComponent(probeArn)}`;
  const worker = async () => {
    while (count !== undefined ? issued < count : !until()) {
      issued++;
      const started = process.hrtime.bigint();
      expectOk(await call('GET', path), 'GetTable');
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: PROBE_CONCURRENCY }, worker));
  return latencies;
}

async function post(endpoint, path, body) {
  const res = await fetch(`${endpoint}/_overcast/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

export async function run(report) {
  const dir = tempDir();
  try {
    const populated = await populate(dir.path);
    const { child, endpoint } = await startOvercast({ dataDir: dir.path, extraArgs: ['--maintenance-interval', 'off'] });
    try {
      const call = jsonClient(endpoint, { service: 's3tables', region: REGION, maxSockets: PROBE_CONCURRENCY });
      await probeLoad(call, populated.probe, { count: 500 });
      const idle = await probeLoad(call, populated.probe, { count: 3000 });

      await post(endpoint, 'clock', { advance: '121h' });
      let peak = rssMiB(child.pid);
      const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(child.pid))), 10);
      let done = false;
      const started = process.hrtime.bigint();
      const running = post(endpoint, 'maintenance/run', { tableArn: populated.big }).finally(() => (done = true));
      const during = await probeLoad(call, populated.probe, { until: () => done });
      const result = await running;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      clearInterval(sampler);
      const jobs = result.tables[0].jobs;
      if (jobs.icebergCompaction.rewrittenFiles !== SNAPSHOTS * PARTITIONS || jobs.icebergSnapshotManagement.expiredSnapshots !== SNAPSHOTS) {
        throw new Error(`unexpected maintenance result: ${JSON.stringify(jobs)}`);
      }
      report({ area: 'maintenance', metric: `run: compaction of ${SNAPSHOTS * PARTITIONS} files + expiry of ${SNAPSHOTS} snapshots + removal`, value: ms, unit: 'ms' });
      for (const [name, job] of Object.entries(jobs)) report({ area: 'maintenance', metric: `  ${name}`, value: job.durationMs, unit: 'ms' });
      report({ area: 'maintenance', metric: 'server peak RSS during the run', value: peak, unit: 'MiB' });
      report({ area: 'maintenance', metric: `GetTable p99, another table, concurrency ${PROBE_CONCURRENCY}, during the run (${during.length} requests)`, value: p99(during), unit: 'ms', floor: p99(idle), floorNote: 'idle' });
      report({ area: 'maintenance', metric: 'GetTable median during the run', value: median(during), unit: 'ms', floor: median(idle) });

      await post(endpoint, 'clock', { advance: '11d' });
      const second = process.hrtime.bigint();
      const removal = await post(endpoint, 'maintenance/run', { tableArn: populated.big });
      const deleted = removal.tables[0].jobs.icebergUnreferencedFileRemoval.deletedFiles;
      report({ area: 'maintenance', metric: `run 11 days later: ${deleted} noncurrent files deleted`, value: Number(process.hrtime.bigint() - second) / 1e6, unit: 'ms' });
    } finally {
      await stopChild(child);
    }
  } finally {
    dir.cleanup();
  }
}
