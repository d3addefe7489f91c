/**
 * `AWS::S3::Bucket` and `AWS::S3::BucketPolicy` through the S3 provider the API serves. A bucket
 * is named BucketName or, like CloudFormation, `<stack>-<logicalid>-<random>` lower-cased within
 * 63 characters; it is created in the stack's region and every configuration property is applied
 * (s3-bucket-config.ts) — if one fails the new bucket is removed again. Updates apply only the
 * properties that changed and remove configurations that left the template. Delete refuses a
 * bucket that still holds objects with S3's BucketNotEmpty ("The bucket you tried to delete is not
 * empty"), as CloudFormation does; DeletionPolicy Retain is the engine's. Ref is the name; GetAtt
 * gives Arn, DomainName, RegionalDomainName, DualStackDomainName and WebsiteURL as AWS shapes
 * them. The read handler (drift) is bucket-read.ts; import adopts a bucket of the caller's account
 * by name.
 */
import type { Ctx } from '../../../../runtime/runtime.js';
import * as s3 from '../../../s3/provider.js';
import { unlessGone } from '../already-gone.js';
import { generatedName } from '../physical-names.js';
import { APPLIERS } from './bucket-configuration.js';
import { NOT_READ, readBucket } from './bucket-read.js';
import { ResourceFailure, type ResourceContext, type ResourceProvider, type ResourceState } from '../types.js';
import type { BucketProperties } from '../../spec/property-types.js';
import { same } from '../property-values.js';
import { typedChange, typedProperties } from '../typed-properties.js';

const TYPE = 'AWS::S3::Bucket';

/** Regions whose website endpoint is `s3-website-<region>` (the rest use `s3-website.<region>`). */
const DASH_WEBSITE_REGIONS = new Set([
  'us-east-1', 'us-west-1', 'us-west-2', 'ap-southeast-1', 'ap-southeast-2', 'ap-northeast-1', 'eu-west-1', 'sa-east-1', 'us-gov-west-1',
]);

function domainSuffix(ctx: Ctx): string {
  return ctx.partition === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com';
}

function bucketState(rc: ResourceContext, name: string, props: BucketProperties): ResourceState {
  const { ctx } = rc;
  const region = ctx.region;
  const suffix = domainSuffix(ctx);
  const website = DASH_WEBSITE_REGIONS.has(region) ? `s3-website-${region}` : `s3-website.${region}`;
  const attributes: Record<string, unknown> = {
    Arn: `arn:${ctx.partition}:s3:::${name}`,
    DomainName: `${name}.s3.${suffix}`,
    RegionalDomainName: `${name}.s3.${region}.${suffix}`,
    DualStackDomainName: `${name}.s3.dualstack.${region}.${suffix}`,
    WebsiteURL: `http://${name}.${website}.${suffix}`,
  };
  const meta = props.MetadataTableConfiguration;
  if (meta?.S3TablesDestination) {
    attributes['MetadataTableConfiguration.S3TablesDestination.TableNamespace'] = 'aws_s3_metadata';
    attributes['MetadataTableConfiguration.S3TablesDestination.TableArn'] =
      `${meta.S3TablesDestination.TableBucketArn}/table/${meta.S3TablesDestination.TableName}`;
  }
  return { physicalId: name, attributes };
}

function bucketName(rc: ResourceContext, props: BucketProperties): string {
  return props.BucketName ?? generatedName(rc, { max: 63, lower: true, suffix: 12 });
}

/** Writes each configuration property that `changed` says differs (all present ones on create). */
function applyConfiguration(ctx: Ctx, name: string, props: BucketProperties, changed: (property: keyof BucketProperties) => boolean): void {
  for (const applier of APPLIERS) {
    const property = applier.property;
    if (!changed(property)) continue;
    const value = props[property];
    // The table pairs each property with the applier of its type.
    if (value !== undefined) (applier.put as (ctx: Ctx, bucket: string, value: unknown) => void)(ctx, name, value);
    else applier.remove?.(ctx, name);
  }
}

export const s3Bucket: ResourceProvider = {
  type: TYPE,

  async create(rc, resolved) {
    const props = typedProperties(rc, TYPE, resolved);
    const { ctx } = rc;
    const name = bucketName(rc, props);
    // us-east-1 answers 200 to CreateBucket for a bucket you already own; a stack must not adopt it.
    if (s3.repo(ctx).getBucket(name)) throw new ResourceFailure(`${name} already exists`);
    s3.createBucket(
      ctx,
      { Bucket: name, ObjectLockEnabledForBucket: props.ObjectLockEnabled },
      { internal: true },
    );
    try {
      applyConfiguration(ctx, name, props, (property) => props[property] !== undefined);
    } catch (err) {
      try {
        s3.deleteBucket(ctx, { Bucket: name });
      } catch {
        // best effort: the original failure is what the stack reports
      }
      throw err;
    }
    return bucketState(rc, name, props);
  },

  async update(rc, resolved, previous) {
    const { props, old } = typedChange(rc, TYPE, resolved, previous);
    const name = previous.state.physicalId;
    applyConfiguration(rc.ctx, name, props, (property) => !same(old[property], props[property]));
    return bucketState(rc, name, props);
  },

  async delete(rc, _props, state) {
    unlessGone(['NoSuchBucket'], () => s3.deleteBucket(rc.ctx, { Bucket: state.physicalId }));
  },

  writeOnly: NOT_READ,

  async read(rc, state) {
    return readBucket(rc.ctx, state.physicalId);
  },

  async adopt(rc, identifier, resolved) {
    const name = identifier.BucketName!;
    // A bucket of another account (names are global) cannot be imported.
    const row = s3.repo(rc.ctx).getBucket(name);
    if (!row || row.account !== rc.ctx.account) return undefined;
    return bucketState(rc, name, typedProperties(rc, TYPE, resolved));
  },
};
