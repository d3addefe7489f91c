/**
 * STS through @aws-sdk/client-sts and the aws CLI: the caller's identity per access key,
 * AssumeRole for any role ARN with credentials that act in the role's account (an S3 bucket
 * created with them belongs to that account), GetSessionToken, AssumeRoleWithWebIdentity (sent
 * unsigned), and the validation errors with AWS's codes and messages.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CreateBucketCommand, ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import {
  AssumeRoleCommand,
  AssumeRoleWithWebIdentityCommand,
  GetAccessKeyInfoCommand,
  GetCallerIdentityCommand,
  GetSessionTokenCommand,
  STSClient,
} from '@aws-sdk/client-sts';
import { describe, expect, it } from '../helpers/fixture.js';
import { failure } from '../helpers/errors.js';

const run = promisify(execFile);


const DEPLOY_ROLE = 'arn:aws:iam::222233334444:role/cdk-hnb659fds-deploy-role-222233334444-us-east-1';

describe('GetCallerIdentity', () => {
  it('answers with the account of the access key and an IAM user ARN', async ({ server: t, sts }) => {
    const me = await sts.send(new GetCallerIdentityCommand({}));
    expect(me).toMatchObject({ Account: '000000000000', Arn: 'arn:aws:iam::000000000000:user/overcast' });
    expect(me.UserId).toMatch(/^AIDA[A-Z2-7]{17}$/);
    const other = new STSClient({ ...t.clientConfig, credentials: { accessKeyId: '111122223333', secretAccessKey: 'x' } });
    expect((await other.send(new GetCallerIdentityCommand({}))).Account).toBe('111122223333');
    const info = await sts.send(new GetAccessKeyInfoCommand({ AccessKeyId: 'ASIA111122223333ABCD' }));
    expect(info.Account).toBe('111122223333');
  });
});

describe('AssumeRole', () => {
  it('issues credentials for the role account that act as the assumed role', async ({ server: t, sts }) => {
    const before = Date.now();
    const res = await sts.send(new AssumeRoleCommand({ RoleArn: DEPLOY_ROLE, RoleSessionName: 'aws-cdk-dev' }));
    const c = res.Credentials!;
    expect(c.AccessKeyId).toMatch(/^ASIA222233334444[A-Z0-9]{4}$/);
    expect(c.SecretAccessKey!.length).toBeGreaterThanOrEqual(40);
    expect(c.SessionToken!.length).toBeGreaterThan(100);
    expect(c.Expiration!.getTime()).toBeGreaterThan(before + 3500_000);
    expect(c.Expiration!.getTime()).toBeLessThanOrEqual(before + 3601_000);
    expect(res.AssumedRoleUser).toEqual({
      Arn: 'arn:aws:sts::222233334444:assumed-role/cdk-hnb659fds-deploy-role-222233334444-us-east-1/aws-cdk-dev',
      AssumedRoleId: expect.stringMatching(/^AROA[A-Z2-7]{17}:aws-cdk-dev$/),
    });

    const credentials = { accessKeyId: c.AccessKeyId!, secretAccessKey: c.SecretAccessKey!, sessionToken: c.SessionToken! };
    const asRole = new STSClient({ ...t.clientConfig, credentials });
    const who = await asRole.send(new GetCallerIdentityCommand({}));
    expect(who).toEqual({
      $metadata: expect.anything(),
      Account: '222233334444',
      Arn: res.AssumedRoleUser!.Arn,
      UserId: res.AssumedRoleUser!.AssumedRoleId,
    });

    // The same role gets the same role id every time, like an IAM role.
    const again = await sts.send(new AssumeRoleCommand({ RoleArn: DEPLOY_ROLE, RoleSessionName: 'second' }));
    expect(again.AssumedRoleUser!.AssumedRoleId!.split(':')[0]).toBe(res.AssumedRoleUser!.AssumedRoleId!.split(':')[0]);
    expect(again.Credentials!.AccessKeyId).not.toBe(c.AccessKeyId);

    // Resources created with the temporary credentials land in the role's account.
    const s3AsRole = new S3Client({ ...t.clientConfig, credentials });
    await s3AsRole.send(new CreateBucketCommand({ Bucket: 'made-by-the-deploy-role' }));
    const roleAccount = new S3Client({ ...t.clientConfig, credentials: { accessKeyId: '222233334444', secretAccessKey: 'x' } });
    expect((await roleAccount.send(new ListBucketsCommand({}))).Buckets?.map((b) => b.Name)).toContain('made-by-the-deploy-role');
    const mine = await new S3Client(t.clientConfig).send(new ListBucketsCommand({}));
    expect(mine.Buckets?.map((b) => b.Name) ?? []).not.toContain('made-by-the-deploy-role');
  });

  it('uses the last path segment as the role name and honours DurationSeconds', async ({ server: t, sts }) => {
    const res = await sts.send(
      new AssumeRoleCommand({ RoleArn: 'arn:aws:iam::123456789012:role/team/ops/Admin', RoleSessionName: 's@x.com', DurationSeconds: 900 }),
    );
    expect(res.AssumedRoleUser?.Arn).toBe('arn:aws:sts::123456789012:assumed-role/Admin/s@x.com');
    const ttl = res.Credentials!.Expiration!.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(850_000);
    expect(ttl).toBeLessThanOrEqual(900_000);
  });

  it('refuses invalid input with ValidationError and AWS messages', async ({ server: t, sts }) => {
    const session = await failure(sts.send(new AssumeRoleCommand({ RoleArn: DEPLOY_ROLE, RoleSessionName: 'has space' })));
    expect(session).toMatchObject({ name: 'ValidationError', status: 400 });
    expect(session.message).toBe(
      "1 validation error detected: Value 'has space' at 'roleSessionName' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]*",
    );
    const short = await failure(sts.send(new AssumeRoleCommand({ RoleArn: 'arn:x', RoleSessionName: 'ok' })));
    expect(short.message).toBe(
      "1 validation error detected: Value 'arn:x' at 'roleArn' failed to satisfy constraint: Member must have length greater than or equal to 20",
    );
    const notRole = await failure(sts.send(new AssumeRoleCommand({ RoleArn: 'arn:aws:s3:::some-bucket-name', RoleSessionName: 'ok' })));
    expect(notRole).toMatchObject({ name: 'ValidationError', message: 'Request ARN is invalid', status: 400 });
    const duration = await failure(sts.send(new AssumeRoleCommand({ RoleArn: DEPLOY_ROLE, RoleSessionName: 'ok', DurationSeconds: 60 })));
    expect(duration.message).toMatch(/at 'durationSeconds' failed to satisfy constraint: Member must have value greater than or equal to 900/);
    const policy = await failure(
      sts.send(new AssumeRoleCommand({ RoleArn: DEPLOY_ROLE, RoleSessionName: 'ok', Policy: '{not json' })),
    );
    expect(policy).toMatchObject({ name: 'MalformedPolicyDocumentException', status: 400 });
  });

  it('caps role chaining at one hour', async ({ server: t, sts }) => {
    const first = await sts.send(new AssumeRoleCommand({ RoleArn: DEPLOY_ROLE, RoleSessionName: 'first' }));
    const c = first.Credentials!;
    const chained = new STSClient({
      ...t.clientConfig,
      credentials: { accessKeyId: c.AccessKeyId!, secretAccessKey: c.SecretAccessKey!, sessionToken: c.SessionToken! },
    });
    const err = await failure(
      chained.send(new AssumeRoleCommand({ RoleArn: 'arn:aws:iam::333344445555:role/next', RoleSessionName: 'second', DurationSeconds: 7200 })),
    );
    expect(err).toMatchObject({ name: 'ValidationError', status: 400 });
    expect(err.message).toMatch(/1 hour session limit for roles assumed by role chaining/);
    const ok = await chained.send(new AssumeRoleCommand({ RoleArn: 'arn:aws:iam::333344445555:role/next', RoleSessionName: 'second' }));
    expect(ok.Credentials?.AccessKeyId).toMatch(/^ASIA333344445555/);
  });
});

describe('GetSessionToken and AssumeRoleWithWebIdentity', () => {
  it('issues session tokens that keep the user identity, and refuses them for session credentials', async ({ server: t, sts }) => {
    const res = await sts.send(new GetSessionTokenCommand({ DurationSeconds: 3600 }));
    const c = res.Credentials!;
    expect(c.AccessKeyId).toMatch(/^ASIA000000000000/);
    const withSession = new STSClient({
      ...t.clientConfig,
      credentials: { accessKeyId: c.AccessKeyId!, secretAccessKey: c.SecretAccessKey!, sessionToken: c.SessionToken! },
    });
    expect((await withSession.send(new GetCallerIdentityCommand({}))).Arn).toBe('arn:aws:iam::000000000000:user/overcast');
    const err = await failure(withSession.send(new GetSessionTokenCommand({})));
    expect(err).toMatchObject({ name: 'AccessDenied', status: 403 });
  });

  it('exchanges a web identity token (sent unsigned) for role credentials', async ({ server: t, sts }) => {
    const jwt = [
      Buffer.from('{"alg":"none"}').toString('base64url'),
      Buffer.from(JSON.stringify({ sub: 'repo:org/app', aud: 'sts.amazonaws.com', iss: 'https://token.example.com' })).toString(
        'base64url',
      ),
      'sig',
    ].join('.');
    const res = await sts.send(
      new AssumeRoleWithWebIdentityCommand({
        RoleArn: 'arn:aws:iam::444455556666:role/ci',
        RoleSessionName: 'gha',
        WebIdentityToken: jwt,
      }),
    );
    expect(res).toMatchObject({
      SubjectFromWebIdentityToken: 'repo:org/app',
      Audience: 'sts.amazonaws.com',
      Provider: 'token.example.com',
      AssumedRoleUser: { Arn: 'arn:aws:sts::444455556666:assumed-role/ci/gha' },
    });
    expect(res.Credentials?.AccessKeyId).toMatch(/^ASIA444455556666/);
  });
});

describe('aws sts (CLI)', () => {
  it('get-caller-identity and assume-role', async ({ server: t, sts }) => {
    const who = JSON.parse((await run('aws', ['sts', 'get-caller-identity', '--output', 'json'], { env: t.env })).stdout);
    expect(who).toMatchObject({ Account: '000000000000', Arn: 'arn:aws:iam::000000000000:user/overcast' });
    const assumed = JSON.parse(
      (
        await run('aws', ['sts', 'assume-role', '--role-arn', DEPLOY_ROLE, '--role-session-name', 'cli', '--output', 'json'], {
          env: t.env,
        })
      ).stdout,
    );
    expect(assumed.AssumedRoleUser.Arn).toMatch(/:assumed-role\/cdk-hnb659fds-deploy-role-222233334444-us-east-1\/cli$/);
    const asRole = JSON.parse(
      (
        await run('aws', ['sts', 'get-caller-identity', '--output', 'json'], {
          env: {
            ...t.env,
            AWS_ACCESS_KEY_ID: assumed.Credentials.AccessKeyId,
            AWS_SECRET_ACCESS_KEY: assumed.Credentials.SecretAccessKey,
            AWS_SESSION_TOKEN: assumed.Credentials.SessionToken,
          },
        })
      ).stdout,
    );
    expect(asRole.Account).toBe('222233334444');
    expect(asRole.Arn).toBe(assumed.AssumedRoleUser.Arn);
  });
});
