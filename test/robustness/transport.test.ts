/**
 * Hostile traffic below the operations: an S3 upload declaring more than S3 allows is refused
 * before its body is read; slowloris clients (headers or bodies trickled a byte at a time) do not
 * hold up anyone else; 1,000 concurrent connections are all answered and the server stays up; and
 * an internal failure (the store gone from under a running server) is a 500 in each protocol's
 * internal-error shape, logged — never a crash or a hang.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { captureErrors } from './sweep.js';
import { authorization, healthy, readError, send } from './support.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await send(t.endpoint, { method: 'PUT', path: '/transport', headers: { authorization: authorization('s3') } });
});
afterAll(async () => t.stop());

function connect(): Promise<net.Socket> {
  const url = new URL(t.endpoint);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => resolve(socket));
    socket.on('error', reject);
  });
}

const ssmRequest = (target: string, body: object) => ({
  method: 'POST',
  path: '/',
  headers: { authorization: authorization('ssm'), 'x-amz-target': `AmazonSSM.${target}`, 'content-type': 'application/x-amz-json-1.1' },
  body: JSON.stringify(body),
});

describe('transport-level abuse', () => {
  it('an S3 upload declaring more than 5 GiB is EntityTooLarge before its body is read', async () => {
    const socket = await connect();
    const answer = new Promise<string>((resolve) => {
      const got: Buffer[] = [];
      socket.on('data', (d: Buffer) => {
        got.push(d);
        if (Buffer.concat(got).includes('</Error>')) resolve(Buffer.concat(got).toString());
      });
    });
    socket.write(`PUT /transport/huge HTTP/1.1\r\nhost: localhost\r\nauthorization: ${authorization('s3')}\r\ncontent-length: ${6 * 1024 ** 3}\r\n\r\nfirst bytes`);
    const text = await answer;
    socket.destroy();
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toContain('<Code>EntityTooLarge</Code>');
    expect((await send(t.endpoint, { method: 'HEAD', path: '/transport/huge', headers: { authorization: authorization('s3') } })).status).toBe(404);
  });

  it('slowloris clients trickling headers and bodies do not hold up other requests', async () => {
    const slow: net.Socket[] = [];
    for (let i = 0; i < 40; i++) {
      const headers = await connect();
      headers.on('error', () => undefined);
      headers.write('GET /_overcast/health HTTP/1.1\r\nhost: localhost\r\nx-slow: ');
      slow.push(headers);
      const body = await connect();
      body.on('error', () => undefined);
      body.write(`PUT /transport/slow-${i} HTTP/1.1\r\nhost: localhost\r\nauthorization: ${authorization('s3')}\r\ncontent-length: 1000000\r\n\r\n`);
      slow.push(body);
    }
    const drip = setInterval(() => {
      for (const s of slow) if (!s.destroyed) s.write('a');
    }, 50);
    try {
      const started = Date.now();
      for (let i = 0; i < 20; i++) {
        const put = await send(t.endpoint, { method: 'PUT', path: `/transport/fast-${i}`, headers: { authorization: authorization('s3') }, body: 'x' }, 2_000);
        expect(put.status).toBe(200);
        const ssm = await send(t.endpoint, ssmRequest('PutParameter', { Name: `/fast/${i}`, Value: 'v', Type: 'String' }), 2_000);
        expect(ssm.status).toBe(200);
      }
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      clearInterval(drip);
      for (const s of slow) s.destroy();
    }
    await new Promise((r) => setTimeout(r, 50));
    const listed = await send(t.endpoint, { method: 'GET', path: '/transport?list-type=2&prefix=slow-', headers: { authorization: authorization('s3') } });
    expect(listed.body.toString()).toContain('<KeyCount>0</KeyCount>');
    expect(await healthy(t)).toBe(true);
  });

  it('1,000 concurrent connections are all answered and the server stays up', async () => {
    const url = new URL(t.endpoint);
    const one = (i: number) =>
      new Promise<number>((resolve, reject) => {
        const kind = i % 3;
        const req = http.request(
          {
            host: url.hostname,
            port: url.port,
            agent: false,
            method: kind === 0 ? 'PUT' : kind === 1 ? 'GET' : 'POST',
            path: kind === 0 ? `/transport/c-${i}` : kind === 1 ? `/transport/c-${i - 1}` : '/',
            headers: kind === 2 ? ssmRequest('GetParameter', { Name: '/fast/1' }).headers : { authorization: authorization('s3') },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.setTimeout(20_000, () => req.destroy(new Error('hang')));
        req.end(kind === 0 ? 'x' : kind === 2 ? JSON.stringify({ Name: '/fast/1' }) : undefined);
      });
    const statuses = await Promise.all(Array.from({ length: 1000 }, (_, i) => one(i)));
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(600);
    expect(await healthy(t)).toBe(true);
  });

  it("an internal failure is a 500 in each protocol's internal-error shape, and logged", async () => {
    const broken = await startTestServer();
    const errors = captureErrors(broken);
    broken.server.runtime.meta.db.close(); // the store fails under a running server
    try {
      const cases = [
        ['s3', 'rest-xml', 'InternalError', { method: 'GET', path: '/any-bucket?list-type=2', headers: { authorization: authorization('s3') } }],
        ['s3tables', 'rest-json', 'InternalServerErrorException', { method: 'GET', path: '/buckets', headers: { authorization: authorization('s3tables') } }],
        ['ssm', 'json', 'InternalServerError', { ...ssmRequest('GetParameter', { Name: '/x' }) }],
        ['cloudformation', 'query', 'InternalFailure', {
          method: 'POST',
          path: '/',
          headers: { authorization: authorization('cloudformation'), 'content-type': 'application/x-www-form-urlencoded' },
          body: 'Action=ListStacks&Version=2010-05-15',
        }],
      ] as const;
      for (const [service, protocol, code, req] of cases) {
        const res = await send(broken.endpoint, req);
        expect([service, res.status, readError(protocol, req.method, res).code]).toEqual([service, 500, code]);
        if (protocol === 'query') expect(res.body.toString()).toContain('<Type>Receiver</Type>');
      }
      expect(errors.length).toBeGreaterThanOrEqual(cases.length);
      expect(errors.join('\n')).toMatch(/internal error/);
      expect((await send(broken.endpoint, { method: 'GET', path: '/_overcast/health' })).status).toBe(200);
    } finally {
      await broken.stop().catch(() => undefined);
    }
  });
});
