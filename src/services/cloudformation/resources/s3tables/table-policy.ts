/**
 * `AWS::S3Tables::TablePolicy` through the S3 Tables provider. Create refuses a table that already
 * has a policy, update replaces the document, delete removes it (already gone is fine). Ref is the
 * table ARN; the TableBucketARN / Namespace / TableName attributes are read from the table (by
 * ARN, so they follow a rename when the policy is next written).
 */
import type { Ctx } from '../../../../runtime/runtime.js';
import * as s3t from '../../../s3tables/provider.js';
import { unlessGone } from '../already-gone.js';
import { policyText } from '../property-values.js';
import { typedProperties } from '../typed-properties.js';
import type { ResourceProvider, ResourceState } from '../types.js';
import { alreadyExists, exists } from './policy-exists.js';
import { bucketArnOfTable } from './table.js';

const TYPE = 'AWS::S3Tables::TablePolicy';

interface TableRef {
  tableBucketARN: string;
  namespace: string;
  name: string;
}

function tableRef(ctx: Ctx, tableArn: string): TableRef {
  const t = s3t.getTable(ctx, { tableArn });
  return { tableBucketARN: bucketArnOfTable(tableArn), namespace: t.namespace![0]!, name: t.name! };
}

function policyState(arn: string, t: TableRef): ResourceState {
  return { physicalId: arn, attributes: { TableBucketARN: t.tableBucketARN, Namespace: t.namespace, TableName: t.name } };
}

export const tablePolicy: ResourceProvider = {
  type: TYPE,

  async create(rc, props) {
    const p = typedProperties(rc, TYPE, props);
    const arn = p.TableARN;
    const t = tableRef(rc.ctx, arn);
    if (exists(() => s3t.getTablePolicy(rc.ctx, t))) throw alreadyExists(TYPE, arn);
    s3t.putTablePolicy(rc.ctx, { ...t, resourcePolicy: policyText(p.ResourcePolicy) });
    return policyState(arn, t);
  },

  async update(rc, props, previous) {
    const p = typedProperties(rc, TYPE, props);
    const arn = previous.state.physicalId;
    const t = tableRef(rc.ctx, arn);
    s3t.putTablePolicy(rc.ctx, { ...t, resourcePolicy: policyText(p.ResourcePolicy) });
    return policyState(arn, t);
  },

  async delete(rc, _props, state) {
    unlessGone(['NotFoundException'], () => s3t.deleteTablePolicy(rc.ctx, tableRef(rc.ctx, state.physicalId)));
  },

  async read(rc, state) {
    const policy = s3t.getTablePolicy(rc.ctx, tableRef(rc.ctx, state.physicalId)).resourcePolicy!;
    return { TableARN: state.physicalId, ResourcePolicy: JSON.parse(policy) as unknown };
  },

  async adopt(rc, identifier) {
    const arn = identifier.TableARN!;
    if (!exists(() => s3t.getTable(rc.ctx, { tableArn: arn }))) return undefined;
    const t = tableRef(rc.ctx, arn);
    return exists(() => s3t.getTablePolicy(rc.ctx, t)) ? policyState(arn, t) : undefined;
  },
};
