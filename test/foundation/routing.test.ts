/**
 * Routing on one port: the SigV4 signing name picks the service, unsigned requests reach S3,
 * other services get an AWS-shaped "not emulated" error, and the health endpoint answers.
 */
import { S3Client, CreateBucketCommand, ListBucketsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from '../helpers/fixture.js';


describe('routing', () => {
  it('answers the health endpoint with version, store mode and services', async ({ server: t }) => {
    const res = await fetch(`${t.endpoint}/_overcast/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { version: string; store: string; services: Record<string, string> };
    expect(body.store).toBe('memory');
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Object.keys(body.services)).toEqual(expect.arrayContaining(['s3', 's3tables', 'cloudformation', 'sts', 'ssm']));
  });

  it('sends unsigned requests to S3', async ({ server: t }) => {
    const s3 = new S3Client(t.clientConfig);
    await s3.send(new CreateBucketCommand({ Bucket: 'unsigned-check' }));
    const res = await fetch(`${t.endpoint}/unsigned-check?list-type=2`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<ListBucketResult');
  });

  it('refuses a service Overcast does not emulate, naming it, in an AWS shape', async ({ server: t }) => {
    const res = await fetch(`${t.endpoint}/`, {
      method: 'POST',
      headers: {
        authorization:
          'AWS4-HMAC-SHA256 Credential=test/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x',
        'x-amz-target': 'DynamoDB_20120810.ListTables',
        'content-type': 'application/x-amz-json-1.0',
      },
      body: '{}',
    });
    expect(res.status).toBe(501);
    expect(res.headers.get('x-amzn-errortype')).toBe('NotImplemented');
    expect(((await res.json()) as { message: string }).message).toContain("'dynamodb'");
  });

  it('answers a request line with malformed percent-encoding in the shape of the service it names', async ({ server: t }) => {
    const s3 = await fetch(`${t.endpoint}/unsigned-check/a%zz`);
    expect(s3.status).toBe(400);
    const body = await s3.text();
    expect(body).toContain('<Code>InvalidURI</Code>');
    expect(body.replace(/&apos;/g, "'")).toContain("<Message>Couldn't parse the specified URI.</Message>");
    const s3tables = await fetch(`${t.endpoint}/buckets/a%zz`, {
      headers: {
        authorization:
          'AWS4-HMAC-SHA256 Credential=test/20250101/us-east-1/s3tables/aws4_request, SignedHeaders=host, Signature=x',
      },
    });
    expect(s3tables.status).toBe(400);
    expect(s3tables.headers.get('x-amzn-errortype')).toBe('BadRequestException');
  });

  it('answers with the content types AWS sends, and a multi-byte escape in a path as the key it names', async ({ server: t }) => {
    const signed = (service: string) => ({
      authorization: `AWS4-HMAC-SHA256 Credential=test/20250101/us-east-1/${service}/aws4_request, SignedHeaders=host, Signature=x`,
    });
    const buckets = await fetch(`${t.endpoint}/buckets`, { headers: signed('s3tables') });
    expect(buckets.status).toBe(200);
    // AWS's own type: no charset parameter appended.
    expect(buckets.headers.get('content-type')).toBe('application/json');
    const s3 = new S3Client(t.clientConfig);
    await s3.send(new CreateBucketCommand({ Bucket: 'escapes-check' }));
    await s3.send(new PutObjectCommand({ Bucket: 'escapes-check', Key: 'café', Body: 'accented' }));
    const got = await fetch(`${t.endpoint}/escapes-check/caf%C3%A9`);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe('accented');
    const missing = await fetch(`${t.endpoint}/escapes-check/none`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/xml');
    // A percent-escape that is not UTF-8: S3's InvalidURI, as for `%zz`.
    const broken = await fetch(`${t.endpoint}/escapes-check/caf%C3%28`);
    expect(broken.status).toBe(400);
    expect(await broken.text()).toContain('<Code>InvalidURI</Code>');
  });

  it('scopes S3 bucket listings by the account of the access key', async ({ server: t }) => {
    const other = new S3Client({ ...t.clientConfig, credentials: { accessKeyId: '111122223333', secretAccessKey: 'x' } });
    await other.send(new CreateBucketCommand({ Bucket: 'owned-by-111122223333' }));
    const mine = await new S3Client(t.clientConfig).send(new ListBucketsCommand({}));
    const theirs = await other.send(new ListBucketsCommand({}));
    expect(mine.Buckets?.map((b) => b.Name)).not.toContain('owned-by-111122223333');
    expect(theirs.Buckets?.map((b) => b.Name)).toEqual(['owned-by-111122223333']);
  });
});
