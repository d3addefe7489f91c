/**
 * `AWS::S3Tables::TableBucket` through the S3 Tables provider. A table bucket is created with its
 * name, encryption, storage class and tags, then its unreferenced-file removal, metrics and
 * replication are put (cfn-s3tables-resources.md); if any of those fails the new bucket is
 * deleted again so nothing is left behind. Updates apply only the properties that changed, in
 * place: encryption (removed → back to SSE-S3), storage class (for tables created afterwards;
 * removed → left as is, there is no delete API), unreferenced-file removal (removed → AWS's
 * defaults, enabled 3/10 days), metrics (Disabled or removed → deleted), replication (with the
 * current version token; removed → deleted) and tags. Delete refuses a bucket that still has
 * namespaces, with the service's error, as the real handler does. Ref/TableBucketARN is the
 * bucket ARN. The read handler (drift) gives back every configuration in the template's shape;
 * import adopts a bucket by its ARN.
 */
import type { Ctx } from '../../../../runtime/runtime.js';
import * as s3t from '../../../s3tables/provider.js';
import type {
  TableBucketMetricsConfiguration,
  TableBucketReplicationConfiguration,
  TableBucketUnreferencedFileRemoval,
} from '../../spec/property-types.js';
import { unlessGone } from '../already-gone.js';
import { same } from '../property-values.js';
import { typedChange, typedProperties } from '../typed-properties.js';
import type { ResourceProvider, ResourceState } from '../types.js';
import { apiStatus, applyTagChanges, cfnStatus, compact, encryption, readOptional, storageClass, tagsInput, tagsOf } from './properties.js';

const TYPE = 'AWS::S3Tables::TableBucket';

const DEFAULT_UNREFERENCED: TableBucketUnreferencedFileRemoval = { Status: 'Enabled', UnreferencedDays: 3, NoncurrentDays: 10 };

function putUnreferencedFileRemoval(ctx: Ctx, arn: string, v: TableBucketUnreferencedFileRemoval): void {
  s3t.putTableBucketMaintenanceConfiguration(ctx, {
    tableBucketARN: arn,
    type: 'icebergUnreferencedFileRemoval',
    value: compact({
      status: apiStatus(v.Status),
      settings: {
        icebergUnreferencedFileRemoval: compact({ unreferencedDays: v.UnreferencedDays, nonCurrentDays: v.NoncurrentDays }),
      },
    }),
  });
}

function applyMetrics(ctx: Ctx, arn: string, v: TableBucketMetricsConfiguration | undefined): void {
  if (v?.Status === 'Enabled') {
    s3t.putTableBucketMetricsConfiguration(ctx, { tableBucketARN: arn });
    return;
  }
  unlessGone(['NotFoundException'], () => s3t.deleteTableBucketMetricsConfiguration(ctx, { tableBucketARN: arn }));
}

function applyReplication(ctx: Ctx, arn: string, v: TableBucketReplicationConfiguration | undefined): void {
  let token: string | undefined;
  unlessGone(['NotFoundException'], () => {
    token = s3t.getTableBucketReplication(ctx, { tableBucketARN: arn }).versionToken;
  });
  if (!v) {
    if (token) s3t.deleteTableBucketReplication(ctx, { tableBucketARN: arn, versionToken: token });
    return;
  }
  s3t.putTableBucketReplication(ctx, {
    tableBucketARN: arn,
    versionToken: token,
    configuration: {
      role: v.Role,
      rules: v.Rules.map((r) => ({ destinations: r.Destinations.map((d) => ({ destinationTableBucketARN: d.DestinationTableBucketARN })) })),
    },
  });
}

/** The read handler: the bucket and its configurations in the template's shape. */
function readBucket(ctx: Ctx, arn: string): Record<string, unknown> {
  const b = s3t.getTableBucket(ctx, { tableBucketARN: arn });
  const enc = readOptional(() => s3t.getTableBucketEncryption(ctx, { tableBucketARN: arn }).encryptionConfiguration);
  const ufr = s3t.getTableBucketMaintenanceConfiguration(ctx, { tableBucketARN: arn }).configuration?.icebergUnreferencedFileRemoval;
  const ufrSettings = ufr?.settings?.icebergUnreferencedFileRemoval;
  const metrics = readOptional(() => s3t.getTableBucketMetricsConfiguration(ctx, { tableBucketARN: arn }));
  const sc = readOptional(() => s3t.getTableBucketStorageClass(ctx, { tableBucketARN: arn }).storageClassConfiguration);
  const repl = readOptional(() => s3t.getTableBucketReplication(ctx, { tableBucketARN: arn }).configuration);
  return compact({
    TableBucketName: b.name,
    EncryptionConfiguration: enc ? compact({ SSEAlgorithm: enc.sseAlgorithm, KMSKeyArn: enc.kmsKeyArn }) : undefined,
    UnreferencedFileRemoval: ufr
      ? compact({ Status: cfnStatus(ufr.status, true), UnreferencedDays: ufrSettings?.unreferencedDays, NoncurrentDays: ufrSettings?.nonCurrentDays })
      : undefined,
    MetricsConfiguration: { Status: metrics ? 'Enabled' : 'Disabled' },
    StorageClassConfiguration: sc ? { StorageClass: sc.storageClass } : undefined,
    ReplicationConfiguration: repl
      ? {
          Role: repl.role,
          Rules: (repl.rules ?? []).map((r) => ({ Destinations: (r.destinations ?? []).map((d) => ({ DestinationTableBucketARN: d.destinationTableBucketARN })) })),
        }
      : undefined,
    Tags: tagsOf(ctx, arn),
  });
}

function bucketState(arn: string): ResourceState {
  return { physicalId: arn, attributes: { TableBucketARN: arn } };
}

export const tableBucket: ResourceProvider = {
  type: TYPE,

  async create(rc, props) {
    const p = typedProperties(rc, TYPE, props);
    const { ctx } = rc;
    const arn = s3t.createTableBucket(ctx, {
      name: p.TableBucketName,
      encryptionConfiguration: encryption(p.EncryptionConfiguration),
      storageClassConfiguration: storageClass(p.StorageClassConfiguration),
      tags: tagsInput(p.Tags),
    }).arn!;
    try {
      if (p.UnreferencedFileRemoval) putUnreferencedFileRemoval(ctx, arn, p.UnreferencedFileRemoval);
      if (p.MetricsConfiguration?.Status === 'Enabled') applyMetrics(ctx, arn, p.MetricsConfiguration);
      if (p.ReplicationConfiguration) applyReplication(ctx, arn, p.ReplicationConfiguration);
    } catch (err) {
      try {
        s3t.deleteTableBucket(ctx, { tableBucketARN: arn });
      } catch {
        // best effort: the original failure is what the stack reports
      }
      throw err;
    }
    return bucketState(arn);
  },

  async update(rc, props, previous) {
    const { props: p, old } = typedChange(rc, TYPE, props, previous);
    const { ctx } = rc;
    const arn = previous.state.physicalId;
    if (!same(old.EncryptionConfiguration, p.EncryptionConfiguration)) {
      const e = encryption(p.EncryptionConfiguration);
      if (e) s3t.putTableBucketEncryption(ctx, { tableBucketARN: arn, encryptionConfiguration: e });
      else s3t.deleteTableBucketEncryption(ctx, { tableBucketARN: arn });
    }
    const sc = storageClass(p.StorageClassConfiguration);
    if (sc && !same(old.StorageClassConfiguration, p.StorageClassConfiguration)) {
      s3t.putTableBucketStorageClass(ctx, { tableBucketARN: arn, storageClassConfiguration: sc });
    }
    if (!same(old.UnreferencedFileRemoval, p.UnreferencedFileRemoval)) {
      putUnreferencedFileRemoval(ctx, arn, { ...DEFAULT_UNREFERENCED, ...p.UnreferencedFileRemoval });
    }
    if (!same(old.MetricsConfiguration, p.MetricsConfiguration)) applyMetrics(ctx, arn, p.MetricsConfiguration);
    if (!same(old.ReplicationConfiguration, p.ReplicationConfiguration)) applyReplication(ctx, arn, p.ReplicationConfiguration);
    applyTagChanges(ctx, arn, old.Tags, p.Tags);
    return bucketState(arn);
  },

  async delete(rc, _props, state) {
    unlessGone(['NotFoundException'], () => s3t.deleteTableBucket(rc.ctx, { tableBucketARN: state.physicalId }));
  },

  async read(rc, state) {
    return readBucket(rc.ctx, state.physicalId);
  },

  async adopt(rc, identifier) {
    const arn = identifier.TableBucketARN!;
    return readOptional(() => s3t.getTableBucket(rc.ctx, { tableBucketARN: arn })) ? bucketState(arn) : undefined;
  },
};
