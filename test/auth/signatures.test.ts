/**
 * Strict mode's authentication through real clients: the SDK with the right credentials works on
 * every service, with a wrong secret, an unknown key, a body changed after signing or a clock an
 * hour off it gets each protocol's AWS error; presigned URLs expire, and any changed parameter or
 * path breaks them; STS session credentials work until they expire; signed aws-chunked uploads are
 * checked chunk by chunk. The default mode still takes any credentials.
 */
import { CloudFormationClient, ListStacksCommand } from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateTableBucketCommand, ListTableBucketsCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { GetParameterCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { GetCallerIdentityCommand, GetSessionTokenCommand, STSClient } from '@aws-sdk/client-sts';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Hash } from '@smithy/hash-node';
import { HttpRequest } from '@smithy/protocol-http';
import type { FinalizeHandler, FinalizeHandlerArguments } from '@smithy/types';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { failure } from '../helpers/errors.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const BUCKET = 'strict-bucket';
type Creds = { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
const config = (credentials: Creds, extra: object = {}) => ({ ...t.clientConfig, credentials, maxAttempts: 1, ...extra });
const WRONG = { accessKeyId: 'test', secretAccessKey: 'not-the-secret' };
const UNKNOWN = { accessKeyId: 'AKIAUNKNOWN000000000', secretAccessKey: 'x' };

beforeAll(async () => {
  t = await startTestServer({ auth: 'strict' });
  await new S3Client(config(t.credentials)).send(new CreateBucketCommand({ Bucket: BUCKET }));
});
afterAll(() => t.stop());

describe('header signatures', () => {
  it('the right credentials work on every service', async () => {
    const good = t.credentials;
    await new S3Client(config(good)).send(new PutObjectCommand({ Bucket: BUCKET, Key: 'k', Body: 'hello' }));
    await new S3TablesClient(config(good)).send(new CreateTableBucketCommand({ name: 'strict-tables' }));
    await new SSMClient(config(good)).send(new PutParameterCommand({ Name: '/p', Value: 'v', Type: 'String' }));
    expect((await new SSMClient(config(good)).send(new GetParameterCommand({ Name: '/p' }))).Parameter?.Value).toBe('v');
    await new CloudFormationClient(config(good)).send(new ListStacksCommand({}));
    expect((await new STSClient(config(good)).send(new GetCallerIdentityCommand({}))).Account).toBe('000000000000');
  });

  it("a wrong secret: each protocol's signature error, S3's with its StringToSign and CanonicalRequest", async () => {
    const s3 = await failure(new S3Client(config(WRONG)).send(new PutObjectCommand({ Bucket: BUCKET, Key: 'k', Body: 'evil' })));
    expect([s3.status, s3.name]).toEqual([403, 'SignatureDoesNotMatch']);
    expect(s3.message).toBe('The request signature we calculated does not match the signature you provided. Check your key and signing method.');
    expect(s3.error.StringToSign).toMatch(/^AWS4-HMAC-SHA256\n\d{8}T\d{6}Z\n\d{8}\/us-east-1\/s3\/aws4_request\n[0-9a-f]{64}$/);
    expect(s3.error.CanonicalRequest).toMatch(/^PUT\n\/strict-bucket\/k\n/);
    expect(s3.error.AWSAccessKeyId).toBe('test');
    const tables = await failure(new S3TablesClient(config(WRONG)).send(new ListTableBucketsCommand({})));
    expect([tables.status, tables.name]).toEqual([403, 'InvalidSignatureException']);
    const ssm = await failure(new SSMClient(config(WRONG)).send(new GetParameterCommand({ Name: '/p' })));
    expect([ssm.status, ssm.name]).toEqual([400, 'InvalidSignatureException']);
    const sts = await failure(new STSClient(config(WRONG)).send(new GetCallerIdentityCommand({})));
    expect([sts.status, sts.name]).toEqual([403, 'SignatureDoesNotMatch']);
    const cfn = await failure(new CloudFormationClient(config(WRONG)).send(new ListStacksCommand({})));
    expect([cfn.status, cfn.name]).toEqual([403, 'SignatureDoesNotMatch']);
    const body = await new S3Client(config(t.credentials)).send(new GetObjectCommand({ Bucket: BUCKET, Key: 'k' }));
    expect(await body.Body!.transformToString()).toBe('hello');
  });

  it('an unknown access key: InvalidAccessKeyId, UnrecognizedClientException, InvalidClientTokenId', async () => {
    const s3 = await failure(new S3Client(config(UNKNOWN)).send(new GetObjectCommand({ Bucket: BUCKET, Key: 'k' })));
    expect([s3.status, s3.name, s3.message]).toEqual([403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.']);
    const tables = await failure(new S3TablesClient(config(UNKNOWN)).send(new ListTableBucketsCommand({})));
    expect([tables.status, tables.name, tables.message]).toEqual([403, 'UnrecognizedClientException', 'The security token included in the request is invalid.']);
    const sts = await failure(new STSClient(config(UNKNOWN)).send(new GetCallerIdentityCommand({})));
    expect([sts.status, sts.name]).toEqual([403, 'InvalidClientTokenId']);
  });

  it('a body changed after signing: XAmzContentSHA256Mismatch for S3, a signature error elsewhere; nothing changes', async () => {
    type Stack = { addRelativeTo(middleware: unknown, options: object): void };
    const tamper = <C extends object>(client: C): C => {
      const middleware = (next: FinalizeHandler<object, object>) => async (args: FinalizeHandlerArguments<object>) => {
        const req = args.request as HttpRequest;
        const text = typeof req.body === 'string' ? req.body : Buffer.from(req.body as Uint8Array).toString();
        req.body = text.replace(/hello|tampered-before/g, (m) => 'X'.repeat(m.length));
        return next(args);
      };
      (client as unknown as { middlewareStack: Stack }).middlewareStack.addRelativeTo(middleware, {
        relation: 'after',
        toMiddleware: 'httpSigningMiddleware',
        name: 'tamperAfterSigning',
      });
      return client;
    };
    const s3 = await failure(tamper(new S3Client(config(t.credentials))).send(new PutObjectCommand({ Bucket: BUCKET, Key: 'k', Body: 'hello' })));
    expect([s3.status, s3.name]).toEqual([400, 'XAmzContentSHA256Mismatch']);
    expect(s3.error.ClientComputedContentSHA256).toMatch(/^[0-9a-f]{64}$/);
    const ssm = tamper(new SSMClient(config(t.credentials)));
    const put = await failure(ssm.send(new PutParameterCommand({ Name: '/p', Value: 'tampered-before', Type: 'String', Overwrite: true })));
    expect(put.name).toBe('InvalidSignatureException');
    expect((await new SSMClient(config(t.credentials)).send(new GetParameterCommand({ Name: '/p' }))).Parameter?.Value).toBe('v');
  });

  it('a clock an hour off: RequestTimeTooSkewed (S3), InvalidSignatureException (JSON), SignatureDoesNotMatch (query)', async () => {
    const skewed = { systemClockOffset: -3_600_000 };
    const s3 = await failure(new S3Client(config(t.credentials, skewed)).send(new GetObjectCommand({ Bucket: BUCKET, Key: 'k' })));
    expect([s3.status, s3.name]).toEqual([403, 'RequestTimeTooSkewed']);
    expect(s3.error.MaxAllowedSkewMilliseconds).toBe('900000');
    const ssm = await failure(new SSMClient(config(t.credentials, skewed)).send(new GetParameterCommand({ Name: '/p' })));
    expect(ssm.name).toBe('InvalidSignatureException');
    expect(ssm.message).toMatch(/^Signature expired: \d{8}T\d{6}Z is now earlier than/);
    const sts = await failure(new STSClient(config(t.credentials, skewed)).send(new GetCallerIdentityCommand({})));
    expect(sts.name).toBe('SignatureDoesNotMatch');
  });
});

describe('presigned URLs', () => {
  const s3 = () => new S3Client(config(t.credentials));
  const code = async (res: Response) => /<Code>(\w+)<\/Code>/.exec(await res.text())?.[1];

  it('work as signed; a changed key, a raised X-Amz-Expires or an extra parameter break them', async () => {
    const url = await getSignedUrl(s3(), new GetObjectCommand({ Bucket: BUCKET, Key: 'k' }), { expiresIn: 60 });
    const ok = await fetch(url);
    expect([ok.status, await ok.text()]).toEqual([200, 'hello']);
    for (const altered of [url.replace('/k?', '/other?'), url.replace('X-Amz-Expires=60', 'X-Amz-Expires=3600'), `${url}&response-content-type=text%2Fhtml`]) {
      const res = await fetch(altered);
      expect([res.status, await code(res)]).toEqual([403, 'SignatureDoesNotMatch']);
    }
    const week = await fetch(url.replace('X-Amz-Expires=60', 'X-Amz-Expires=604801'));
    expect([week.status, await code(week)]).toEqual([400, 'AuthorizationQueryParametersError']);
  });

  it('expire: AccessDenied "Request has expired" with its X-Amz-Expires, Expires and ServerTime', async () => {
    const url = await getSignedUrl(s3(), new GetObjectCommand({ Bucket: BUCKET, Key: 'k' }), { expiresIn: 60, signingDate: new Date(Date.now() - 120_000) });
    const res = await fetch(url);
    const text = await res.text();
    expect(res.status).toBe(403);
    expect(text).toContain('<Code>AccessDenied</Code><Message>Request has expired</Message>');
    expect(text).toMatch(/<X-Amz-Expires>60<\/X-Amz-Expires><Expires>[^<]+Z<\/Expires><ServerTime>[^<]+Z<\/ServerTime>/);
  });

  it('a presigned PUT stores exactly what was signed for', async () => {
    const url = await getSignedUrl(s3(), new PutObjectCommand({ Bucket: BUCKET, Key: 'presigned' }), { expiresIn: 60 });
    expect((await fetch(url, { method: 'PUT', body: 'via url' })).status).toBe(200);
    expect((await fetch(url.replace('/presigned?', '/elsewhere?'), { method: 'PUT', body: 'x' })).status).toBe(403);
    const got = await s3().send(new GetObjectCommand({ Bucket: BUCKET, Key: 'presigned' }));
    expect(await got.Body!.transformToString()).toBe('via url');
  });
});

describe('STS session credentials', () => {
  it('work until they expire, then ExpiredToken; a wrong session token is refused', async () => {
    const session = (await new STSClient(config(t.credentials)).send(new GetSessionTokenCommand({ DurationSeconds: 900 }))).Credentials!;
    expect(session.AccessKeyId).toMatch(/^ASIA/);
    const creds = { accessKeyId: session.AccessKeyId!, secretAccessKey: session.SecretAccessKey!, sessionToken: session.SessionToken! };
    const who = await new STSClient(config(creds)).send(new GetCallerIdentityCommand({}));
    expect(who.Account).toBe('000000000000');
    await new S3Client(config(creds)).send(new GetObjectCommand({ Bucket: BUCKET, Key: 'k' }));
    const badToken = await failure(new S3Client(config({ ...creds, sessionToken: 'forged' })).send(new GetObjectCommand({ Bucket: BUCKET, Key: 'k' })));
    expect([badToken.status, badToken.name]).toEqual([400, 'InvalidToken']);
    // Twenty minutes on (client and in-process server share the clock, so no skew).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 20 * 60_000 });
    try {
      const s3 = await failure(new S3Client(config(creds)).send(new GetObjectCommand({ Bucket: BUCKET, Key: 'k' })));
      expect([s3.status, s3.name, s3.message]).toEqual([400, 'ExpiredToken', 'The provided token has expired.']);
      const tables = await failure(new S3TablesClient(config(creds)).send(new ListTableBucketsCommand({})));
      expect(tables.name).toBe('ExpiredTokenException');
      const sts = await failure(new STSClient(config(creds)).send(new GetCallerIdentityCommand({})));
      expect([sts.status, sts.name]).toEqual([403, 'ExpiredToken']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('signed aws-chunked uploads', () => {
  const sha256 = Hash.bind(null, 'sha256');

  /** A PUT with STREAMING-AWS4-HMAC-SHA256-PAYLOAD: seed signature, then each chunk signed on the previous. */
  async function chunkedPut(key: string, chunks: Buffer[], tamper?: (i: number, chunk: Buffer) => Buffer): Promise<Response> {
    const url = new URL(`${t.endpoint}/${BUCKET}/${key}`);
    const signingDate = new Date();
    const signer = new SignatureV4({ service: 's3', region: 'us-east-1', credentials: t.credentials, sha256, uriEscapePath: false, applyChecksum: false });
    const total = chunks.reduce((n, c) => n + c.length, 0);
    const frames = [...chunks, Buffer.alloc(0)];
    const encodedLength = frames.reduce((n, c) => n + c.length.toString(16).length + ';chunk-signature='.length + 64 + 4 + c.length, 0);
    const request = new HttpRequest({
      method: 'PUT',
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      headers: {
        host: url.host,
        'content-encoding': 'aws-chunked',
        'content-length': String(encodedLength),
        'x-amz-content-sha256': 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD',
        'x-amz-decoded-content-length': String(total),
      },
    });
    const signed = await signer.sign(request, { signingDate });
    let prior = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization))![1]!;
    const parts: Buffer[] = [];
    for (const [i, chunk] of frames.entries()) {
      const signature = await signer.sign({ headers: new Uint8Array(0), payload: chunk }, { signingDate, priorSignature: prior });
      prior = signature;
      const sent = tamper ? tamper(i, chunk) : chunk;
      parts.push(Buffer.from(`${chunk.length.toString(16)};chunk-signature=${signature}\r\n`), sent, Buffer.from('\r\n'));
    }
    return fetch(url, { method: 'PUT', headers: signed.headers as Record<string, string>, body: Buffer.concat(parts) });
  }

  it('a correct chain is stored; a chunk changed in flight is SignatureDoesNotMatch and stores nothing', async () => {
    const chunks = [Buffer.alloc(8192, 'a'), Buffer.alloc(100, 'b')];
    const ok = await chunkedPut('chunked', chunks);
    expect(ok.status).toBe(200);
    const got = await new S3Client(config(t.credentials)).send(new GetObjectCommand({ Bucket: BUCKET, Key: 'chunked' }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(Buffer.concat(chunks))).toBe(true);
    const bad = await chunkedPut('chunked-bad', chunks, (i, c) => (i === 1 ? Buffer.alloc(c.length, 'z') : c));
    expect([bad.status, /<Code>(\w+)<\/Code>/.exec(await bad.text())?.[1]]).toEqual([403, 'SignatureDoesNotMatch']);
    const missing = await failure(new S3Client(config(t.credentials)).send(new GetObjectCommand({ Bucket: BUCKET, Key: 'chunked-bad' })));
    expect(missing.name).toBe('NoSuchKey');
  });
});

describe('the default mode', () => {
  it('still takes any credentials, a wrong secret included', async () => {
    const open = await startTestServer();
    try {
      const s3 = new S3Client({ ...open.clientConfig, credentials: WRONG, maxAttempts: 1 });
      await s3.send(new CreateBucketCommand({ Bucket: 'anyone' }));
      await s3.send(new PutObjectCommand({ Bucket: 'anyone', Key: 'k', Body: 'x' }));
      const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: 'anyone', Key: 'k' }), { expiresIn: 60 });
      expect((await fetch(url.replace('/k?', '/k?x-id=Other&'))).status).toBe(200);
      expect((await new STSClient({ ...open.clientConfig, credentials: UNKNOWN }).send(new GetCallerIdentityCommand({}))).Account).toMatch(/^\d{12}$/);
    } finally {
      await open.stop();
    }
  });
});
