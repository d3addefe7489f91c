/**
 * `AWS::S3Tables::Table` through the S3 Tables provider. Create calls CreateTable with the name,
 * format, storage class, tags and — unless `WithoutMetadata: Yes` — the template's Iceberg
 * metadata mapped onto the API's (so the metadata.json is the one the API would write), then puts
 * Compaction and SnapshotManagement; a failure after the table exists deletes it again. Updates
 * in place: a new TableName and/or Namespace is one RenameTable (the ARN and warehouse survive),
 * Compaction / SnapshotManagement are put (removed → the service defaults), tags are diffed.
 * Ref/TableARN is the table ARN; WarehouseLocation and VersionToken are read back with GetTable
 * (the token drifts as engines commit, as on AWS).
 */
import type * as S3T from '@aws-sdk/client-s3tables';
import type { Ctx } from '../../../../server/runtime.js';
import * as s3t from '../../../s3tables/provider.js';
import { hasErrorCode } from '../already-gone.js';
import { applyTagChanges, compact, icebergMetadata, lower, storageClass, tagsInput } from './properties.js';
import { ResourceFailure, type ResourceProvider, type ResourceState } from '../types.js';
import { num, same, str, validateProperties } from '../property-schema.js';

type Obj = Record<string, unknown>;

const DEFAULT_COMPACTION = { Status: 'enabled', TargetFileSizeMB: 512 };
const DEFAULT_SNAPSHOTS = { Status: 'enabled', MinSnapshotsToKeep: 1, MaxSnapshotAgeHours: 120 };

/** The table bucket ARN inside a table ARN (`…:bucket/<name>/table/<id>`). */
export function bucketArnOfTable(tableArn: string): string {
  const at = tableArn.indexOf('/table/');
  return at < 0 ? tableArn : tableArn.slice(0, at);
}

function putCompaction(ctx: Ctx, t: S3T.GetTableResponse, bucketArn: string, v: Obj): void {
  s3t.putTableMaintenanceConfiguration(ctx, {
    tableBucketARN: bucketArn,
    namespace: t.namespace![0],
    name: t.name,
    type: 'icebergCompaction',
    value: compact({
      status: lower(v.Status) as S3T.MaintenanceStatus | undefined,
      settings: { icebergCompaction: compact({ targetFileSizeMB: num(v.TargetFileSizeMB) }) },
    }),
  });
}

function putSnapshots(ctx: Ctx, t: S3T.GetTableResponse, bucketArn: string, v: Obj): void {
  s3t.putTableMaintenanceConfiguration(ctx, {
    tableBucketARN: bucketArn,
    namespace: t.namespace![0],
    name: t.name,
    type: 'icebergSnapshotManagement',
    value: compact({
      status: lower(v.Status) as S3T.MaintenanceStatus | undefined,
      settings: {
        icebergSnapshotManagement: compact({
          minSnapshotsToKeep: num(v.MinSnapshotsToKeep),
          maxSnapshotAgeHours: num(v.MaxSnapshotAgeHours),
        }),
      },
    }),
  });
}

function tableState(t: S3T.GetTableResponse): ResourceState {
  return {
    physicalId: t.tableARN!,
    attributes: { TableARN: t.tableARN, WarehouseLocation: t.warehouseLocation, VersionToken: t.versionToken },
  };
}

export const table: ResourceProvider = {
  type: 'AWS::S3Tables::Table',

  async create(rc, props) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    if (props.IcebergMetadata !== undefined && props.WithoutMetadata !== undefined) {
      throw new ResourceFailure(
        `Properties validation failed for resource ${rc.logicalId} with message: #: IcebergMetadata and WithoutMetadata are mutually exclusive`,
      );
    }
    const { ctx } = rc;
    const bucketArn = str(props.TableBucketARN)!;
    const metadata = props.WithoutMetadata === undefined ? icebergMetadata(props.IcebergMetadata) : undefined;
    const created = await s3t.createTable(ctx, {
      tableBucketARN: bucketArn,
      namespace: str(props.Namespace),
      name: str(props.TableName),
      format: str(props.OpenTableFormat) as S3T.OpenTableFormat,
      metadata: metadata ? { iceberg: metadata } : undefined,
      storageClassConfiguration: storageClass(props.StorageClassConfiguration),
      tags: tagsInput(props.Tags),
    });
    try {
      const t = s3t.getTable(ctx, { tableArn: created.tableARN });
      if (props.Compaction) putCompaction(ctx, t, bucketArn, props.Compaction as Obj);
      if (props.SnapshotManagement) putSnapshots(ctx, t, bucketArn, props.SnapshotManagement as Obj);
      return tableState(s3t.getTable(ctx, { tableArn: created.tableARN }));
    } catch (err) {
      try {
        const t = s3t.getTable(ctx, { tableArn: created.tableARN });
        s3t.deleteTable(ctx, { tableBucketARN: bucketArn, namespace: t.namespace![0], name: t.name });
      } catch {
        // best effort: the original failure is what the stack reports
      }
      throw err;
    }
  },

  async update(rc, props, previous) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    const { ctx } = rc;
    const arn = previous.state.physicalId;
    const bucketArn = bucketArnOfTable(arn);
    const old = previous.props;
    let t = s3t.getTable(ctx, { tableArn: arn });
    const newName = str(props.TableName)!;
    const newNamespace = str(props.Namespace)!;
    if (newName !== t.name || newNamespace !== t.namespace![0]) {
      s3t.renameTable(ctx, {
        tableBucketARN: bucketArn,
        namespace: t.namespace![0],
        name: t.name,
        newName: newName !== t.name ? newName : undefined,
        newNamespaceName: newNamespace !== t.namespace![0] ? newNamespace : undefined,
        versionToken: t.versionToken,
      });
      t = s3t.getTable(ctx, { tableArn: arn });
    }
    if (!same(old.Compaction, props.Compaction)) {
      putCompaction(ctx, t, bucketArn, { ...DEFAULT_COMPACTION, ...((props.Compaction as Obj) ?? {}) });
    }
    if (!same(old.SnapshotManagement, props.SnapshotManagement)) {
      putSnapshots(ctx, t, bucketArn, { ...DEFAULT_SNAPSHOTS, ...((props.SnapshotManagement as Obj) ?? {}) });
    }
    applyTagChanges(ctx, arn, old.Tags, props.Tags);
    return tableState(s3t.getTable(ctx, { tableArn: arn }));
  },

  async delete(rc, _props, state) {
    const { ctx } = rc;
    try {
      const t = s3t.getTable(ctx, { tableArn: state.physicalId });
      s3t.deleteTable(ctx, {
        tableBucketARN: bucketArnOfTable(state.physicalId),
        namespace: t.namespace![0],
        name: t.name,
        versionToken: t.versionToken,
      });
    } catch (err) {
      if (!hasErrorCode(err, ['NotFoundException'])) throw err;
    }
  },
};
