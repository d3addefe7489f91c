/**
 * `AWS::Lambda::LayerVersion` through the Lambda provider: PublishLayerVersion of the `Content`
 * (the CDK's asset zip in Overcast's S3). The layer is named LayerName or, as CloudFormation names
 * it, the logical ID alone — so two stacks with the same logical ID publish versions of one layer
 * (aws-cdk#18563, aws-cdk#24674). Every property is create-only, so a change is a replacement
 * (a new version). Ref and GetAtt LayerVersionArn give the version's ARN; delete removes the version.
 */
import * as lambda from '../../../lambda/provider.js';
import { createOnlyUpdate, typedProperties } from '../typed-properties.js';
import type { ResourceProvider } from '../types.js';

const TYPE = 'AWS::Lambda::LayerVersion';

export const lambdaLayerVersion: ResourceProvider = {
  type: TYPE,

  async create(rc, resolved) {
    const p = typedProperties(rc, TYPE, resolved);
    const c = p.Content;
    const out = await lambda.publishLayerVersion(rc.ctx, {
      LayerName: p.LayerName ?? rc.logicalId,
      Content: { S3Bucket: c.S3Bucket, S3Key: c.S3Key, ...(c.S3ObjectVersion ? { S3ObjectVersion: c.S3ObjectVersion } : {}) },
      ...(p.Description !== undefined ? { Description: p.Description } : {}),
      ...(p.LicenseInfo !== undefined ? { LicenseInfo: p.LicenseInfo } : {}),
      ...(p.CompatibleRuntimes ? { CompatibleRuntimes: p.CompatibleRuntimes as never } : {}),
      ...(p.CompatibleArchitectures ? { CompatibleArchitectures: p.CompatibleArchitectures as never } : {}),
    });
    return { physicalId: out.LayerVersionArn!, attributes: { LayerVersionArn: out.LayerVersionArn } };
  },

  update: createOnlyUpdate(TYPE),

  async delete(rc, _props, state) {
    const arn = lambda.splitVersionArn(state.physicalId);
    if (arn) lambda.deleteLayerVersion(rc.ctx, { LayerName: arn.base, VersionNumber: arn.version });
  },
};
