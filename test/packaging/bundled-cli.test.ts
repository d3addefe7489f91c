/**
 * The command line runs from the bundle in dist/bundle/ (scripts/build-bundle.mjs), not from tsc's
 * dist/cli/: every import between its chunks names a chunk that exists, start-up loads neither of
 * the two chunks grouped for stack operations (only a stack operation does), its chunks are ASCII
 * and the engine's does not bring the SSM provider with it, its package root is the
 * repository and its module root is dist/, where the files loaded by path at run time are (the
 * compaction worker, the Lambda bootstrap, the unpacking worker's module), and a server started
 * with `overcast start --data-dir` deploys a stack of S3 Tables resources (the models and the
 * resource-type index read from the package) with a custom resource backed by an inline Node.js
 * Lambda function (the bootstrap found by path), then serves the dashboard's page from dist/web/.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CloudFormationClient, CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetTableCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, startCliServer, type CliServer } from '../helpers/cli-server.js';
import { tempDir } from '../helpers/server.js';

const REPO = join(import.meta.dirname, '..', '..');
const BUNDLE = join(REPO, 'dist', 'bundle');

const HANDLER = `
const response = require('cfn-response');
exports.handler = async (event, context) => {
  await new Promise((done) => { context.done = done; response.send(event, context, response.SUCCESS, { Echo: event.ResourceProperties.Value }, 'thing'); });
};`;

const TEMPLATE = JSON.stringify({
  Resources: {
    Bucket: { Type: 'AWS::S3Tables::TableBucket', Properties: { TableBucketName: 'bundled' } },
    Ns: { Type: 'AWS::S3Tables::Namespace', Properties: { TableBucketARN: { 'Fn::GetAtt': ['Bucket', 'TableBucketARN'] }, Namespace: 'ns' } },
    Table: {
      Type: 'AWS::S3Tables::Table',
      DependsOn: 'Ns',
      Properties: {
        TableBucketARN: { Ref: 'Bucket' },
        Namespace: 'ns',
        TableName: 't',
        OpenTableFormat: 'ICEBERG',
        IcebergMetadata: { IcebergSchema: { SchemaFieldList: [{ Name: 'id', Type: 'long', Required: true }] } },
      },
    },
    Fn: {
      Type: 'AWS::Lambda::Function',
      Properties: { Runtime: 'nodejs20.x', Handler: 'index.handler', Role: 'arn:aws:iam::000000000000:role/r', Timeout: 30, Code: { ZipFile: HANDLER } },
    },
    Thing: { Type: 'Custom::Thing', Properties: { ServiceToken: { 'Fn::GetAtt': ['Fn', 'Arn'] }, Value: 'hello' } },
  },
  Outputs: { Echo: { Value: { 'Fn::GetAtt': ['Thing', 'Echo'] } }, Bucket: { Value: { Ref: 'Bucket' } } },
});

let server: CliServer;
let endpoint: string;
let tmp: { path: string; cleanup: () => void };

beforeAll(async () => {
  tmp = tempDir('overcast-bundle-');
  server = await startCliServer(['--port', '0', '--data-dir', tmp.path, '--log-level', 'error']);
  endpoint = server.endpoint;
});

afterAll(async () => {
  await server?.stop();
  tmp?.cleanup();
});

describe('the bundled command line', () => {
  it('is what bin/overcast.js runs, and every import between its chunks names a chunk that exists', () => {
    expect(readFileSync(BIN, 'utf8')).toContain('../dist/bundle/main.js');
    const chunks = readdirSync(BUNDLE).filter((f) => f.endsWith('.js'));
    expect(chunks).toContain('main.js');
    const missing: string[] = [];
    for (const chunk of chunks) {
      const text = readFileSync(join(BUNDLE, chunk), 'utf8');
      for (const m of text.matchAll(/(?:from|import\(?)\s*["'`](\.[^"'`]+)["'`]/g)) {
        if (!existsSync(join(BUNDLE, m[1]!))) missing.push(`${chunk} → ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("leaves the stack operations' groups out of start-up", () => {
    const chunks = readdirSync(BUNDLE).filter((f) => f.endsWith('.js'));
    const imports = (chunk: string, pattern: RegExp) =>
      [...readFileSync(join(BUNDLE, chunk), 'utf8').matchAll(pattern)].map((m) => m[1]!.slice(2));
    // What a start-up loads: main.js and the start command, every service's on-start hook and the
    // maintenance scheduler (loaded dynamically), with everything they import statically.
    const roots = ['main.js', ...chunks.filter((c) => /^(start|on-start|scheduler)-/.test(c))];
    const loaded = new Set<string>();
    for (const todo = [...roots]; todo.length > 0; ) {
      const chunk = todo.pop()!;
      if (loaded.has(chunk)) continue;
      loaded.add(chunk);
      todo.push(...imports(chunk, /(?:from|import)\s*"(\.\/[^"]+)"/g));
    }
    expect(chunks.filter((c) => /^(cloudformation-engine|table-storage)-/.test(c))).toHaveLength(2);
    expect([...loaded].filter((c) => /^(cloudformation-engine|table-storage)-/.test(c))).toEqual([]);
  });

  it('is ASCII, and the engine chunk does not load the SSM provider with it', () => {
    const chunks = readdirSync(BUNDLE).filter((f) => f.endsWith('.js'));
    // V8 holds a source with one character outside Latin-1 at two bytes a character.
    expect(chunks.filter((c) => /[^\x00-\x7f]/.test(readFileSync(join(BUNDLE, c), 'latin1')))).toEqual([]);
    const text = (c: string) => readFileSync(join(BUNDLE, c), 'utf8');
    const ssm = chunks.find((c) => /function getParameter\(/.test(text(c)));
    expect(ssm, 'the chunk holding the SSM provider').toBeDefined();
    const engine = chunks.find((c) => c.startsWith('cloudformation-engine-'))!;
    const loaded = new Set<string>();
    for (const todo = [engine]; todo.length > 0; ) {
      const chunk = todo.pop()!;
      if (loaded.has(chunk)) continue;
      loaded.add(chunk);
      todo.push(...[...text(chunk).matchAll(/from\s*"\.\/([^"]+)"/g)].map((m) => m[1]!));
    }
    expect(loaded.has(ssm!)).toBe(false);
  });

  it('finds the package root and dist/ from its chunk, where the files loaded by path are', async () => {
    const chunk = readdirSync(BUNDLE).find((f) => /MODULE_ROOT\s*=/.test(readFileSync(join(BUNDLE, f), 'utf8')));
    expect(chunk, 'the chunk holding package-root').toBeDefined();
    const roots = (await import(pathToFileURL(join(BUNDLE, chunk!)).href)) as { MODULE_ROOT: string; packagePath: (...s: string[]) => string };
    expect(roots.MODULE_ROOT).toBe(join(REPO, 'dist'));
    expect(roots.packagePath('package.json')).toBe(join(REPO, 'package.json'));
    for (const file of [
      ['services', 's3tables', 'maintenance', 'compaction-worker.js'],
      ['services', 'lambda', 'runner', 'node-bootstrap.cjs'],
      ['services', 'lambda', 'runner', 'code-dir.js'],
    ]) {
      expect(existsSync(join(roots.MODULE_ROOT, ...file)), file.join('/')).toBe(true);
    }
  });

  it('deploys S3 Tables resources and a custom resource backed by a Node.js function, and serves the dashboard', async () => {
    const config = { endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, maxAttempts: 1 };
    const cfn = new CloudFormationClient(config);
    await cfn.send(new CreateStackCommand({ StackName: 'bundled', TemplateBody: TEMPLATE }));
    let stack;
    for (let i = 0; i < 300; i++) {
      stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'bundled' }))).Stacks![0]!;
      if (!stack.StackStatus!.endsWith('_IN_PROGRESS')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(stack!.StackStatus).toBe('CREATE_COMPLETE');
    const outputs = Object.fromEntries(stack!.Outputs!.map((o) => [o.OutputKey, o.OutputValue]));
    expect(outputs.Echo).toBe('hello');

    const table = await new S3TablesClient(config).send(new GetTableCommand({ tableBucketARN: outputs.Bucket, namespace: 'ns', name: 't' }));
    expect(table.metadataLocation).toMatch(/^s3:\/\/.+\/metadata\/.+\.metadata\.json$/);

    const page = await fetch(`${endpoint}/_overcast/ui/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
  });
});
