// CDK: `cdk deploy` of the end-to-end test's S3 Tables app (test/cdk/app, transpiled) with the real
// CLI against a spawned Overcast — the wall time, the CLI's own synthesis time (as it reports it)
// and Overcast's server time (request handling plus background work, from /_overcast/metrics)
// side by side, the same stack with an autoDeleteObjects bucket (a Lambda-backed custom resource)
// beside it in alternating rounds — and `deployStack` in-process (startOvercast) of CDK-synthesized templates with
// 1, 10 and 100 resources.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { median, ROOT, startOvercast as spawnOvercast, stopChild, tempDir } from './lib.js';

const ROUNDS = 3;
const IN_PROCESS_ROUNDS = 9;
const CDK_BIN = join(ROOT, 'node_modules', 'aws-cdk', 'bin', 'cdk');

function compileApp(dir) {
  const src = join(ROOT, 'test', 'cdk', 'app');
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(src).filter((f) => f.endsWith('.ts'))) {
    const out = ts.transpileModule(readFileSync(join(src, file), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(join(dir, file.replace(/\.ts$/, '.js')), out.outputText);
  }
  writeFileSync(join(dir, 'package.json'), '{"type":"module","private":true}');
  writeFileSync(join(dir, 'cdk.json'), JSON.stringify({ app: 'node app.js', notices: false }));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

function cdk(args, cwd, env) {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CDK_BIN, ...args, '--no-notices'], { cwd, env, timeout: 180_000, maxBuffer: 1 << 25 }, (err, stdout, stderr) => {
      const output = `${stdout}\n${stderr}`;
      if (err) reject(new Error(`cdk ${args.join(' ')} failed: ${output}`));
      else resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, output });
    });
  });
}

async function serverMs(endpoint) {
  const m = await (await fetch(`${endpoint}/_overcast/metrics`)).json();
  return m.requestMs + m.backgroundMs;
}

/** Runs `cdk …` and returns its wall time, its reported synthesis time and Overcast's share. */
async function measured(args, cwd, env, endpoint) {
  const before = await serverMs(endpoint);
  const { ms, output } = await cdk(args, cwd, env);
  const server = (await serverMs(endpoint)) - before;
  const synth = /Synthesis time: ([\d.]+)s/.exec(output);
  return { wall: ms, synth: synth ? Number(synth[1]) * 1000 : NaN, server };
}

async function cliRun(report) {
  const dir = tempDir('overcast-bench-cdk-');
  const { child, endpoint } = await spawnOvercast({ inMemory: true });
  try {
    const app = join(dir.path, 'app');
    const plain = join(dir.path, 'plain');
    mkdirSync(plain);
    compileApp(app);
    const env = {
      ...process.env,
      AWS_ENDPOINT_URL: endpoint,
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_REGION: 'us-east-1',
      AWS_DEFAULT_REGION: 'us-east-1',
      CDK_HOME: join(dir.path, 'cdk-home'),
      CDK_DISABLE_CLI_TELEMETRY: 'true',
      CDK_DISABLE_VERSION_CHECK: '1',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    };
    delete env.AWS_PROFILE;
    delete env.AWS_SESSION_TOKEN;
    const boot = await measured(['bootstrap', 'aws://000000000000/us-east-1'], plain, env, endpoint);
    const deploys = [];
    const destroys = [];
    const autoDeletes = [];
    const withAutoDelete = ['-c', 'autoDeleteBucket=true'];
    for (let r = 0; r < ROUNDS; r++) {
      deploys.push(await measured(['deploy', '--require-approval', 'never'], app, env, endpoint));
      destroys.push(await measured(['destroy', '--force'], app, env, endpoint));
      autoDeletes.push(await measured(['deploy', '--require-approval', 'never', ...withAutoDelete], app, env, endpoint));
      await measured(['destroy', '--force', ...withAutoDelete], app, env, endpoint);
    }
    const row = (label, runs, target = '≤ 5% of wall') => {
      const wall = median(runs.map((x) => x.wall));
      const server = median(runs.map((x) => x.server));
      report({ area: 'cdk', metric: `${label}: wall time`, value: wall, unit: 'ms' });
      const synths = runs.map((x) => x.synth).filter((x) => !Number.isNaN(x));
      if (synths.length) report({ area: 'cdk', metric: `${label}: CLI synthesis (its own report)`, value: median(synths), unit: 'ms' });
      report({
        area: 'cdk',
        metric: `${label}: Overcast server time (${((server / wall) * 100).toFixed(1)}% of wall)`,
        value: server,
        unit: 'ms',
        ...(target ? { target } : {}),
      });
    };
    // The first CloudFormation request of a fresh server loads the engine (lazily, by design).
    row('cdk bootstrap (first request of a fresh server, no app)', [boot], '');
    row('cdk deploy, new S3 Tables stack', deploys);
    row('cdk destroy', destroys);
    row('cdk deploy, the same stack with an autoDeleteObjects bucket', autoDeletes, '');
    const ratio = median(autoDeletes.map((x) => x.wall)) / median(deploys.map((x) => x.wall));
    report({ area: 'cdk', metric: 'cdk deploy with an autoDeleteObjects bucket / without (wall)', value: ratio, unit: '×', target: '≤ 1.5×' });
  } finally {
    await stopChild(child);
    dir.cleanup();
  }
}

/** A CDK stack of `n` resources (bucket, namespace, tables with a schema), synthesized. */
function synthesize(cdkLib, s3tables, Template, n, tag) {
  const stack = new cdkLib.Stack(new cdkLib.App(), `Bench${tag}`);
  const bucket = new s3tables.CfnTableBucket(stack, 'Bucket', { tableBucketName: `bench-${tag}` });
  if (n >= 2) {
    const ns = new s3tables.CfnNamespace(stack, 'Ns', { namespace: 'bench', tableBucketArn: bucket.attrTableBucketArn });
    for (let i = 0; i < n - 2; i++) {
      const table = new s3tables.CfnTable(stack, `Table${i}`, {
        tableBucketArn: bucket.attrTableBucketArn,
        namespace: 'bench',
        tableName: `t${i}`,
        openTableFormat: 'ICEBERG',
        icebergMetadata: { icebergSchema: { schemaFieldList: [{ name: 'id', type: 'long', required: true }, { name: 'v', type: 'string' }] } },
      });
      table.addResourceDependency(ns);
    }
  }
  const template = Template.fromStack(stack).toJSON();
  // CDKMetadata is one more resource; the count is of the app's own resources.
  delete template.Resources.CDKMetadata;
  delete template.Conditions;
  return template;
}

async function inProcessRun(report) {
  const [{ startOvercast }, cdkLib, s3tables, { Template }] = await Promise.all([
    import('../dist/index.js'),
    import('aws-cdk-lib'),
    import('aws-cdk-lib/aws-s3tables'),
    import('aws-cdk-lib/assertions'),
  ]);
  let started = process.hrtime.bigint();
  const overcast = await startOvercast();
  report({ area: 'cdk', metric: 'startOvercast() (in memory, engine warmed)', value: Number(process.hrtime.bigint() - started) / 1e6, unit: 'ms' });
  try {
    // The first deploy of a process runs the engine's code cold (the JIT has not seen it yet), as in
    // a test file's first test; a few more warm it up before the steady-state rounds.
    const warmups = Array.from({ length: 6 }, (_, r) => synthesize(cdkLib, s3tables, Template, 10, `warm${r}`));
    started = process.hrtime.bigint();
    await overcast.deployStack({ stackName: 'Bench-first', template: warmups[0] });
    const first = Number(process.hrtime.bigint() - started) / 1e6;
    report({ area: 'cdk', metric: 'first deployStack after startOvercast(), right after synthesizing, 10 resources', value: first, unit: 'ms' });
    for (const [r, template] of warmups.slice(1).entries()) await overcast.deployStack({ stackName: `Bench-warm${r}`, template });
    await overcast.reset();
    for (const n of [1, 10, 100]) {
      // Synthesized up front, so aws-cdk-lib's work (and its garbage) stays out of the timings.
      const stacks = Array.from({ length: IN_PROCESS_ROUNDS }, (_, r) => [`n${n}r${r}`, synthesize(cdkLib, s3tables, Template, n, `n${n}r${r}`)]);
      const times = [];
      for (const [tag, template] of stacks) {
        started = process.hrtime.bigint();
        const result = await overcast.deployStack({ stackName: `Bench-${tag}`, template });
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
        if (result.resources.length !== n) throw new Error(`expected ${n} resources, got ${result.resources.length}`);
      }
      await overcast.reset();
      report({
        area: 'cdk',
        metric: `deployStack in-process, synthesized stack of ${n} resource${n === 1 ? '' : 's'} → CREATE_COMPLETE`,
        value: median(times),
        unit: 'ms',
      });
    }
  } finally {
    await overcast.stop();
  }
}

export async function run(report) {
  await inProcessRun(report);
  await cliRun(report);
}
