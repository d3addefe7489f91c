/**
 * `overcast deploy / destroy / stacks / reset` as users run them, against an `overcast start
 * --port 0 --in-memory` spawned for this file: progress lines per event in order and the outputs,
 * no-change and update deploys (parameters not given keep their values), failures with and
 * without rollback and a deploy over a rolled-back stack, a template from S3, the stack table,
 * destroy, reset, usage and connection errors, and the server's /_overcast/metrics counters.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ListTableBucketsCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, startCliServer, type CliServer } from '../helpers/cli-server.js';
import { tempDir } from '../helpers/server.js';

const QUICK_START = join(import.meta.dirname, '..', '..', 'templates', 'quick-start.yaml');

let server: CliServer;
let endpoint: string;
let tmp: { path: string; cleanup: () => void };
let clientConfig: object;

beforeAll(async () => {
  tmp = tempDir('overcast-cli-');
  server = await startCliServer(['--port', '0', '--in-memory', '--log-level', 'error']);
  endpoint = server.endpoint;
  clientConfig = {
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    forcePathStyle: true,
    maxAttempts: 1,
  };
});

afterAll(async () => {
  await server?.stop();
  tmp?.cleanup();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function overcast(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { PATH: process.env.PATH, HOME: process.env.HOME, AWS_ENDPOINT_URL: endpoint, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** `LogicalId STATUS` of each progress line, in printed order. */
function progress(stdout: string, stack: string): string[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith(`${stack} | `))
    .map((l) => l.split(' | ').map((c) => c.trim()))
    .filter((cells) => /^\d+$/.test(cells[1]!)) // not the "Failed resources:" summary
    .map((cells) => `${cells[5]!.split(' ')[0]} ${cells[3]}`);
}

function cfn(): CloudFormationClient {
  return new CloudFormationClient(clientConfig);
}

async function status(name: string): Promise<string | undefined> {
  return (await cfn().send(new DescribeStacksCommand({ StackName: name }))).Stacks?.[0]?.StackStatus;
}

function writeTemplate(name: string, doc: object): string {
  const file = join(tmp.path, name);
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

const clash = {
  Resources: {
    A: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/cli/dup', Type: 'String', Value: 'a' } },
    B: { Type: 'AWS::SSM::Parameter', DependsOn: 'A', Properties: { Name: '/cli/dup', Type: 'String', Value: 'b' } },
  },
};

describe('overcast deploy', () => {
  it('creates a stack, printing each event as it happens and then the outputs', async () => {
    const r = await overcast(['deploy', QUICK_START, '--stack-name', 'qs', '--parameter', 'BucketName=cli-tables']);
    expect(r.code, r.stderr).toBe(0);
    expect(progress(r.stdout, 'qs')).toEqual([
      'qs CREATE_IN_PROGRESS',
      'TableBucket CREATE_IN_PROGRESS',
      'TableBucket CREATE_IN_PROGRESS',
      'TableBucket CREATE_COMPLETE',
      'Namespace CREATE_IN_PROGRESS',
      'Namespace CREATE_IN_PROGRESS',
      'Namespace CREATE_COMPLETE',
      'EventsTable CREATE_IN_PROGRESS',
      'EventsTable CREATE_IN_PROGRESS',
      'EventsTable CREATE_COMPLETE',
      'qs CREATE_COMPLETE',
    ]);
    expect(r.stdout).toContain('✅  qs (CREATE_COMPLETE)');
    expect(r.stdout).toContain('qs.TableBucketArn = arn:aws:s3tables:us-east-1:000000000000:bucket/cli-tables');
    expect(r.stdout).toMatch(/^qs\.TableArn = arn:aws:s3tables:us-east-1:000000000000:bucket\/cli-tables\/table\/[0-9a-f-]{36}$/m);
    const buckets = await new S3TablesClient(clientConfig).send(new ListTableBucketsCommand({}));
    expect(buckets.tableBuckets?.map((b) => b.name)).toEqual(['cli-tables']);
  });

  it('says when there is nothing to change, and keeps parameters not given on update', async () => {
    const same = await overcast(['deploy', QUICK_START, '--stack-name', 'qs']);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toContain('✅  qs (no changes)');
    expect(same.stdout).toContain('qs.TableBucketArn = arn:aws:s3tables:us-east-1:000000000000:bucket/cli-tables');

    const updated = await overcast(['deploy', QUICK_START, '--stack-name', 'qs', '-p', 'NamespaceName=web']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(progress(updated.stdout, 'qs')).toEqual(expect.arrayContaining(['Namespace UPDATE_COMPLETE', 'qs UPDATE_COMPLETE']));
    expect(progress(updated.stdout, 'qs').at(-1)).toBe('qs UPDATE_COMPLETE');
    const stack = (await cfn().send(new DescribeStacksCommand({ StackName: 'qs' }))).Stacks![0]!;
    expect(Object.fromEntries(stack.Parameters!.map((p) => [p.ParameterKey, p.ParameterValue]))).toEqual({
      BucketName: 'cli-tables',
      NamespaceName: 'web',
    });
  });

  it('reports the failed resources and exits 1; --no-rollback leaves the stack failed', async () => {
    const file = writeTemplate('clash.json', clash);
    const kept = await overcast(['deploy', file, '--stack-name', 'kept', '--no-rollback']);
    expect(kept.code).toBe(1);
    expect(kept.stdout).toContain('Failed resources:');
    expect(kept.stdout).toMatch(/kept \| .* \| CREATE_FAILED\s+\| AWS::SSM::Parameter\s+\| B .+/);
    expect(kept.stdout).toContain('❌  kept failed to deploy: CREATE_FAILED');
    expect(await status('kept')).toBe('CREATE_FAILED');

    const rolled = await overcast(['deploy', file, '--stack-name', 'rolled']);
    expect(rolled.code).toBe(1);
    expect(rolled.stdout).toContain('❌  rolled failed to deploy: ROLLBACK_COMPLETE');
    expect(progress(rolled.stdout, 'rolled')).toContain('A DELETE_COMPLETE');

    // A rolled-back stack cannot be updated: deploy deletes it first, then creates it.
    const good = writeTemplate('good.json', {
      Resources: { A: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/cli/fresh', Type: 'String', Value: 'a' } } },
    });
    const again = await overcast(['deploy', good, '--stack-name', 'rolled']);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('rolled: deleting the stack left in ROLLBACK_COMPLETE first');
    expect(await status('rolled')).toBe('CREATE_COMPLETE');
  });

  it('deploys a template from Overcast’s S3', async () => {
    const s3 = new S3Client(clientConfig);
    await s3.send(new CreateBucketCommand({ Bucket: 'cli-templates' }));
    const template = { Resources: { P: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/cli/s3', Type: 'String', Value: 's3' } } } };
    await s3.send(new PutObjectCommand({ Bucket: 'cli-templates', Key: 'p.json', Body: JSON.stringify(template) }));
    const r = await overcast(['deploy', 's3://cli-templates/p.json', '--stack-name', 'from-s3']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(await status('from-s3')).toBe('CREATE_COMPLETE');
  });

  it('deploys a template above the 51,200-byte TemplateBody limit by staging it in Overcast’s S3', async () => {
    const big = writeTemplate('big.json', {
      Resources: { P: { Type: 'AWS::SSM::Parameter', Metadata: { padding: 'x'.repeat(60_000) }, Properties: { Type: 'String', Value: 'big' } } },
    });
    const r = await overcast(['deploy', big, '--stack-name', 'big']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('✅  big (CREATE_COMPLETE)');
    expect(await status('big')).toBe('CREATE_COMPLETE');
  });

  it('refuses bad usage and bad templates with a message', async () => {
    const noName = await overcast(['deploy', QUICK_START]);
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain('overcast deploy: --stack-name is required');
    const badParam = await overcast(['deploy', QUICK_START, '--stack-name', 'x', '--parameter', 'novalue']);
    expect(badParam.code).toBe(2);
    const missing = await overcast(['deploy', join(tmp.path, 'nope.yaml'), '--stack-name', 'x']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`cannot read ${join(tmp.path, 'nope.yaml')}`);
    const invalid = await overcast(['deploy', writeTemplate('bad.json', { Resources: { X: { Type: 'AWS::No::Such' } } }), '--stack-name', 'x']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('overcast deploy: Template format error: Unrecognized resource types: [AWS::No::Such]');
    const down = await overcast(['stacks'], { AWS_ENDPOINT_URL: 'http://127.0.0.1:1' });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('cannot reach Overcast at http://127.0.0.1:1');
  });
});

describe('overcast stacks, destroy and reset', () => {
  it('lists stacks with their statuses', async () => {
    const r = await overcast(['stacks']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+STATUS\s+LAST CHANGE\s+REASON$/);
    const rows = Object.fromEntries(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 2)));
    expect(rows).toEqual({ qs: 'UPDATE_COMPLETE', kept: 'CREATE_FAILED', rolled: 'CREATE_COMPLETE', 'from-s3': 'CREATE_COMPLETE', big: 'CREATE_COMPLETE' });
  });

  it('destroys a stack, printing its events; a missing one is nothing to do', async () => {
    const r = await overcast(['destroy', 'qs']);
    expect(r.code, r.stderr).toBe(0);
    expect(progress(r.stdout, 'qs')).toEqual([
      'qs DELETE_IN_PROGRESS',
      'EventsTable DELETE_IN_PROGRESS',
      'EventsTable DELETE_COMPLETE',
      'Namespace DELETE_IN_PROGRESS',
      'Namespace DELETE_COMPLETE',
      'TableBucket DELETE_IN_PROGRESS',
      'TableBucket DELETE_COMPLETE',
      'qs DELETE_COMPLETE',
    ]);
    expect(r.stdout).toContain('✅  qs: destroyed');
    expect((await new S3TablesClient(clientConfig).send(new ListTableBucketsCommand({}))).tableBuckets).toEqual([]);
    const all = await overcast(['stacks', '--all']);
    expect(all.stdout).toMatch(/^qs\s+DELETE_COMPLETE/m);
    expect((await overcast(['stacks'])).stdout).not.toMatch(/^qs\s/m);

    const again = await overcast(['destroy', 'qs']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('qs: no such stack, nothing to destroy');
    expect((await overcast(['destroy'])).code).toBe(2);
  });

  it('counts request and background time at /_overcast/metrics', async () => {
    const m = (await (await fetch(`${endpoint}/_overcast/metrics`)).json()) as Record<string, number>;
    expect(m.requests).toBeGreaterThan(20);
    expect(m.requestMs).toBeGreaterThan(0);
    expect(m.backgroundMs).toBeGreaterThan(0);
  });

  it('reset wipes the running server', async () => {
    const r = await overcast(['reset']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`Overcast at ${endpoint} reset: all state wiped.\n`);
    expect((await overcast(['stacks', '--all'])).stdout).toBe('No stacks.\n');
  });

  it('help lists the commands, and deploy --help its options', async () => {
    const r = await overcast(['--help']);
    for (const word of ['deploy TEMPLATE', 'destroy NAME', 'stacks', 'reset']) {
      expect(r.stdout).toContain(word);
    }
    const deploy = await overcast(['deploy', '--help']);
    for (const word of ['--stack-name', '--parameter', '--no-rollback']) {
      expect(deploy.stdout).toContain(word);
    }
  });
});
