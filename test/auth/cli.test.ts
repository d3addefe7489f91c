/**
 * Strict mode as a user starts it — `overcast start --auth strict --credentials-file FILE
 * --no-test-credentials` — driven by the aws CLI v1 and boto3: with the file's keys everything
 * works (S3 uploads the CLI streams with its checksum trailer, S3 Tables, CloudFormation, STS,
 * a boto3 presigned URL); test/test, removed, and a wrong secret are refused with AWS's errors.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';
import { tempDir } from '../helpers/server.js';

const run = promisify(execFile);
const dir = tempDir();
const KEY = { accessKeyId: 'AKIACLIUSER000000001', secretAccessKey: 'cli-secret', accountId: '222222222222' };
let server: CliServer;
let endpoint: string;

beforeAll(async () => {
  const file = join(dir.path, 'credentials.json');
  writeFileSync(file, JSON.stringify([KEY]));
  server = await startCliServer(['--port', '0', '--in-memory', '--log-level', 'warn', '--auth', 'strict', '--credentials-file', file, '--no-test-credentials']);
  endpoint = server.endpoint;
});
afterAll(async () => {
  await server?.stop();
  dir.cleanup();
});

function env(accessKeyId: string, secretAccessKey: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: dir.path,
    AWS_ENDPOINT_URL: endpoint,
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: secretAccessKey,
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_MAX_ATTEMPTS: '1',
    AWS_PAGER: '',
  };
}

const aws = (args: string[], e = env(KEY.accessKeyId, KEY.secretAccessKey)) => run('aws', args, { env: e, cwd: dir.path });
const refusal = (args: string[], e: NodeJS.ProcessEnv) =>
  aws(args, e).then(
    () => '',
    (err: { stderr: string }) => err.stderr,
  );

describe('strict mode from the command line', () => {
  it('the aws CLI and boto3 work with the credentials file’s key', async () => {
    // boto3 first: it makes the bucket, uploads, and presigns (SigV4, as S3 requires of new buckets).
    const script = [
      'import boto3, urllib.request',
      'from botocore.config import Config',
      `s3 = boto3.client("s3", endpoint_url="${endpoint}", config=Config(signature_version="s3v4"))`,
      's3.create_bucket(Bucket="cli-bucket")',
      's3.put_object(Bucket="cli-bucket", Key="boto.txt", Body=b"from boto3")',
      'url = s3.generate_presigned_url("get_object", Params={"Bucket": "cli-bucket", "Key": "boto.txt"}, ExpiresIn=60)',
      'print(urllib.request.urlopen(url).read().decode())',
    ].join('\n');
    expect((await run('python3', ['-c', script], { env: env(KEY.accessKeyId, KEY.secretAccessKey) })).stdout.trim()).toBe('from boto3');
    writeFileSync(join(dir.path, 'up.txt'), 'uploaded by the cli');
    await aws(['s3', 'cp', join(dir.path, 'up.txt'), 's3://cli-bucket/up.txt']);
    const [down, bucket, stacks] = await Promise.all([
      aws(['s3', 'cp', 's3://cli-bucket/up.txt', '-']),
      aws(['s3tables', 'create-table-bucket', '--name', 'cli-tables']),
      aws(['cloudformation', 'list-stacks']),
    ]);
    expect(down.stdout).toBe('uploaded by the cli');
    expect((JSON.parse(bucket.stdout) as { arn: string }).arn).toBe('arn:aws:s3tables:us-east-1:222222222222:bucket/cli-tables');
    expect(JSON.parse(stacks.stdout)).toEqual({ StackSummaries: [] });
  });

  it('test/test, removed, and a wrong secret are refused', async () => {
    const [s3, sts, tables] = await Promise.all([
      refusal(['s3', 'ls'], env('test', 'test')),
      refusal(['sts', 'get-caller-identity'], env('test', 'test')),
      refusal(['s3tables', 'list-table-buckets'], env(KEY.accessKeyId, 'wrong')),
    ]);
    expect(s3).toContain('InvalidAccessKeyId');
    expect(sts).toContain('InvalidClientTokenId');
    expect(tables).toContain('InvalidSignatureException');
  });
});
