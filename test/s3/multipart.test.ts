/**
 * Multipart uploads through @aws-sdk/lib-storage and @aws-sdk/client-s3: ETags, partNumber reads,
 * COMPOSITE and FULL_OBJECT checksums (checked against independent implementations), ListParts
 * and ListMultipartUploads paging, UploadPartCopy, conditional completion, and AWS's errors
 * (EntityTooSmall, InvalidPart, InvalidPartOrder, NoSuchUpload) leaving the upload as it was.
 */
import { createHash, randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { Crc32c } from '@aws-crypto/crc32c';
import { Crc64Nvme } from '@aws-sdk/crc64-nvme';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { describe, expect, it } from '../helpers/fixture.js';
import { internalCtx } from '../../src/runtime/runtime.js';
import { getObject } from '../../src/services/s3/provider.js';
import { failure } from '../helpers/errors.js';

const B = 'multipart-bucket';
const MiB = 1024 * 1024;

it.beforeAll(async ({ s3 }) => {
  await s3.send(new CreateBucketCommand({ Bucket: B }));
});

const be32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const crc32 = (d: Buffer) => be32(zlib.crc32(d));
const crc32c = (d: Buffer) => {
  const c = new Crc32c();
  c.update(d);
  return be32(c.digest());
};
const crc64 = async (d: Buffer) => {
  const c = new Crc64Nvme();
  c.update(d);
  return Buffer.from(await c.digest());
};

async function getBytes(s3: S3Client, key: string, extra: Record<string, unknown> = {}): Promise<Buffer> {
  const res = await s3.send(new GetObjectCommand({ Bucket: B, Key: key, ...extra }));
  return Buffer.from(await res.Body!.transformToByteArray());
}

async function upload(s3: S3Client, key: string, parts: Buffer[], create: Record<string, unknown> = {}) {
  const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: B, Key: key, ...create }));
  const done = [];
  for (let i = 0; i < parts.length; i++) {
    const r = await s3.send(
      new UploadPartCommand({ Bucket: B, Key: key, UploadId, PartNumber: i + 1, Body: parts[i], ChecksumAlgorithm: create.ChecksumAlgorithm as never }),
    );
    done.push({ PartNumber: i + 1, ETag: r.ETag!, ...pickChecksums(r as unknown as Record<string, unknown>) } as CompletedPart);
  }
  return { UploadId: UploadId!, parts: done };
}

function pickChecksums(r: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(r).filter(([k, v]) => k.startsWith('Checksum') && k !== 'ChecksumType' && v !== undefined));
}

describe('lib-storage uploads', () => {
  const data = randomBytes(12 * MiB + 12345);
  let etag: string;

  it('uploads in parts with md5-of-md5s-N ETag and the bytes intact', async ({ s3 }) => {
    const up = new Upload({ client: s3, params: { Bucket: B, Key: 'lib/big.bin', Body: data }, partSize: 5 * MiB, queueSize: 2 });
    const res = await up.done();
    etag = res.ETag!;
    const md5s = [0, 1, 2].map((i) => createHash('md5').update(data.subarray(i * 5 * MiB, (i + 1) * 5 * MiB)).digest());
    expect(etag).toBe(`"${createHash('md5').update(Buffer.concat(md5s)).digest('hex')}-3"`);
    expect((await getBytes(s3, 'lib/big.bin')).equals(data)).toBe(true);
    const head = await s3.send(new HeadObjectCommand({ Bucket: B, Key: 'lib/big.bin', ChecksumMode: 'ENABLED' }));
    expect(head.ContentLength).toBe(data.length);
    // lib-storage asks for CRC32: S3 answers a COMPOSITE checksum of the part CRCs.
    const partCrcs = [0, 1, 2].map((i) => crc32(data.subarray(i * 5 * MiB, (i + 1) * 5 * MiB)));
    expect(head.ChecksumCRC32).toBe(`${crc32(Buffer.concat(partCrcs)).toString('base64')}-3`);
    expect(head.ChecksumType).toBe('COMPOSITE');
  });

  it('streams the object to in-process callers (getObject) across its part files', async ({ server: t }) => {
    const ctx = internalCtx(t.server.runtime, '000000000000', 'us-east-1', 'test');
    const res = getObject(ctx, { Bucket: B, Key: 'lib/big.bin', Range: `bytes=${5 * MiB - 3}-${10 * MiB + 2}` });
    const chunks: Buffer[] = [];
    for await (const c of res.Body) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(data.subarray(5 * MiB - 3, 10 * MiB + 3))).toBe(true);
    const whole: Buffer[] = [];
    for await (const c of getObject(ctx, { Bucket: B, Key: 'lib/big.bin' }).Body) whole.push(c as Buffer);
    expect(Buffer.concat(whole).equals(data)).toBe(true);
  });

  it('reads a part by partNumber and ranges across part boundaries', async ({ s3 }) => {
    const part2 = await s3.send(new GetObjectCommand({ Bucket: B, Key: 'lib/big.bin', PartNumber: 2 }));
    expect(part2.$metadata.httpStatusCode).toBe(206);
    expect(part2.PartsCount).toBe(3);
    expect(part2.ContentRange).toBe(`bytes ${5 * MiB}-${10 * MiB - 1}/${data.length}`);
    expect(Buffer.from(await part2.Body!.transformToByteArray()).equals(data.subarray(5 * MiB, 10 * MiB))).toBe(true);
    const across = await getBytes(s3, 'lib/big.bin', { Range: `bytes=${5 * MiB - 10}-${5 * MiB + 9}` });
    expect(across.equals(data.subarray(5 * MiB - 10, 5 * MiB + 10))).toBe(true);
    const head = await s3.send(new HeadObjectCommand({ Bucket: B, Key: 'lib/big.bin', PartNumber: 3 }));
    expect([head.ContentLength, head.PartsCount]).toEqual([data.length - 10 * MiB, 3]);
    const four = await failure(s3.send(new GetObjectCommand({ Bucket: B, Key: 'lib/big.bin', PartNumber: 4 })));
    expect([four.name, four.status]).toEqual(['InvalidPartNumber', 416]);
  });
});

describe('checksums of multipart objects', () => {
  const parts = [randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(1000)];
  const whole = Buffer.concat(parts);

  it('computes FULL_OBJECT CRC32C and CRC64NVME by combining part CRCs', async ({ s3 }) => {
    for (const [alg, fn] of [
      ['CRC32C', async (d: Buffer) => crc32c(d)],
      ['CRC64NVME', crc64],
    ] as const) {
      const key = `full/${alg}`;
      const { UploadId, parts: done } = await upload(s3, key, parts, { ChecksumAlgorithm: alg, ChecksumType: 'FULL_OBJECT' });
      const res = await s3.send(new CompleteMultipartUploadCommand({ Bucket: B, Key: key, UploadId, MultipartUpload: { Parts: done } }));
      const expected = (await fn(whole)).toString('base64');
      expect(res[`Checksum${alg}`], alg).toBe(expected);
      expect(res.ChecksumType).toBe('FULL_OBJECT');
      const get = await s3.send(new GetObjectCommand({ Bucket: B, Key: key, ChecksumMode: 'ENABLED' }));
      expect(get[`Checksum${alg}`]).toBe(expected);
      // The SDK validates a full-object checksum while reading: a wrong value would throw here.
      expect(Buffer.from(await get.Body!.transformToByteArray()).equals(whole)).toBe(true);
    }
  });

  it('computes COMPOSITE SHA256 and refuses a part checksum that does not match', async ({ s3 }) => {
    const { UploadId, parts: done } = await upload(s3, 'comp/sha', parts, { ChecksumAlgorithm: 'SHA256' });
    const bad = done.map((p, i) => (i === 1 ? { ...p, ChecksumSHA256: done[0]!.ChecksumSHA256 } : p));
    const f = await failure(s3.send(new CompleteMultipartUploadCommand({ Bucket: B, Key: 'comp/sha', UploadId, MultipartUpload: { Parts: bad } })));
    expect([f.name, f.status, f.error.PartNumber]).toEqual(['InvalidPart', 400, '2']);
    const res = await s3.send(new CompleteMultipartUploadCommand({ Bucket: B, Key: 'comp/sha', UploadId, MultipartUpload: { Parts: done } }));
    const shas = parts.map((p) => createHash('sha256').update(p).digest());
    expect(res.ChecksumSHA256).toBe(`${createHash('sha256').update(Buffer.concat(shas)).digest('base64')}-3`);
    expect(res.ChecksumType).toBe('COMPOSITE');
  });

  it('refuses FULL_OBJECT with SHA and COMPOSITE with CRC64NVME', async ({ s3 }) => {
    const a = await failure(s3.send(new CreateMultipartUploadCommand({ Bucket: B, Key: 'x', ChecksumAlgorithm: 'SHA1', ChecksumType: 'FULL_OBJECT' })));
    expect([a.name, a.status]).toEqual(['InvalidRequest', 400]);
    const b = await failure(
      s3.send(new CreateMultipartUploadCommand({ Bucket: B, Key: 'x', ChecksumAlgorithm: 'CRC64NVME', ChecksumType: 'COMPOSITE' })),
    );
    expect([b.name, b.status]).toEqual(['InvalidRequest', 400]);
  });
});

describe('managing uploads', () => {
  it('pages ListParts and ListMultipartUploads, and forgets aborted uploads', async ({ s3 }) => {
    const ids: string[] = [];
    for (const key of ['mpu/a', 'mpu/a', 'mpu/b', 'mpu/sub/c', 'other/d']) {
      ids.push((await s3.send(new CreateMultipartUploadCommand({ Bucket: B, Key: key }))).UploadId!);
    }
    for (let n = 1; n <= 3; n++) await s3.send(new UploadPartCommand({ Bucket: B, Key: 'mpu/a', UploadId: ids[0], PartNumber: n, Body: `p${n}` }));
    const p1 = await s3.send(new ListPartsCommand({ Bucket: B, Key: 'mpu/a', UploadId: ids[0], MaxParts: 2 }));
    expect(p1.Parts?.map((p) => p.PartNumber)).toEqual([1, 2]);
    expect([p1.IsTruncated, p1.NextPartNumberMarker]).toEqual([true, '2']);
    const p2 = await s3.send(new ListPartsCommand({ Bucket: B, Key: 'mpu/a', UploadId: ids[0], PartNumberMarker: p1.NextPartNumberMarker }));
    expect(p2.Parts?.map((p) => [p.PartNumber, p.Size])).toEqual([[3, 2]]);
    expect(p2.IsTruncated).toBe(false);

    const all = await s3.send(new ListMultipartUploadsCommand({ Bucket: B, Prefix: 'mpu/' }));
    expect(all.Uploads?.map((u) => u.Key)).toEqual(['mpu/a', 'mpu/a', 'mpu/b', 'mpu/sub/c']);
    expect(all.Uploads?.slice(0, 2).map((u) => u.UploadId)).toEqual([ids[0], ids[1]]);
    const delimited = await s3.send(new ListMultipartUploadsCommand({ Bucket: B, Prefix: 'mpu/', Delimiter: '/' }));
    expect(delimited.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['mpu/sub/']);
    const page = await s3.send(new ListMultipartUploadsCommand({ Bucket: B, Prefix: 'mpu/', MaxUploads: 1 }));
    expect([page.IsTruncated, page.NextKeyMarker, page.NextUploadIdMarker]).toEqual([true, 'mpu/a', ids[0]]);
    const rest = await s3.send(
      new ListMultipartUploadsCommand({ Bucket: B, Prefix: 'mpu/', KeyMarker: page.NextKeyMarker, UploadIdMarker: page.NextUploadIdMarker }),
    );
    expect(rest.Uploads?.map((u) => u.UploadId)).toEqual([ids[1], ids[2], ids[3]]);

    await s3.send(new AbortMultipartUploadCommand({ Bucket: B, Key: 'mpu/a', UploadId: ids[0] }));
    const after = await s3.send(new ListMultipartUploadsCommand({ Bucket: B, Prefix: 'mpu/a' }));
    expect(after.Uploads?.map((u) => u.UploadId)).toEqual([ids[1]]);
    const gone = await failure(s3.send(new ListPartsCommand({ Bucket: B, Key: 'mpu/a', UploadId: ids[0] })));
    expect([gone.name, gone.status, gone.error.UploadId]).toEqual(['NoSuchUpload', 404, ids[0]]);
  });

  it('copies byte ranges of an object into parts with UploadPartCopy', async ({ s3 }) => {
    const src = randomBytes(6 * MiB);
    await s3.send(new PutObjectCommand({ Bucket: B, Key: 'copy/src', Body: src }));
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: B, Key: 'copy/dst' }));
    const c1 = await s3.send(
      new UploadPartCopyCommand({ Bucket: B, Key: 'copy/dst', UploadId, PartNumber: 1, CopySource: `${B}/copy/src`, CopySourceRange: `bytes=0-${5 * MiB - 1}` }),
    );
    const c2 = await s3.send(
      new UploadPartCopyCommand({ Bucket: B, Key: 'copy/dst', UploadId, PartNumber: 2, CopySource: `${B}/copy/src`, CopySourceRange: `bytes=${5 * MiB}-${6 * MiB - 1}` }),
    );
    expect(c1.CopyPartResult?.ETag).toBe(`"${createHash('md5').update(src.subarray(0, 5 * MiB)).digest('hex')}"`);
    const bad = await failure(
      s3.send(new UploadPartCopyCommand({ Bucket: B, Key: 'copy/dst', UploadId, PartNumber: 3, CopySource: `${B}/copy/src`, CopySourceRange: 'bytes=5-1' })),
    );
    expect([bad.name, bad.status]).toEqual(['InvalidArgument', 400]);
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: B,
        Key: 'copy/dst',
        UploadId,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: c1.CopyPartResult!.ETag }, { PartNumber: 2, ETag: c2.CopyPartResult!.ETag }] },
      }),
    );
    expect((await getBytes(s3, 'copy/dst')).equals(src)).toBe(true);
  });
});

describe('completion rules', () => {
  it('refuses small parts, wrong order, unknown parts and unknown uploads, leaving the upload intact', async ({ s3 }) => {
    const small = [randomBytes(1 * MiB), randomBytes(1000)];
    const { UploadId, parts } = await upload(s3, 'rules/obj', small);
    const tooSmall = await failure(s3.send(new CompleteMultipartUploadCommand({ Bucket: B, Key: 'rules/obj', UploadId, MultipartUpload: { Parts: parts } })));
    expect([tooSmall.name, tooSmall.status, tooSmall.error.PartNumber, tooSmall.error.ProposedSize]).toEqual([
      'EntityTooSmall',
      400,
      '1',
      String(MiB),
    ]);
    const order = await failure(
      s3.send(new CompleteMultipartUploadCommand({ Bucket: B, Key: 'rules/obj', UploadId, MultipartUpload: { Parts: [parts[1]!, parts[0]!] } })),
    );
    expect([order.name, order.status]).toEqual(['InvalidPartOrder', 400]);
    const wrong = await failure(
      s3.send(
        new CompleteMultipartUploadCommand({ Bucket: B, Key: 'rules/obj', UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: '"0123"' }] } }),
      ),
    );
    expect([wrong.name, wrong.status]).toEqual(['InvalidPart', 400]);
    const missing = await failure(
      s3.send(new CompleteMultipartUploadCommand({ Bucket: B, Key: 'rules/obj', UploadId, MultipartUpload: { Parts: [{ PartNumber: 7, ETag: parts[0]!.ETag }] } })),
    );
    expect(missing.name).toBe('InvalidPart');
    for (const call of [
      () => s3.send(new UploadPartCommand({ Bucket: B, Key: 'rules/obj', UploadId: 'nope', PartNumber: 1, Body: 'x' })),
      () => s3.send(new CompleteMultipartUploadCommand({ Bucket: B, Key: 'rules/obj', UploadId: 'nope', MultipartUpload: { Parts: parts } })),
      () => s3.send(new AbortMultipartUploadCommand({ Bucket: B, Key: 'rules/obj', UploadId: 'nope' })),
      () => s3.send(new UploadPartCommand({ Bucket: B, Key: 'rules/other-key', UploadId, PartNumber: 1, Body: 'x' })),
    ]) {
      const f = await failure(call());
      expect([f.name, f.status]).toEqual(['NoSuchUpload', 404]);
    }
    const range = await failure(s3.send(new UploadPartCommand({ Bucket: B, Key: 'rules/obj', UploadId, PartNumber: 10001, Body: 'x' })));
    expect([range.name, range.status]).toEqual(['InvalidArgument', 400]);
    // Nothing changed: the object does not exist and the parts are all still there.
    expect((await failure(s3.send(new HeadObjectCommand({ Bucket: B, Key: 'rules/obj' })))).status).toBe(404);
    const listed = await s3.send(new ListPartsCommand({ Bucket: B, Key: 'rules/obj', UploadId }));
    expect(listed.Parts?.map((p) => p.Size)).toEqual([MiB, 1000]);
    // The last part alone may be small.
    await s3.send(new CompleteMultipartUploadCommand({ Bucket: B, Key: 'rules/obj', UploadId, MultipartUpload: { Parts: [parts[0]!] } }));
    expect((await getBytes(s3, 'rules/obj')).equals(small[0]!)).toBe(true);
  });

  it('writes a small single part inline and a re-uploaded part replaces the old one', async ({ s3 }) => {
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: B, Key: 'rules/tiny' }));
    await s3.send(new UploadPartCommand({ Bucket: B, Key: 'rules/tiny', UploadId, PartNumber: 1, Body: 'old' }));
    const p = await s3.send(new UploadPartCommand({ Bucket: B, Key: 'rules/tiny', UploadId, PartNumber: 1, Body: 'new bytes' }));
    const res = await s3.send(
      new CompleteMultipartUploadCommand({ Bucket: B, Key: 'rules/tiny', UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: p.ETag }] } }),
    );
    expect(res.ETag).toMatch(/-1"$/);
    expect((await getBytes(s3, 'rules/tiny')).toString()).toBe('new bytes');
  });

  it('checks If-None-Match and If-Match on completion (412), keeping the upload', async ({ s3 }) => {
    await s3.send(new PutObjectCommand({ Bucket: B, Key: 'cond/exists', Body: 'already' }));
    const { UploadId, parts } = await upload(s3, 'cond/exists', [Buffer.from('mpu body')]);
    const f = await failure(
      s3.send(new CompleteMultipartUploadCommand({ Bucket: B, Key: 'cond/exists', UploadId, IfNoneMatch: '*', MultipartUpload: { Parts: parts } })),
    );
    expect([f.name, f.status]).toEqual(['PreconditionFailed', 412]);
    expect((await getBytes(s3, 'cond/exists')).toString()).toBe('already');
    const stale = await failure(
      s3.send(new CompleteMultipartUploadCommand({ Bucket: B, Key: 'cond/exists', UploadId, IfMatch: '"abc"', MultipartUpload: { Parts: parts } })),
    );
    expect([stale.name, stale.status]).toEqual(['PreconditionFailed', 412]);
    const current = await s3.send(new HeadObjectCommand({ Bucket: B, Key: 'cond/exists' }));
    await s3.send(
      new CompleteMultipartUploadCommand({ Bucket: B, Key: 'cond/exists', UploadId, IfMatch: current.ETag, MultipartUpload: { Parts: parts } }),
    );
    expect((await getBytes(s3, 'cond/exists')).toString()).toBe('mpu body');

    const fresh = await upload(s3, 'cond/new', [Buffer.from('first')]);
    await s3.send(
      new CompleteMultipartUploadCommand({ Bucket: B, Key: 'cond/new', UploadId: fresh.UploadId, IfNoneMatch: '*', MultipartUpload: { Parts: fresh.parts } }),
    );
    expect((await getBytes(s3, 'cond/new')).toString()).toBe('first');
  });
});
