/**
 * AWS::S3::Bucket and AWS::S3::BucketPolicy called directly with a real runtime and checked
 * through @aws-sdk/client-s3: the CDK bootstrap's staging bucket (KMS default encryption,
 * versioning, public access block, lifecycle) with AWS's attribute shapes, generated names,
 * in-place updates that add and remove configurations, a stored-not-enforced policy, refusal of a
 * non-empty bucket on delete, an existing name, and cleanup when a configuration fails.
 */
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetBucketCorsCommand,
  GetBucketEncryptionCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketPolicyCommand,
  GetBucketTaggingCommand,
  GetBucketVersioningCommand,
  GetBucketWebsiteCommand,
  GetPublicAccessBlockCommand,
  HeadBucketCommand,
  PutObjectCommand
} from '@aws-sdk/client-s3';
import { describe, expect, it } from '../../helpers/fixture.js';
import { loadProvider } from '../../../src/services/cloudformation/resources/registry.js';
import type { ResolvedProperties } from '../../../src/services/cloudformation/resources/types.js';
import { rejection, resourceContext } from './context.js';


const bucket = (await loadProvider('AWS::S3::Bucket')).provider;
const policy = (await loadProvider('AWS::S3::BucketPolicy')).provider;

const STAGING: ResolvedProperties = {
  BucketName: 'cdk-hnb659fds-assets-000000000000-us-east-1',
  AccessControl: 'Private',
  BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms' } }] },
  PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: 'true', IgnorePublicAcls: true, RestrictPublicBuckets: true },
  VersioningConfiguration: { Status: 'Enabled' },
  LifecycleConfiguration: {
    Rules: [
      { Id: 'CleanupOldVersions', Status: 'Enabled', NoncurrentVersionExpiration: { NoncurrentDays: '30' } },
      { Id: 'AbortIncompleteMultipartUploads', Status: 'Enabled', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } },
    ],
  },
};

describe('AWS::S3::Bucket', () => {
  it("creates the CDK bootstrap's staging bucket with its configuration and AWS's attributes", async ({ server: t, s3 }) => {
    const rc = resourceContext(t, 'AWS::S3::Bucket', 'StagingBucket', { stackName: 'CDKToolkit' });
    const state = await bucket.create(rc, STAGING);
    const name = 'cdk-hnb659fds-assets-000000000000-us-east-1';
    expect(state).toEqual({
      physicalId: name,
      attributes: {
        Arn: `arn:aws:s3:::${name}`,
        DomainName: `${name}.s3.amazonaws.com`,
        RegionalDomainName: `${name}.s3.us-east-1.amazonaws.com`,
        DualStackDomainName: `${name}.s3.dualstack.us-east-1.amazonaws.com`,
        WebsiteURL: `http://${name}.s3-website-us-east-1.amazonaws.com`,
      },
    });
    await s3.send(new HeadBucketCommand({ Bucket: name }));
    const enc = await s3.send(new GetBucketEncryptionCommand({ Bucket: name }));
    expect(enc.ServerSideEncryptionConfiguration?.Rules?.[0]?.ApplyServerSideEncryptionByDefault?.SSEAlgorithm).toBe('aws:kms');
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket: name }))).Status).toBe('Enabled');
    expect((await s3.send(new GetPublicAccessBlockCommand({ Bucket: name }))).PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      IgnorePublicAcls: true,
      BlockPublicPolicy: true,
      RestrictPublicBuckets: true,
    });
    const lifecycle = await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: name }));
    expect(lifecycle.Rules).toEqual([
      expect.objectContaining({ ID: 'CleanupOldVersions', Status: 'Enabled', NoncurrentVersionExpiration: { NoncurrentDays: 30 } }),
      expect.objectContaining({ ID: 'AbortIncompleteMultipartUploads', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
    ]);

    // The bootstrap policy denies non-TLS access: stored, never enforced, so plain-HTTP uploads still work.
    const prc = resourceContext(t, 'AWS::S3::BucketPolicy', 'StagingBucketPolicy', { stackName: 'CDKToolkit' });
    const doc = {
      Id: 'AccessControl',
      Version: '2012-10-17',
      Statement: [
        {
          Sid: 'AllowSSLRequestsOnly',
          Action: 's3:*',
          Effect: 'Deny',
          Resource: [`arn:aws:s3:::${name}`, `arn:aws:s3:::${name}/*`],
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          Principal: '*',
        },
      ],
    };
    const p = await policy.create(prc, { Bucket: name, PolicyDocument: doc });
    expect(p.physicalId).toBe(name);
    expect(JSON.parse((await s3.send(new GetBucketPolicyCommand({ Bucket: name }))).Policy!)).toEqual(doc);
    await s3.send(new PutObjectCommand({ Bucket: name, Key: 'asset.zip', Body: 'x'.repeat(100) }));

    // A bucket with objects is not deleted, as on AWS.
    const notEmpty = await rejection(bucket.delete(rc, STAGING, state));
    expect(notEmpty.code).toBe('BucketNotEmpty');
    expect(notEmpty.message).toBe('The bucket you tried to delete is not empty');
    await s3.send(new DeleteObjectCommand({ Bucket: name, Key: 'asset.zip' }));
    await policy.delete(prc, {}, p);
    expect((await rejection(s3.send(new GetBucketPolicyCommand({ Bucket: name })))).name).toBe('NoSuchBucketPolicy');
    await bucket.delete(rc, STAGING, state);
    expect((await rejection(s3.send(new HeadBucketCommand({ Bucket: name })))).name).toBe('NotFound');
    await expect(bucket.delete(rc, STAGING, state)).resolves.toBeUndefined();
  });

  it('generates lower-case names, updates configurations in place and removes dropped ones', async ({ server: t, s3 }) => {
    const rc = resourceContext(t, 'AWS::S3::Bucket', 'DataBucket', { stackName: 'My-App-Stack' });
    const props: ResolvedProperties = {
      VersioningConfiguration: { Status: 'Enabled' },
      LifecycleConfiguration: { Rules: [{ Id: 'expire', Status: 'Enabled', ExpirationInDays: 7, Prefix: 'tmp/' }] },
      Tags: [{ Key: 'team', Value: 'data' }],
    };
    const state = await bucket.create(rc, props);
    expect(state.physicalId).toMatch(/^my-app-stack-databucket-[a-z0-9]{12}$/);
    const name = state.physicalId;
    expect((await s3.send(new GetBucketTaggingCommand({ Bucket: name }))).TagSet).toEqual([{ Key: 'team', Value: 'data' }]);

    const next: ResolvedProperties = {
      Tags: [{ Key: 'team', Value: 'platform' }],
      CorsConfiguration: { CorsRules: [{ AllowedMethods: ['GET'], AllowedOrigins: ['*'], MaxAge: '3000', Id: 'web' }] },
      WebsiteConfiguration: { IndexDocument: 'index.html', ErrorDocument: 'error.html' },
    };
    const updated = await bucket.update(rc, next, { props, state });
    expect(updated.physicalId).toBe(name);
    expect((await s3.send(new GetBucketTaggingCommand({ Bucket: name }))).TagSet).toEqual([{ Key: 'team', Value: 'platform' }]);
    const cors = await s3.send(new GetBucketCorsCommand({ Bucket: name }));
    expect(cors.CORSRules).toEqual([{ ID: 'web', AllowedMethods: ['GET'], AllowedOrigins: ['*'], MaxAgeSeconds: 3000 }]);
    expect((await s3.send(new GetBucketWebsiteCommand({ Bucket: name }))).IndexDocument).toEqual({ Suffix: 'index.html' });
    expect((await rejection(s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: name })))).name).toBe(
      'NoSuchLifecycleConfiguration',
    );
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket: name }))).Status).toBe('Suspended');
  });

  it('refuses a name that exists, validates, and removes the bucket when a configuration fails', async ({ server: t, s3 }) => {
    await s3.send(new CreateBucketCommand({ Bucket: 'already-here' }));
    const rc = resourceContext(t, 'AWS::S3::Bucket', 'B');
    const taken = await rejection(bucket.create(rc, { BucketName: 'already-here' }));
    expect(taken.message).toBe('already-here already exists');
    const invalid = await rejection(bucket.create(rc, { BucketName: 'Not_Valid' }));
    expect(invalid.code).toBe('InvalidBucketName');
    const extra = await rejection(bucket.create(rc, { BucketName: 'x-bucket', Versioning: {} }));
    expect(extra.message).toBe('Properties validation failed for resource B with message: #: extraneous key [Versioning] is not permitted');

    const lock = await rejection(
      bucket.create(rc, { BucketName: 'lock-needs-versioning', ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled' } }),
    );
    expect(lock.code).toBe('InvalidRequest');
    expect((await rejection(s3.send(new HeadBucketCommand({ Bucket: 'lock-needs-versioning' })))).name).toBe('NotFound');
  });
});
