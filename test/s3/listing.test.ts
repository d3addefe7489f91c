/**
 * Listings through @aws-sdk/client-s3 (and raw requests where the SDK hides the wire):
 * ListObjectsV2 with prefix, delimiter + CommonPrefixes, start-after, continuation tokens,
 * max-keys, encoding-type=url and fetch-owner; ListObjects v1 with marker / NextMarker;
 * ListObjectVersions over the unversioned store; UTF-8 byte order; argument errors.
 */
import {
  CreateBucketCommand,
  ListObjectsCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  paginateListObjectsV2,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { describe, expect, it } from '../helpers/fixture.js';
import { failure } from '../helpers/errors.js';
import { auth, raw, xmlText } from './helpers.js';

const B = 'listing-bucket';
const KEYS = [
  'a.txt',
  'dir1/x',
  'dir1/y',
  'dir1/sub/z',
  'dir2/q',
  'e.txt',
  ...Array.from({ length: 250 }, (_, i) => `big/${String(i).padStart(4, '0')}`),
  'big2/w',
];

it.beforeAll(async ({ s3 }) => {
  await s3.send(new CreateBucketCommand({ Bucket: B }));
  for (let i = 0; i < KEYS.length; i += 25) {
    await Promise.all(KEYS.slice(i, i + 25).map((k) => s3.send(new PutObjectCommand({ Bucket: B, Key: k, Body: k }))));
  }
});

const sorted = [...KEYS].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

describe('ListObjectsV2', () => {
  it('lists every key in byte order, a page at a time, with KeyCount and tokens', async ({ s3 }) => {
    const first = await s3.send(new ListObjectsV2Command({ Bucket: B }));
    expect(first.KeyCount).toBe(KEYS.length);
    expect(first.IsTruncated).toBe(false);
    expect(first.Contents?.map((c) => c.Key)).toEqual(sorted);
    expect(first.Contents?.[0]).toMatchObject({ Size: 5, StorageClass: 'STANDARD' });
    expect(first.Contents?.[0]?.Owner).toBeUndefined();
    const keys: string[] = [];
    let pages = 0;
    for await (const page of paginateListObjectsV2({ client: s3, pageSize: 40 }, { Bucket: B })) {
      pages++;
      keys.push(...(page.Contents ?? []).map((c) => c.Key!));
      expect(page.KeyCount).toBe(page.Contents?.length ?? 0);
    }
    expect(keys).toEqual(sorted);
    expect(pages).toBe(Math.ceil(KEYS.length / 40));
  });

  it('rolls keys up into CommonPrefixes by delimiter, under a prefix, across pages', async ({ s3 }) => {
    const top = await s3.send(new ListObjectsV2Command({ Bucket: B, Delimiter: '/' }));
    expect(top.Contents?.map((c) => c.Key)).toEqual(['a.txt', 'e.txt']);
    expect(top.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['big/', 'big2/', 'dir1/', 'dir2/']);
    expect(top.KeyCount).toBe(6);
    const dir1 = await s3.send(new ListObjectsV2Command({ Bucket: B, Prefix: 'dir1/', Delimiter: '/' }));
    expect(dir1.Contents?.map((c) => c.Key)).toEqual(['dir1/x', 'dir1/y']);
    expect(dir1.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['dir1/sub/']);
    expect(dir1.Prefix).toBe('dir1/');
    // Paging through a delimited listing yields the same entries, each once.
    const entries: string[] = [];
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: B, Delimiter: '/', MaxKeys: 2, ContinuationToken: token }));
      entries.push(...(page.Contents ?? []).map((c) => c.Key!), ...(page.CommonPrefixes ?? []).map((p) => p.Prefix!));
      expect(page.ContinuationToken).toBe(token);
      token = page.NextContinuationToken;
      expect(Boolean(token)).toBe(page.IsTruncated);
    } while (token);
    expect(entries.sort()).toEqual(['a.txt', 'big/', 'big2/', 'dir1/', 'dir2/', 'e.txt']);
  });

  it('starts after StartAfter, honours MaxKeys 0, and pyiceberg\'s directory probe', async ({ s3 }) => {
    const after = await s3.send(new ListObjectsV2Command({ Bucket: B, StartAfter: 'dir1/x' }));
    expect(after.Contents?.map((c) => c.Key)).toEqual(sorted.filter((k) => k > 'dir1/x'));
    expect(after.StartAfter).toBe('dir1/x');
    const none = await s3.send(new ListObjectsV2Command({ Bucket: B, MaxKeys: 0 }));
    expect([none.KeyCount, none.IsTruncated, none.Contents]).toEqual([0, false, undefined]);
    // `GET /<bucket>?list-type=2&prefix=<key>/&delimiter=/&max-keys=1`, as pyiceberg probes.
    const probe = await s3.send(new ListObjectsV2Command({ Bucket: B, Prefix: 'dir1/', Delimiter: '/', MaxKeys: 1 }));
    expect(probe.KeyCount).toBe(1);
    expect(probe.IsTruncated).toBe(true);
    const empty = await s3.send(new ListObjectsV2Command({ Bucket: B, Prefix: 'nothing/', Delimiter: '/', MaxKeys: 1 }));
    expect([empty.KeyCount, empty.IsTruncated]).toEqual([0, false]);
  });

  it('returns owners with FetchOwner and URL-encodes with encoding-type=url', async ({ server: t, s3 }) => {
    await s3.send(new PutObjectCommand({ Bucket: B, Key: 'enc/a b+c', Body: 'x' }));
    const owned = await s3.send(new ListObjectsV2Command({ Bucket: B, Prefix: 'enc/', FetchOwner: true }));
    expect(owned.Contents?.[0]?.Owner?.ID).toMatch(/^[0-9a-f]{64}$/);
    const res = await raw(t.endpoint, { method: 'GET', path: `/${B}?list-type=2&prefix=enc%2F&encoding-type=url`, headers: { authorization: auth() } });
    expect(res.status).toBe(200);
    expect(xmlText(res.body, 'Key')).toBe('enc/a%20b%2Bc');
    expect(xmlText(res.body, 'EncodingType')).toBe('url');
  });

  it('orders keys by UTF-8 bytes, as S3 does', async ({ s3 }) => {
    const keys = ['utf/Z', 'utf/a', 'utf/é', 'utf/中', 'utf/\u{1F600}', 'utf/~'];
    for (const k of keys) await s3.send(new PutObjectCommand({ Bucket: B, Key: k, Body: 'x' }));
    const res = await s3.send(new ListObjectsV2Command({ Bucket: B, Prefix: 'utf/' }));
    expect(res.Contents?.map((c) => c.Key)).toEqual([...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
  });

  it('refuses bad arguments with InvalidArgument and unknown buckets with NoSuchBucket', async ({ server: t, s3 }) => {
    expect(await failure(s3.send(new ListObjectsV2Command({ Bucket: B, ContinuationToken: 'not-a-token' })))).toMatchObject({
      name: 'InvalidArgument',
      status: 400,
    });
    const neg = await raw(t.endpoint, { method: 'GET', path: `/${B}?list-type=2&max-keys=-1`, headers: { authorization: auth() } });
    expect([neg.status, xmlText(neg.body, 'Code')]).toEqual([400, 'InvalidArgument']);
    const enc = await raw(t.endpoint, { method: 'GET', path: `/${B}?list-type=2&encoding-type=xml`, headers: { authorization: auth() } });
    expect([enc.status, xmlText(enc.body, 'Code')]).toEqual([400, 'InvalidArgument']);
    expect(await failure(s3.send(new ListObjectsV2Command({ Bucket: 'no-such-listing' })))).toMatchObject({ name: 'NoSuchBucket', status: 404 });
  });
});

describe('ListObjects (v1)', () => {
  it('pages with Marker; NextMarker only with a delimiter', async ({ s3 }) => {
    const page = await s3.send(new ListObjectsCommand({ Bucket: B, MaxKeys: 3 }));
    expect(page.Contents?.map((c) => c.Key)).toEqual(sorted.slice(0, 3));
    expect(page.IsTruncated).toBe(true);
    expect(page.NextMarker).toBeUndefined();
    expect(page.Contents?.[0]?.Owner?.ID).toMatch(/^[0-9a-f]{64}$/);
    const next = await s3.send(new ListObjectsCommand({ Bucket: B, MaxKeys: 3, Marker: page.Contents![2]!.Key }));
    expect(next.Contents?.map((c) => c.Key)).toEqual(sorted.slice(3, 6));
    expect(next.Marker).toBe(page.Contents![2]!.Key);

    const seen: string[] = [];
    let marker: string | undefined;
    for (;;) {
      const p = await s3.send(new ListObjectsCommand({ Bucket: B, Delimiter: '/', MaxKeys: 2, Marker: marker }));
      seen.push(...(p.Contents ?? []).map((c) => c.Key!), ...(p.CommonPrefixes ?? []).map((c) => c.Prefix!));
      if (!p.IsTruncated) break;
      expect(p.NextMarker).toBeDefined();
      marker = p.NextMarker;
    }
    expect(seen.filter((e) => !e.startsWith('enc') && !e.startsWith('utf')).sort()).toEqual([
      'a.txt',
      'big/',
      'big2/',
      'dir1/',
      'dir2/',
      'e.txt',
    ]);
  });

  it('lists unversioned objects as their only, null, version', async ({ s3 }) => {
    const res = await s3.send(new ListObjectVersionsCommand({ Bucket: B, Prefix: 'dir1/' }));
    expect(res.Versions?.map((v) => [v.Key, v.VersionId, v.IsLatest])).toEqual([
      ['dir1/sub/z', 'null', true],
      ['dir1/x', 'null', true],
      ['dir1/y', 'null', true],
    ]);
  });
});
