/**
 * `AWS::S3Tables::TableBucketPolicy` through the S3 Tables provider. Create refuses a bucket that
 * already has a policy (AlreadyExists, as the real create handler reports it), update replaces
 * the document, delete removes it (already gone is fine). A JSON-object ResourcePolicy is
 * serialised to the string the API takes. Ref is the bucket ARN.
 */
import * as s3t from '../../../s3tables/provider.js';
import { unlessGone } from '../already-gone.js';
import { policyText } from '../property-values.js';
import { typedProperties } from '../typed-properties.js';
import type { ResourceProvider } from '../types.js';
import { alreadyExists, exists } from './policy-exists.js';

const TYPE = 'AWS::S3Tables::TableBucketPolicy';

export const tableBucketPolicy: ResourceProvider = {
  type: TYPE,

  async create(rc, props) {
    const p = typedProperties(rc, TYPE, props);
    const arn = p.TableBucketARN;
    s3t.getTableBucket(rc.ctx, { tableBucketARN: arn });
    if (exists(() => s3t.getTableBucketPolicy(rc.ctx, { tableBucketARN: arn }))) throw alreadyExists(TYPE, arn);
    s3t.putTableBucketPolicy(rc.ctx, { tableBucketARN: arn, resourcePolicy: policyText(p.ResourcePolicy) });
    return { physicalId: arn, attributes: {} };
  },

  async update(rc, props, previous) {
    const p = typedProperties(rc, TYPE, props);
    s3t.putTableBucketPolicy(rc.ctx, { tableBucketARN: previous.state.physicalId, resourcePolicy: policyText(p.ResourcePolicy) });
    return previous.state;
  },

  async delete(rc, _props, state) {
    unlessGone(['NotFoundException'], () => s3t.deleteTableBucketPolicy(rc.ctx, { tableBucketARN: state.physicalId }));
  },

  async read(rc, state) {
    const policy = s3t.getTableBucketPolicy(rc.ctx, { tableBucketARN: state.physicalId }).resourcePolicy!;
    return { TableBucketARN: state.physicalId, ResourcePolicy: JSON.parse(policy) as unknown };
  },

  async adopt(rc, identifier) {
    const arn = identifier.TableBucketARN!;
    return exists(() => s3t.getTableBucketPolicy(rc.ctx, { tableBucketARN: arn })) ? { physicalId: arn, attributes: {} } : undefined;
  },
};
