/**
 * Table bucket configuration through @aws-sdk/client-s3tables: encryption (default SSE-S3, SSE-KMS
 * with a key, delete back to the default), storage class, maintenance (AWS's defaults, merge,
 * union checks), request metrics (404 until enabled) and the bucket policy (valid JSON policy
 * documents only, 404 when none).
 */
import {
  DeleteTableBucketEncryptionCommand,
  DeleteTableBucketMetricsConfigurationCommand,
  DeleteTableBucketPolicyCommand,
  GetTableBucketEncryptionCommand,
  GetTableBucketMaintenanceConfigurationCommand,
  GetTableBucketMetricsConfigurationCommand,
  GetTableBucketPolicyCommand,
  GetTableBucketStorageClassCommand,
  PutTableBucketEncryptionCommand,
  PutTableBucketMaintenanceConfigurationCommand,
  PutTableBucketMetricsConfigurationCommand,
  PutTableBucketPolicyCommand,
  PutTableBucketStorageClassCommand,
} from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import { expectError, makeBucket } from './helpers.js';

const MISSING = 'arn:aws:s3tables:us-east-1:000000000000:bucket/missing-bucket';

const KMS = 'arn:aws:kms:us-east-1:000000000000:key/1234abcd-12ab-34cd-56ef-1234567890ab';

describe('bucket encryption', () => {
  it('defaults to SSE-S3, takes SSE-KMS with a key, and goes back to SSE-S3 on delete', async ({ s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    const initial = await s3t.send(new GetTableBucketEncryptionCommand({ tableBucketARN: arn }));
    expect(initial.$metadata.httpStatusCode).toBe(200);
    expect(initial.encryptionConfiguration).toEqual({ sseAlgorithm: 'AES256' });
    const put = await s3t.send(new PutTableBucketEncryptionCommand({ tableBucketARN: arn, encryptionConfiguration: { sseAlgorithm: 'aws:kms', kmsKeyArn: KMS } }));
    expect(put.$metadata.httpStatusCode).toBe(200);
    expect((await s3t.send(new GetTableBucketEncryptionCommand({ tableBucketARN: arn }))).encryptionConfiguration).toEqual({ sseAlgorithm: 'aws:kms', kmsKeyArn: KMS });
    const del = await s3t.send(new DeleteTableBucketEncryptionCommand({ tableBucketARN: arn }));
    expect(del.$metadata.httpStatusCode).toBe(204);
    expect((await s3t.send(new GetTableBucketEncryptionCommand({ tableBucketARN: arn }))).encryptionConfiguration).toEqual({ sseAlgorithm: 'AES256' });
  });

  it('refuses aws:kms without a key, a key with AES256 and a malformed key ARN, keeping the old value', async ({ s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    await s3t.send(new PutTableBucketEncryptionCommand({ tableBucketARN: arn, encryptionConfiguration: { sseAlgorithm: 'aws:kms', kmsKeyArn: KMS } }));
    await expectError(s3t.send(new PutTableBucketEncryptionCommand({ tableBucketARN: arn, encryptionConfiguration: { sseAlgorithm: 'aws:kms' } })), 'BadRequestException', 400);
    await expectError(s3t.send(new PutTableBucketEncryptionCommand({ tableBucketARN: arn, encryptionConfiguration: { sseAlgorithm: 'AES256', kmsKeyArn: KMS } })), 'BadRequestException', 400);
    const pattern = await expectError(
      s3t.send(new PutTableBucketEncryptionCommand({ tableBucketARN: arn, encryptionConfiguration: { sseAlgorithm: 'aws:kms', kmsKeyArn: 'alias/mine' } })),
      'BadRequestException',
      400,
    );
    expect(pattern.message).toContain("at 'encryptionConfiguration.kmsKeyArn' failed to satisfy constraint");
    await expectError(
      s3t.send(new PutTableBucketEncryptionCommand({ tableBucketARN: arn, encryptionConfiguration: { sseAlgorithm: 'DES' as 'AES256' } })),
      'BadRequestException',
      400,
    );
    expect((await s3t.send(new GetTableBucketEncryptionCommand({ tableBucketARN: arn }))).encryptionConfiguration).toEqual({ sseAlgorithm: 'aws:kms', kmsKeyArn: KMS });
    await expectError(s3t.send(new GetTableBucketEncryptionCommand({ tableBucketARN: MISSING })), 'NotFoundException', 404);
    await expectError(s3t.send(new DeleteTableBucketEncryptionCommand({ tableBucketARN: MISSING })), 'NotFoundException', 404);
  });
});

describe('bucket storage class', () => {
  it('defaults to STANDARD and stores INTELLIGENT_TIERING', async ({ s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    expect((await s3t.send(new GetTableBucketStorageClassCommand({ tableBucketARN: arn }))).storageClassConfiguration).toEqual({ storageClass: 'STANDARD' });
    const put = await s3t.send(new PutTableBucketStorageClassCommand({ tableBucketARN: arn, storageClassConfiguration: { storageClass: 'INTELLIGENT_TIERING' } }));
    expect(put.$metadata.httpStatusCode).toBe(200);
    const got = await s3t.send(new GetTableBucketStorageClassCommand({ tableBucketARN: arn }));
    expect(got.$metadata.httpStatusCode).toBe(200);
    expect(got.storageClassConfiguration).toEqual({ storageClass: 'INTELLIGENT_TIERING' });
  });

  it('refuses an unknown storage class and answers 404 for an unknown bucket', async ({ s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    const err = await expectError(
      s3t.send(new PutTableBucketStorageClassCommand({ tableBucketARN: arn, storageClassConfiguration: { storageClass: 'GLACIER' as 'STANDARD' } })),
      'BadRequestException',
      400,
    );
    expect(err.message).toContain('Member must satisfy enum value set: [STANDARD, INTELLIGENT_TIERING]');
    expect((await s3t.send(new GetTableBucketStorageClassCommand({ tableBucketARN: arn }))).storageClassConfiguration!.storageClass).toBe('STANDARD');
    await expectError(s3t.send(new GetTableBucketStorageClassCommand({ tableBucketARN: MISSING })), 'NotFoundException', 404);
  });
});

describe('bucket maintenance', () => {
  it('reports AWS’s defaults (unreferenced file removal enabled, 3 and 10 days) and stores changes', async ({ s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    const initial = await s3t.send(new GetTableBucketMaintenanceConfigurationCommand({ tableBucketARN: arn }));
    expect(initial.$metadata.httpStatusCode).toBe(200);
    expect(initial.tableBucketARN).toBe(arn);
    expect(initial.configuration).toEqual({
      icebergUnreferencedFileRemoval: { status: 'enabled', settings: { icebergUnreferencedFileRemoval: { unreferencedDays: 3, nonCurrentDays: 10 } } },
    });
    const put = await s3t.send(
      new PutTableBucketMaintenanceConfigurationCommand({
        tableBucketARN: arn,
        type: 'icebergUnreferencedFileRemoval',
        value: { status: 'enabled', settings: { icebergUnreferencedFileRemoval: { unreferencedDays: 7, nonCurrentDays: 30 } } },
      }),
    );
    expect(put.$metadata.httpStatusCode).toBe(204);
    // Status only: the settings stay.
    await s3t.send(new PutTableBucketMaintenanceConfigurationCommand({ tableBucketARN: arn, type: 'icebergUnreferencedFileRemoval', value: { status: 'disabled' } }));
    expect((await s3t.send(new GetTableBucketMaintenanceConfigurationCommand({ tableBucketARN: arn }))).configuration).toEqual({
      icebergUnreferencedFileRemoval: { status: 'disabled', settings: { icebergUnreferencedFileRemoval: { unreferencedDays: 7, nonCurrentDays: 30 } } },
    });
  });

  it('refuses an unknown type, non-positive days and settings of another type', async ({ s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    const type = await expectError(
      s3t.send(new PutTableBucketMaintenanceConfigurationCommand({ tableBucketARN: arn, type: 'icebergCompaction' as 'icebergUnreferencedFileRemoval', value: { status: 'enabled' } })),
      'BadRequestException',
      400,
    );
    expect(type.message).toContain("at 'type' failed to satisfy constraint: Member must satisfy enum value set: [icebergUnreferencedFileRemoval]");
    const days = await expectError(
      s3t.send(
        new PutTableBucketMaintenanceConfigurationCommand({
          tableBucketARN: arn,
          type: 'icebergUnreferencedFileRemoval',
          value: { settings: { icebergUnreferencedFileRemoval: { unreferencedDays: 0 } } },
        }),
      ),
      'BadRequestException',
      400,
    );
    expect(days.message).toContain('Member must have value greater than or equal to 1');
    await expectError(
      s3t.send(new PutTableBucketMaintenanceConfigurationCommand({ tableBucketARN: MISSING, type: 'icebergUnreferencedFileRemoval', value: { status: 'enabled' } })),
      'NotFoundException',
      404,
    );
    expect((await s3t.send(new GetTableBucketMaintenanceConfigurationCommand({ tableBucketARN: arn }))).configuration!.icebergUnreferencedFileRemoval!.settings).toEqual({
      icebergUnreferencedFileRemoval: { unreferencedDays: 3, nonCurrentDays: 10 },
    });
    await expectError(s3t.send(new GetTableBucketMaintenanceConfigurationCommand({ tableBucketARN: MISSING })), 'NotFoundException', 404);
  });
});

describe('bucket metrics', () => {
  it('answers 404 until enabled, keeps one id while enabled, and 404 again after delete', async ({ s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    await expectError(s3t.send(new GetTableBucketMetricsConfigurationCommand({ tableBucketARN: arn })), 'NotFoundException', 404);
    await expectError(s3t.send(new DeleteTableBucketMetricsConfigurationCommand({ tableBucketARN: arn })), 'NotFoundException', 404);
    const put = await s3t.send(new PutTableBucketMetricsConfigurationCommand({ tableBucketARN: arn }));
    expect(put.$metadata.httpStatusCode).toBe(204);
    const got = await s3t.send(new GetTableBucketMetricsConfigurationCommand({ tableBucketARN: arn }));
    expect(got.$metadata.httpStatusCode).toBe(200);
    expect(got.tableBucketARN).toBe(arn);
    expect(got.id).toMatch(/^[0-9a-f-]{36}$/);
    await s3t.send(new PutTableBucketMetricsConfigurationCommand({ tableBucketARN: arn }));
    expect((await s3t.send(new GetTableBucketMetricsConfigurationCommand({ tableBucketARN: arn }))).id).toBe(got.id);
    const del = await s3t.send(new DeleteTableBucketMetricsConfigurationCommand({ tableBucketARN: arn }));
    expect(del.$metadata.httpStatusCode).toBe(204);
    await expectError(s3t.send(new GetTableBucketMetricsConfigurationCommand({ tableBucketARN: arn })), 'NotFoundException', 404);
    await expectError(s3t.send(new PutTableBucketMetricsConfigurationCommand({ tableBucketARN: MISSING })), 'NotFoundException', 404);
  });
});

describe('bucket policy', () => {
  const policy = JSON.stringify({
    Version: '2012-10-17',
    Statement: [{ Sid: 'read', Effect: 'Allow', Principal: { AWS: 'arn:aws:iam::111122223333:root' }, Action: ['s3tables:GetTable'], Resource: '*' }],
  });

  it('stores a policy verbatim, replaces it, and answers 404 once deleted', async ({ s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    const none = await expectError(s3t.send(new GetTableBucketPolicyCommand({ tableBucketARN: arn })), 'NotFoundException', 404);
    expect(none.message).toBe('The specified table bucket policy does not exist.');
    const put = await s3t.send(new PutTableBucketPolicyCommand({ tableBucketARN: arn, resourcePolicy: policy }));
    expect(put.$metadata.httpStatusCode).toBe(200);
    const got = await s3t.send(new GetTableBucketPolicyCommand({ tableBucketARN: arn }));
    expect(got.$metadata.httpStatusCode).toBe(200);
    expect(got.resourcePolicy).toBe(policy);
    const pretty = JSON.stringify(JSON.parse(policy), null, 2);
    await s3t.send(new PutTableBucketPolicyCommand({ tableBucketARN: arn, resourcePolicy: pretty }));
    expect((await s3t.send(new GetTableBucketPolicyCommand({ tableBucketARN: arn }))).resourcePolicy).toBe(pretty);
    const del = await s3t.send(new DeleteTableBucketPolicyCommand({ tableBucketARN: arn }));
    expect(del.$metadata.httpStatusCode).toBe(204);
    await expectError(s3t.send(new GetTableBucketPolicyCommand({ tableBucketARN: arn })), 'NotFoundException', 404);
    await expectError(s3t.send(new DeleteTableBucketPolicyCommand({ tableBucketARN: arn })), 'NotFoundException', 404);
  });

  it('refuses documents that are not valid JSON policies, keeping the stored one', async ({ s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    await s3t.send(new PutTableBucketPolicyCommand({ tableBucketARN: arn, resourcePolicy: policy }));
    const statement = { Effect: 'Allow', Principal: '*', Action: 's3tables:*', Resource: '*' };
    for (const bad of [
      'not json',
      '[]',
      '{"Version":"2012-10-17"}',
      '{"Version":"2012-10-17","Statement":[]}',
      JSON.stringify({ Version: '2012-10-17', Statement: [{ ...statement, Effect: 'Maybe' }] }),
      JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: '*', Resource: '*' }] }),
      JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] }),
      JSON.stringify({ Version: '2099-01-01', Statement: [statement] }),
    ]) {
      const err = await expectError(s3t.send(new PutTableBucketPolicyCommand({ tableBucketARN: arn, resourcePolicy: bad })), 'BadRequestException', 400);
      expect(err.message).toMatch(/^Malformed policy: /);
    }
    expect((await s3t.send(new GetTableBucketPolicyCommand({ tableBucketARN: arn }))).resourcePolicy).toBe(policy);
    await expectError(s3t.send(new PutTableBucketPolicyCommand({ tableBucketARN: MISSING, resourcePolicy: policy })), 'NotFoundException', 404);
  });
});
