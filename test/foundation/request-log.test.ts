/**
 * The log `overcast start` writes to stdout, read as a user reads it: at the default level one
 * line per request — service, operation, status, error code, milliseconds and the request id the
 * SDK reports — in plain columns when stdout is not a terminal, one JSON object a line with
 * `--log-format json`; resets, stack operations and the stop as events; nothing per request at
 * `warn`. Requests come from the AWS SDK; the server is the real binary.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { CloudFormationClient, CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CreateTableBucketCommand, GetTableBucketCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { afterEach, describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'overcast.js');
const children: ChildProcess[] = [];

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

interface Running {
  child: ChildProcess;
  endpoint: string;
  output: () => string;
  /** Resolves with the output once `test` finds what it looks for in it (5 s at most). */
  until: (test: (out: string) => boolean) => Promise<string>;
  stop: () => Promise<string>;
}

async function start(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [BIN, 'start', '--port', '0', '--in-memory', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const until = async (test: (o: string) => boolean) => {
    for (let i = 0; i < 500 && !test(out); i++) await new Promise((r) => setTimeout(r, 10));
    expect(test(out), out).toBe(true);
    return out;
  };
  await until((o) => /listening on http/.test(o));
  const endpoint = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    return out;
  };
  return { child, endpoint, output: () => out, until, stop };
}

function clients(endpoint: string) {
  const config = { endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
  return { s3tables: new S3TablesClient(config), cfn: new CloudFormationClient(config) };
}

/** A request that fails, and the request id the SDK saw. */
async function missingBucket(s3tables: S3TablesClient): Promise<string> {
  const err = await s3tables
    .send(new GetTableBucketCommand({ tableBucketARN: 'arn:aws:s3tables:us-east-1:000000000000:bucket/missing' }))
    .catch((e: { $metadata: { requestId: string } }) => e);
  return (err as { $metadata: { requestId: string } }).$metadata.requestId;
}

const TEMPLATE = JSON.stringify({ Resources: { Bucket: { Type: 'AWS::S3Tables::TableBucket', Properties: { TableBucketName: 'logged' } } } });

describe('the request log', () => {
  it('text: one line per request with service, operation, status, error code, ms and request id; events for reset and stacks', async () => {
    const server = await start([]);
    const { s3tables, cfn } = clients(server.endpoint);

    const created = await s3tables.send(new CreateTableBucketCommand({ name: 'demo' }));
    const failedId = await missingBucket(s3tables);
    await fetch(`${server.endpoint}/_overcast/health`);
    await fetch(`${server.endpoint}/_overcast/reset`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    await cfn.send(new CreateStackCommand({ StackName: 'Logged', TemplateBody: TEMPLATE }));
    await cfn.send(new DescribeStacksCommand({ StackName: 'Logged' }));
    await server.until((o) => o.includes('CREATE_COMPLETE'));
    const out = await server.stop();

    const lines = out.split('\n');
    const time = '\\d\\d:\\d\\d:\\d\\d\\.\\d{3}';
    expect(out).not.toContain('\u001b'); // stdout is a pipe here: no colours
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${time} s3tables +CreateTableBucket +200 +\\d+(\\.\\d)? ms  ${created.$metadata.requestId}$`)));
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^${time} s3tables +GetTableBucket +404 +\\d+(\\.\\d)? ms  NotFoundException  ${failedId}$`)),
    );
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${time} reset: all state wiped$`)));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${time} cloudformation create Logged → CREATE_COMPLETE  \\d+(\\.\\d)? ms$`)));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${time} cloudformation +CreateStack +200 `)));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${time} SIGTERM: stopping$`)));
    expect(out).not.toMatch(/health/); // Overcast's own endpoints are not requests of a service
  });

  it('json: every line is one JSON object; requests carry their fields, events their kind', async () => {
    const server = await start(['--log-format', 'json']);
    const { s3tables } = clients(server.endpoint);

    const failedId = await missingBucket(s3tables);
    await fetch(`${server.endpoint}/_overcast/reset`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    await server.until((o) => o.includes('"reset"'));
    const out = await server.stop();

    const records = out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records[0]).toMatchObject({ level: 'info', event: 'ready', endpoint: server.endpoint, msg: expect.stringContaining('listening on') });
    expect(records).toContainEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      service: 's3tables',
      operation: 'GetTableBucket',
      status: 404,
      code: 'NotFoundException',
      ms: expect.any(Number),
      requestId: failedId,
      msg: 's3tables GetTableBucket 404 NotFoundException',
    });
    expect(records).toContainEqual(expect.objectContaining({ event: 'reset', msg: 'reset: all state wiped' }));
    expect(records.at(-1)).toMatchObject({ event: 'stop', msg: 'stopped' });
  });

  it('warn: no line per request', async () => {
    const server = await start(['--log-level', 'warn']);
    const { s3tables } = clients(server.endpoint);

    await s3tables.send(new CreateTableBucketCommand({ name: 'quiet' }));
    await missingBucket(s3tables);
    const out = await server.stop();

    expect(out).not.toMatch(/CreateTableBucket|GetTableBucket/);
    expect(out).toMatch(/^Ready\. /m);
  });
});
