/**
 * `AWS::S3Tables::TableBucketPolicy` and `AWS::S3Tables::TablePolicy` through the S3 Tables
 * provider. Create refuses a resource that already has a policy (the real create handlers read it
 * first and report AlreadyExists), update replaces the document, delete removes it (already gone
 * is fine). A JSON-object ResourcePolicy is serialised to the string the API takes. Ref is the
 * bucket ARN or the table ARN; a table policy's TableBucketARN / Namespace / TableName attributes
 * are read from the table (by ARN, so they follow a rename when the policy is next written).
 */
import type * as S3T from '@aws-sdk/client-s3tables';
import type { Ctx } from '../../../../server/runtime.js';
import { AwsError } from '../../../../wire/errors.js';
import * as s3t from '../../../s3tables/provider.js';
import { isNotFound } from './properties.js';
import { bucketArnOfTable } from './table.js';
import type { ResourceProvider, ResourceState } from '../types.js';
import { policyText, str, validateProperties } from '../property-schema.js';

function alreadyExists(type: string, id: string): AwsError {
  return new AwsError('AlreadyExistsException', `Resource of type '${type}' with identifier '${id}' already exists.`, 409);
}

function exists(read: () => unknown): boolean {
  try {
    read();
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

export const tableBucketPolicy: ResourceProvider = {
  type: 'AWS::S3Tables::TableBucketPolicy',

  async create(rc, props) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    const arn = str(props.TableBucketARN)!;
    s3t.getTableBucket(rc.ctx, { tableBucketARN: arn });
    if (exists(() => s3t.getTableBucketPolicy(rc.ctx, { tableBucketARN: arn }))) throw alreadyExists(rc.resourceType, arn);
    s3t.putTableBucketPolicy(rc.ctx, { tableBucketARN: arn, resourcePolicy: policyText(props.ResourcePolicy) });
    return { physicalId: arn, attributes: {} };
  },

  async update(rc, props, previous) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    s3t.putTableBucketPolicy(rc.ctx, { tableBucketARN: previous.state.physicalId, resourcePolicy: policyText(props.ResourcePolicy) });
    return previous.state;
  },

  async delete(rc, _props, state) {
    try {
      s3t.deleteTableBucketPolicy(rc.ctx, { tableBucketARN: state.physicalId });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  },
};

interface TableRef {
  tableBucketARN: string;
  namespace: string;
  name: string;
}

function tableRef(ctx: Ctx, tableArn: string): TableRef {
  const t: S3T.GetTableResponse = s3t.getTable(ctx, { tableArn });
  return { tableBucketARN: bucketArnOfTable(tableArn), namespace: t.namespace![0]!, name: t.name! };
}

function policyState(arn: string, t: TableRef): ResourceState {
  return { physicalId: arn, attributes: { TableBucketARN: t.tableBucketARN, Namespace: t.namespace, TableName: t.name } };
}

export const tablePolicy: ResourceProvider = {
  type: 'AWS::S3Tables::TablePolicy',

  async create(rc, props) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    const arn = str(props.TableARN)!;
    const t = tableRef(rc.ctx, arn);
    if (exists(() => s3t.getTablePolicy(rc.ctx, t))) throw alreadyExists(rc.resourceType, arn);
    s3t.putTablePolicy(rc.ctx, { ...t, resourcePolicy: policyText(props.ResourcePolicy) });
    return policyState(arn, t);
  },

  async update(rc, props, previous) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    const arn = previous.state.physicalId;
    const t = tableRef(rc.ctx, arn);
    s3t.putTablePolicy(rc.ctx, { ...t, resourcePolicy: policyText(props.ResourcePolicy) });
    return policyState(arn, t);
  },

  async delete(rc, _props, state) {
    try {
      s3t.deleteTablePolicy(rc.ctx, tableRef(rc.ctx, state.physicalId));
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  },
};
