/**
 * Table configuration through @aws-sdk/client-s3tables: encryption and storage class (fixed at
 * creation), maintenance (AWS's defaults, 64–512 MB compaction target, union checks), maintenance
 * job status (nothing has run), the table policy, and record expiration (405 for tables customers
 * create, as AWS; reads as disabled).
 */
import {
  DeleteTablePolicyCommand,
  GetTableEncryptionCommand,
  GetTableMaintenanceConfigurationCommand,
  GetTableMaintenanceJobStatusCommand,
  GetTablePolicyCommand,
  GetTableRecordExpirationConfigurationCommand,
  GetTableRecordExpirationJobStatusCommand,
  GetTableStorageClassCommand,
  PutTableBucketMaintenanceConfigurationCommand,
  PutTableMaintenanceConfigurationCommand,
  PutTablePolicyCommand,
  PutTableRecordExpirationConfigurationCommand,
  S3TablesClient,
} from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import {  expectError, makeTable } from './helpers.js';


async function table(s3t: S3TablesClient) {
  const tb = await makeTable(s3t);
  return { ...tb, key: { tableBucketARN: tb.bucketArn, namespace: tb.namespace, name: tb.name } };
}

describe('table encryption and storage class', () => {
  it('report what the table was created with', async ({ server: t, s3tables: s3t }) => {
    const { key } = await table(s3t);
    const enc = await s3t.send(new GetTableEncryptionCommand(key));
    expect(enc.$metadata.httpStatusCode).toBe(200);
    expect(enc.encryptionConfiguration).toEqual({ sseAlgorithm: 'AES256' });
    const sc = await s3t.send(new GetTableStorageClassCommand(key));
    expect(sc.$metadata.httpStatusCode).toBe(200);
    expect(sc.storageClassConfiguration).toEqual({ storageClass: 'STANDARD' });
  });

  it('answer 404 for a table that does not exist', async ({ server: t, s3tables: s3t }) => {
    const { key } = await table(s3t);
    const err = await expectError(s3t.send(new GetTableEncryptionCommand({ ...key, name: 'absent' })), 'NotFoundException', 404);
    expect(err.message).toBe('The specified table does not exist.');
    await expectError(s3t.send(new GetTableStorageClassCommand({ ...key, namespace: 'absent' })), 'NotFoundException', 404);
  });
});

describe('table maintenance', () => {
  it('reports AWS’s defaults and stores changes per type', async ({ server: t, s3tables: s3t }) => {
    const { key, tableArn } = await table(s3t);
    const initial = await s3t.send(new GetTableMaintenanceConfigurationCommand(key));
    expect(initial.$metadata.httpStatusCode).toBe(200);
    expect(initial.tableARN).toBe(tableArn);
    expect(initial.configuration).toEqual({
      icebergCompaction: { status: 'enabled', settings: { icebergCompaction: { targetFileSizeMB: 512, strategy: 'auto' } } },
      icebergSnapshotManagement: { status: 'enabled', settings: { icebergSnapshotManagement: { minSnapshotsToKeep: 1, maxSnapshotAgeHours: 120 } } },
    });
    const put = await s3t.send(
      new PutTableMaintenanceConfigurationCommand({
        ...key,
        type: 'icebergCompaction',
        value: { status: 'enabled', settings: { icebergCompaction: { targetFileSizeMB: 128, strategy: 'binpack' } } },
      }),
    );
    expect(put.$metadata.httpStatusCode).toBe(204);
    await s3t.send(
      new PutTableMaintenanceConfigurationCommand({
        ...key,
        type: 'icebergSnapshotManagement',
        value: { status: 'disabled', settings: { icebergSnapshotManagement: { maxSnapshotAgeHours: 48 } } },
      }),
    );
    expect((await s3t.send(new GetTableMaintenanceConfigurationCommand(key))).configuration).toEqual({
      icebergCompaction: { status: 'enabled', settings: { icebergCompaction: { targetFileSizeMB: 128, strategy: 'binpack' } } },
      icebergSnapshotManagement: { status: 'disabled', settings: { icebergSnapshotManagement: { minSnapshotsToKeep: 1, maxSnapshotAgeHours: 48 } } },
    });
  });

  it('refuses a target file size outside 64–512 MB, settings of another type and an unknown type', async ({ server: t, s3tables: s3t }) => {
    const { key } = await table(s3t);
    for (const size of [32, 1024]) {
      const err = await expectError(
        s3t.send(new PutTableMaintenanceConfigurationCommand({ ...key, type: 'icebergCompaction', value: { settings: { icebergCompaction: { targetFileSizeMB: size } } } })),
        'BadRequestException',
        400,
      );
      expect(err.message).toBe('The target file size must be between 64 and 512 MB.');
    }
    await expectError(
      s3t.send(
        new PutTableMaintenanceConfigurationCommand({ ...key, type: 'icebergCompaction', value: { settings: { icebergSnapshotManagement: { minSnapshotsToKeep: 2 } } } }),
      ),
      'BadRequestException',
      400,
    );
    await expectError(
      s3t.send(new PutTableMaintenanceConfigurationCommand({ ...key, type: 'icebergUnreferencedFileRemoval' as 'icebergCompaction', value: { status: 'enabled' } })),
      'BadRequestException',
      400,
    );
    await expectError(
      s3t.send(new PutTableMaintenanceConfigurationCommand({ ...key, name: 'absent', type: 'icebergCompaction', value: { status: 'enabled' } })),
      'NotFoundException',
      404,
    );
    expect((await s3t.send(new GetTableMaintenanceConfigurationCommand(key))).configuration!.icebergCompaction).toEqual({
      status: 'enabled',
      settings: { icebergCompaction: { targetFileSizeMB: 512, strategy: 'auto' } },
    });
    await expectError(s3t.send(new GetTableMaintenanceConfigurationCommand({ ...key, name: 'absent' })), 'NotFoundException', 404);
  });
});

describe('table maintenance job status', () => {
  it('says honestly that no job has run: Not_Yet_Run when enabled, Disabled when disabled', async ({ server: t, s3tables: s3t }) => {
    const { key, tableArn, bucketArn } = await table(s3t);
    const initial = await s3t.send(new GetTableMaintenanceJobStatusCommand(key));
    expect(initial.$metadata.httpStatusCode).toBe(200);
    expect(initial.tableARN).toBe(tableArn);
    expect(initial.status).toEqual({
      icebergCompaction: { status: 'Not_Yet_Run' },
      icebergSnapshotManagement: { status: 'Not_Yet_Run' },
      icebergUnreferencedFileRemoval: { status: 'Not_Yet_Run' },
    });
    await s3t.send(new PutTableMaintenanceConfigurationCommand({ ...key, type: 'icebergCompaction', value: { status: 'disabled' } }));
    await s3t.send(new PutTableBucketMaintenanceConfigurationCommand({ tableBucketARN: bucketArn, type: 'icebergUnreferencedFileRemoval', value: { status: 'disabled' } }));
    const after = await s3t.send(new GetTableMaintenanceJobStatusCommand(key));
    expect(after.status).toEqual({
      icebergCompaction: { status: 'Disabled' },
      icebergSnapshotManagement: { status: 'Not_Yet_Run' },
      icebergUnreferencedFileRemoval: { status: 'Disabled' },
    });
    await expectError(s3t.send(new GetTableMaintenanceJobStatusCommand({ ...key, name: 'absent' })), 'NotFoundException', 404);
  });
});

describe('table policy', () => {
  const policy = JSON.stringify({
    Version: '2012-10-17',
    Statement: [{ Effect: 'Deny', Principal: '*', Action: 's3tables:DeleteTable', Resource: '*' }],
  });

  it('stores, reads and deletes a table policy; 404 when none', async ({ server: t, s3tables: s3t }) => {
    const { key } = await table(s3t);
    const none = await expectError(s3t.send(new GetTablePolicyCommand(key)), 'NotFoundException', 404);
    expect(none.message).toBe('The specified table policy does not exist.');
    const put = await s3t.send(new PutTablePolicyCommand({ ...key, resourcePolicy: policy }));
    expect(put.$metadata.httpStatusCode).toBe(200);
    const got = await s3t.send(new GetTablePolicyCommand(key));
    expect(got.$metadata.httpStatusCode).toBe(200);
    expect(got.resourcePolicy).toBe(policy);
    const del = await s3t.send(new DeleteTablePolicyCommand(key));
    expect(del.$metadata.httpStatusCode).toBe(204);
    await expectError(s3t.send(new GetTablePolicyCommand(key)), 'NotFoundException', 404);
    await expectError(s3t.send(new DeleteTablePolicyCommand(key)), 'NotFoundException', 404);
  });

  it('refuses a malformed policy and an empty one, keeping the stored policy', async ({ server: t, s3tables: s3t }) => {
    const { key } = await table(s3t);
    await s3t.send(new PutTablePolicyCommand({ ...key, resourcePolicy: policy }));
    await expectError(s3t.send(new PutTablePolicyCommand({ ...key, resourcePolicy: '{"Statement": ' })), 'BadRequestException', 400);
    const empty = await expectError(s3t.send(new PutTablePolicyCommand({ ...key, resourcePolicy: '' })), 'BadRequestException', 400);
    expect(empty.message).toContain("at 'resourcePolicy' failed to satisfy constraint: Member must have length greater than or equal to 1");
    expect((await s3t.send(new GetTablePolicyCommand(key))).resourcePolicy).toBe(policy);
    await expectError(s3t.send(new PutTablePolicyCommand({ ...key, name: 'absent', resourcePolicy: policy })), 'NotFoundException', 404);
  });
});

describe('record expiration', () => {
  it('reads as disabled with a Disabled job, and refuses Put on a customer table with 405', async ({ server: t, s3tables: s3t }) => {
    const { tableArn, bucketArn } = await table(s3t);
    const got = await s3t.send(new GetTableRecordExpirationConfigurationCommand({ tableArn }));
    expect(got.$metadata.httpStatusCode).toBe(200);
    expect(got.configuration).toEqual({ status: 'disabled' });
    const job = await s3t.send(new GetTableRecordExpirationJobStatusCommand({ tableArn }));
    expect(job.$metadata.httpStatusCode).toBe(200);
    expect(job.status).toBe('Disabled');
    expect(job.lastRunTimestamp).toBeUndefined();
    const err = await expectError(
      s3t.send(new PutTableRecordExpirationConfigurationCommand({ tableArn, value: { status: 'enabled', settings: { days: 30 } } })),
      'MethodNotAllowedException',
      405,
    );
    expect(err.message).toContain('not available for tables that you create');
    expect((await s3t.send(new GetTableRecordExpirationConfigurationCommand({ tableArn }))).configuration).toEqual({ status: 'disabled' });

    const missing = `${bucketArn}/table/00000000-0000-4000-8000-000000000000`;
    await expectError(s3t.send(new GetTableRecordExpirationConfigurationCommand({ tableArn: missing })), 'NotFoundException', 404);
    await expectError(s3t.send(new GetTableRecordExpirationJobStatusCommand({ tableArn: missing })), 'NotFoundException', 404);
    await expectError(
      s3t.send(new PutTableRecordExpirationConfigurationCommand({ tableArn: missing, value: { status: 'enabled' } })),
      'NotFoundException',
      404,
    );
    await expectError(
      s3t.send(new PutTableRecordExpirationConfigurationCommand({ tableArn, value: { status: 'enabled', settings: { days: 0 } } })),
      'BadRequestException',
      400,
    );
  });
});
