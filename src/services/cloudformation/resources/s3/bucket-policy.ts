/**
 * `AWS::S3::BucketPolicy` through the S3 provider the API serves: the policy is stored on the
 * bucket (S3 keeps it, never enforces it — the CDK bootstrap's deny-non-TLS statement would
 * otherwise block plain-HTTP uploads). Ref is the bucket name; deleting a policy whose bucket is
 * already gone succeeds.
 */
import * as s3 from '../../../s3/provider.js';
import { unlessGone } from '../already-gone.js';
import type { ResourceProvider } from '../types.js';
import { policyText } from '../property-values.js';
import { typedProperties } from '../typed-properties.js';

const TYPE = 'AWS::S3::BucketPolicy';

export const s3BucketPolicy: ResourceProvider = {
  type: TYPE,

  async create(rc, props) {
    const p = typedProperties(rc, TYPE, props);
    s3.putBucketPolicy(rc.ctx, { Bucket: p.Bucket, Policy: policyText(p.PolicyDocument) });
    return { physicalId: p.Bucket, attributes: {} };
  },

  async update(rc, props, previous) {
    const p = typedProperties(rc, TYPE, props);
    s3.putBucketPolicy(rc.ctx, { Bucket: previous.state.physicalId, Policy: policyText(p.PolicyDocument) });
    return previous.state;
  },

  async delete(rc, _props, state) {
    unlessGone(['NoSuchBucket'], () => s3.deleteBucketPolicy(rc.ctx, { Bucket: state.physicalId }));
  },

  async read(rc, state) {
    const policy = s3.getBucketPolicy(rc.ctx, { Bucket: state.physicalId }).Policy!;
    return { Bucket: state.physicalId, PolicyDocument: JSON.parse(policy) as unknown };
  },
};
