/**
 * A CDK stack in strict mode: the plain `cdk deploy` (SigV4-verified like any client) of a stack
 * whose TableBucketPolicy grants a role of another account; that role's STS session then reads the
 * table and its metadata from the warehouse, while another role of the same account is refused.
 */
import { join } from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetTableCommand, GetTableMetadataLocationCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../helpers/errors.js';
import { startTestServer, tempDir, type TestServer } from '../helpers/server.js';
import { cdk, cdkEnv, compileApp } from './support.js';

const OTHER = { accessKeyId: 'AKIAPARTNER000000001', secretAccessKey: 'partner-secret', accountId: '333333333333' };
const READER = `arn:aws:iam::${OTHER.accountId}:role/Reader`;
const BUCKET_ARN = 'arn:aws:s3tables:us-east-1:000000000000:bucket/shared-with-reader';
let t: TestServer;
let tmp: { path: string; cleanup: () => void };

beforeAll(async () => {
  t = await startTestServer({ auth: 'strict', credentials: [OTHER] });
  tmp = tempDir('overcast-cdk-strict-');
  compileApp(join(tmp.path, 'app'));
});
afterAll(async () => {
  await t?.stop();
  tmp?.cleanup();
});

async function session(roleArn: string) {
  const sts = new STSClient({ ...t.clientConfig, credentials: OTHER, maxAttempts: 1 });
  const c = (await sts.send(new AssumeRoleCommand({ RoleArn: roleArn, RoleSessionName: 'partner' }))).Credentials!;
  const credentials = { accessKeyId: c.AccessKeyId!, secretAccessKey: c.SecretAccessKey!, sessionToken: c.SessionToken! };
  return { s3t: new S3TablesClient({ ...t.clientConfig, credentials, maxAttempts: 1 }), s3: new S3Client({ ...t.clientConfig, credentials, maxAttempts: 1 }) };
}

describe('a CDK stack in strict mode', () => {
  it("deploys a TableBucketPolicy that lets another account's role read, and only that role", async () => {
    const env = cdkEnv(t, t.endpoint, join(tmp.path, 'cdk-home'));
    const deploy = await cdk(['deploy', '--app', 'node shared-app.js', '-c', `readerRole=${READER}`, '--require-approval', 'never'], { cwd: join(tmp.path, 'app'), env });
    expect(deploy.code, deploy.output).toBe(0);
    const reader = await session(READER);
    const table = await reader.s3t.send(new GetTableCommand({ tableBucketARN: BUCKET_ARN, namespace: 'sales', name: 'orders' }));
    expect(table.name).toBe('orders');
    const loc = await reader.s3t.send(new GetTableMetadataLocationCommand({ tableBucketARN: BUCKET_ARN, namespace: 'sales', name: 'orders' }));
    const [, bucket, key] = /^s3:\/\/([^/]+)\/(.+)$/.exec(loc.metadataLocation!)!;
    const metadata = JSON.parse(await (await reader.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body!.transformToString());
    expect(metadata['format-version']).toBeGreaterThanOrEqual(2);
    const writer = await session(`arn:aws:iam::${OTHER.accountId}:role/Writer`);
    const denied = await failure(writer.s3t.send(new GetTableCommand({ tableBucketARN: BUCKET_ARN, namespace: 'sales', name: 'orders' })));
    expect([denied.status, denied.name]).toEqual([403, 'AccessDeniedException']);
    expect((await failure(writer.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key })))).name).toBe('AccessDenied');
  });
});
