/**
 * Table configuration: encryption and storage class (fixed at creation: explicit or inherited from
 * the bucket), maintenance (compaction 512 MB `auto`, snapshot management 1 snapshot / 120 h by
 * default), maintenance job status (what the maintenance runner recorded), the table policy,
 * and record expiration — which AWS offers only on some AWS managed tables, so a customer table
 * answers 405 to Put and reads as disabled.
 */
import type * as S3T from '@aws-sdk/client-s3tables';
import type { Ctx } from '../../runtime/runtime.js';
import type { TableRow } from '../../store/s3tables-repo.js';
import { repo, requireTable, requireTableByArn, tableArnOf, validate } from './lookup.js';
import { s3tErrors } from './errors.js';
import { mergeMaintenance } from './bucket-config.js';
import { checkPolicyDocument, refusePublicPolicy } from './policy.js';
import { maintenanceJobStatus } from './maintenance/job-status.js';

export function getTableEncryption(ctx: Ctx, input: S3T.GetTableEncryptionRequest): S3T.GetTableEncryptionResponse {
  validate('GetTableEncryption', input);
  const t = repo(ctx).getTableConfig(requireTable(ctx, input).id);
  return { encryptionConfiguration: JSON.parse(t.encryption) as S3T.EncryptionConfiguration };
}

export function getTableStorageClass(ctx: Ctx, input: S3T.GetTableStorageClassRequest): S3T.GetTableStorageClassResponse {
  validate('GetTableStorageClass', input);
  const t = repo(ctx).getTableConfig(requireTable(ctx, input).id);
  return { storageClassConfiguration: { storageClass: t.storage_class as S3T.StorageClass } };
}

export function putTableMaintenanceConfiguration(ctx: Ctx, input: S3T.PutTableMaintenanceConfigurationRequest): void {
  validate('PutTableMaintenanceConfiguration', input);
  const size = input.value?.settings?.icebergCompaction?.targetFileSizeMB;
  // "Maintenance for tables" (S3 User Guide): the target file size ranges from 64 to 512 MB.
  if (size !== undefined && (size < 64 || size > 512)) {
    throw s3tErrors.badRequest('The target file size must be between 64 and 512 MB.');
  }
  const t = requireTable(ctx, input);
  // "Compaction isn't supported on replica tables" (S3 User Guide, replication limitations).
  if (t.replica_of && input.type === 'icebergCompaction' && input.value?.status !== 'disabled') throw s3tErrors.replicaCompaction();
  const current = JSON.parse(repo(ctx).getTableConfig(t.id).maintenance);
  mergeMaintenance(current, input.type!, input.value as { status?: string; settings?: Record<string, unknown> });
  repo(ctx).setTableColumn(t.id, 'maintenance', JSON.stringify(current));
}

export function getTableMaintenanceConfiguration(
  ctx: Ctx,
  input: S3T.GetTableMaintenanceConfigurationRequest,
): S3T.GetTableMaintenanceConfigurationResponse {
  validate('GetTableMaintenanceConfiguration', input);
  const t = requireTable(ctx, input);
  return { tableARN: tableArnOf(t, ctx.partition), configuration: JSON.parse(repo(ctx).getTableConfig(t.id).maintenance) };
}

/** What really ran: see maintenance/job-status.ts. */
export function getTableMaintenanceJobStatus(
  ctx: Ctx,
  input: S3T.GetTableMaintenanceJobStatusRequest,
): S3T.GetTableMaintenanceJobStatusResponse {
  validate('GetTableMaintenanceJobStatus', input);
  const t = requireTable(ctx, input);
  const table = JSON.parse(repo(ctx).getTableConfig(t.id).maintenance) as Record<string, { status?: string }>;
  const bucket = repo(ctx).getBucket(t.account, t.region, t.bucket);
  const bucketConfig = bucket ? (JSON.parse(bucket.maintenance) as Record<string, { status?: string }>) : {};
  return { tableARN: tableArnOf(t, ctx.partition), status: maintenanceJobStatus(ctx, t.id, table, bucketConfig) };
}

export function putTablePolicy(ctx: Ctx, input: S3T.PutTablePolicyRequest): void {
  validate('PutTablePolicy', input);
  checkPolicyDocument(input.resourcePolicy!);
  refusePublicPolicy(ctx, input.resourcePolicy!);
  const t = requireTable(ctx, input);
  repo(ctx).setTableColumn(t.id, 'policy', input.resourcePolicy!);
}

function requirePolicy(ctx: Ctx, t: TableRow): string {
  const { policy } = repo(ctx).getTableConfig(t.id);
  if (policy === null) throw s3tErrors.tablePolicyNotFound();
  return policy;
}

export function getTablePolicy(ctx: Ctx, input: S3T.GetTablePolicyRequest): S3T.GetTablePolicyResponse {
  validate('GetTablePolicy', input);
  return { resourcePolicy: requirePolicy(ctx, requireTable(ctx, input)) };
}

export function deleteTablePolicy(ctx: Ctx, input: S3T.DeleteTablePolicyRequest): void {
  validate('DeleteTablePolicy', input);
  const t = requireTable(ctx, input);
  requirePolicy(ctx, t);
  repo(ctx).setTableColumn(t.id, 'policy', null);
}

/**
 * "Record expiration options aren't available for S3 tables that you create" (S3 User Guide,
 * "Record expiration for tables"); the model's 405 exists for exactly this.
 */
export function putTableRecordExpirationConfiguration(
  ctx: Ctx,
  input: S3T.PutTableRecordExpirationConfigurationRequest,
): void {
  validate('PutTableRecordExpirationConfiguration', input);
  const t = requireTableByArn(ctx, input.tableArn!);
  if (t.type === 'customer') throw s3tErrors.recordExpirationNotAllowed();
  repo(ctx).setTableColumn(t.id, 'record_expiration', JSON.stringify(input.value));
}

function recordExpirationOf(ctx: Ctx, t: TableRow): S3T.TableRecordExpirationConfigurationValue {
  const stored = repo(ctx).getTableConfig(t.id).record_expiration;
  return stored ? (JSON.parse(stored) as S3T.TableRecordExpirationConfigurationValue) : { status: 'disabled' };
}

export function getTableRecordExpirationConfiguration(
  ctx: Ctx,
  input: S3T.GetTableRecordExpirationConfigurationRequest,
): S3T.GetTableRecordExpirationConfigurationResponse {
  validate('GetTableRecordExpirationConfiguration', input);
  return { configuration: recordExpirationOf(ctx, requireTableByArn(ctx, input.tableArn!)) };
}

export function getTableRecordExpirationJobStatus(
  ctx: Ctx,
  input: S3T.GetTableRecordExpirationJobStatusRequest,
): S3T.GetTableRecordExpirationJobStatusResponse {
  validate('GetTableRecordExpirationJobStatus', input);
  const config = recordExpirationOf(ctx, requireTableByArn(ctx, input.tableArn!));
  return { status: config.status === 'enabled' ? 'NotYetRun' : 'Disabled' };
}
