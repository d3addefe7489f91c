/**
 * CloudFormation's AWS::S3Tables::* property shapes mapped onto the S3 Tables API's: capitalised
 * enums lowered (`Enabled` → `enabled`), `Tags` lists as maps, tag changes applied with
 * TagResource/UntagResource, and members the template leaves out left out of the input, as an
 * SDK would send it; and back again, for the read handlers drift detection calls.
 */
import type * as S3T from '@aws-sdk/client-s3tables';
import type { Ctx } from '../../../../runtime/runtime.js';
import { listTagsForResource, tagResource, untagResource } from '../../../s3tables/provider.js';
import type { Tag, TableBucketEncryptionConfiguration, TableBucketStorageClassConfiguration } from '../../spec/property-types.js';

/** Drops undefined members so inputs look like what an SDK would send. */
export function compact<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const k in value) if (Object.hasOwn(value, k) && value[k] !== undefined) out[k] = value[k];
  return out as T;
}

/** A maintenance or metrics status as the API writes it (`Enabled` → `enabled`). */
export function apiStatus(status: string | undefined): S3T.MaintenanceStatus | undefined {
  return status?.toLowerCase() as S3T.MaintenanceStatus | undefined;
}

export function encryption(e: TableBucketEncryptionConfiguration | undefined): S3T.EncryptionConfiguration | undefined {
  if (!e) return undefined;
  return compact({ sseAlgorithm: e.SSEAlgorithm as S3T.SSEAlgorithm, kmsKeyArn: e.KMSKeyArn });
}

export function storageClass(s: TableBucketStorageClassConfiguration | undefined): S3T.StorageClassConfiguration | undefined {
  return s?.StorageClass === undefined ? undefined : { storageClass: s.StorageClass };
}

function tagMap(tags: Tag[] | undefined): Record<string, string> {
  return Object.fromEntries((tags ?? []).map((t) => [t.Key, t.Value]));
}

export function tagsInput(tags: Tag[] | undefined): Record<string, string> | undefined {
  return tags?.length ? tagMap(tags) : undefined;
}

/** A status as the template writes it: `enabled` → `Enabled` (TableBucket), as is (Table). */
export function cfnStatus(status: string | undefined, capitalised: boolean): string | undefined {
  if (status === undefined || !capitalised) return status;
  return status.charAt(0).toUpperCase() + status.slice(1);
}

/** A resource's tags as the template's `Tags` list, read back for drift. */
export function tagsOf(ctx: Ctx, arn: string): Tag[] {
  return Object.entries(listTagsForResource(ctx, { resourceArn: arn }).tags ?? {}).map(([Key, Value]) => ({ Key, Value }));
}

/** Runs a read that answers NotFoundException when the configuration is absent; undefined then. */
export function readOptional<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (err) {
    if ((err as { code?: string }).code === 'NotFoundException') return undefined;
    throw err;
  }
}

/** Tag changes between two `Tags` property values, applied to the resource's ARN. */
export function applyTagChanges(ctx: Ctx, arn: string, before: Tag[] | undefined, after: Tag[] | undefined): void {
  const old = tagMap(before);
  const now = tagMap(after);
  const removed = Object.keys(old).filter((k) => !(k in now));
  const changed = Object.fromEntries(Object.entries(now).filter(([k, v]) => old[k] !== v));
  if (removed.length) untagResource(ctx, { resourceArn: arn, tagKeys: removed });
  if (Object.keys(changed).length) tagResource(ctx, { resourceArn: arn, tags: changed });
}
