/**
 * The routing gotcha: S3 Tables paths (`/buckets`, `/namespaces/…`, `/tables/…`, `/get-table`)
 * are also legal S3 bucket names. A request signed for `s3tables` reaches S3 Tables; the same path
 * unsigned or signed for `s3` reaches the S3 bucket of that name. Also: ARNs with `/` travel
 * percent-encoded inside one path segment, and errors come back in S3 Tables' JSON shape.
 */
import { CreateBucketCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { ListTableBucketsCommand, ListTagsForResourceCommand } from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import { makeBucket, makeTable } from './helpers.js';

const signedFor = (service: string) => ({
  authorization: `AWS4-HMAC-SHA256 Credential=test/20250101/us-east-1/${service}/aws4_request, SignedHeaders=host, Signature=x`,
  'x-amz-date': '20250101T000000Z',
});

describe('routing by signing name', () => {
  it('sends GET /buckets signed for s3tables to ListTableBuckets, and unsigned or s3-signed to the S3 bucket "buckets"', async ({ server: t, s3tables: s3t, s3 }) => {
    await makeBucket(s3t, 'routed-table-bucket');
    // Before the S3 bucket exists: S3 says so, in XML.
    const before = await fetch(`${t.endpoint}/buckets?list-type=2`);
    expect(before.status).toBe(404);
    expect(await before.text()).toContain('<Code>NoSuchBucket</Code>');

    await s3.send(new CreateBucketCommand({ Bucket: 'buckets' }));
    await s3.send(new PutObjectCommand({ Bucket: 'buckets', Key: 'hello.txt', Body: 'hi' }));

    const tables = await fetch(`${t.endpoint}/buckets`, { headers: signedFor('s3tables') });
    expect(tables.status).toBe(200);
    expect(tables.headers.get('content-type')).toContain('application/json');
    const body = (await tables.json()) as { tableBuckets: { name: string }[] };
    expect(body.tableBuckets.map((b) => b.name)).toEqual(['routed-table-bucket']);

    for (const headers of [{}, signedFor('s3')]) {
      const res = await fetch(`${t.endpoint}/buckets?list-type=2`, { headers });
      expect(res.status).toBe(200);
      const xml = await res.text();
      expect(xml).toContain('<ListBucketResult');
      expect(xml).toContain('<Key>hello.txt</Key>');
    }
    // Both SDKs keep working side by side.
    expect((await s3.send(new ListObjectsV2Command({ Bucket: 'buckets' }))).Contents?.map((o) => o.Key)).toEqual(['hello.txt']);
    expect((await s3t.send(new ListTableBucketsCommand({}))).tableBuckets!.map((b) => b.name)).toEqual(['routed-table-bucket']);
  });

  it('does the same for /tables, /namespaces and /get-table', async ({ server: t, s3tables: s3t, s3 }) => {
    const tb = await makeTable(s3t);
    for (const name of ['tables', 'namespaces', 'get-table']) {
      await s3.send(new CreateBucketCommand({ Bucket: name }));
      await s3.send(new PutObjectCommand({ Bucket: name, Key: `${name}/${encodeURIComponent(tb.bucketArn)}`, Body: 'x' }));
    }
    const arn = encodeURIComponent(tb.bucketArn);
    const s3tables = await fetch(`${t.endpoint}/tables/${arn}`, { headers: signedFor('s3tables') });
    expect(s3tables.status).toBe(200);
    expect(((await s3tables.json()) as { tables: { name: string }[] }).tables.map((x) => x.name)).toEqual([tb.name]);
    const plain = await fetch(`${t.endpoint}/tables?list-type=2`);
    expect(plain.status).toBe(200);
    expect(await plain.text()).toContain('<Name>tables</Name>');

    const ns = await fetch(`${t.endpoint}/namespaces/${arn}/${tb.namespace}`, { headers: signedFor('s3tables') });
    expect(((await ns.json()) as { namespace: string[] }).namespace).toEqual([tb.namespace]);
    expect((await fetch(`${t.endpoint}/namespaces?list-type=2`)).status).toBe(200);

    const get = await fetch(`${t.endpoint}/get-table?tableArn=${encodeURIComponent(tb.tableArn)}`, { headers: signedFor('s3tables') });
    expect(((await get.json()) as { name: string }).name).toBe(tb.name);
    const plainGet = await fetch(`${t.endpoint}/get-table?list-type=2`, { headers: signedFor('s3') });
    expect(await plainGet.text()).toContain('<Name>get-table</Name>');
  });

  it('decodes a percent-encoded ARN as one path segment, and answers S3 Tables errors as JSON', async ({ server: t, s3tables: s3t }) => {
    const tb = await makeTable(s3t, { tags: { a: 'b' } });
    // The JS SDK encodes `/` inside the table ARN as %2F: one label, not two segments.
    const tags = await s3t.send(new ListTagsForResourceCommand({ resourceArn: tb.tableArn }));
    expect(tags.tags).toEqual({ a: 'b' });
    const missing = await fetch(`${t.endpoint}/buckets/${encodeURIComponent('arn:aws:s3tables:us-east-1:000000000000:bucket/none')}`, {
      headers: signedFor('s3tables'),
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-amzn-errortype')).toBe('NotFoundException');
    expect(await missing.json()).toMatchObject({ message: 'The specified bucket does not exist.' });
    const unknown = await fetch(`${t.endpoint}/no-such-route/x`, { headers: signedFor('s3tables') });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-amzn-errortype')).toBe('NotFoundException');
  });
});
