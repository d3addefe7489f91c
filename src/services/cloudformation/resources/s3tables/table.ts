/**
 * `AWS::S3Tables::Table` through the S3 Tables provider. Create calls CreateTable with the name,
 * format, storage class, tags and — unless `WithoutMetadata: Yes` — the template's Iceberg
 * metadata mapped onto the API's (iceberg-metadata.ts, so the metadata.json is the one the API
 * would write), then puts Compaction and SnapshotManagement; a failure after the table exists
 * deletes it again. Updates in place: a new TableName and/or Namespace is one RenameTable (the ARN
 * and warehouse survive), Compaction / SnapshotManagement are put (removed → the service
 * defaults), tags are diffed. Ref/TableARN is the table ARN; WarehouseLocation and VersionToken
 * are CreateTable's, or read back with GetTable after maintenance puts and updates (the token
 * drifts as engines commit, as on AWS). The read handler (drift) and import go by the table ARN.
 */
import type * as S3T from '@aws-sdk/client-s3tables';
import type { Ctx } from '../../../../runtime/runtime.js';
import * as s3t from '../../../s3tables/provider.js';
import type { TableCompaction, TableSnapshotManagement } from '../../spec/property-types.js';
import { hasErrorCode } from '../already-gone.js';
import { same } from '../property-values.js';
import { typedChange, typedProperties } from '../typed-properties.js';
import { ResourceFailure, type ResourceProvider, type ResourceState } from '../types.js';
import { icebergMetadata } from './iceberg-metadata.js';
import { apiStatus, applyTagChanges, compact, readOptional, storageClass, tagsInput, tagsOf } from './properties.js';

const TYPE = 'AWS::S3Tables::Table';

const DEFAULT_COMPACTION: TableCompaction = { Status: 'enabled', TargetFileSizeMB: 512 };
const DEFAULT_SNAPSHOTS: TableSnapshotManagement = { Status: 'enabled', MinSnapshotsToKeep: 1, MaxSnapshotAgeHours: 120 };

/** The table bucket ARN inside a table ARN (`…:bucket/<name>/table/<id>`). */
export function bucketArnOfTable(tableArn: string): string {
  const at = tableArn.indexOf('/table/');
  return at < 0 ? tableArn : tableArn.slice(0, at);
}

/** Where a table is, for the maintenance calls. */
function located(t: S3T.GetTableResponse, bucketArn: string) {
  return { tableBucketARN: bucketArn, namespace: t.namespace![0], name: t.name };
}

function putCompaction(ctx: Ctx, t: S3T.GetTableResponse, bucketArn: string, v: TableCompaction): void {
  s3t.putTableMaintenanceConfiguration(ctx, {
    ...located(t, bucketArn),
    type: 'icebergCompaction',
    value: compact({
      status: apiStatus(v.Status),
      settings: { icebergCompaction: compact({ targetFileSizeMB: v.TargetFileSizeMB }) },
    }),
  });
}

function putSnapshots(ctx: Ctx, t: S3T.GetTableResponse, bucketArn: string, v: TableSnapshotManagement): void {
  s3t.putTableMaintenanceConfiguration(ctx, {
    ...located(t, bucketArn),
    type: 'icebergSnapshotManagement',
    value: compact({
      status: apiStatus(v.Status),
      settings: {
        icebergSnapshotManagement: compact({ minSnapshotsToKeep: v.MinSnapshotsToKeep, maxSnapshotAgeHours: v.MaxSnapshotAgeHours }),
      },
    }),
  });
}

function tableState(t: Pick<S3T.GetTableResponse, 'tableARN' | 'warehouseLocation' | 'versionToken'>): ResourceState {
  return {
    physicalId: t.tableARN!,
    attributes: { TableARN: t.tableARN, WarehouseLocation: t.warehouseLocation, VersionToken: t.versionToken },
  };
}

/** The read handler: the table, its maintenance, storage class and tags in the template's shape. */
function readTable(ctx: Ctx, arn: string): Record<string, unknown> {
  const t = s3t.getTable(ctx, { tableArn: arn });
  const bucketArn = bucketArnOfTable(arn);
  const m = s3t.getTableMaintenanceConfiguration(ctx, located(t, bucketArn)).configuration;
  const c = m?.icebergCompaction;
  const snap = m?.icebergSnapshotManagement;
  const sc = readOptional(() => s3t.getTableStorageClass(ctx, located(t, bucketArn)).storageClassConfiguration);
  return compact({
    TableBucketARN: bucketArn,
    Namespace: t.namespace![0],
    TableName: t.name,
    OpenTableFormat: t.format,
    Compaction: c ? compact({ Status: c.status, TargetFileSizeMB: c.settings?.icebergCompaction?.targetFileSizeMB }) : undefined,
    SnapshotManagement: snap
      ? compact({
          Status: snap.status,
          MinSnapshotsToKeep: snap.settings?.icebergSnapshotManagement?.minSnapshotsToKeep,
          MaxSnapshotAgeHours: snap.settings?.icebergSnapshotManagement?.maxSnapshotAgeHours,
        })
      : undefined,
    StorageClassConfiguration: sc ? { StorageClass: sc.storageClass } : undefined,
    Tags: tagsOf(ctx, arn),
  });
}

export const table: ResourceProvider = {
  type: TYPE,
  // The schema's writeOnlyProperties: GetTable never returns the metadata a table was created with.
  writeOnly: ['IcebergMetadata', 'WithoutMetadata'],

  async create(rc, props) {
    const p = typedProperties(rc, TYPE, props);
    if (p.IcebergMetadata !== undefined && p.WithoutMetadata !== undefined) {
      throw new ResourceFailure(
        `Properties validation failed for resource ${rc.logicalId} with message: #: IcebergMetadata and WithoutMetadata are mutually exclusive`,
      );
    }
    const { ctx } = rc;
    const bucketArn = p.TableBucketARN;
    const metadata = p.WithoutMetadata === undefined ? icebergMetadata(p.IcebergMetadata) : undefined;
    const created = await s3t.createTableWithWarehouse(ctx, {
      tableBucketARN: bucketArn,
      namespace: p.Namespace,
      name: p.TableName,
      format: p.OpenTableFormat,
      metadata: metadata ? { iceberg: metadata } : undefined,
      storageClassConfiguration: storageClass(p.StorageClassConfiguration),
      tags: tagsInput(p.Tags),
    });
    const arn = created.tableARN!;
    if (!p.Compaction && !p.SnapshotManagement) {
      return tableState({ tableARN: arn, warehouseLocation: created.warehouseLocation, versionToken: created.versionToken });
    }
    try {
      const t = s3t.getTable(ctx, { tableArn: arn });
      if (p.Compaction) putCompaction(ctx, t, bucketArn, p.Compaction);
      if (p.SnapshotManagement) putSnapshots(ctx, t, bucketArn, p.SnapshotManagement);
      return tableState(s3t.getTable(ctx, { tableArn: arn }));
    } catch (err) {
      try {
        s3t.deleteTable(ctx, located(s3t.getTable(ctx, { tableArn: arn }), bucketArn));
      } catch {
        // best effort: the original failure is what the stack reports
      }
      throw err;
    }
  },

  async update(rc, props, previous) {
    const { props: p, old } = typedChange(rc, TYPE, props, previous);
    const { ctx } = rc;
    const arn = previous.state.physicalId;
    const bucketArn = bucketArnOfTable(arn);
    let t = s3t.getTable(ctx, { tableArn: arn });
    if (p.TableName !== t.name || p.Namespace !== t.namespace![0]) {
      s3t.renameTable(ctx, {
        ...located(t, bucketArn),
        newName: p.TableName !== t.name ? p.TableName : undefined,
        newNamespaceName: p.Namespace !== t.namespace![0] ? p.Namespace : undefined,
        versionToken: t.versionToken,
      });
      t = s3t.getTable(ctx, { tableArn: arn });
    }
    if (!same(old.Compaction, p.Compaction)) putCompaction(ctx, t, bucketArn, { ...DEFAULT_COMPACTION, ...p.Compaction });
    if (!same(old.SnapshotManagement, p.SnapshotManagement)) {
      putSnapshots(ctx, t, bucketArn, { ...DEFAULT_SNAPSHOTS, ...p.SnapshotManagement });
    }
    applyTagChanges(ctx, arn, old.Tags, p.Tags);
    return tableState(s3t.getTable(ctx, { tableArn: arn }));
  },

  async delete(rc, _props, state) {
    const { ctx } = rc;
    try {
      const t = s3t.getTable(ctx, { tableArn: state.physicalId });
      s3t.deleteTable(ctx, { ...located(t, bucketArnOfTable(state.physicalId)), versionToken: t.versionToken });
    } catch (err) {
      if (!hasErrorCode(err, ['NotFoundException'])) throw err;
    }
  },

  async read(rc, state) {
    return readTable(rc.ctx, state.physicalId);
  },

  async adopt(rc, identifier) {
    const t = readOptional(() => s3t.getTable(rc.ctx, { tableArn: identifier.TableARN! }));
    return t ? tableState(t) : undefined;
  },
};
