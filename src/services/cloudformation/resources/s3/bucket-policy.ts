/**
 * `AWS::S3::BucketPolicy` through the S3 provider the API serves: the policy is stored on the
 * bucket (S3 keeps it, never enforces it — the CDK bootstrap's deny-non-TLS statement would
 * otherwise block plain-HTTP uploads). Ref is the bucket name; deleting a policy whose bucket is
 * already gone succeeds.
 */
import * as s3 from '../../../s3/provider.js';
import { unlessGone } from '../already-gone.js';
import type { ResourceProvider } from '../types.js';
import { validateProperties } from '../property-schema.js';
import { policyText, str } from '../property-values.js';

export const s3BucketPolicy: ResourceProvider = {
  type: 'AWS::S3::BucketPolicy',

  async create(rc, props) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    const bucket = str(props.Bucket)!;
    s3.putBucketPolicy(rc.ctx, { Bucket: bucket, Policy: policyText(props.PolicyDocument) });
    return { physicalId: bucket, attributes: {} };
  },

  async update(rc, props, previous) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    s3.putBucketPolicy(rc.ctx, { Bucket: previous.state.physicalId, Policy: policyText(props.PolicyDocument) });
    return previous.state;
  },

  async delete(rc, _props, state) {
    unlessGone(['NoSuchBucket'], () => s3.deleteBucketPolicy(rc.ctx, { Bucket: state.physicalId }));
  },
};
