/**
 * Strict mode through the in-process API, as an IaC unit test uses it: `startOvercast({ auth:
 * 'strict', extraCredentials })` verifies every SDK call (its own `clientConfig` works, a wrong
 * secret does not), while `deployStack` runs the engine in-process; the deployed table bucket
 * policy then decides what the second account may do.
 */
import { GetTableBucketCommand, ListNamespacesCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOvercast, type Overcast } from '../../src/index.js';
import { failure } from '../helpers/errors.js';

const PARTNER = { accessKeyId: 'AKIAPARTNER000000009', secretAccessKey: 'partner', accountId: '555555555555' };
let overcast: Overcast;

beforeAll(async () => {
  overcast = await startOvercast({ auth: 'strict', extraCredentials: [PARTNER], warm: false });
});
afterAll(() => overcast.stop());

describe('strict mode in-process', () => {
  it('verifies SDK calls; a deployed TableBucketPolicy decides what another account may do', async () => {
    const { outputs } = await overcast.deployStack({
      stackName: 'Shared',
      template: {
        Resources: {
          Bucket: { Type: 'AWS::S3Tables::TableBucket', Properties: { TableBucketName: 'in-process-shared' } },
          Policy: {
            Type: 'AWS::S3Tables::TableBucketPolicy',
            Properties: {
              TableBucketARN: { 'Fn::GetAtt': ['Bucket', 'TableBucketARN'] },
              ResourcePolicy: {
                Version: '2012-10-17',
                Statement: [{ Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${PARTNER.accountId}:root` }, Action: 's3tables:GetTableBucket', Resource: { 'Fn::GetAtt': ['Bucket', 'TableBucketARN'] } }],
              },
            },
          },
        },
        Outputs: { Arn: { Value: { 'Fn::GetAtt': ['Bucket', 'TableBucketARN'] } } },
      },
    });
    const arn = outputs.Arn!;
    expect((await new S3TablesClient(overcast.clientConfig).send(new GetTableBucketCommand({ tableBucketARN: arn }))).name).toBe('in-process-shared');
    const wrong = new S3TablesClient({ ...overcast.clientConfig, credentials: { accessKeyId: 'test', secretAccessKey: 'nope' }, maxAttempts: 1 });
    expect((await failure(wrong.send(new GetTableBucketCommand({ tableBucketARN: arn })))).name).toBe('InvalidSignatureException');
    const partner = new S3TablesClient({ ...overcast.clientConfig, credentials: PARTNER, maxAttempts: 1 });
    expect((await partner.send(new GetTableBucketCommand({ tableBucketARN: arn }))).name).toBe('in-process-shared');
    const listing = await failure(partner.send(new ListNamespacesCommand({ tableBucketARN: arn })));
    expect([listing.status, listing.name]).toEqual([403, 'AccessDeniedException']);
  });
});
