/**
 * Objects through @aws-sdk/client-s3: round trips of bytes, metadata and content headers (inline
 * and blob-file sizes, awkward keys), ranges, read preconditions (304/412), response-* overrides,
 * partNumber, deletes, CopyObject with its directives and conditions, object tagging and
 * conditional writes — each failure checked for AWS's status and code, and for the object left
 * as it was.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  DeleteObjectTaggingCommand,
  GetObjectCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  PutObjectTaggingCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { describe, expect, it } from '../helpers/fixture.js';
import { failure } from '../helpers/errors.js';
import { auth, raw, xmlText } from './helpers.js';

const B = 'objects-bucket';

it.beforeAll(async ({ s3 }) => {
  await s3.send(new CreateBucketCommand({ Bucket: B }));
});

async function body(s3: S3Client, key: string, extra: Record<string, unknown> = {}): Promise<Buffer> {
  const res = await s3.send(new GetObjectCommand({ Bucket: B, Key: key, ...extra }));
  return Buffer.from(await res.Body!.transformToByteArray());
}

describe('round trips', () => {
  it('keeps bytes of every size class: empty, inline, just past inline, blob files', async ({ s3 }) => {
    for (const size of [0, 1, 1024, 128 * 1024, 128 * 1024 + 1, 3 * 1024 * 1024 + 7]) {
      const data = randomBytes(size);
      const put = await s3.send(new PutObjectCommand({ Bucket: B, Key: `sizes/${size}`, Body: data }));
      expect(put.ETag).toMatch(/^"[0-9a-f]{32}"$/);
      expect((await body(s3, `sizes/${size}`)).equals(data), `size ${size}`).toBe(true);
      const head = await s3.send(new HeadObjectCommand({ Bucket: B, Key: `sizes/${size}` }));
      expect(head.ContentLength).toBe(size);
      expect(head.ETag).toBe(put.ETag);
    }
  });

  it('round-trips user metadata and content headers', async ({ server: t, s3 }) => {
    const expires = new Date('2030-01-02T03:04:05Z');
    await s3.send(
      new PutObjectCommand({
        Bucket: B,
        Key: 'meta.json',
        Body: '{"a":1}',
        ContentType: 'application/json',
        ContentEncoding: 'identity',
        ContentDisposition: 'attachment; filename="meta.json"',
        ContentLanguage: 'en',
        CacheControl: 'max-age=60',
        Expires: expires,
        Metadata: { owner: 'data-team', 'mixed-case': 'Value With Spaces' },
        StorageClass: 'STANDARD_IA',
      }),
    );
    const head = await s3.send(new HeadObjectCommand({ Bucket: B, Key: 'meta.json' }));
    expect(head).toMatchObject({
      ContentType: 'application/json',
      ContentEncoding: 'identity',
      ContentDisposition: 'attachment; filename="meta.json"',
      ContentLanguage: 'en',
      CacheControl: 'max-age=60',
      Metadata: { owner: 'data-team', 'mixed-case': 'Value With Spaces' },
      StorageClass: 'STANDARD_IA',
      AcceptRanges: 'bytes',
    });
    expect(head.Expires?.getTime()).toBe(expires.getTime());
    expect(head.LastModified).toBeInstanceOf(Date);
    // Without a Content-Type (the SDK always sends one), S3 stores binary/octet-stream.
    await raw(t.endpoint, { method: 'PUT', path: `/${B}/untyped`, headers: { authorization: auth(), 'content-length': 1 }, body: 'x' });
    const plain = await s3.send(new HeadObjectCommand({ Bucket: B, Key: 'untyped' }));
    expect(plain.ContentType).toBe('binary/octet-stream');
    expect(plain.StorageClass).toBeUndefined();
  });

  it('never serves a replaced, retagged, copied-over or deleted small object from a stale read', async ({ s3 }) => {
    for (let round = 0; round < 3; round++) {
      await s3.send(new PutObjectCommand({ Bucket: B, Key: 'fresh', Body: `v${round}` }));
      expect((await body(s3, 'fresh')).toString()).toBe(`v${round}`);
    }
    await s3.send(new PutObjectTaggingCommand({ Bucket: B, Key: 'fresh', Tagging: { TagSet: [{ Key: 'a', Value: 'b' }] } }));
    expect((await s3.send(new GetObjectCommand({ Bucket: B, Key: 'fresh' }))).TagCount).toBe(1);
    await s3.send(new PutObjectCommand({ Bucket: B, Key: 'other', Body: 'copied' }));
    await s3.send(new CopyObjectCommand({ Bucket: B, Key: 'fresh', CopySource: `${B}/other` }));
    expect((await body(s3, 'fresh')).toString()).toBe('copied');
    expect((await s3.send(new HeadObjectCommand({ Bucket: B, Key: 'fresh' }))).ContentLength).toBe(6);
    await s3.send(new DeleteObjectsCommand({ Bucket: B, Delete: { Objects: [{ Key: 'fresh' }] } }));
    expect((await failure(s3.send(new GetObjectCommand({ Bucket: B, Key: 'fresh' })))).name).toBe('NoSuchKey');
    expect((await failure(s3.send(new HeadObjectCommand({ Bucket: B, Key: 'fresh' })))).status).toBe(404);
  });

  it('handles awkward keys: unicode, spaces, plus, percent, query characters, slashes', async ({ s3 }) => {
    const keys = ['ünïcødé/ключ/鍵.txt', 'with space', 'a+b=c', '100%', 'what?#frag', 'double//slash', '/leading', 'trailing/', "quote'\"<>&"];
    for (const key of keys) {
      await s3.send(new PutObjectCommand({ Bucket: B, Key: `keys/${key}`, Body: key }));
      expect((await body(s3, `keys/${key}`)).toString(), key).toBe(key);
    }
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: B, Prefix: 'keys/' }));
    expect(listed.Contents?.map((c) => c.Key).sort()).toEqual(keys.map((k) => `keys/${k}`).sort());
  });

  it('refuses keys over 1024 bytes with KeyTooLongError and writes to unknown buckets with NoSuchBucket', async ({ s3 }) => {
    const long = await failure(s3.send(new PutObjectCommand({ Bucket: B, Key: 'k'.repeat(1025), Body: 'x' })));
    expect([long.name, long.status]).toEqual(['KeyTooLongError', 400]);
    const nb = await failure(s3.send(new PutObjectCommand({ Bucket: 'no-such-bucket-here', Key: 'k', Body: 'x' })));
    expect([nb.name, nb.status, nb.error.BucketName]).toEqual(['NoSuchBucket', 404, 'no-such-bucket-here']);
  });
});

describe('reads', () => {
  const data = Buffer.from('0123456789abcdefghij');
  let etag: string;
  it.beforeAll(async ({ s3 }) => {
    etag = (await s3.send(new PutObjectCommand({ Bucket: B, Key: 'ranged', Body: data }))).ETag!;
  });

  it('serves byte ranges with 206 and Content-Range', async ({ s3 }) => {
    const cases: [string, string, string][] = [
      ['bytes=0-4', '01234', 'bytes 0-4/20'],
      ['bytes=15-', 'fghij', 'bytes 15-19/20'],
      ['bytes=-3', 'hij', 'bytes 17-19/20'],
      ['bytes=18-100', 'ij', 'bytes 18-19/20'],
    ];
    for (const [range, text, contentRange] of cases) {
      const res = await s3.send(new GetObjectCommand({ Bucket: B, Key: 'ranged', Range: range }));
      expect(res.$metadata.httpStatusCode).toBe(206);
      expect(res.ContentRange).toBe(contentRange);
      expect(res.ContentLength).toBe(text.length);
      expect(await res.Body!.transformToString()).toBe(text);
    }
  });

  it('answers an unsatisfiable range with 416 InvalidRange and ignores ranges it cannot parse', async ({ s3 }) => {
    const f = await failure(s3.send(new GetObjectCommand({ Bucket: B, Key: 'ranged', Range: 'bytes=20-30' })));
    expect([f.name, f.status, f.error.ActualObjectSize, f.error.RangeRequested]).toEqual(['InvalidRange', 416, '20', 'bytes=20-30']);
    for (const ignored of ['bytes=5-2', 'items=0-1', 'bytes=0-1,4-5']) {
      const res = await s3.send(new GetObjectCommand({ Bucket: B, Key: 'ranged', Range: ignored }));
      expect(res.$metadata.httpStatusCode, ignored).toBe(200);
      expect(await res.Body!.transformToString()).toBe(data.toString());
    }
  });

  it('evaluates If-Match, If-None-Match, If-Modified-Since and If-Unmodified-Since as S3 does', async ({ s3 }) => {
    const past = new Date(Date.now() - 3600_000);
    const future = new Date(Date.now() + 3600_000);
    expect((await body(s3, 'ranged', { IfMatch: etag })).toString()).toBe(data.toString());
    const mismatch = await failure(s3.send(new GetObjectCommand({ Bucket: B, Key: 'ranged', IfMatch: '"nope"' })));
    expect([mismatch.name, mismatch.status, mismatch.error.Condition]).toEqual(['PreconditionFailed', 412, 'If-Match']);
    const notModified = await failure(s3.send(new GetObjectCommand({ Bucket: B, Key: 'ranged', IfNoneMatch: etag })));
    expect(notModified.status).toBe(304);
    const ims = await failure(s3.send(new GetObjectCommand({ Bucket: B, Key: 'ranged', IfModifiedSince: new Date() })));
    expect(ims.status).toBe(304);
    expect((await body(s3, 'ranged', { IfModifiedSince: past })).length).toBe(20);
    // A date in the future is no condition at all.
    expect((await body(s3, 'ranged', { IfModifiedSince: future })).length).toBe(20);
    const ius = await failure(s3.send(new GetObjectCommand({ Bucket: B, Key: 'ranged', IfUnmodifiedSince: past })));
    expect([ius.name, ius.status, ius.error.Condition]).toEqual(['PreconditionFailed', 412, 'If-Unmodified-Since']);
    // AWS: If-Match true and If-Unmodified-Since false → 200; If-None-Match decides over If-Modified-Since.
    expect((await body(s3, 'ranged', { IfMatch: etag, IfUnmodifiedSince: past })).length).toBe(20);
    expect((await body(s3, 'ranged', { IfNoneMatch: '"other"', IfModifiedSince: future })).length).toBe(20);
    const head = await failure(s3.send(new HeadObjectCommand({ Bucket: B, Key: 'ranged', IfMatch: '"nope"' })));
    expect(head.status).toBe(412);
  });

  it('answers 304 with ETag and no body', async ({ server: t }) => {
    const res = await raw(t.endpoint, { method: 'GET', path: `/${B}/ranged`, headers: { authorization: auth(), 'if-none-match': etag } });
    expect(res.status).toBe(304);
    expect(res.headers.etag).toBe(etag);
    expect(res.body.length).toBe(0);
  });

  it('applies response-* overrides', async ({ s3 }) => {
    const res = await s3.send(
      new GetObjectCommand({
        Bucket: B,
        Key: 'ranged',
        ResponseContentType: 'text/csv',
        ResponseContentDisposition: 'inline',
        ResponseCacheControl: 'no-cache',
        ResponseContentLanguage: 'de',
        ResponseContentEncoding: 'identity',
        ResponseExpires: new Date('2031-01-01T00:00:00Z'),
      }),
    );
    expect(res).toMatchObject({
      ContentType: 'text/csv',
      ContentDisposition: 'inline',
      CacheControl: 'no-cache',
      ContentLanguage: 'de',
      ContentEncoding: 'identity',
    });
    expect(res.Expires?.toISOString()).toBe('2031-01-01T00:00:00.000Z');
  });

  it('serves partNumber 1 of a simple object and refuses others with InvalidPartNumber', async ({ s3 }) => {
    const one = await s3.send(new GetObjectCommand({ Bucket: B, Key: 'ranged', PartNumber: 1 }));
    expect(one.$metadata.httpStatusCode).toBe(206);
    expect(await one.Body!.transformToString()).toBe(data.toString());
    const two = await failure(s3.send(new GetObjectCommand({ Bucket: B, Key: 'ranged', PartNumber: 2 })));
    expect([two.name, two.status]).toEqual(['InvalidPartNumber', 416]);
    const both = await failure(s3.send(new GetObjectCommand({ Bucket: B, Key: 'ranged', PartNumber: 1, Range: 'bytes=0-1' })));
    expect([both.name, both.status]).toEqual(['InvalidRequest', 400]);
  });

  it('knows only the null version of an object', async ({ s3 }) => {
    expect((await body(s3, 'ranged', { VersionId: 'null' })).toString()).toBe(data.toString());
    const f = await failure(s3.send(new GetObjectCommand({ Bucket: B, Key: 'ranged', VersionId: 'abc' })));
    expect([f.name, f.status, f.error.ArgumentName]).toEqual(['InvalidArgument', 400, 'versionId']);
    expect((await failure(s3.send(new DeleteObjectCommand({ Bucket: B, Key: 'ranged', VersionId: 'abc' })))).status).toBe(400);
    expect((await body(s3, 'ranged')).toString()).toBe(data.toString());
  });

  it('answers NoSuchKey with the key, and HEAD with a bare 404', async ({ s3 }) => {
    const f = await failure(s3.send(new GetObjectCommand({ Bucket: B, Key: 'missing/key' })));
    expect([f.name, f.status, f.error.Key]).toEqual(['NoSuchKey', 404, 'missing/key']);
    const head = await failure(s3.send(new HeadObjectCommand({ Bucket: B, Key: 'missing/key' })));
    expect([head.name, head.status]).toEqual(['NotFound', 404]);
  });
});

describe('deletes', () => {
  it('deletes one object (204 even when absent) and many, quietly or not', async ({ s3 }) => {
    await s3.send(new PutObjectCommand({ Bucket: B, Key: 'del/one', Body: 'x' }));
    expect((await s3.send(new DeleteObjectCommand({ Bucket: B, Key: 'del/one' }))).$metadata.httpStatusCode).toBe(204);
    expect((await s3.send(new DeleteObjectCommand({ Bucket: B, Key: 'del/one' }))).$metadata.httpStatusCode).toBe(204);
    for (const k of ['a', 'b', 'c', 'd']) await s3.send(new PutObjectCommand({ Bucket: B, Key: `del/${k}`, Body: randomBytes(200_000) }));
    const loud = await s3.send(new DeleteObjectsCommand({ Bucket: B, Delete: { Objects: [{ Key: 'del/a' }, { Key: 'del/b' }, { Key: 'del/zz' }] } }));
    expect(loud.Deleted?.map((d) => d.Key)).toEqual(['del/a', 'del/b', 'del/zz']);
    const quiet = await s3.send(new DeleteObjectsCommand({ Bucket: B, Delete: { Objects: [{ Key: 'del/c' }], Quiet: true } }));
    expect(quiet.Deleted).toBeUndefined();
    const left = await s3.send(new ListObjectsV2Command({ Bucket: B, Prefix: 'del/' }));
    expect(left.Contents?.map((c) => c.Key)).toEqual(['del/d']);
    const tooMany = await failure(
      s3.send(new DeleteObjectsCommand({ Bucket: B, Delete: { Objects: Array.from({ length: 1001 }, (_, i) => ({ Key: `x${i}` })) } })),
    );
    expect([tooMany.name, tooMany.status]).toEqual(['MalformedXML', 400]);
  });
});

describe('CopyObject', () => {
  it.beforeAll(async ({ s3 }) => {
    await s3.send(
      new PutObjectCommand({ Bucket: B, Key: 'src/doc', Body: 'source body', ContentType: 'text/plain', Metadata: { v: '1' }, Tagging: 'a=1' }),
    );
  });

  it('copies bytes and metadata (COPY), or replaces metadata (REPLACE)', async ({ s3 }) => {
    const copy = await s3.send(new CopyObjectCommand({ Bucket: B, Key: 'dst/copy', CopySource: `${B}/src/doc` }));
    expect(copy.CopyObjectResult?.ETag).toMatch(/^"[0-9a-f]{32}"$/);
    const head = await s3.send(new HeadObjectCommand({ Bucket: B, Key: 'dst/copy' }));
    expect([head.ContentType, head.Metadata]).toEqual(['text/plain', { v: '1' }]);
    expect((await body(s3, 'dst/copy')).toString()).toBe('source body');
    expect((await s3.send(new GetObjectTaggingCommand({ Bucket: B, Key: 'dst/copy' }))).TagSet).toEqual([{ Key: 'a', Value: '1' }]);
    await s3.send(
      new CopyObjectCommand({
        Bucket: B,
        Key: 'dst/replaced',
        CopySource: `/${B}/src/doc`,
        MetadataDirective: 'REPLACE',
        ContentType: 'text/markdown',
        Metadata: { v: '2' },
        TaggingDirective: 'REPLACE',
        Tagging: 'b=2',
      }),
    );
    const replaced = await s3.send(new HeadObjectCommand({ Bucket: B, Key: 'dst/replaced' }));
    expect([replaced.ContentType, replaced.Metadata]).toEqual(['text/markdown', { v: '2' }]);
    expect((await s3.send(new GetObjectTaggingCommand({ Bucket: B, Key: 'dst/replaced' }))).TagSet).toEqual([{ Key: 'b', Value: '2' }]);
  });

  it('copies large objects and keys needing URL encoding', async ({ s3 }) => {
    const big = randomBytes(2 * 1024 * 1024 + 3);
    await s3.send(new PutObjectCommand({ Bucket: B, Key: 'src/big file+ü', Body: big }));
    await s3.send(new CopyObjectCommand({ Bucket: B, Key: 'dst/big', CopySource: encodeURIComponent(`${B}/src/big file+ü`) }));
    expect((await body(s3, 'dst/big')).equals(big)).toBe(true);
  });

  it('refuses copying an object onto itself unchanged, and allows it with REPLACE', async ({ s3 }) => {
    const f = await failure(s3.send(new CopyObjectCommand({ Bucket: B, Key: 'src/doc', CopySource: `${B}/src/doc` })));
    expect([f.name, f.status]).toEqual(['InvalidRequest', 400]);
    expect(f.error.message).toMatch(/trying to copy an object to itself without changing/);
    await s3.send(
      new CopyObjectCommand({ Bucket: B, Key: 'src/doc', CopySource: `${B}/src/doc`, MetadataDirective: 'REPLACE', Metadata: { v: '3' }, ContentType: 'text/plain' }),
    );
    const head = await s3.send(new HeadObjectCommand({ Bucket: B, Key: 'src/doc' }));
    expect(head.Metadata).toEqual({ v: '3' });
    expect((await body(s3, 'src/doc')).toString()).toBe('source body');
  });

  it('checks copy-source conditions (412) and a missing source (NoSuchKey), leaving the target absent', async ({ s3 }) => {
    const src = await s3.send(new HeadObjectCommand({ Bucket: B, Key: 'src/doc' }));
    const f = await failure(
      s3.send(new CopyObjectCommand({ Bucket: B, Key: 'dst/cond', CopySource: `${B}/src/doc`, CopySourceIfMatch: '"nope"' })),
    );
    expect([f.name, f.status, f.error.Condition]).toEqual(['PreconditionFailed', 412, 'x-amz-copy-source-If-Match']);
    const g = await failure(
      s3.send(new CopyObjectCommand({ Bucket: B, Key: 'dst/cond', CopySource: `${B}/src/doc`, CopySourceIfNoneMatch: src.ETag })),
    );
    expect(g.status).toBe(412);
    await s3.send(new CopyObjectCommand({ Bucket: B, Key: 'dst/cond', CopySource: `${B}/src/doc`, CopySourceIfMatch: src.ETag }));
    await s3.send(new DeleteObjectCommand({ Bucket: B, Key: 'dst/cond' }));
    const missing = await failure(s3.send(new CopyObjectCommand({ Bucket: B, Key: 'dst/cond', CopySource: `${B}/src/none` })));
    expect([missing.name, missing.status]).toEqual(['NoSuchKey', 404]);
    const bad = await failure(s3.send(new CopyObjectCommand({ Bucket: B, Key: 'dst/cond', CopySource: 'nobucketnokey' })));
    expect([bad.name, bad.status]).toEqual(['InvalidArgument', 400]);
    expect((await failure(s3.send(new HeadObjectCommand({ Bucket: B, Key: 'dst/cond' })))).status).toBe(404);
  });
});

describe('object tagging', () => {
  it('stores tags from x-amz-tagging and the tagging API, counting them on GET', async ({ s3 }) => {
    await s3.send(new PutObjectCommand({ Bucket: B, Key: 'tagged', Body: 'x', Tagging: 'env=prod&team=data' }));
    expect((await s3.send(new GetObjectCommand({ Bucket: B, Key: 'tagged' }))).TagCount).toBe(2);
    await s3.send(new PutObjectTaggingCommand({ Bucket: B, Key: 'tagged', Tagging: { TagSet: [{ Key: 'only', Value: 'one' }] } }));
    expect((await s3.send(new GetObjectTaggingCommand({ Bucket: B, Key: 'tagged' }))).TagSet).toEqual([{ Key: 'only', Value: 'one' }]);
    await s3.send(new DeleteObjectTaggingCommand({ Bucket: B, Key: 'tagged' }));
    expect((await s3.send(new GetObjectTaggingCommand({ Bucket: B, Key: 'tagged' }))).TagSet).toEqual([]);
    const f = await failure(s3.send(new GetObjectTaggingCommand({ Bucket: B, Key: 'untagged-missing' })));
    expect(f.name).toBe('NoSuchKey');
  });
});

describe('conditional writes', () => {
  it('creates only when absent with If-None-Match: *, else 412 and the object unchanged', async ({ s3 }) => {
    await s3.send(new PutObjectCommand({ Bucket: B, Key: 'cw/once', Body: 'first', IfNoneMatch: '*' }));
    const f = await failure(s3.send(new PutObjectCommand({ Bucket: B, Key: 'cw/once', Body: 'second', IfNoneMatch: '*' })));
    expect([f.name, f.status, f.error.Condition]).toEqual(['PreconditionFailed', 412, 'If-None-Match']);
    expect((await body(s3, 'cw/once')).toString()).toBe('first');
  });

  it('lets exactly one of many concurrent If-None-Match writers win', async ({ s3 }) => {
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        s3.send(new PutObjectCommand({ Bucket: B, Key: 'cw/race', Body: randomBytes(150_000 + i), IfNoneMatch: '*' })),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won.length).toBe(1);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as Error).name).toBe('PreconditionFailed');
    const head = await s3.send(new HeadObjectCommand({ Bucket: B, Key: 'cw/race' }));
    expect(head.ETag).toBe((won[0] as PromiseFulfilledResult<{ ETag?: string }>).value.ETag);
  });

  it('replaces only the expected version with If-Match; 412 on mismatch, 404 when absent', async ({ s3 }) => {
    const v1 = await s3.send(new PutObjectCommand({ Bucket: B, Key: 'cw/cas', Body: 'v1' }));
    const v2 = await s3.send(new PutObjectCommand({ Bucket: B, Key: 'cw/cas', Body: 'v2', IfMatch: v1.ETag }));
    const stale = await failure(s3.send(new PutObjectCommand({ Bucket: B, Key: 'cw/cas', Body: 'v3', IfMatch: v1.ETag })));
    expect([stale.name, stale.status, stale.error.Condition]).toEqual(['PreconditionFailed', 412, 'If-Match']);
    expect((await body(s3, 'cw/cas')).toString()).toBe('v2');
    expect((await s3.send(new HeadObjectCommand({ Bucket: B, Key: 'cw/cas' }))).ETag).toBe(v2.ETag);
    const absent = await failure(s3.send(new PutObjectCommand({ Bucket: B, Key: 'cw/absent', Body: 'x', IfMatch: v1.ETag })));
    expect([absent.name, absent.status]).toEqual(['NoSuchKey', 404]);
    expect((await failure(s3.send(new HeadObjectCommand({ Bucket: B, Key: 'cw/absent' })))).status).toBe(404);
  });

  it('answers 409 ConditionalRequestConflict when the object is deleted while an If-Match write is in flight', async ({ server: t, s3 }) => {
    const v1 = await s3.send(new PutObjectCommand({ Bucket: B, Key: 'cw/conflict', Body: 'v1' }));
    const body = randomBytes(300_000);
    const url = new URL(t.endpoint);
    let req!: http.ClientRequest;
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: 'PUT',
          path: `/${B}/cw/conflict`,
          agent: false,
          headers: { authorization: auth(), 'if-match': v1.ETag!, 'content-length': body.length },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
    });
    req.write(body.subarray(0, 100_000));
    await new Promise((r) => setTimeout(r, 50));
    await s3.send(new DeleteObjectCommand({ Bucket: B, Key: 'cw/conflict' }));
    req.end(body.subarray(100_000));
    const res = await answer;
    expect([res.status, xmlText(res.body, 'Code'), xmlText(res.body, 'Condition')]).toEqual([409, 'ConditionalRequestConflict', 'If-Match']);
    expect((await failure(s3.send(new HeadObjectCommand({ Bucket: B, Key: 'cw/conflict' })))).status).toBe(404);
  });

  it('answers 409 when an If-None-Match completion finds the object that existed at the start deleted', async ({ s3 }) => {
    await s3.send(new PutObjectCommand({ Bucket: B, Key: 'cw/mpu-conflict', Body: 'old' }));
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: B, Key: 'cw/mpu-conflict' }));
    const part = await s3.send(new UploadPartCommand({ Bucket: B, Key: 'cw/mpu-conflict', UploadId, PartNumber: 1, Body: 'new' }));
    await s3.send(new DeleteObjectCommand({ Bucket: B, Key: 'cw/mpu-conflict' }));
    const f = await failure(
      s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: B,
          Key: 'cw/mpu-conflict',
          UploadId,
          IfNoneMatch: '*',
          MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
        }),
      ),
    );
    expect([f.name, f.status]).toEqual(['ConditionalRequestConflict', 409]);
    expect((await failure(s3.send(new HeadObjectCommand({ Bucket: B, Key: 'cw/mpu-conflict' })))).status).toBe(404);
  });

  it('answers 501 NotImplemented for condition forms S3 does not accept', async ({ server: t, s3 }) => {
    const etagInm = await failure(s3.send(new PutObjectCommand({ Bucket: B, Key: 'cw/x', Body: 'x', IfNoneMatch: '"abc"' })));
    expect([etagInm.name, etagInm.status]).toEqual(['NotImplemented', 501]);
    const res = await raw(t.endpoint, {
      method: 'PUT',
      path: `/${B}/cw/x`,
      headers: { authorization: auth(), 'if-match': '"a"', 'if-none-match': '*', 'content-length': 1 },
      body: 'x',
    });
    expect(res.status).toBe(501);
    expect(xmlText(res.body, 'Header')).toBe('If-Match,If-None-Match');
    expect((await failure(s3.send(new HeadObjectCommand({ Bucket: B, Key: 'cw/x' })))).status).toBe(404);
  });
});
