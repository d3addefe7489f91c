/**
 * Small wire details: a message carrying client-chosen text (the signing name of a credential
 * scope) is XML-escaped, so the error body still parses; a tag whose value is null is refused as
 * the model says (map values are not sparse), not silently dropped.
 */
import { CreateTableBucketCommand, ListTagsForResourceCommand, TagResourceCommand } from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import { sigv4Fetch } from '../helpers/sigv4-fetch.js';

describe('wire details', () => {
  it('a client-chosen signing name is escaped in an XML message', async ({ server }) => {
    const res = await fetch(`${server.endpoint}/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: 'AWS4-HMAC-SHA256 Credential=AKID/20250101/us-east-1/<b>x&y<b>/aws4_request, SignedHeaders=host, Signature=00',
      },
      body: 'Action=Anything',
    });
    const text = await res.text();
    expect(res.status).toBe(501);
    expect(text).toContain("<Message>The service &apos;&lt;b&gt;x&amp;y&lt;b&gt;&apos; is not emulated by Overcast.");
    expect(text).not.toContain('<b>');
  });

  it('TagResource with a null tag value: ValidationException, the tags unchanged', async ({ server, s3tables }) => {
    const arn = (await s3tables.send(new CreateTableBucketCommand({ name: 'null-tags' }))).arn!;
    await s3tables.send(new TagResourceCommand({ resourceArn: arn, tags: { keep: 'v' } }));
    const signed = sigv4Fetch({ service: 's3tables', region: server.region, credentials: server.credentials });
    const res = await signed(`${server.endpoint}/tag/${encodeURIComponent(arn)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tags: { keep: 'changed', other: null } }),
    });
    expect([res.status, res.headers.get('x-amzn-errortype')]).toEqual([400, 'BadRequestException']);
    expect(((await res.json()) as { message: string }).message).toBe(
      "1 validation error detected: Value null at 'tags.other.member' failed to satisfy constraint: Member must not be null",
    );
    expect((await s3tables.send(new ListTagsForResourceCommand({ resourceArn: arn }))).tags).toEqual({ keep: 'v' });
  });
});
