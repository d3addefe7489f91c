/**
 * Shared pieces of the CDK end-to-end tests: the test app (`app/*.ts`) compiled with the installed
 * TypeScript into a temporary directory that resolves aws-cdk-lib from this repository, the real
 * `cdk` CLI run as a child process against a test server (notices, telemetry and the version
 * check off; its own CDK_HOME so the account cache never leaks between runs), and reads of what a
 * deploy left behind: table buckets, warehouse buckets, the Iceberg metadata.json, live stacks.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetTableMetadataLocationCommand, ListTableBucketsCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import ts from 'typescript';
import { warehouseBuckets as storedWarehouseBuckets, type TestServer } from '../helpers/server.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..');
export const CDK_BIN = join(repoRoot, 'node_modules', 'aws-cdk', 'bin', 'cdk');

/** Transpiles `test/cdk/<source>/*.ts` to ES modules in `dir` (with a node_modules link and cdk.json). */
export function compileApp(dir: string, source = 'app'): void {
  const src = join(here, source);
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(src).filter((f) => f.endsWith('.ts'))) {
    const out = ts.transpileModule(readFileSync(join(src, file), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
      fileName: file,
    });
    writeFileSync(join(dir, file.replace(/\.ts$/, '.js')), out.outputText);
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(join(dir, 'cdk.json'), JSON.stringify({ app: 'node app.js', notices: false }));
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

export interface CdkResult {
  code: number;
  /** stdout and stderr together, colour codes removed (the CDK prints most of its output to stderr). */
  output: string;
  stdout: string;
  ms: number;
}

/** The environment of a `cdk` child process pointed at `endpoint`. */
export function cdkEnv(t: TestServer, endpoint: string, cdkHome: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...t.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith('CDK_') || key.startsWith('AWS_ENDPOINT_URL')) delete env[key];
  }
  return {
    ...env,
    AWS_ENDPOINT_URL: endpoint,
    CDK_HOME: cdkHome,
    CDK_DISABLE_CLI_TELEMETRY: 'true',
    CDK_DISABLE_VERSION_CHECK: '1',
    // aws-cdk-lib's built-in template validation costs some 8 s of CPU per synthesis; these tests
    // check Overcast, not the CDK's linter.
    CDK_VALIDATION: 'false',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
}

/** Runs `cdk <args> --no-notices`; never throws for a non-zero exit. */
export function cdk(args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<CdkResult> {
  const started = Date.now();
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CDK_BIN, ...args, '--no-notices'],
      { cwd: opts.cwd, env: opts.env, timeout: opts.timeoutMs ?? 120_000, maxBuffer: 32 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        // eslint-disable-next-line no-control-regex
        const output = `${stdout}\n${stderr}`.replace(/\u001b\[[0-9;]*m/g, '');
        done({ code, output, stdout, ms: Date.now() - started });
      },
    );
  });
}

/** `Stack.Key = value` lines the CLI prints under "Outputs:". */
export function printedOutputs(output: string, stack: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of output.matchAll(new RegExp(`^${stack}\\.(\\w+) = (.*)$`, 'gm'))) out[m[1]!] = m[2]!.trim();
  return out;
}

export interface Clients {
  s3t: S3TablesClient;
  s3: S3Client;
  cfn: CloudFormationClient;
  server: TestServer;
}

export function clients(t: TestServer): Clients {
  const config = { ...t.clientConfig, maxAttempts: 1 };
  return { s3t: new S3TablesClient(config), s3: new S3Client(config), cfn: new CloudFormationClient(config), server: t };
}

/** The current metadata.json of a table, read from its warehouse over the S3 API. */
export async function readMetadata(c: Clients, tableBucketARN: string, namespace: string, name: string): Promise<Record<string, any>> {
  const loc = await c.s3t.send(new GetTableMetadataLocationCommand({ tableBucketARN, namespace, name }));
  const m = /^s3:\/\/([^/]+)\/(.+)$/.exec(loc.metadataLocation ?? '');
  if (!m) throw new Error(`unexpected metadata location ${loc.metadataLocation}`);
  const got = await c.s3.send(new GetObjectCommand({ Bucket: m[1], Key: m[2] }));
  return JSON.parse(await got.Body!.transformToString()) as Record<string, any>;
}

/** The fields (name → type) of a metadata.json's current schema. */
export function currentFields(meta: Record<string, any>): Record<string, string> {
  const schema = (meta.schemas as any[]).find((s) => s['schema-id'] === meta['current-schema-id']);
  return Object.fromEntries((schema.fields as any[]).map((f) => [f.name, f.type]));
}

export async function tableBucketNames(c: Clients): Promise<string[]> {
  return ((await c.s3t.send(new ListTableBucketsCommand({}))).tableBuckets ?? []).map((b) => b.name!);
}

export async function warehouseBuckets(c: Clients): Promise<string[]> {
  return storedWarehouseBuckets(c.server);
}

/** Polls `read` until it returns `want` (a warehouse purge finishes after the delete), at most ~5 s. */
export async function eventually<T>(read: () => Promise<T>, want: (v: T) => boolean): Promise<T> {
  let v = await read();
  for (let i = 0; i < 100 && !want(v); i++) {
    await new Promise((r) => setTimeout(r, 50));
    v = await read();
  }
  return v;
}

/** Live stacks by name → status. */
export async function liveStacks(c: Clients): Promise<Record<string, string>> {
  const out = await c.cfn.send(new DescribeStacksCommand({}));
  return Object.fromEntries((out.Stacks ?? []).map((s) => [s.StackName!, s.StackStatus!]));
}
