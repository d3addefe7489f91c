/**
 * The S3 Tables provider: one plain function per operation of the `s3tables` API, named after it
 * in camelCase and taking `(ctx, input)` with the @aws-sdk/client-s3tables request types. The HTTP
 * routes and the CloudFormation engine (AWS::S3Tables::*) call exactly these, so both get the same
 * validation, errors and behaviour. The operations live in topic modules re-exported here.
 */
export { createTableBucket, deleteTableBucket, getTableBucket, listTableBuckets } from './buckets.js';
export {
  deleteTableBucketEncryption,
  deleteTableBucketMetricsConfiguration,
  deleteTableBucketPolicy,
  getTableBucketEncryption,
  getTableBucketMaintenanceConfiguration,
  getTableBucketMetricsConfiguration,
  getTableBucketPolicy,
  getTableBucketStorageClass,
  putTableBucketEncryption,
  putTableBucketMaintenanceConfiguration,
  putTableBucketMetricsConfiguration,
  putTableBucketPolicy,
  putTableBucketStorageClass,
} from './bucket-config.js';
export { createNamespace, deleteNamespace, getNamespace, listNamespaces } from './namespaces.js';
export {
  createTable,
  createTableWithWarehouse,
  deleteTable,
  getTable,
  getTableMetadataLocation,
  listTables,
  renameTable,
  updateTableMetadataLocation,
} from './tables.js';
export {
  deleteTablePolicy,
  getTableEncryption,
  getTableMaintenanceConfiguration,
  getTableMaintenanceJobStatus,
  getTablePolicy,
  getTableRecordExpirationConfiguration,
  getTableRecordExpirationJobStatus,
  getTableStorageClass,
  putTableMaintenanceConfiguration,
  putTablePolicy,
  putTableRecordExpirationConfiguration,
} from './table-config.js';
export {
  deleteTableBucketReplication,
  deleteTableReplication,
  getTableBucketReplication,
  getTableReplication,
  getTableReplicationStatus,
  putTableBucketReplication,
  putTableReplication,
} from './replication.js';
export { listTagsForResource, tagResource, untagResource } from './tags.js';
