/**
 * A developer's Overcast against web pages and stalling clients: Overcast's own state-changing
 * endpoints refuse cross-origin and form posts (the CSRF that wiped all state) and preflights;
 * Hosts other than localhost, *.localhost, loopback addresses and configured names are refused in
 * each protocol's shape (DNS rebinding), while virtual-hosted S3 keeps working; a body that stalls
 * gets RequestTimeout, its connection is closed and its temp file removed; headers that never end
 * are cut off too. The body timeout is set short here (AWS's is about 20 s).
 */
import { readdirSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/server.js';
import { authorization, send } from '../robustness/support.js';

let t: TestServer;
let s3: S3Client;
const dir = tempDir();
const STALL_MS = 400;

beforeAll(async () => {
  t = await startTestServer({ dataDir: dir.path, bodyTimeoutMs: STALL_MS, allowedHosts: ['.dev.example', 'exact.example'] });
  s3 = new S3Client({ ...t.clientConfig, maxAttempts: 1 });
  await s3.send(new CreateBucketCommand({ Bucket: 'kept' }));
});
afterAll(async () => {
  await t.stop();
  dir.cleanup();
});

async function bucketKept(): Promise<boolean> {
  return s3.send(new HeadBucketCommand({ Bucket: 'kept' })).then(
    () => true,
    () => false,
  );
}

/** One request on a fresh socket, bytes as given; resolves with everything the server sent until it closed. */
function rawExchange(bytes: string, opts: { waitMs?: number } = {}): Promise<{ text: string; closed: boolean; ms: number }> {
  const url = new URL(t.endpoint);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(bytes));
    const got: Buffer[] = [];
    socket.on('data', (d: Buffer) => got.push(d));
    socket.on('error', () => undefined);
    const give = (closed: boolean) => resolve({ text: Buffer.concat(got).toString(), closed, ms: Date.now() - started });
    socket.on('close', () => give(true));
    if (opts.waitMs) setTimeout(() => (socket.destroy(), give(false)), opts.waitMs).unref();
  });
}

describe("Overcast's own endpoints refuse what a web page can send", () => {
  const reset = (headers: Record<string, string>, body = 'x=1') =>
    send(t.endpoint, { method: 'POST', path: '/_overcast/reset', headers, body });

  it('a cross-origin form post to /_overcast/reset is 403 and wipes nothing', async () => {
    const res = await reset({ origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' });
    expect([res.status, JSON.parse(res.body.toString()).message]).toEqual([403, expect.stringContaining('http://evil.example')]);
    expect(await bucketKept()).toBe(true);
  });

  it('a simple content type is 415 even without an Origin; a cross-site fetch and a preflight are 403', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      expect([type, (await reset({ 'content-type': type })).status]).toEqual([type, 415]);
    }
    expect((await send(t.endpoint, { method: 'POST', path: '/_overcast/reset' })).status).toBe(415);
    expect((await reset({ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }, '{}')).status).toBe(403);
    const preflight = await send(t.endpoint, {
      method: 'OPTIONS',
      path: '/_overcast/reset',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([403, undefined]);
    const clock = await send(t.endpoint, { method: 'POST', path: '/_overcast/clock', headers: { 'content-type': 'text/plain' }, body: '{"advance":"1d"}' });
    expect(clock.status).toBe(415);
    expect(JSON.parse((await send(t.endpoint, { method: 'GET', path: '/_overcast/clock' })).body.toString()).offsetMs).toBe(0);
    expect(await bucketKept()).toBe(true);
  });

  it('the unsigned Iceberg catalog refuses a cross-origin post too', async () => {
    const res = await send(t.endpoint, {
      method: 'POST',
      path: `/_overcast/iceberg/v1/${encodeURIComponent('arn:aws:s3tables:us-east-1:000000000000:bucket/none')}/namespaces`,
      headers: { origin: 'http://evil.example', 'content-type': 'text/plain' },
      body: '{"namespace":["n"]}',
    });
    expect(res.status).toBe(403);
  });

  it('a same-origin JSON request still works (the CLI and the dashboard)', async () => {
    const port = new URL(t.endpoint).port;
    const res = await reset({ origin: `http://127.0.0.1:${port}`, 'content-type': 'application/json' }, '{}');
    expect([res.status, res.body.toString()]).toEqual([200, '{"reset":true}']);
    expect(await bucketKept()).toBe(false);
    await s3.send(new CreateBucketCommand({ Bucket: 'kept' }));
  });
});

describe('Host allow-list against DNS rebinding', () => {
  it('refuses another Host in the shape of the service the request names', async () => {
    const port = new URL(t.endpoint).port;
    const host = `evil.example:${port}`;
    const s3res = await send(t.endpoint, { method: 'GET', path: '/kept', headers: { host, authorization: authorization('s3') } });
    expect([s3res.status, /<Code>(\w+)<\/Code>/.exec(s3res.body.toString())?.[1]]).toEqual([403, 'AccessDenied']);
    const ssm = await send(t.endpoint, {
      method: 'POST',
      path: '/',
      headers: { host, authorization: authorization('ssm'), 'x-amz-target': 'AmazonSSM.GetParameter', 'content-type': 'application/x-amz-json-1.1' },
      body: '{"Name":"/x"}',
    });
    expect([ssm.status, ssm.headers['x-amzn-errortype']]).toEqual([403, 'AccessDeniedException']);
    const cfn = await send(t.endpoint, {
      method: 'POST',
      path: '/',
      headers: { host, authorization: authorization('cloudformation'), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'Action=ListStacks&Version=2010-05-15',
    });
    expect([cfn.status, /<Code>(\w+)<\/Code>/.exec(cfn.body.toString())?.[1]]).toEqual([403, 'AccessDenied']);
    const reset = await send(t.endpoint, { method: 'POST', path: '/_overcast/reset', headers: { host, 'content-type': 'application/json' }, body: '{}' });
    expect(reset.status).toBe(403);
    expect(await bucketKept()).toBe(true);
  });

  it('answers localhost, *.localhost (virtual-hosted S3), loopback addresses, AWS S3 names and configured names', async () => {
    const port = new URL(t.endpoint).port;
    const ok = ['localhost', `localhost:${port}`, `kept.localhost:${port}`, `127.0.0.1:${port}`, '127.9.9.9', `[::1]:${port}`, 'kept.s3.amazonaws.com', 'a.dev.example', 'dev.example', 'exact.example'];
    for (const host of ok) {
      const res = await send(t.endpoint, { method: 'GET', path: '/_overcast/health', headers: { host } });
      expect([host, res.status]).toEqual([host, 200]);
    }
    for (const host of ['sub.exact.example', 'dev.example.evil', '10.0.0.1', 'localhost.evil']) {
      const res = await send(t.endpoint, { method: 'GET', path: '/_overcast/health', headers: { host } });
      expect([host, res.status]).toEqual([host, 403]);
    }
  });
});

describe('time limits', () => {
  const tmpFiles = () => readdirSync(join(dir.path, 'tmp'));

  it('a body that stalls gets RequestTimeout, the connection closes, nothing is stored', async () => {
    const head = `PUT /kept/stalled HTTP/1.1\r\nhost: localhost\r\nauthorization: ${authorization('s3')}\r\ncontent-length: 100\r\n\r\n`;
    const res = await rawExchange(`${head}abc`);
    expect(res.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(res.text).toContain('<Code>RequestTimeout</Code>');
    expect(res.text.toLowerCase()).toContain('connection: close');
    expect(res.closed).toBe(true);
    expect(res.ms).toBeGreaterThanOrEqual(STALL_MS);
    expect((await send(t.endpoint, { method: 'HEAD', path: '/kept/stalled', headers: { authorization: authorization('s3') } })).status).toBe(404);
  });

  it("a large upload that stalls has its temp file removed; the protocol's code for the JSON services", async () => {
    const head = `PUT /kept/big HTTP/1.1\r\nhost: localhost\r\nauthorization: ${authorization('s3')}\r\ncontent-length: 4000000\r\n\r\n`;
    const pending = rawExchange(head + 'x'.repeat(512 * 1024));
    await new Promise((r) => setTimeout(r, STALL_MS / 2));
    expect(tmpFiles().length).toBe(1);
    const res = await pending;
    expect(res.text).toContain('<Code>RequestTimeout</Code>');
    await new Promise((r) => setTimeout(r, 100));
    expect(tmpFiles()).toEqual([]);
    const ssm = await rawExchange(
      `POST / HTTP/1.1\r\nhost: localhost\r\nauthorization: ${authorization('ssm')}\r\nx-amz-target: AmazonSSM.PutParameter\r\n` +
        'content-type: application/x-amz-json-1.1\r\ncontent-length: 500\r\n\r\n{"Name":',
    );
    expect(ssm.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(ssm.text.toLowerCase()).toContain('x-amzn-errortype: validationexception');
    expect(ssm.closed).toBe(true);
  });

  it('a body that keeps coming, slowly, is not cut off', async () => {
    const url = new URL(t.endpoint);
    const socket = net.connect(Number(url.port), url.hostname);
    const got: Buffer[] = [];
    socket.on('data', (d: Buffer) => got.push(d));
    socket.write(`PUT /kept/slow HTTP/1.1\r\nhost: localhost\r\nauthorization: ${authorization('s3')}\r\ncontent-length: 6\r\n\r\n`);
    for (const c of 'abcdef') {
      await new Promise((r) => setTimeout(r, STALL_MS / 2));
      socket.write(c);
    }
    await new Promise((r) => setTimeout(r, 100));
    socket.destroy();
    expect(Buffer.concat(got).toString()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('headers that never end are cut off too', async () => {
    const res = await rawExchange('GET /_overcast/health HTTP/1.1\r\nhost: localhost\r\nx-slow: a', { waitMs: 10_000 });
    expect(res.closed).toBe(true);
    expect(res.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(res.text).toContain('RequestTimeout');
  });
});
