// The dashboard at scale: 1,000 stacks and 100,000 tables (10 table buckets × 10 namespaces ×
// 1,000 tables, made in-process before the server starts), then the dashboard's API pages as the
// page asks for them — the stacks list, its 10th page, the table buckets, a bucket's first and
// 100th page of tables, a name-prefix search, a namespace's tables — as medians, and, when
// Chromium is installed, the page itself in headless Chromium: from navigation to the list drawn.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, ROOT, startOvercast, stopChild, tempDir } from './lib.js';

const ACCOUNT = '000000000000';
const REGION = 'us-east-1';
const STACKS = 1_000;
const BUCKETS = 10;
const NAMESPACES = 10;
const TABLES_PER_NAMESPACE = 1_000;
const REPEAT = 15;
const CHROMIUM = process.env.OVERCAST_CHROMIUM ?? '/usr/bin/chromium';

const dist = (path) => import(pathToFileURL(join(ROOT, 'dist', path)).href);

async function populate(dataDir) {
  const { createRuntime } = await dist('server/server.js');
  const { configFromEnv } = await dist('config.js');
  const { internalCtx } = await dist('runtime/runtime.js');
  const s3t = await dist('services/s3tables/provider.js');
  const cfn = await dist('services/cloudformation/provider.js');
  const rt = createRuntime({ ...configFromEnv({}), dataDir, logLevel: 'error' });
  const ctx = internalCtx(rt, ACCOUNT, REGION, 'bench');
  const template = JSON.stringify({ Resources: { P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'v' } } } });
  for (let i = 0; i < STACKS; i++) await cfn.createStack(ctx, { StackName: `stack-${String(i).padStart(4, '0')}`, TemplateBody: template });
  await rt.background.drain();
  const buckets = [];
  for (let b = 0; b < BUCKETS; b++) {
    const { arn } = s3t.createTableBucket(ctx, { name: `bucket-${b}` });
    buckets.push(arn);
    for (let n = 0; n < NAMESPACES; n++) {
      s3t.createNamespace(ctx, { tableBucketARN: arn, namespace: [`ns_${n}`] });
      for (let t = 0; t < TABLES_PER_NAMESPACE; t++) {
        await s3t.createTable(ctx, { tableBucketARN: arn, namespace: `ns_${n}`, name: `t_${String(t).padStart(4, '0')}`, format: 'ICEBERG' });
      }
      // A turn of the event loop ends here: the CloudFormation engine's turn transaction, if one
      // is open, commits (closing the store inside it would roll the tables back).
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await rt.background.drain();
  await new Promise((resolve) => setImmediate(resolve));
  rt.blobs.close();
  rt.meta.close();
  return buckets;
}

async function timed(fn) {
  const times = [];
  for (let i = 0; i < REPEAT; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

async function getJson(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

export async function run(report) {
  const dir = tempDir();
  try {
    const started = Date.now();
    const buckets = await populate(dir.path);
    console.error(`  (populated ${STACKS} stacks and ${BUCKETS * NAMESPACES * TABLES_PER_NAMESPACE} tables in ${Math.round((Date.now() - started) / 1000)} s)`);
    const { child, endpoint } = await startOvercast({ dataDir: dir.path, extraArgs: ['--maintenance-interval', 'off'] });
    try {
      const api = (path) => `${endpoint}/_overcast/ui/api/${path}`;
      const bucket = encodeURIComponent(buckets[0]);
      report({ area: 'dashboard', metric: `stacks list, first page (of ${STACKS} stacks)`, value: await timed(() => getJson(api('stacks'))), unit: 'ms' });
      let token;
      for (let i = 0; i < 9; i++) token = (await getJson(api(`stacks${token ? `?next=${encodeURIComponent(token)}` : ''}`))).next;
      report({ area: 'dashboard', metric: 'stacks list, 10th page', value: await timed(() => getJson(api(`stacks?next=${encodeURIComponent(token)}`))), unit: 'ms' });
      report({ area: 'dashboard', metric: 'a stack with its last event', value: await timed(() => getJson(api('stacks/stack-0500'))), unit: 'ms' });
      report({ area: 'dashboard', metric: 'table buckets', value: await timed(() => getJson(api('table-buckets'))), unit: 'ms' });
      report({ area: 'dashboard', metric: `a bucket's tables, first page (of ${NAMESPACES * TABLES_PER_NAMESPACE})`, value: await timed(() => getJson(api(`table-buckets/${bucket}/tables`))), unit: 'ms' });
      token = undefined;
      for (let i = 0; i < 99; i++) token = (await getJson(api(`table-buckets/${bucket}/tables${token ? `?next=${encodeURIComponent(token)}` : ''}`))).next;
      report({ area: 'dashboard', metric: `a bucket's tables, 100th page`, value: await timed(() => getJson(api(`table-buckets/${bucket}/tables?next=${encodeURIComponent(token)}`))), unit: 'ms' });
      report({ area: 'dashboard', metric: 'tables by name prefix (t_09)', value: await timed(() => getJson(api(`table-buckets/${bucket}/tables?prefix=t_09`))), unit: 'ms' });
      report({ area: 'dashboard', metric: "a namespace's tables, first page", value: await timed(() => getJson(api(`table-buckets/${bucket}/tables?namespace=ns_5`))), unit: 'ms' });
      const table = (await getJson(api(`table-buckets/${bucket}/tables?namespace=ns_5`))).items[0].tableARN;
      report({ area: 'dashboard', metric: 'a table page (metadata, configurations)', value: await timed(() => getJson(api(`tables/${encodeURIComponent(table)}`))), unit: 'ms' });
      if (existsSync(CHROMIUM)) await browserLoads(report, endpoint, buckets[0]);
      else console.error(`  (Chromium not found at ${CHROMIUM}: page loads not measured)`);
    } finally {
      await stopChild(child);
    }
  } finally {
    dir.cleanup();
  }
}

async function browserLoads(report, endpoint, bucketArn) {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'overcast-bench-chromium-'));
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const load = async (hash, rows) => {
      const times = [];
      for (let i = 0; i < 5; i++) {
        await page.goto('about:blank');
        const start = process.hrtime.bigint();
        await page.goto(`${endpoint}/_overcast/ui/${hash}`);
        await page.waitForFunction((n) => document.querySelectorAll('main table.grid tbody tr').length >= n, rows);
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      return median(times);
    };
    report({ area: 'dashboard', metric: `page load in Chromium: stacks (${STACKS}), first 100 drawn`, value: await load('#/stacks', 100), unit: 'ms' });
    report({ area: 'dashboard', metric: `page load in Chromium: a table bucket of ${NAMESPACES * TABLES_PER_NAMESPACE} tables`, value: await load(`#/tables/${encodeURIComponent(bucketArn)}`, 100), unit: 'ms' });
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
