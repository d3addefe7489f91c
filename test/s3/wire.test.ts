/**
 * S3 on the wire: aws-chunked bodies exactly as pyarrow sends them (unsigned chunks, a trailing
 * x-amz-checksum-crc64nvme, Expect: 100-continue) and as signed streaming uploads send them;
 * integrity headers (Content-MD5, x-amz-checksum-*) for all five algorithms; virtual-hosted
 * addressing; presigned GET and PUT URLs; malformed input — each refusal checked for AWS's
 * status and code and for nothing having changed.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import { Crc32c } from '@aws-crypto/crc32c';
import { Crc64Nvme } from '@aws-sdk/crc64-nvme';
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  type ChecksumAlgorithm,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from '../helpers/fixture.js';
import { auth, awsChunked, raw, s3Client, xmlText } from './helpers.js';

const B = 'wire-bucket';
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

it.beforeAll(async ({ s3 }) => {
  await s3.send(new CreateBucketCommand({ Bucket: B }));
});

async function crc64(d: Buffer): Promise<string> {
  const c = new Crc64Nvme();
  c.update(d);
  return Buffer.from(await c.digest()).toString('base64');
}

async function absent(s3: S3Client, key: string): Promise<boolean> {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: B, Key: key }));
    return false;
  } catch (err) {
    return (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;
  }
}

const pyarrowHeaders = (decoded: number) => ({
  authorization: auth(),
  'content-encoding': 'aws-chunked',
  'transfer-encoding': 'chunked',
  'x-amz-content-sha256': 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
  'x-amz-decoded-content-length': decoded,
  'x-amz-trailer': 'x-amz-checksum-crc64nvme',
  'content-type': 'binary/octet-stream',
});

describe('pyarrow (AWS SDK C++) multipart traffic', () => {
  it('uploads a part as aws-chunked with a CRC64NVME trailer behind Expect: 100-continue, and completes', async ({ server: t }) => {
    const key = 'warehouse/db/t/data/00000-0.parquet';
    const created = await raw(t.endpoint, {
      method: 'POST',
      path: `/${B}/${key}?uploads`,
      headers: { authorization: auth(), 'content-type': 'application/octet-stream', 'x-amz-content-sha256': EMPTY_SHA256 },
    });
    expect(created.status).toBe(200);
    expect(created.body.toString()).toContain('<InitiateMultipartUploadResult');
    const uploadId = xmlText(created.body, 'UploadId')!;

    const data = randomBytes(600);
    const framed = awsChunked(data, 256, { 'x-amz-checksum-crc64nvme': await crc64(data) });
    // Written in uneven pieces: framing never lines up with TCP chunks.
    const pieces = [framed.subarray(0, 3), framed.subarray(3, 270), framed.subarray(270)];
    const part = await raw(t.endpoint, {
      method: 'PUT',
      path: `/${B}/${key}?partNumber=1&uploadId=${encodeURIComponent(uploadId)}`,
      headers: pyarrowHeaders(data.length),
      body: pieces,
      expectContinue: true,
    });
    expect(part.continued).toBe(true);
    expect(part.status).toBe(200);
    const etag = `"${createHash('md5').update(data).digest('hex')}"`;
    expect(part.headers.etag).toBe(etag);
    expect(part.headers['x-amz-checksum-crc64nvme']).toBe(await crc64(data));

    const xml = `<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Part><ETag>${etag}</ETag><PartNumber>1</PartNumber></Part></CompleteMultipartUpload>`;
    const done = await raw(t.endpoint, {
      method: 'POST',
      path: `/${B}/${key}?uploadId=${encodeURIComponent(uploadId)}`,
      headers: { authorization: auth(), 'x-amz-content-sha256': createHash('sha256').update(xml).digest('hex'), 'content-type': 'application/xml' },
      body: xml,
    });
    expect(done.status).toBe(200);
    expect(done.body.toString()).toMatch(/<CompleteMultipartUploadResult xmlns="http:\/\/s3.amazonaws.com\/doc\/2006-03-01\/">/);
    expect(xmlText(done.body, 'Key')).toBe(key);

    // Reads as pyarrow does them: HEAD for the size, then a ranged GET with checksum mode.
    const head = await raw(t.endpoint, { method: 'HEAD', path: `/${B}/${key}`, headers: { authorization: auth() } });
    expect(head.headers['content-length']).toBe('600');
    const get = await raw(t.endpoint, {
      method: 'GET',
      path: `/${B}/${key}`,
      headers: { authorization: auth(), range: 'bytes=0-599', 'x-amz-checksum-mode': 'enabled' },
    });
    expect(get.status).toBe(206);
    expect(get.headers['content-range']).toBe('bytes 0-599/600');
    expect(get.body.equals(data)).toBe(true);
    // Every part carried a CRC64NVME, so the object has AWS's default full-object checksum: correct.
    expect(get.headers['x-amz-checksum-crc64nvme']).toBe(await crc64(data));
    const inner = await raw(t.endpoint, { method: 'GET', path: `/${B}/${key}`, headers: { authorization: auth(), range: 'bytes=4-208', 'x-amz-checksum-mode': 'enabled' } });
    expect(inner.body.equals(data.subarray(4, 209))).toBe(true);
    expect(inner.headers['x-amz-checksum-crc64nvme']).toBeUndefined();
  });

  it('re-creates a "directory" with a zero-byte application/x-directory PUT and deletes with 204', async ({ server: t, s3 }) => {
    const put = await raw(t.endpoint, {
      method: 'PUT',
      path: `/${B}/warehouse/db/t/`,
      headers: { authorization: auth(), 'content-type': 'application/x-directory', 'content-length': 0, 'x-amz-content-sha256': EMPTY_SHA256 },
    });
    expect(put.status).toBe(200);
    const head = await s3.send(new HeadObjectCommand({ Bucket: B, Key: 'warehouse/db/t/' }));
    expect([head.ContentLength, head.ContentType]).toEqual([0, 'application/x-directory']);
    const del = await raw(t.endpoint, { method: 'DELETE', path: `/${B}/warehouse/db/t/`, headers: { authorization: auth() } });
    expect(del.status).toBe(204);
  });

  it('refuses a part whose trailing CRC64NVME does not match with BadDigest, storing nothing', async ({ server: t, s3 }) => {
    const created = await raw(t.endpoint, { method: 'POST', path: `/${B}/bad-trailer?uploads`, headers: { authorization: auth() } });
    const uploadId = xmlText(created.body, 'UploadId')!;
    const data = randomBytes(1000);
    const res = await raw(t.endpoint, {
      method: 'PUT',
      path: `/${B}/bad-trailer?partNumber=1&uploadId=${encodeURIComponent(uploadId)}`,
      headers: pyarrowHeaders(data.length),
      body: awsChunked(data, 400, { 'x-amz-checksum-crc64nvme': await crc64(randomBytes(1000)) }),
      expectContinue: true,
    });
    expect(res.status).toBe(400);
    expect(xmlText(res.body, 'Code')).toBe('BadDigest');
    expect(xmlText(res.body, 'Message')).toBe('The CRC64NVME you specified did not match the calculated checksum.');
    const parts = await s3.send(new ListPartsCommand({ Bucket: B, Key: 'bad-trailer', UploadId: uploadId }));
    expect(parts.Parts ?? []).toEqual([]);
  });
});

describe('aws-chunked PutObject', () => {
  it('decodes signed chunks (STREAMING-AWS4-HMAC-SHA256-PAYLOAD) and signed trailers', async ({ server: t, s3 }) => {
    const data = randomBytes(200_000);
    const res = await raw(t.endpoint, {
      method: 'PUT',
      path: `/${B}/chunked/signed`,
      headers: {
        authorization: auth(),
        'content-encoding': 'aws-chunked',
        'x-amz-content-sha256': 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD',
        'x-amz-decoded-content-length': data.length,
      },
      body: awsChunked(data, 65_536, {}, true),
    });
    expect(res.status).toBe(200);
    const get = await s3.send(new GetObjectCommand({ Bucket: B, Key: 'chunked/signed' }));
    expect(Buffer.from(await get.Body!.transformToByteArray()).equals(data)).toBe(true);
    expect(get.ContentEncoding).toBeUndefined();

    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(data));
    const trailed = await raw(t.endpoint, {
      method: 'PUT',
      path: `/${B}/chunked/signed-trailer`,
      headers: {
        authorization: auth(),
        'content-encoding': 'gzip,aws-chunked',
        'x-amz-content-sha256': 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER',
        'x-amz-decoded-content-length': data.length,
        'x-amz-trailer': 'x-amz-checksum-crc32',
      },
      body: awsChunked(data, 65_536, { 'x-amz-checksum-crc32': crc.toString('base64'), 'x-amz-trailer-signature': '0'.repeat(64) }, true),
    });
    expect(trailed.status).toBe(200);
    expect(trailed.headers['x-amz-checksum-crc32']).toBe(crc.toString('base64'));
    const head = await s3.send(new HeadObjectCommand({ Bucket: B, Key: 'chunked/signed-trailer' }));
    expect(head.ContentEncoding).toBe('gzip');
    expect(head.ContentLength).toBe(data.length);
  });

  it('refuses truncated and malformed framing, storing nothing', async ({ server: t, s3 }) => {
    const data = randomBytes(5000);
    const short = await raw(t.endpoint, {
      method: 'PUT',
      path: `/${B}/chunked/short`,
      headers: { ...pyarrowHeaders(data.length + 10), 'x-amz-trailer': '' },
      body: awsChunked(data, 1000),
    });
    expect(short.status).toBe(400);
    expect(xmlText(short.body, 'Code')).toBe('IncompleteBody');
    const garbage = await raw(t.endpoint, {
      method: 'PUT',
      path: `/${B}/chunked/garbage`,
      headers: { authorization: auth(), 'content-encoding': 'aws-chunked', 'x-amz-content-sha256': 'STREAMING-UNSIGNED-PAYLOAD-TRAILER' },
      body: 'zz\r\nnot a chunk\r\n',
    });
    expect(garbage.status).toBe(400);
    expect(xmlText(garbage.body, 'Code')).toBe('InvalidRequest');
    expect(await absent(s3, 'chunked/short')).toBe(true);
    expect(await absent(s3, 'chunked/garbage')).toBe(true);
  });
});

describe('integrity', () => {
  const data = Buffer.from('integrity checked body');
  const expected: Record<string, string> = {
    CRC32: (() => {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(zlib.crc32(data));
      return b.toString('base64');
    })(),
    CRC32C: (() => {
      const c = new Crc32c();
      c.update(data);
      const b = Buffer.alloc(4);
      b.writeUInt32BE(c.digest());
      return b.toString('base64');
    })(),
    SHA1: createHash('sha1').update(data).digest('base64'),
    SHA256: createHash('sha256').update(data).digest('base64'),
  };

  it('computes, stores and returns all five checksums, only when asked', async ({ s3 }) => {
    expected.CRC64NVME = await crc64(data);
    for (const alg of ['CRC32', 'CRC32C', 'CRC64NVME', 'SHA1', 'SHA256'] as ChecksumAlgorithm[]) {
      const put = await s3.send(new PutObjectCommand({ Bucket: B, Key: `sum/${alg}`, Body: data, ChecksumAlgorithm: alg }));
      expect(put[`Checksum${alg}`], alg).toBe(expected[alg]);
      const head = await s3.send(new HeadObjectCommand({ Bucket: B, Key: `sum/${alg}`, ChecksumMode: 'ENABLED' }));
      expect(head[`Checksum${alg}`]).toBe(expected[alg]);
      expect(head.ChecksumType).toBe('FULL_OBJECT');
      const plain = await s3.send(new HeadObjectCommand({ Bucket: B, Key: `sum/${alg}` }));
      expect(plain[`Checksum${alg}`]).toBeUndefined();
    }
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: B, Prefix: 'sum/SHA1' }));
    expect(listed.Contents?.[0]?.ChecksumAlgorithm).toEqual(['SHA1']);
  });

  it('refuses a checksum that does not match with BadDigest, a malformed one with InvalidRequest', async ({ server: t, s3 }) => {
    const bad = await raw(t.endpoint, {
      method: 'PUT',
      path: `/${B}/sum/bad`,
      headers: { authorization: auth(), 'content-length': data.length, 'x-amz-checksum-crc32': 'AAAAAA==' },
      body: data,
    });
    expect(bad.status).toBe(400);
    expect(xmlText(bad.body, 'Code')).toBe('BadDigest');
    expect(xmlText(bad.body, 'Message')).toBe('The CRC32 you specified did not match the calculated checksum.');
    const malformed = await raw(t.endpoint, {
      method: 'PUT',
      path: `/${B}/sum/bad`,
      headers: { authorization: auth(), 'content-length': data.length, 'x-amz-checksum-sha256': 'short' },
      body: data,
    });
    expect(malformed.status).toBe(400);
    expect(xmlText(malformed.body, 'Code')).toBe('InvalidRequest');
    expect(await absent(s3, 'sum/bad')).toBe(true);
  });

  it('verifies Content-MD5: BadDigest on mismatch, InvalidDigest when malformed', async ({ server: t, s3 }) => {
    const md5 = createHash('md5').update(data).digest('base64');
    const ok = await raw(t.endpoint, { method: 'PUT', path: `/${B}/md5/ok`, headers: { authorization: auth(), 'content-md5': md5, 'content-length': data.length }, body: data });
    expect(ok.status).toBe(200);
    const wrong = createHash('md5').update('other').digest('base64');
    const bad = await raw(t.endpoint, { method: 'PUT', path: `/${B}/md5/bad`, headers: { authorization: auth(), 'content-md5': wrong, 'content-length': data.length }, body: data });
    expect(bad.status).toBe(400);
    expect([xmlText(bad.body, 'Code'), xmlText(bad.body, 'ExpectedDigest'), xmlText(bad.body, 'CalculatedDigest')]).toEqual(['BadDigest', wrong, md5]);
    const invalid = await raw(t.endpoint, { method: 'PUT', path: `/${B}/md5/bad`, headers: { authorization: auth(), 'content-md5': 'xyz', 'content-length': data.length }, body: data });
    expect([invalid.status, xmlText(invalid.body, 'Code')]).toEqual([400, 'InvalidDigest']);
    expect(await absent(s3, 'md5/bad')).toBe(true);
    // Large bodies are hashed off the event loop; the verdict is the same.
    const big = randomBytes(3 * 1024 * 1024 + 5);
    const bigMd5 = createHash('md5').update(big).digest('base64');
    const bigOk = await raw(t.endpoint, { method: 'PUT', path: `/${B}/md5/big`, headers: { authorization: auth(), 'content-md5': bigMd5, 'content-length': big.length }, body: big });
    expect([bigOk.status, bigOk.headers.etag]).toEqual([200, `"${Buffer.from(bigMd5, 'base64').toString('hex')}"`]);
    const bigBad = await raw(t.endpoint, { method: 'PUT', path: `/${B}/md5/big-bad`, headers: { authorization: auth(), 'content-md5': wrong, 'content-length': big.length }, body: big });
    expect([bigBad.status, xmlText(bigBad.body, 'Code')]).toEqual([400, 'BadDigest']);
    expect(await absent(s3, 'md5/big-bad')).toBe(true);
    // XML bodies are checked too (DeleteObjects requires an integrity header).
    const xml = '<Delete><Object><Key>md5/ok</Key></Object></Delete>';
    const del = await raw(t.endpoint, { method: 'POST', path: `/${B}?delete`, headers: { authorization: auth(), 'content-md5': wrong }, body: xml });
    expect([del.status, xmlText(del.body, 'Code')]).toEqual([400, 'BadDigest']);
    const none = await raw(t.endpoint, { method: 'POST', path: `/${B}?delete`, headers: { authorization: auth() }, body: xml });
    expect([none.status, xmlText(none.body, 'Code')]).toEqual([400, 'InvalidRequest']);
    expect(await absent(s3, 'md5/ok')).toBe(false);
  });

  it('sends 100 Continue to a plain PUT that asks for it', async ({ server: t }) => {
    const res = await raw(t.endpoint, {
      method: 'PUT',
      path: `/${B}/continue`,
      headers: { authorization: auth(), 'content-length': 5 },
      body: 'hello',
      expectContinue: true,
    });
    expect([res.continued, res.status]).toEqual([true, 200]);
  });
});

describe('addressing', () => {
  it('serves virtual-hosted style through the SDK (bucket.localhost) and raw Host headers', async ({ server: t, s3 }) => {
    const port = new URL(t.endpoint).port;
    const lookup = (_host: string, opts: { all?: boolean }, cb: (...a: unknown[]) => void) =>
      opts.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4);
    const vhost = s3Client(t, {
      endpoint: `http://localhost:${port}`,
      forcePathStyle: false,
      requestHandler: { httpAgent: new http.Agent({ keepAlive: true, lookup: lookup as never }) },
    });
    const hosts: string[] = [];
    vhost.middlewareStack.add((next) => async (args) => {
      hosts.push((args.request as { hostname: string }).hostname);
      return next(args);
    }, { step: 'finalizeRequest' });
    await vhost.send(new CreateBucketCommand({ Bucket: 'vhost-bucket' }));
    await vhost.send(new PutObjectCommand({ Bucket: 'vhost-bucket', Key: 'dir/file.txt', Body: 'virtual' }));
    const got = await vhost.send(new GetObjectCommand({ Bucket: 'vhost-bucket', Key: 'dir/file.txt' }));
    expect(await got.Body!.transformToString()).toBe('virtual');
    const listed = await vhost.send(new ListObjectsV2Command({ Bucket: 'vhost-bucket' }));
    expect(listed.Contents?.map((c) => c.Key)).toEqual(['dir/file.txt']);
    expect(hosts.every((h) => h === 'vhost-bucket.localhost')).toBe(true);
    // Seen through path style, it is the same object.
    const path = await s3.send(new GetObjectCommand({ Bucket: 'vhost-bucket', Key: 'dir/file.txt' }));
    expect(await path.Body!.transformToString()).toBe('virtual');
    for (const host of [`vhost-bucket.s3.localhost:${port}`, `vhost-bucket.s3.us-east-1.localhost:${port}`, `vhost-bucket.s3.amazonaws.com`]) {
      const res = await raw(t.endpoint, { method: 'GET', path: '/dir/file.txt', headers: { host, authorization: auth() } });
      expect([host, res.status, res.body.toString()]).toEqual([host, 200, 'virtual']);
    }
  });

  it('accepts presigned GET and PUT URLs, and refuses expired ones with AccessDenied', async ({ server: t, s3 }) => {
    const putUrl = await getSignedUrl(s3, new PutObjectCommand({ Bucket: B, Key: 'presigned/obj', ContentType: 'text/plain' }), { expiresIn: 300 });
    const put = await fetch(putUrl, { method: 'PUT', body: 'via presigned put', headers: { 'content-type': 'text/plain' } });
    expect(put.status).toBe(200);
    const getUrl = await getSignedUrl(s3, new GetObjectCommand({ Bucket: B, Key: 'presigned/obj' }), { expiresIn: 300 });
    const get = await fetch(getUrl);
    expect([get.status, await get.text(), get.headers.get('content-type')]).toEqual([200, 'via presigned put', 'text/plain']);
    const expiredUrl = await getSignedUrl(s3, new GetObjectCommand({ Bucket: B, Key: 'presigned/obj' }), {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 3600_000),
    });
    const expired = await fetch(expiredUrl);
    const text = await expired.text();
    expect([expired.status, xmlText(text, 'Code'), xmlText(text, 'Message')]).toEqual([403, 'AccessDenied', 'Request has expired']);
    // The SigV2 query form: Expires is an epoch second.
    const v2 = (expires: number) => `${t.endpoint}/${B}/presigned/obj?AWSAccessKeyId=test&Expires=${expires}&Signature=abc%3D`;
    expect((await fetch(v2(Math.floor(Date.now() / 1000) + 300))).status).toBe(200);
    expect((await fetch(v2(Math.floor(Date.now() / 1000) - 300))).status).toBe(403);
  });
});

describe('malformed input', () => {
  it('answers MalformedXML for a broken CompleteMultipartUpload, keeping the upload', async ({ server: t, s3 }) => {
    const created = await raw(t.endpoint, { method: 'POST', path: `/${B}/mx?uploads`, headers: { authorization: auth() } });
    const uploadId = xmlText(created.body, 'UploadId')!;
    const res = await raw(t.endpoint, {
      method: 'POST',
      path: `/${B}/mx?uploadId=${encodeURIComponent(uploadId)}`,
      headers: { authorization: auth() },
      body: '<CompleteMultipartUpload><Part><ETag>"x"</ETag>',
    });
    expect([res.status, xmlText(res.body, 'Code')]).toEqual([400, 'MalformedXML']);
    const uploads = await s3.send(new ListMultipartUploadsCommand({ Bucket: B, Prefix: 'mx' }));
    expect(uploads.Uploads?.map((u) => u.UploadId)).toEqual([uploadId]);
  });

  it('answers an operation S3 lacks with NotImplemented, and errors carry the request id', async ({ server: t }) => {
    const res = await raw(t.endpoint, { method: 'POST', path: `/${B}`, headers: { authorization: auth() }, body: 'x' });
    expect([res.status, xmlText(res.body, 'Code')]).toEqual([501, 'NotImplemented']);
    const missing = await raw(t.endpoint, { method: 'GET', path: `/${B}/nope`, headers: { authorization: auth() } });
    expect(missing.status).toBe(404);
    expect(xmlText(missing.body, 'RequestId')).toBe(missing.headers['x-amz-request-id']);
    expect(xmlText(missing.body, 'Key')).toBe('nope');
  });

  it('stores nothing when the client goes away mid-body', async ({ server: t, s3 }) => {
    const url = new URL(t.endpoint);
    await new Promise<void>((resolve) => {
      const req = http.request({
        host: url.hostname,
        port: url.port,
        method: 'PUT',
        path: `/${B}/abandoned`,
        agent: false,
        headers: { authorization: auth(), 'content-length': 1_000_000 },
      });
      req.on('error', () => resolve());
      req.write(randomBytes(400_000), () => setTimeout(() => req.destroy(), 50));
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(await absent(s3, 'abandoned')).toBe(true);
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: B, Prefix: 'abandoned' }));
    expect(listed.KeyCount).toBe(0);
  });

  it('never answers 500 to garbage: bad percent-encoding, bad numbers, bad dates', async ({ server: t }) => {
    const cases: [string, string, Record<string, string>][] = [
      ['GET', `/${B}/%E0%A4%A`, {}],
      ['GET', `/${B}?list-type=2&max-keys=abc`, {}],
      ['PUT', `/${B}/x?partNumber=abc&uploadId=u`, {}],
      ['GET', `/${B}/continue`, { range: 'bytes=99999999999999999999-' }],
      ['PUT', `/${B}/x`, { 'x-amz-copy-source': '%%%' }],
    ];
    for (const [method, path, headers] of cases) {
      const res = await raw(t.endpoint, { method, path, headers: { authorization: auth(), ...headers } });
      expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
    }
    // A conditional date that is not a date is no condition (RFC 7232), not an error.
    const ignored = await raw(t.endpoint, { method: 'GET', path: `/${B}/continue`, headers: { authorization: auth(), 'if-modified-since': 'not a date' } });
    expect([ignored.status, ignored.body.toString()]).toEqual([200, 'hello']);
  });
});
