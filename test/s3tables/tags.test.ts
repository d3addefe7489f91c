/**
 * Tags on table buckets and tables through @aws-sdk/client-s3tables: TagResource (merge, AWS's key
 * and value rules, the 50-tag limit), UntagResource (absent keys are fine) and ListTagsForResource.
 */
import {
  CreateTableBucketCommand,
  ListTagsForResourceCommand,
  S3TablesClient,
  TagResourceCommand,
  UntagResourceCommand,
} from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import {  expectError, makeBucket, makeTable } from './helpers.js';


const list = async (s3t: S3TablesClient, resourceArn: string) => (await s3t.send(new ListTagsForResourceCommand({ resourceArn }))).tags;

describe('TagResource, UntagResource and ListTagsForResource', () => {
  it('tag a table bucket and a table independently, merge and overwrite keys, and remove keys', async ({ server: t, s3tables: s3t }) => {
    const tb = await makeTable(s3t, { tags: { created: 'with-table' } });
    const listed = await s3t.send(new ListTagsForResourceCommand({ resourceArn: tb.bucketArn }));
    expect(listed.$metadata.httpStatusCode).toBe(200);
    expect(listed.tags).toEqual({});
    expect(await list(s3t, tb.tableArn)).toEqual({ created: 'with-table' });

    const tagged = await s3t.send(new TagResourceCommand({ resourceArn: tb.bucketArn, tags: { env: 'dev', team: 'data', empty: '' } }));
    expect(tagged.$metadata.httpStatusCode).toBe(200);
    await s3t.send(new TagResourceCommand({ resourceArn: tb.bucketArn, tags: { env: 'prod', 'k:with/chars_+=.@-': 'v v' } }));
    expect(await list(s3t, tb.bucketArn)).toEqual({ env: 'prod', team: 'data', empty: '', 'k:with/chars_+=.@-': 'v v' });
    await s3t.send(new TagResourceCommand({ resourceArn: tb.tableArn, tags: { owner: 'me' } }));
    expect(await list(s3t, tb.tableArn)).toEqual({ created: 'with-table', owner: 'me' });

    const untagged = await s3t.send(new UntagResourceCommand({ resourceArn: tb.bucketArn, tagKeys: ['team', 'not-there', 'k:with/chars_+=.@-'] }));
    expect(untagged.$metadata.httpStatusCode).toBe(204);
    expect(await list(s3t, tb.bucketArn)).toEqual({ env: 'prod', empty: '' });
    await s3t.send(new UntagResourceCommand({ resourceArn: tb.tableArn, tagKeys: ['created'] }));
    expect(await list(s3t, tb.tableArn)).toEqual({ owner: 'me' });
  });

  it('enforce the 50-tag limit, AWS’s key rules and lengths, changing nothing on failure', async ({ server: t, s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`key${i}`, `value${i}`]));
    await s3t.send(new TagResourceCommand({ resourceArn: arn, tags: fifty }));
    const over = await expectError(s3t.send(new TagResourceCommand({ resourceArn: arn, tags: { one: 'more' } })), 'BadRequestException', 400);
    expect(over.message).toBe('A resource can have at most 50 tags.');
    await s3t.send(new TagResourceCommand({ resourceArn: arn, tags: { key0: 'overwritten' } }));
    expect(Object.keys((await list(s3t, arn))!)).toHaveLength(50);
    expect((await list(s3t, arn))!.key0).toBe('overwritten');

    await expectError(s3t.send(new TagResourceCommand({ resourceArn: arn, tags: { 'aws:reserved': 'x' } })), 'BadRequestException', 400);
    await expectError(s3t.send(new TagResourceCommand({ resourceArn: arn, tags: { 'bad#key': 'x' } })), 'BadRequestException', 400);
    const long = await expectError(s3t.send(new TagResourceCommand({ resourceArn: arn, tags: { ['k'.repeat(129)]: 'x' } })), 'BadRequestException', 400);
    expect(long.message).toContain('Member must have length less than or equal to 128');
    await expectError(s3t.send(new TagResourceCommand({ resourceArn: arn, tags: { k: 'v'.repeat(257) } })), 'BadRequestException', 400);
    await expectError(s3t.send(new CreateTableBucketCommand({ name: 'aws-tag-bucket', tags: { 'aws:x': 'y' } })), 'BadRequestException', 400);
    expect(Object.keys((await list(s3t, arn))!)).toHaveLength(50);
  });

  it('answer 404 for resources that do not exist and 400 for ARNs that are not S3 Tables resources', async ({ server: t, s3tables: s3t }) => {
    const tb = await makeTable(s3t);
    const missingTable = `${tb.bucketArn}/table/00000000-0000-4000-8000-000000000000`;
    await expectError(s3t.send(new ListTagsForResourceCommand({ resourceArn: missingTable })), 'NotFoundException', 404);
    await expectError(s3t.send(new TagResourceCommand({ resourceArn: missingTable, tags: { a: 'b' } })), 'NotFoundException', 404);
    await expectError(
      s3t.send(new UntagResourceCommand({ resourceArn: 'arn:aws:s3tables:us-east-1:000000000000:bucket/absent', tagKeys: ['a'] })),
      'NotFoundException',
      404,
    );
    await expectError(s3t.send(new ListTagsForResourceCommand({ resourceArn: 'arn:aws:s3:::plain-bucket' })), 'BadRequestException', 400);
    // UntagResource without its required tagKeys: AWS's validation error, not "no such operation".
    const res = await fetch(`${t.endpoint}/tag/${encodeURIComponent(tb.bucketArn)}`, {
      method: 'DELETE',
      headers: { authorization: 'AWS4-HMAC-SHA256 Credential=test/20250101/us-east-1/s3tables/aws4_request, SignedHeaders=host, Signature=x' },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-amzn-errortype')).toBe('BadRequestException');
    expect(((await res.json()) as { message: string }).message).toBe(
      "1 validation error detected: Value null at 'tagKeys' failed to satisfy constraint: Member must not be null",
    );
  });
});
