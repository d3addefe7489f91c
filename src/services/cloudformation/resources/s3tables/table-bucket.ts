/**
 * `AWS::S3Tables::TableBucket` through the S3 Tables provider.
 * A table bucket is created with its name, encryption, storage class and tags, then its
 * unreferenced-file removal, metrics and replication are put (cfn-s3tables-resources.md); if any
 * of those fails the new bucket is deleted again so nothing is left behind. Updates apply only the
 * properties that changed, in place: encryption (removed → back to SSE-S3), storage class (for
 * tables created afterwards; removed → left as is, there is no delete API), unreferenced-file
 * removal (removed → AWS's defaults, enabled 3/10 days), metrics (Disabled or removed → deleted),
 * replication (with the current version token; removed → deleted) and tags. Delete refuses a
 * bucket that still has namespaces, with the service's error, as the real handler does.
 * Ref/TableBucketARN is the bucket ARN.
 */
import type * as S3T from '@aws-sdk/client-s3tables';
import type { Ctx } from '../../../../server/runtime.js';
import * as s3t from '../../../s3tables/provider.js';
import {
  applyTagChanges,
  compact,
  encryption,
  lower,
  storageClass,
  tagsInput,
} from './properties.js';
import { unlessGone } from '../already-gone.js';
import type { ResolvedProperties, ResourceProvider, ResourceState } from '../types.js';
import { num, same, str, validateProperties } from '../property-schema.js';

type Obj = Record<string, unknown>;

const DEFAULT_UNREFERENCED = { Status: 'Enabled', UnreferencedDays: 3, NoncurrentDays: 10 };

function putUnreferencedFileRemoval(ctx: Ctx, arn: string, v: Obj): void {
  s3t.putTableBucketMaintenanceConfiguration(ctx, {
    tableBucketARN: arn,
    type: 'icebergUnreferencedFileRemoval',
    value: compact({
      status: lower(v.Status) as S3T.MaintenanceStatus | undefined,
      settings: {
        icebergUnreferencedFileRemoval: compact({
          unreferencedDays: num(v.UnreferencedDays),
          nonCurrentDays: num(v.NoncurrentDays),
        }),
      },
    }),
  });
}

function applyMetrics(ctx: Ctx, arn: string, v: Obj | undefined): void {
  if (str(v?.Status) === 'Enabled') {
    s3t.putTableBucketMetricsConfiguration(ctx, { tableBucketARN: arn });
    return;
  }
  unlessGone(['NotFoundException'], () => s3t.deleteTableBucketMetricsConfiguration(ctx, { tableBucketARN: arn }));
}

function applyReplication(ctx: Ctx, arn: string, v: Obj | undefined): void {
  let token: string | undefined;
  unlessGone(['NotFoundException'], () => {
    token = s3t.getTableBucketReplication(ctx, { tableBucketARN: arn }).versionToken;
  });
  if (!v) {
    if (token) s3t.deleteTableBucketReplication(ctx, { tableBucketARN: arn, versionToken: token });
    return;
  }
  const rules = (Array.isArray(v.Rules) ? v.Rules : []) as Obj[];
  s3t.putTableBucketReplication(ctx, {
    tableBucketARN: arn,
    versionToken: token,
    configuration: {
      role: str(v.Role),
      rules: rules.map((r) => ({
        destinations: ((Array.isArray(r.Destinations) ? r.Destinations : []) as Obj[]).map((d) => ({
          destinationTableBucketARN: str(d.DestinationTableBucketARN),
        })),
      })),
    },
  });
}

function bucketState(arn: string): ResourceState {
  return { physicalId: arn, attributes: { TableBucketARN: arn } };
}

export const tableBucket: ResourceProvider = {
  type: 'AWS::S3Tables::TableBucket',

  async create(rc, props) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    const { ctx } = rc;
    const { arn } = s3t.createTableBucket(ctx, {
      name: str(props.TableBucketName),
      encryptionConfiguration: encryption(props.EncryptionConfiguration),
      storageClassConfiguration: storageClass(props.StorageClassConfiguration),
      tags: tagsInput(props.Tags),
    });
    try {
      if (props.UnreferencedFileRemoval) putUnreferencedFileRemoval(ctx, arn!, props.UnreferencedFileRemoval as Obj);
      if (str((props.MetricsConfiguration as Obj | undefined)?.Status) === 'Enabled') {
        applyMetrics(ctx, arn!, props.MetricsConfiguration as Obj);
      }
      if (props.ReplicationConfiguration) applyReplication(ctx, arn!, props.ReplicationConfiguration as Obj);
    } catch (err) {
      try {
        s3t.deleteTableBucket(ctx, { tableBucketARN: arn });
      } catch {
        // best effort: the original failure is what the stack reports
      }
      throw err;
    }
    return bucketState(arn!);
  },

  async update(rc, props, previous) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    const { ctx } = rc;
    const arn = previous.state.physicalId;
    const old: ResolvedProperties = previous.props;
    if (!same(old.EncryptionConfiguration, props.EncryptionConfiguration)) {
      const e = encryption(props.EncryptionConfiguration);
      if (e) s3t.putTableBucketEncryption(ctx, { tableBucketARN: arn, encryptionConfiguration: e });
      else s3t.deleteTableBucketEncryption(ctx, { tableBucketARN: arn });
    }
    const sc = storageClass(props.StorageClassConfiguration);
    if (sc && !same(old.StorageClassConfiguration, props.StorageClassConfiguration)) {
      s3t.putTableBucketStorageClass(ctx, { tableBucketARN: arn, storageClassConfiguration: sc });
    }
    if (!same(old.UnreferencedFileRemoval, props.UnreferencedFileRemoval)) {
      putUnreferencedFileRemoval(ctx, arn, { ...DEFAULT_UNREFERENCED, ...((props.UnreferencedFileRemoval as Obj) ?? {}) });
    }
    if (!same(old.MetricsConfiguration, props.MetricsConfiguration)) applyMetrics(ctx, arn, props.MetricsConfiguration as Obj);
    if (!same(old.ReplicationConfiguration, props.ReplicationConfiguration)) {
      applyReplication(ctx, arn, props.ReplicationConfiguration as Obj | undefined);
    }
    applyTagChanges(ctx, arn, old.Tags, props.Tags);
    return bucketState(arn);
  },

  async delete(rc, _props, state) {
    unlessGone(['NotFoundException'], () => s3t.deleteTableBucket(rc.ctx, { tableBucketARN: state.physicalId }));
  },
};
