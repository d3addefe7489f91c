/**
 * Table bucket configuration: default encryption (SSE-S3 `AES256` unless set; tables created
 * afterwards inherit it), default storage class (`STANDARD`), maintenance (unreferenced file
 * removal, enabled 3/10 days by default), request metrics and the bucket policy. Values are
 * stored and read back; Overcast does not run maintenance, emit metrics or evaluate policies.
 */
import { randomUUID } from 'node:crypto';
import type * as S3T from '@aws-sdk/client-s3tables';
import type { Ctx } from '../../runtime/runtime.js';
import type { TableBucketRow } from '../../store/s3tables-repo.js';
import { DEFAULT_ENCRYPTION } from './defaults.js';
import { bucketArnOf, repo, requireBucket, requireBucketRow, validate } from './lookup.js';
import { checkEncryption, encryptionJson } from './settings-checks.js';
import { s3tErrors } from './errors.js';
import { checkPolicyDocument, refusePublicPolicy } from './policy.js';

export function putTableBucketEncryption(ctx: Ctx, input: S3T.PutTableBucketEncryptionRequest): void {
  validate('PutTableBucketEncryption', input);
  checkEncryption(input.encryptionConfiguration);
  const b = requireBucket(ctx, input.tableBucketARN!);
  repo(ctx).setBucketColumn(b, 'encryption', encryptionJson(input.encryptionConfiguration!));
}

export function getTableBucketEncryption(
  ctx: Ctx,
  input: S3T.GetTableBucketEncryptionRequest,
): S3T.GetTableBucketEncryptionResponse {
  validate('GetTableBucketEncryption', input);
  const b = requireBucket(ctx, input.tableBucketARN!);
  return { encryptionConfiguration: JSON.parse(b.encryption) as S3T.EncryptionConfiguration };
}

/** Back to the built-in default, SSE-S3; existing tables keep what they were created with. */
export function deleteTableBucketEncryption(ctx: Ctx, input: S3T.DeleteTableBucketEncryptionRequest): void {
  validate('DeleteTableBucketEncryption', input);
  const b = requireBucket(ctx, input.tableBucketARN!);
  repo(ctx).setBucketColumn(b, 'encryption', encryptionJson(DEFAULT_ENCRYPTION));
}

/** The default for tables created later; existing tables keep theirs. */
export function putTableBucketStorageClass(ctx: Ctx, input: S3T.PutTableBucketStorageClassRequest): void {
  validate('PutTableBucketStorageClass', input);
  const b = requireBucket(ctx, input.tableBucketARN!);
  repo(ctx).setBucketColumn(b, 'storage_class', input.storageClassConfiguration!.storageClass!);
}

export function getTableBucketStorageClass(
  ctx: Ctx,
  input: S3T.GetTableBucketStorageClassRequest,
): S3T.GetTableBucketStorageClassResponse {
  validate('GetTableBucketStorageClass', input);
  const b = requireBucket(ctx, input.tableBucketARN!);
  return { storageClassConfiguration: { storageClass: b.storage_class as S3T.StorageClass } };
}

/**
 * `settings` is a union whose one key must be the maintenance type of the path. Settings left out
 * keep their current values (the defaults until changed).
 */
export function mergeMaintenance(
  current: Record<string, { status?: string; settings?: Record<string, Record<string, unknown>> }>,
  type: string,
  value: { status?: string; settings?: Record<string, unknown> },
): void {
  const settings = value.settings ? Object.entries(value.settings).filter(([, v]) => v !== undefined) : [];
  if (settings.length > 1) throw s3tErrors.badRequest('The maintenance settings must specify exactly one settings type.');
  if (settings.length === 1 && settings[0]![0] !== type) {
    throw s3tErrors.badRequest(`The maintenance settings type ${settings[0]![0]} does not match the maintenance type ${type}.`);
  }
  const previous = current[type] ?? {};
  const given = (settings[0]?.[1] ?? {}) as Record<string, unknown>;
  const merged = { ...(previous.settings?.[type] ?? {}) };
  for (const [k, v] of Object.entries(given)) if (v !== undefined) merged[k] = v;
  current[type] = { status: value.status ?? previous.status ?? 'enabled', settings: { [type]: merged } };
}

export function putTableBucketMaintenanceConfiguration(
  ctx: Ctx,
  input: S3T.PutTableBucketMaintenanceConfigurationRequest,
): void {
  validate('PutTableBucketMaintenanceConfiguration', input);
  const b = requireBucketRow(ctx, input.tableBucketARN!);
  const current = JSON.parse(b.maintenance);
  mergeMaintenance(current, input.type!, input.value as { status?: string; settings?: Record<string, unknown> });
  repo(ctx).setBucketColumn(b, 'maintenance', JSON.stringify(current));
}

export function getTableBucketMaintenanceConfiguration(
  ctx: Ctx,
  input: S3T.GetTableBucketMaintenanceConfigurationRequest,
): S3T.GetTableBucketMaintenanceConfigurationResponse {
  validate('GetTableBucketMaintenanceConfiguration', input);
  const b = requireBucketRow(ctx, input.tableBucketARN!);
  return { tableBucketARN: bucketArnOf(b, ctx.partition), configuration: JSON.parse(b.maintenance) };
}

/** Turns on request metrics; the configuration id stays the same while it is on. */
export function putTableBucketMetricsConfiguration(ctx: Ctx, input: S3T.PutTableBucketMetricsConfigurationRequest): void {
  validate('PutTableBucketMetricsConfiguration', input);
  const b = requireBucketRow(ctx, input.tableBucketARN!);
  if (!b.metrics_id) repo(ctx).setBucketColumn(b, 'metrics_id', randomUUID());
}

function requireMetrics(b: TableBucketRow): string {
  if (!b.metrics_id) throw s3tErrors.metricsNotFound();
  return b.metrics_id;
}

export function getTableBucketMetricsConfiguration(
  ctx: Ctx,
  input: S3T.GetTableBucketMetricsConfigurationRequest,
): S3T.GetTableBucketMetricsConfigurationResponse {
  validate('GetTableBucketMetricsConfiguration', input);
  const b = requireBucketRow(ctx, input.tableBucketARN!);
  return { tableBucketARN: bucketArnOf(b, ctx.partition), id: requireMetrics(b) };
}

export function deleteTableBucketMetricsConfiguration(
  ctx: Ctx,
  input: S3T.DeleteTableBucketMetricsConfigurationRequest,
): void {
  validate('DeleteTableBucketMetricsConfiguration', input);
  const b = requireBucketRow(ctx, input.tableBucketARN!);
  requireMetrics(b);
  repo(ctx).setBucketColumn(b, 'metrics_id', null);
}

export function putTableBucketPolicy(ctx: Ctx, input: S3T.PutTableBucketPolicyRequest): void {
  validate('PutTableBucketPolicy', input);
  checkPolicyDocument(input.resourcePolicy!);
  refusePublicPolicy(ctx, input.resourcePolicy!);
  const b = requireBucket(ctx, input.tableBucketARN!);
  repo(ctx).setBucketColumn(b, 'policy', input.resourcePolicy!);
}

export function getTableBucketPolicy(ctx: Ctx, input: S3T.GetTableBucketPolicyRequest): S3T.GetTableBucketPolicyResponse {
  validate('GetTableBucketPolicy', input);
  const b = requireBucketRow(ctx, input.tableBucketARN!);
  if (b.policy === null) throw s3tErrors.bucketPolicyNotFound();
  return { resourcePolicy: b.policy };
}

export function deleteTableBucketPolicy(ctx: Ctx, input: S3T.DeleteTableBucketPolicyRequest): void {
  validate('DeleteTableBucketPolicy', input);
  const b = requireBucketRow(ctx, input.tableBucketARN!);
  if (b.policy === null) throw s3tErrors.bucketPolicyNotFound();
  repo(ctx).setBucketColumn(b, 'policy', null);
}
