/**
 * `AWS::S3Tables::TableBucketPolicy` through the S3 Tables provider. Create refuses a bucket that
 * already has a policy (AlreadyExists, as the real create handler reports it), update replaces
 * the document, delete removes it (already gone is fine). A JSON-object ResourcePolicy is
 * serialised to the string the API takes. Ref is the bucket ARN.
 */
import * as s3t from '../../../s3tables/provider.js';
import { unlessGone } from '../already-gone.js';
import type { ResourceProvider } from '../types.js';
import { policyText, str, validateProperties } from '../property-schema.js';
import { alreadyExists, exists } from './policy-exists.js';

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
    unlessGone(['NotFoundException'], () => s3t.deleteTableBucketPolicy(rc.ctx, { tableBucketARN: state.physicalId }));
  },
};
