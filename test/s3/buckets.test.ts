/**
 * Buckets through @aws-sdk/client-s3: creation rules (names, the reserved `--table-s3` suffix,
 * LocationConstraint, ownership across accounts), HeadBucket, GetBucketLocation, ListBuckets
 * pagination, DeleteBucket, the stored configurations (encryption, policy, tagging, CORS,
 * versioning, lifecycle, public access block, ownership controls) and CORS preflight answers.
 */
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteBucketCorsCommand,
  DeleteBucketEncryptionCommand,
  DeleteBucketPolicyCommand,
  DeleteBucketTaggingCommand,
  DeleteObjectCommand,
  GetBucketAclCommand,
  GetBucketCorsCommand,
  GetBucketEncryptionCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketLocationCommand,
  GetBucketOwnershipControlsCommand,
  GetBucketPolicyCommand,
  GetBucketTaggingCommand,
  GetBucketVersioningCommand,
  GetPublicAccessBlockCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  PutBucketCorsCommand,
  PutBucketEncryptionCommand,
  PutBucketLifecycleConfigurationCommand,
  PutBucketOwnershipControlsCommand,
  PutBucketPolicyCommand,
  PutBucketTaggingCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  PutPublicAccessBlockCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { internalCtx } from '../../src/runtime/runtime.js';
import { createBucket, headBucket } from '../../src/services/s3/provider.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { failure } from '../helpers/errors.js';
import { auth, raw, s3Client, xmlText } from './helpers.js';

let t: TestServer;
let s3: S3Client;
beforeAll(async () => {
  t = await startTestServer();
  s3 = s3Client(t);
});
afterAll(async () => t.stop());

async function names(client = s3): Promise<string[]> {
  return ((await client.send(new ListBucketsCommand({}))).Buckets ?? []).map((b) => b.Name!);
}


describe('creating buckets', () => {
  it('creates, heads, locates and lists a bucket', async () => {
    const created = await s3.send(new CreateBucketCommand({ Bucket: 'alpha-bucket' }));
    expect(created.Location).toBe('/alpha-bucket');
    const head = await s3.send(new HeadBucketCommand({ Bucket: 'alpha-bucket' }));
    expect(head.BucketRegion).toBe('us-east-1');
    const loc = await s3.send(new GetBucketLocationCommand({ Bucket: 'alpha-bucket' }));
    expect(loc.LocationConstraint ?? '').toBe('');
    expect(await names()).toContain('alpha-bucket');
  });

  it('refuses invalid names with InvalidBucketName and creates nothing', async () => {
    for (const name of ['ab', 'Upper-Case', '192.168.1.1', 'bad..dots', '-leading', 'xn--punycode', 'warehouse--table-s3', 'a'.repeat(64)]) {
      const f = await failure(s3.send(new CreateBucketCommand({ Bucket: name })));
      expect(f.name, name).toBe('InvalidBucketName');
      expect(f.status).toBe(400);
      expect(f.error.BucketName).toBe(name);
    }
    expect(await names()).not.toContain('warehouse--table-s3');
  });

  it('lets Overcast itself create --table-s3 warehouses in-process', async () => {
    const ctx = internalCtx(t.server.runtime, '000000000000', 'us-east-1', 'test');
    createBucket(ctx, { Bucket: 'abc123--table-s3' }, { allowReserved: true });
    expect(headBucket(ctx, { Bucket: 'abc123--table-s3' }).BucketRegion).toBe('us-east-1');
    const head = await s3.send(new HeadBucketCommand({ Bucket: 'abc123--table-s3' }));
    expect(head.$metadata.httpStatusCode).toBe(200);
  });

  it('answers us-east-1 re-creation with 200, elsewhere BucketAlreadyOwnedByYou, across accounts BucketAlreadyExists', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'again-bucket' }));
    await s3.send(new CreateBucketCommand({ Bucket: 'again-bucket' }));
    const eu = s3Client(t, { region: 'eu-west-1' });
    await eu.send(new CreateBucketCommand({ Bucket: 'eu-bucket', CreateBucketConfiguration: { LocationConstraint: 'eu-west-1' } }));
    const loc = await eu.send(new GetBucketLocationCommand({ Bucket: 'eu-bucket' }));
    expect(loc.LocationConstraint).toBe('eu-west-1');
    const owned = await failure(
      eu.send(new CreateBucketCommand({ Bucket: 'eu-bucket', CreateBucketConfiguration: { LocationConstraint: 'eu-west-1' } })),
    );
    expect([owned.name, owned.status]).toEqual(['BucketAlreadyOwnedByYou', 409]);
    const other = s3Client(t, { credentials: { accessKeyId: '111122223333', secretAccessKey: 'x' } });
    const taken = await failure(other.send(new CreateBucketCommand({ Bucket: 'again-bucket' })));
    expect([taken.name, taken.status]).toEqual(['BucketAlreadyExists', 409]);
    expect(await names(other)).not.toContain('again-bucket');
  });

  it('enforces LocationConstraint against the request region', async () => {
    // The SDK adds the client's region as LocationConstraint, so send the bare request.
    const unspecified = await raw(t.endpoint, { method: 'PUT', path: '/no-constraint', headers: { authorization: auth('test', 'eu-west-1') } });
    expect(unspecified.status).toBe(400);
    expect(xmlText(unspecified.body, 'Code')).toBe('IllegalLocationConstraintException');
    const mismatch = await failure(
      s3.send(new CreateBucketCommand({ Bucket: 'mismatch-b', CreateBucketConfiguration: { LocationConstraint: 'eu-west-1' } })),
    );
    expect(mismatch.name).toBe('IllegalLocationConstraintException');
    const explicitUsEast = await failure(
      s3.send(new CreateBucketCommand({ Bucket: 'explicit-b', CreateBucketConfiguration: { LocationConstraint: 'us-east-1' as never } })),
    );
    expect(explicitUsEast.name).toBe('InvalidLocationConstraint');
    expect(await names()).not.toEqual(expect.arrayContaining(['no-constraint', 'mismatch-b', 'explicit-b']));
  });

  it('pages ListBuckets with MaxBuckets, ContinuationToken, Prefix and BucketRegion', async () => {
    const acct = s3Client(t, { credentials: { accessKeyId: '222233334444', secretAccessKey: 'x' } });
    for (const n of ['page-a', 'page-b', 'page-c', 'page-d', 'page-e', 'other-z']) await acct.send(new CreateBucketCommand({ Bucket: n }));
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await acct.send(new ListBucketsCommand({ MaxBuckets: 2, ContinuationToken: token, Prefix: 'page-' }));
      seen.push(...(page.Buckets ?? []).map((b) => b.Name!));
      expect(page.Owner?.ID).toMatch(/^[0-9a-f]{64}$/);
      token = page.ContinuationToken;
      pages++;
    } while (token);
    expect(seen).toEqual(['page-a', 'page-b', 'page-c', 'page-d', 'page-e']);
    expect(pages).toBe(3);
    const inRegion = await acct.send(new ListBucketsCommand({ BucketRegion: 'eu-west-1' }));
    expect(inRegion.Buckets ?? []).toEqual([]);
    const bad = await failure(acct.send(new ListBucketsCommand({ ContinuationToken: 'garbage!' })));
    expect(bad.name).toBe('InvalidArgument');
  });
});

describe('deleting buckets', () => {
  it('refuses a non-empty bucket with BucketNotEmpty, then deletes it once empty', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'full-bucket' }));
    await s3.send(new PutObjectCommand({ Bucket: 'full-bucket', Key: 'k', Body: 'x' }));
    const f = await failure(s3.send(new DeleteBucketCommand({ Bucket: 'full-bucket' })));
    expect([f.name, f.status, f.error.BucketName]).toEqual(['BucketNotEmpty', 409, 'full-bucket']);
    expect(await names()).toContain('full-bucket');
    await s3.send(new DeleteObjectCommand({ Bucket: 'full-bucket', Key: 'k' }));
    const del = await s3.send(new DeleteBucketCommand({ Bucket: 'full-bucket' }));
    expect(del.$metadata.httpStatusCode).toBe(204);
    expect(await names()).not.toContain('full-bucket');
  });

  it('answers NoSuchBucket for unknown buckets, and HEAD with a bare 404', async () => {
    const f = await failure(s3.send(new DeleteBucketCommand({ Bucket: 'never-made' })));
    expect([f.name, f.status, f.error.BucketName]).toEqual(['NoSuchBucket', 404, 'never-made']);
    const head = await failure(s3.send(new HeadBucketCommand({ Bucket: 'never-made' })));
    expect([head.name, head.status]).toEqual(['NotFound', 404]);
    const res = await raw(t.endpoint, { method: 'HEAD', path: '/never-made', headers: { authorization: auth() } });
    expect(res.status).toBe(404);
    expect(res.body.length).toBe(0);
  });
});

describe('reset', () => {
  it('forgets buckets and objects after POST /_overcast/reset, even ones just read', async () => {
    const other = await startTestServer();
    try {
      const c = s3Client(other);
      await c.send(new CreateBucketCommand({ Bucket: 'reset-me' }));
      await c.send(new PutObjectCommand({ Bucket: 'reset-me', Key: 'k', Body: 'x' }));
      await c.send(new HeadBucketCommand({ Bucket: 'reset-me' }));
      await c.send(new HeadObjectCommand({ Bucket: 'reset-me', Key: 'k' }));
      expect((await fetch(`${other.endpoint}/_overcast/reset`, { method: 'POST', headers: { 'content-type': 'application/json' } })).status).toBe(200);
      expect((await failure(c.send(new HeadBucketCommand({ Bucket: 'reset-me' })))).status).toBe(404);
      expect((await failure(c.send(new HeadObjectCommand({ Bucket: 'reset-me', Key: 'k' })))).status).toBe(404);
      await c.send(new CreateBucketCommand({ Bucket: 'reset-me' }));
      expect((await failure(c.send(new HeadObjectCommand({ Bucket: 'reset-me', Key: 'k' })))).status).toBe(404);
    } finally {
      await other.stop();
    }
  });
});

describe('bucket configurations', () => {
  beforeAll(async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'config-bucket' }));
  });

  it('answers ServerSideEncryptionConfigurationNotFoundError until encryption is set (the CDK relies on it)', async () => {
    const f = await failure(s3.send(new GetBucketEncryptionCommand({ Bucket: 'config-bucket' })));
    expect([f.name, f.status]).toEqual(['ServerSideEncryptionConfigurationNotFoundError', 404]);
    await s3.send(
      new PutBucketEncryptionCommand({
        Bucket: 'config-bucket',
        ServerSideEncryptionConfiguration: { Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms' } }] },
      }),
    );
    const got = await s3.send(new GetBucketEncryptionCommand({ Bucket: 'config-bucket' }));
    expect(got.ServerSideEncryptionConfiguration?.Rules?.[0]?.ApplyServerSideEncryptionByDefault?.SSEAlgorithm).toBe('aws:kms');
    const put = await s3.send(new PutObjectCommand({ Bucket: 'config-bucket', Key: 'enc', Body: 'x' }));
    expect(put.ServerSideEncryption).toBe('aws:kms');
    await s3.send(new DeleteBucketEncryptionCommand({ Bucket: 'config-bucket' }));
    expect((await failure(s3.send(new GetBucketEncryptionCommand({ Bucket: 'config-bucket' })))).status).toBe(404);
  });

  it('stores a policy, refusing malformed ones', async () => {
    expect((await failure(s3.send(new GetBucketPolicyCommand({ Bucket: 'config-bucket' })))).name).toBe('NoSuchBucketPolicy');
    const bad = await failure(s3.send(new PutBucketPolicyCommand({ Bucket: 'config-bucket', Policy: 'not json' })));
    expect([bad.name, bad.status]).toEqual(['MalformedPolicy', 400]);
    const policy = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::config-bucket/*' }] });
    await s3.send(new PutBucketPolicyCommand({ Bucket: 'config-bucket', Policy: policy }));
    expect((await s3.send(new GetBucketPolicyCommand({ Bucket: 'config-bucket' }))).Policy).toBe(policy);
    await s3.send(new DeleteBucketPolicyCommand({ Bucket: 'config-bucket' }));
    expect((await failure(s3.send(new GetBucketPolicyCommand({ Bucket: 'config-bucket' })))).name).toBe('NoSuchBucketPolicy');
  });

  it('stores tags, refusing duplicates and aws: keys', async () => {
    expect((await failure(s3.send(new GetBucketTaggingCommand({ Bucket: 'config-bucket' })))).name).toBe('NoSuchTagSet');
    const dup = await failure(
      s3.send(new PutBucketTaggingCommand({ Bucket: 'config-bucket', Tagging: { TagSet: [{ Key: 'a', Value: '1' }, { Key: 'a', Value: '2' }] } })),
    );
    expect(dup.name).toBe('InvalidTag');
    const sys = await failure(s3.send(new PutBucketTaggingCommand({ Bucket: 'config-bucket', Tagging: { TagSet: [{ Key: 'aws:x', Value: '1' }] } })));
    expect(sys.name).toBe('InvalidTag');
    await s3.send(new PutBucketTaggingCommand({ Bucket: 'config-bucket', Tagging: { TagSet: [{ Key: 'team', Value: 'data' }] } }));
    expect((await s3.send(new GetBucketTaggingCommand({ Bucket: 'config-bucket' }))).TagSet).toEqual([{ Key: 'team', Value: 'data' }]);
    await s3.send(new DeleteBucketTaggingCommand({ Bucket: 'config-bucket' }));
    expect((await failure(s3.send(new GetBucketTaggingCommand({ Bucket: 'config-bucket' })))).name).toBe('NoSuchTagSet');
  });

  it('stores versioning, lifecycle, public access block, ownership controls and answers ACLs', async () => {
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket: 'config-bucket' }))).Status).toBeUndefined();
    await s3.send(new PutBucketVersioningCommand({ Bucket: 'config-bucket', VersioningConfiguration: { Status: 'Enabled' } }));
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket: 'config-bucket' }))).Status).toBe('Enabled');

    expect((await failure(s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: 'config-bucket' })))).name).toBe(
      'NoSuchLifecycleConfiguration',
    );
    await s3.send(
      new PutBucketLifecycleConfigurationCommand({
        Bucket: 'config-bucket',
        LifecycleConfiguration: { Rules: [{ ID: 'expire', Status: 'Enabled', Filter: { Prefix: 'tmp/' }, Expiration: { Days: 7 } }] },
      }),
    );
    const lc = await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: 'config-bucket' }));
    expect(lc.Rules?.[0]).toMatchObject({ ID: 'expire', Status: 'Enabled', Expiration: { Days: 7 } });

    expect((await failure(s3.send(new GetPublicAccessBlockCommand({ Bucket: 'config-bucket' })))).name).toBe(
      'NoSuchPublicAccessBlockConfiguration',
    );
    await s3.send(
      new PutPublicAccessBlockCommand({ Bucket: 'config-bucket', PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true } }),
    );
    const pab = await s3.send(new GetPublicAccessBlockCommand({ Bucket: 'config-bucket' }));
    expect(pab.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      IgnorePublicAcls: false,
      BlockPublicPolicy: true,
      RestrictPublicBuckets: false,
    });

    expect((await failure(s3.send(new GetBucketOwnershipControlsCommand({ Bucket: 'config-bucket' })))).name).toBe(
      'OwnershipControlsNotFoundError',
    );
    await s3.send(
      new PutBucketOwnershipControlsCommand({ Bucket: 'config-bucket', OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] } }),
    );
    const oc = await s3.send(new GetBucketOwnershipControlsCommand({ Bucket: 'config-bucket' }));
    expect(oc.OwnershipControls?.Rules?.[0]?.ObjectOwnership).toBe('BucketOwnerEnforced');

    const acl = await s3.send(new GetBucketAclCommand({ Bucket: 'config-bucket' }));
    expect(acl.Grants?.[0]?.Permission).toBe('FULL_CONTROL');
    expect(acl.Owner?.ID).toBe(acl.Grants?.[0]?.Grantee?.ID);
  });

  it('refuses malformed configuration XML with MalformedXML and keeps the old one', async () => {
    await s3.send(new PutBucketVersioningCommand({ Bucket: 'config-bucket', VersioningConfiguration: { Status: 'Suspended' } }));
    const res = await raw(t.endpoint, {
      method: 'PUT',
      path: '/config-bucket?versioning',
      headers: { authorization: auth(), 'content-type': 'application/xml' },
      body: '<VersioningConfiguration><Status>Enabled</Status',
    });
    expect(res.status).toBe(400);
    expect(xmlText(res.body, 'Code')).toBe('MalformedXML');
    expect((await s3.send(new GetBucketVersioningCommand({ Bucket: 'config-bucket' }))).Status).toBe('Suspended');
  });
});

describe('CORS', () => {
  beforeAll(async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'cors-bucket' }));
    await s3.send(new CreateBucketCommand({ Bucket: 'no-cors-bucket' }));
  });

  it('stores rules and answers preflight requests by them', async () => {
    expect((await failure(s3.send(new GetBucketCorsCommand({ Bucket: 'cors-bucket' })))).name).toBe('NoSuchCORSConfiguration');
    await s3.send(
      new PutBucketCorsCommand({
        Bucket: 'cors-bucket',
        CORSConfiguration: {
          CORSRules: [
            {
              AllowedOrigins: ['https://*.example.com'],
              AllowedMethods: ['GET', 'PUT'],
              AllowedHeaders: ['content-type', 'x-amz-*'],
              ExposeHeaders: ['ETag'],
              MaxAgeSeconds: 600,
            },
          ],
        },
      }),
    );
    const rules = (await s3.send(new GetBucketCorsCommand({ Bucket: 'cors-bucket' }))).CORSRules;
    expect(rules?.[0]?.AllowedMethods).toEqual(['GET', 'PUT']);

    const ok = await raw(t.endpoint, {
      method: 'OPTIONS',
      path: '/cors-bucket/some/key',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'Content-Type, X-Amz-Date',
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(ok.headers['access-control-allow-methods']).toBe('GET, PUT');
    expect(ok.headers['access-control-allow-headers']).toBe('content-type, x-amz-date');
    expect(ok.headers['access-control-expose-headers']).toBe('ETag');
    expect(ok.headers['access-control-max-age']).toBe('600');

    const denied = await raw(t.endpoint, {
      method: 'OPTIONS',
      path: '/cors-bucket/k',
      headers: { origin: 'https://evil.test', 'access-control-request-method': 'GET' },
    });
    expect(denied.status).toBe(403);
    expect(xmlText(denied.body, 'Code')).toBe('AccessForbidden');
    expect(xmlText(denied.body, 'Message')).toMatch(/^CORSResponse: This CORS request is not allowed/);

    const noOrigin = await raw(t.endpoint, { method: 'OPTIONS', path: '/cors-bucket/k', headers: { 'access-control-request-method': 'GET' } });
    expect(noOrigin.status).toBe(400);
    expect(xmlText(noOrigin.body, 'Code')).toBe('BadRequest');

    const disabled = await raw(t.endpoint, {
      method: 'OPTIONS',
      path: '/no-cors-bucket/k',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' },
    });
    expect(disabled.status).toBe(403);
    expect(xmlText(disabled.body, 'Message')).toBe('CORSResponse: CORS is not enabled for this bucket.');
  });

  it('adds CORS headers to actual requests from an allowed origin', async () => {
    await s3.send(new PutObjectCommand({ Bucket: 'cors-bucket', Key: 'page', Body: 'hello' }));
    const res = await fetch(`${t.endpoint}/cors-bucket/page`, { headers: { origin: 'https://www.example.com' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://www.example.com');
    expect(res.headers.get('access-control-expose-headers')).toBe('ETag');
    const other = await fetch(`${t.endpoint}/cors-bucket/page`, { headers: { origin: 'https://evil.test' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    await s3.send(new DeleteBucketCorsCommand({ Bucket: 'cors-bucket' }));
    expect((await failure(s3.send(new GetBucketCorsCommand({ Bucket: 'cors-bucket' })))).name).toBe('NoSuchCORSConfiguration');
  });
});
