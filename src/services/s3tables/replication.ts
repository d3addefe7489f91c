/**
 * Replication configuration of table buckets and tables, with its own version tokens: creating one
 * needs no token, replacing an existing one needs the current token ("A version token is not
 * specified" otherwise, hashicorp/terraform-provider-aws#46675), a stale token is a conflict, and
 * Get* answers 404 while none exists (terraform-provider-aws PR 46688). The replication itself runs
 * in maintenance/replicate.ts; GetTableReplicationStatus reports its progress per destination.
 */
import type * as S3T from '@aws-sdk/client-s3tables';
import type { Ctx } from '../../runtime/runtime.js';
import { bucketArnOf, repo, requireBucketRow, requireTableByArn, tableArnOf, validate } from './lookup.js';
import { s3tErrors } from './errors.js';
import { newVersionToken } from './naming.js';
import { MaintenanceRepo } from '../../store/maintenance-repo.js';
import { replicationChanged, tableCommitted } from './maintenance/commit-hook.js';

/** `status` of Put*Replication: AWS leaves the values undocumented. */
const PUT_STATUS = 'ACTIVE';

type ReplicationConfig = S3T.TableBucketReplicationConfiguration | S3T.TableReplicationConfiguration;

function checkToken(current: string | null, given: string | undefined, required: boolean): void {
  if (current === null) return;
  if (given === undefined) {
    if (required) throw s3tErrors.replicationTokenMissing();
    return;
  }
  if (given !== current) throw s3tErrors.replicationTokenMismatch();
}

/** Destinations must be distinct and must not be the source bucket itself. */
function checkDestinations(config: ReplicationConfig, sourceBucketArn: string): void {
  const seen = new Set<string>();
  for (const rule of config.rules ?? []) {
    for (const d of rule.destinations ?? []) {
      const arn = d.destinationTableBucketARN!;
      if (arn === sourceBucketArn) throw s3tErrors.badRequest('A table bucket cannot replicate to itself.');
      if (seen.has(arn)) throw s3tErrors.badRequest(`The destination ${arn} is specified more than once.`);
      seen.add(arn);
    }
  }
}

function stored(config: ReplicationConfig): string {
  return JSON.stringify({
    role: config.role,
    rules: (config.rules ?? []).map((r) => ({
      destinations: (r.destinations ?? []).map((d) => ({ destinationTableBucketARN: d.destinationTableBucketARN })),
    })),
  });
}

export function putTableBucketReplication(
  ctx: Ctx,
  input: S3T.PutTableBucketReplicationRequest,
): S3T.PutTableBucketReplicationResponse {
  validate('PutTableBucketReplication', input);
  const b = requireBucketRow(ctx, input.tableBucketARN!);
  checkDestinations(input.configuration!, bucketArnOf(b, ctx.partition));
  checkToken(b.replication_token, input.versionToken, true);
  const token = newVersionToken();
  repo(ctx).setBucketReplication(b, stored(input.configuration!), token);
  replicationChanged(ctx.rt);
  return { versionToken: token, status: PUT_STATUS };
}

export function getTableBucketReplication(
  ctx: Ctx,
  input: S3T.GetTableBucketReplicationRequest,
): S3T.GetTableBucketReplicationResponse {
  validate('GetTableBucketReplication', input);
  const b = requireBucketRow(ctx, input.tableBucketARN!);
  if (!b.replication || !b.replication_token) throw s3tErrors.replicationNotFound();
  return { versionToken: b.replication_token, configuration: JSON.parse(b.replication) };
}

export function deleteTableBucketReplication(ctx: Ctx, input: S3T.DeleteTableBucketReplicationRequest): void {
  validate('DeleteTableBucketReplication', input);
  const b = requireBucketRow(ctx, input.tableBucketARN!);
  if (!b.replication) throw s3tErrors.replicationNotFound();
  checkToken(b.replication_token, input.versionToken, false);
  repo(ctx).setBucketReplication(b, null, null);
  replicationChanged(ctx.rt);
}

export function putTableReplication(ctx: Ctx, input: S3T.PutTableReplicationRequest): S3T.PutTableReplicationResponse {
  validate('PutTableReplication', input);
  const t = requireTableByArn(ctx, input.tableArn!);
  checkDestinations(input.configuration!, bucketArnOf({ account: t.account, region: t.region, name: t.bucket }, ctx.partition));
  checkToken(repo(ctx).getTableConfig(t.id).replication_token, input.versionToken, true);
  const token = newVersionToken();
  repo(ctx).setTableReplication(t.id, stored(input.configuration!), token);
  replicationChanged(ctx.rt);
  // Backfill at once where replication runs in the background (the schedule is on).
  tableCommitted(ctx.rt, t.id);
  return { versionToken: token, status: PUT_STATUS };
}

export function getTableReplication(ctx: Ctx, input: S3T.GetTableReplicationRequest): S3T.GetTableReplicationResponse {
  validate('GetTableReplication', input);
  const t = repo(ctx).getTableConfig(requireTableByArn(ctx, input.tableArn!).id);
  // Only the table's own configuration; bucket-level replication is read with GetTableBucketReplication.
  if (!t.replication || !t.replication_token) throw s3tErrors.replicationNotFound();
  return { versionToken: t.replication_token, configuration: JSON.parse(t.replication) };
}

export function deleteTableReplication(ctx: Ctx, input: S3T.DeleteTableReplicationRequest): void {
  validate('DeleteTableReplication', input);
  const t = requireTableByArn(ctx, input.tableArn!);
  const config = repo(ctx).getTableConfig(t.id);
  if (!config.replication) throw s3tErrors.replicationNotFound();
  checkToken(config.replication_token, input.versionToken, true);
  repo(ctx).setTableReplication(t.id, null, null);
  replicationChanged(ctx.rt);
}

/**
 * Destinations of the table's own configuration, else of its bucket's, each with its real state
 * (S3 User Guide, "Managing S3 Tables replication"): `completed` when the last source metadata
 * replicated is the table's current one, `failed` with the reason after a failed attempt,
 * `pending` otherwise (nothing replicated yet, or newer commits waiting).
 */
export function getTableReplicationStatus(
  ctx: Ctx,
  input: S3T.GetTableReplicationStatusRequest,
): S3T.GetTableReplicationStatusResponse {
  validate('GetTableReplicationStatus', input);
  const t = requireTableByArn(ctx, input.tableArn!);
  let config = repo(ctx).getTableConfig(t.id).replication;
  if (!config) config = repo(ctx).getBucket(t.account, t.region, t.bucket)?.replication ?? null;
  if (!config) throw s3tErrors.replicationNotFound();
  const parsed = JSON.parse(config) as S3T.TableReplicationConfiguration;
  const destinations = (parsed.rules ?? []).flatMap((r) => r.destinations ?? []);
  const progress = new Map(new MaintenanceRepo(ctx.rt.meta).progress(t.id).map((p) => [p.destination, p]));
  return {
    sourceTableArn: tableArnOf(t, ctx.partition),
    destinations: destinations.map((d): S3T.ReplicationDestinationStatusModel => {
      const p = progress.get(d.destinationTableBucketARN!);
      const status = !p ? 'pending' : p.status === 'failed' ? 'failed' : p.last_source_location === t.metadata_location ? 'completed' : 'pending';
      return {
        replicationStatus: status,
        destinationTableBucketArn: d.destinationTableBucketARN!,
        ...(p?.replica_arn ? { destinationTableArn: p.replica_arn } : {}),
        ...(p?.last_source_location && p.last_replicated_at !== null
          ? { lastSuccessfulReplicatedUpdate: { metadataLocation: p.last_source_location, timestamp: new Date(p.last_replicated_at) } }
          : {}),
        ...(status === 'failed' && p?.failure_message ? { failureMessage: p.failure_message } : {}),
      };
    }),
  };
}
