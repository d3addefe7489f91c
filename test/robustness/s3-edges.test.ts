/**
 * S3's hostile HTTP, request by request where the model cannot say what is wrong: bad Range
 * headers and conditional dates, a Content-Length that disagrees with the body (short, long,
 * negative, huge, not a number), broken aws-chunked framing (bad hex sizes, missing CRLFs,
 * trailers without the final chunk, decoded lengths that lie), part numbers 0, 10001 and `abc`,
 * upload ids that do not exist, keys of 1025 bytes — each answered below 500 in S3's `<Error>`
 * document with a documented code, with the store unchanged when refused and the server healthy.
 */
import net from 'node:net';
import { CreateBucketCommand, CreateMultipartUploadCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceModel } from '../../src/model/service-model.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { authorization, Findings, healthy, judge, knownCodes, readError, send, storeDigest, type RawRequest, type Verdict } from './support.js';

let t: TestServer;
let uploadId: string;
const B = 'edge-bucket';
const auth = { authorization: authorization('s3') };
const verdict: Verdict = { protocol: 'rest-xml', model: serviceModel('s3'), codes: knownCodes(serviceModel('s3'), 'rest-xml') };

beforeAll(async () => {
  t = await startTestServer();
  const s3 = new S3Client({ ...t.clientConfig, maxAttempts: 1 });
  await s3.send(new CreateBucketCommand({ Bucket: B }));
  await s3.send(new PutObjectCommand({ Bucket: B, Key: 'obj', Body: '0123456789' }));
  await s3.send(new PutObjectCommand({ Bucket: B, Key: 'empty', Body: new Uint8Array(0) }));
  uploadId = (await s3.send(new CreateMultipartUploadCommand({ Bucket: B, Key: 'mpu' }))).UploadId!;
});
afterAll(async () => t.stop());

/** Sends each request; a refused one must leave the store as it was. Returns the findings. */
async function sweep(cases: [string, RawRequest][], mutating: boolean): Promise<Findings> {
  const findings = new Findings();
  for (const [label, req] of cases) {
    const before = storeDigest(t);
    const res = await send(t.endpoint, { ...req, headers: { ...auth, ...req.headers } });
    judge(verdict, label, req.method, res, findings);
    if (mutating && res.status >= 400 && storeDigest(t) !== before) findings.add(label, `refused with ${res.status} but the store changed`);
  }
  if (!(await healthy(t))) findings.add('after', 'health check failed');
  return findings;
}

/** Raw bytes on a fresh connection (what no HTTP client sends); the answer up to the close. */
function exchange(bytes: string | Buffer, halfClose = true): Promise<string> {
  const url = new URL(t.endpoint);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(bytes);
      if (halfClose) socket.end();
    });
    const got: Buffer[] = [];
    socket.on('data', (d: Buffer) => got.push(d));
    socket.on('close', () => resolve(Buffer.concat(got).toString('latin1')));
    socket.on('error', () => resolve(Buffer.concat(got).toString('latin1')));
    socket.setTimeout(5_000, () => socket.destroy());
  });
}

/** The status and S3 code of every response in `text` (a connection may carry several). */
function answers(text: string): [number, string | undefined][] {
  const out: [number, string | undefined][] = [];
  for (const m of text.matchAll(/HTTP\/1\.1 (\d{3})[^\r]*\r\n/g)) {
    const rest = text.slice(m.index! + m[0].length);
    const next = rest.search(/HTTP\/1\.1 \d{3}/);
    const code = /<Code>([^<]+)<\/Code>/.exec(next < 0 ? rest : rest.slice(0, next))?.[1];
    out.push([Number(m[1]), code]);
  }
  return out;
}

describe('S3 edge cases over HTTP', () => {
  it('Range headers: malformed, inverted, huge, multiple, on an empty object', async () => {
    const ranges = [
      'bytes=abc', 'bytes=5-2', 'bytes=-', 'bytes=-0', 'bytes=0-1,3-4', 'bytes=99999999999999999999-', 'bytes=1e3-',
      'items=0-1', 'bytes = 0 - 1', 'bytes=10-', 'bytes=0-99999999999999999999', `bytes=${'9'.repeat(5000)}-`, 'bytes=--1', 'bytes=0x1-0x2',
    ];
    const cases: [string, RawRequest][] = [];
    for (const range of ranges) {
      for (const key of ['obj', 'empty']) {
        cases.push([`GET ${key} Range ${range.slice(0, 40)}`, { method: 'GET', path: `/${B}/${key}`, headers: { range } }]);
        cases.push([`HEAD ${key} Range ${range.slice(0, 40)}`, { method: 'HEAD', path: `/${B}/${key}`, headers: { range } }]);
      }
      cases.push([`UploadPartCopy range ${range.slice(0, 40)}`, {
        method: 'PUT',
        path: `/${B}/mpu?partNumber=1&uploadId=${encodeURIComponent(uploadId)}`,
        headers: { 'x-amz-copy-source': `${B}/obj`, 'x-amz-copy-source-range': range },
      }]);
    }
    expect((await sweep(cases, false)).report()).toBe('');
  });

  it('conditional headers: dates that are not dates, out of range, ETags of every form', async () => {
    const dates = ['garbage', 'Mon, 32 Foo 2025 99:99:99 GMT', '0', '-1', '99999999999999', 'Thu, 01 Jan 1970 00:00:00 GMT', 'Fri, 31 Dec 9999 23:59:59 GMT', ''];
    const etags = ['*', '"nope"', 'nope', '""', 'W/"x"', '"a", "b"', '\u00ff'];
    const cases: [string, RawRequest][] = [];
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE']) {
      for (const d of dates) {
        for (const h of ['if-modified-since', 'if-unmodified-since']) cases.push([`${method} ${h}: ${d}`, { method, path: `/${B}/obj`, headers: { [h]: d }, body: method === 'PUT' ? 'new' : undefined }]);
      }
      for (const e of etags) {
        for (const h of ['if-match', 'if-none-match']) cases.push([`${method} ${h}: ${e}`, { method, path: `/${B}/obj`, headers: { [h]: e }, body: method === 'PUT' ? '0123456789' : undefined }]);
      }
    }
    for (const d of dates) cases.push([`copy-source-if-modified-since ${d}`, { method: 'PUT', path: `/${B}/copy`, headers: { 'x-amz-copy-source': `${B}/obj`, 'x-amz-copy-source-if-modified-since': d } }]);
    expect((await sweep(cases, false)).report()).toBe('');
  });

  it('part numbers 0, 10001, abc and friends; upload ids that do not exist', async () => {
    const cases: [string, RawRequest][] = [];
    const id = encodeURIComponent(uploadId);
    for (const n of ['0', '10001', 'abc', '-1', '1.5', '', '1e3', '99999999999999999999', '%00']) {
      cases.push([`UploadPart partNumber=${n}`, { method: 'PUT', path: `/${B}/mpu?partNumber=${n}&uploadId=${id}`, body: 'part' }]);
      cases.push([`GetObject partNumber=${n}`, { method: 'GET', path: `/${B}/obj?partNumber=${n}` }]);
      cases.push([`ListParts part-number-marker=${n}`, { method: 'GET', path: `/${B}/mpu?uploadId=${id}&part-number-marker=${n}` }]);
      cases.push([`ListParts max-parts=${n}`, { method: 'GET', path: `/${B}/mpu?uploadId=${id}&max-parts=${n}` }]);
    }
    for (const u of ['nope', '', '%00', 'a'.repeat(5000), '..%2F..']) {
      cases.push([`UploadPart uploadId=${u.slice(0, 20)}`, { method: 'PUT', path: `/${B}/mpu?partNumber=1&uploadId=${u}`, body: 'part' }]);
      cases.push([`ListParts uploadId=${u.slice(0, 20)}`, { method: 'GET', path: `/${B}/mpu?uploadId=${u}` }]);
      cases.push([`Abort uploadId=${u.slice(0, 20)}`, { method: 'DELETE', path: `/${B}/mpu?uploadId=${u}` }]);
      cases.push([`Complete uploadId=${u.slice(0, 20)}`, {
        method: 'POST',
        path: `/${B}/mpu?uploadId=${u}`,
        body: '<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"x"</ETag></Part></CompleteMultipartUpload>',
      }]);
    }
    const complete = (parts: string) => ['Complete ' + parts.slice(0, 50), { method: 'POST', path: `/${B}/mpu?uploadId=${id}`, body: `<CompleteMultipartUpload>${parts}</CompleteMultipartUpload>` }] as [string, RawRequest];
    cases.push(complete(''));
    cases.push(complete('<Part><PartNumber>2</PartNumber><ETag>"a"</ETag></Part><Part><PartNumber>1</PartNumber><ETag>"b"</ETag></Part>'));
    cases.push(complete('<Part><PartNumber>1</PartNumber></Part>'));
    cases.push(complete('<Part><ETag>"a"</ETag></Part>'));
    cases.push(complete('<Part><PartNumber>abc</PartNumber><ETag>"a"</ETag></Part>'));
    cases.push(complete('<Part><PartNumber>0</PartNumber><ETag>"a"</ETag></Part>'));
    cases.push(complete('<Part><PartNumber>1</PartNumber><ETag>"a"</ETag></Part><Part><PartNumber>1</PartNumber><ETag>"a"</ETag></Part>'));
    cases.push(complete(`${'<Part><PartNumber>1</PartNumber><ETag>"a"</ETag></Part>'.repeat(10_001)}`));
    expect((await sweep(cases, true)).report()).toBe('');
  });

  it('keys of 1025 bytes (and 1024, and multi-byte) on every write path', async () => {
    const cases: [string, RawRequest][] = [];
    for (const [label, key] of [['1025 bytes', 'k'.repeat(1025)], ['342 three-byte characters', '€'.repeat(342)], ['4096 bytes', 'k'.repeat(4096)]] as const) {
      const path = `/${B}/${encodeURIComponent(key)}`;
      cases.push([`PutObject ${label}`, { method: 'PUT', path, body: 'x' }]);
      cases.push([`CreateMultipartUpload ${label}`, { method: 'POST', path: `${path}?uploads` }]);
      cases.push([`CopyObject to ${label}`, { method: 'PUT', path, headers: { 'x-amz-copy-source': `${B}/obj` } }]);
      cases.push([`CopyObject from ${label}`, { method: 'PUT', path: `/${B}/copy`, headers: { 'x-amz-copy-source': `${B}${path.slice(B.length + 1)}` } }]);
      cases.push([`PutObjectTagging ${label}`, { method: 'PUT', path: `${path}?tagging`, body: '<Tagging><TagSet/></Tagging>' }]);
    }
    const findings = await sweep(cases, true);
    expect(findings.report()).toBe('');
    const put = await send(t.endpoint, { method: 'PUT', path: `/${B}/${'k'.repeat(1025)}`, headers: auth, body: 'x' });
    expect([put.status, readError('rest-xml', 'PUT', put).code]).toEqual([400, 'KeyTooLongError']);
    const fits = await send(t.endpoint, { method: 'PUT', path: `/${B}/${'k'.repeat(1024)}`, headers: auth, body: 'x' });
    expect(fits.status).toBe(200);
  });

  it('Content-Length that disagrees with the body: short, long, negative, huge, not a number, with chunked', async () => {
    const before = storeDigest(t);
    const head = (len: string, extra = '') => `PUT /${B}/cl HTTP/1.1\r\nhost: localhost\r\nauthorization: ${auth.authorization}\r\ncontent-length: ${len}\r\n${extra}\r\n`;
    const outcomes = [
      await exchange(`${head('10')}short`),
      await exchange(`${head('-5')}body`),
      await exchange(`${head('abc')}body`),
      await exchange(`${head('1 2')}b`),
      await exchange(`${head('99999999999999999999')}body`),
      await exchange(`${head('6000000000')}body`),
      await exchange(`${head('4', 'transfer-encoding: chunked\r\n')}4\r\nbody\r\n0\r\n\r\n`),
      await exchange(`${head('4', 'content-length: 5\r\n')}body`),
      await exchange(`PUT /${B}/cl HTTP/1.1\r\nhost: localhost\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nbody\r\n0\r\n\r\n`),
    ];
    for (const text of outcomes) {
      for (const [status, code] of answers(text)) {
        expect(status, text.slice(0, 200)).toBeLessThan(500);
        if (status >= 400) expect(verdict.codes.has(code ?? ''), `${status} ${code}`).toBe(true);
      }
    }
    // A longer body than announced: the extra bytes are a broken second request, answered as such.
    const long = answers(await exchange(`${head('4')}bodyEXTRA-NOT-HTTP\r\n\r\n`));
    expect(long[0]).toEqual([200, undefined]);
    expect(long.slice(1).every(([status]) => status === 400)).toBe(true);
    expect(storeDigest(t)).not.toBe(before); // that one stored `body`, as S3 would
    const stored = await send(t.endpoint, { method: 'GET', path: `/${B}/cl`, headers: auth });
    expect(stored.body.toString()).toBe('body');
    expect(await healthy(t)).toBe(true);
  });

  it('aws-chunked framing errors store nothing', async () => {
    const before = storeDigest(t);
    const framed = (body: string, decoded = '4') => ({
      method: 'PUT',
      path: `/${B}/chunked`,
      headers: {
        'content-encoding': 'aws-chunked',
        'x-amz-content-sha256': 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
        'x-amz-decoded-content-length': decoded,
        'x-amz-trailer': 'x-amz-checksum-crc32',
      },
      body,
    });
    const cases: [string, RawRequest][] = [
      ['bad hex length', framed('zz\r\nbody\r\n0\r\n\r\n')],
      ['negative hex length', framed('-4\r\nbody\r\n0\r\n\r\n')],
      ['17 hex digits', framed('10000000000000000\r\nbody\r\n0\r\n\r\n')],
      ['missing CRLF after data', framed('4\r\nbody0\r\n\r\n')],
      ['size larger than data', framed('ff\r\nbody')],
      ['trailer without final chunk', framed('4\r\nbody\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n')],
      ['garbage trailer', framed('4\r\nbody\r\n0\r\nnot a header\r\n\r\n')],
      ['wrong trailing checksum', framed('4\r\nbody\r\n0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n')],
      ['decoded length lies (more)', framed('4\r\nbody\r\n0\r\n\r\n', '40')],
      ['decoded length lies (less)', framed('4\r\nbody\r\n0\r\n\r\n', '1')],
      ['decoded length negative', framed('4\r\nbody\r\n0\r\n\r\n', '-1')],
      ['decoded length not a number', framed('4\r\nbody\r\n0\r\n\r\n', 'abc')],
      ['header line over 4 KB', framed(`4;${'x'.repeat(5000)}\r\nbody\r\n0\r\n\r\n`)],
      ['empty body', framed('')],
      ['only the final chunk', framed('0\r\n\r\n')],
    ];
    const findings = await sweep(cases.map(([l, r]) => [l, { ...r, path: `/${B}/chunked-${l.replace(/\W+/g, '-')}` }]), true);
    expect(findings.report()).toBe('');
    const listed = await send(t.endpoint, { method: 'GET', path: `/${B}?list-type=2&prefix=chunked`, headers: auth });
    expect(listed.body.toString()).toContain('<KeyCount>0</KeyCount>');
    expect(storeDigest(t)).toBe(before);
  });
});
