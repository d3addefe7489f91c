/**
 * S3 Tables on the wire: the rest-json codec (operations from the model's URI templates, errors as
 * `x-amzn-ErrorType` + `{"message"}`, timestamps with microseconds) and the table of operations
 * served, each pointing at its provider function.
 */
import { serviceModel } from '../../model/service-model.js';
import { validationMessage } from '../../model/validate.js';
import { AwsError } from '../../wire/errors.js';
import { safeDecode, type WireRequest } from '../../wire/http.js';
import { restJsonCodec } from '../../wire/rest-json.js';
import type { S3TablesOperations } from '../../model/operations/s3tables.js';
import type { OperationHandlers, ServiceRoutes } from '../service-routes.js';
import { authorizeS3Tables } from './access.js';
import * as p from './provider.js';

/**
 * A request the URI templates cannot place. Operations addressed by query members only
 * (`/table-replication?tableArn&versionToken`) do not match while a required member is missing;
 * AWS answers those with its validation error, so find the operation by method and path and say
 * which member is missing.
 */
function unknownOperation(req: WireRequest): AwsError {
  const model = serviceModel('s3tables');
  const parts = req.rawPath.split('/').filter((p) => p !== '');
  for (const [name, op] of Object.entries(model.operations)) {
    if (op.http.method !== req.method || !op.input) continue;
    const template = op.http.requestUri.split('?')[0]!.split('/').filter((p) => p !== '');
    if (template.length !== parts.length) continue;
    const labels: Record<string, string> = {};
    const same = template.every((seg, i) => {
      const label = /^\{(.+)\}$/.exec(seg);
      if (!label) return seg === parts[i];
      labels[label[1]!] = safeDecode(parts[i]!);
      return true;
    });
    if (!same) continue;
    const members = model.shapes[op.input.shape]?.members ?? {};
    const input: Record<string, unknown> = {};
    for (const [member, ref] of Object.entries(members)) {
      const wire = ref.locationName ?? member;
      if (ref.location === 'uri') input[member] = labels[wire];
      if (ref.location !== 'querystring') continue;
      const values = req.query.filter(([k]) => k === wire).map(([, v]) => v);
      if (values.length > 0) input[member] = model.shapes[ref.shape]?.type === 'list' ? values : values[0];
    }
    const message = validationMessage(model, name, input);
    if (message) return new AwsError('BadRequestException', message, 400);
  }
  return new AwsError('NotFoundException', `No S3 Tables operation matches ${req.method} ${req.rawPath}`, 404);
}

const codec = restJsonCodec(() => serviceModel('s3tables'), {
  invalidInputCode: 'BadRequestException',
  micros: true,
  unknownOperation,
});

const handlers = {
  CreateNamespace: p.createNamespace,
  CreateTable: p.createTable,
  CreateTableBucket: p.createTableBucket,
  DeleteNamespace: p.deleteNamespace,
  DeleteTable: p.deleteTable,
  DeleteTableBucket: p.deleteTableBucket,
  DeleteTableBucketEncryption: p.deleteTableBucketEncryption,
  DeleteTableBucketMetricsConfiguration: p.deleteTableBucketMetricsConfiguration,
  DeleteTableBucketPolicy: p.deleteTableBucketPolicy,
  DeleteTableBucketReplication: p.deleteTableBucketReplication,
  DeleteTablePolicy: p.deleteTablePolicy,
  DeleteTableReplication: p.deleteTableReplication,
  GetNamespace: p.getNamespace,
  GetTable: p.getTable,
  GetTableBucket: p.getTableBucket,
  GetTableBucketEncryption: p.getTableBucketEncryption,
  GetTableBucketMaintenanceConfiguration: p.getTableBucketMaintenanceConfiguration,
  GetTableBucketMetricsConfiguration: p.getTableBucketMetricsConfiguration,
  GetTableBucketPolicy: p.getTableBucketPolicy,
  GetTableBucketReplication: p.getTableBucketReplication,
  GetTableBucketStorageClass: p.getTableBucketStorageClass,
  GetTableEncryption: p.getTableEncryption,
  GetTableMaintenanceConfiguration: p.getTableMaintenanceConfiguration,
  GetTableMaintenanceJobStatus: p.getTableMaintenanceJobStatus,
  GetTableMetadataLocation: p.getTableMetadataLocation,
  GetTablePolicy: p.getTablePolicy,
  GetTableRecordExpirationConfiguration: p.getTableRecordExpirationConfiguration,
  GetTableRecordExpirationJobStatus: p.getTableRecordExpirationJobStatus,
  GetTableReplication: p.getTableReplication,
  GetTableReplicationStatus: p.getTableReplicationStatus,
  GetTableStorageClass: p.getTableStorageClass,
  ListNamespaces: p.listNamespaces,
  ListTableBuckets: p.listTableBuckets,
  ListTables: p.listTables,
  ListTagsForResource: p.listTagsForResource,
  PutTableBucketEncryption: p.putTableBucketEncryption,
  PutTableBucketMaintenanceConfiguration: p.putTableBucketMaintenanceConfiguration,
  PutTableBucketMetricsConfiguration: p.putTableBucketMetricsConfiguration,
  PutTableBucketPolicy: p.putTableBucketPolicy,
  PutTableBucketReplication: p.putTableBucketReplication,
  PutTableBucketStorageClass: p.putTableBucketStorageClass,
  PutTableMaintenanceConfiguration: p.putTableMaintenanceConfiguration,
  PutTablePolicy: p.putTablePolicy,
  PutTableRecordExpirationConfiguration: p.putTableRecordExpirationConfiguration,
  PutTableReplication: p.putTableReplication,
  RenameTable: p.renameTable,
  TagResource: p.tagResource,
  UntagResource: p.untagResource,
  UpdateTableMetadataLocation: p.updateTableMetadataLocation,
} satisfies OperationHandlers<S3TablesOperations>;

export const routes: ServiceRoutes = { codec, handlers, internalErrorCode: 'InternalServerErrorException', authorize: authorizeS3Tables };
