/**
 * Streaming both ways: a 1 GiB PutObject and GetObject against a spawned `overcast start` (on-disk
 * store) grow the server's resident memory by no more than a few tens of MB, and the bytes come
 * back intact (a CRC32 sent with the upload, verified by the server, and checked on the way back).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';
import { tempDir } from '../helpers/server.js';
import { auth } from './helpers.js';

const GiB = 1024 * 1024 * 1024;
const LIMIT_MIB = 80;
let server: CliServer;
let child: ChildProcess;
let endpoint: string;
const dir = tempDir('overcast-memory-');

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

beforeAll(async () => {
  server = await startCliServer(['--port', '0', '--log-level', 'error', '--data-dir', dir.path]);
  child = server.child;
  endpoint = server.endpoint;
});
afterAll(async () => {
  await server?.stop();
  dir.cleanup();
});

function request(method: string, path: string, headers: Record<string, string | number>, write?: (req: http.ClientRequest) => void) {
  const url = new URL(endpoint);
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers: { authorization: auth(), ...headers }, agent: false }, resolve);
    req.on('error', reject);
    if (write) write(req);
    else req.end();
  });
}

/** Samples the server's RSS until stopped; returns the peak. */
function sampler(pid: number): { stop: () => number } {
  let peak = rssMiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 50);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, rssMiB(pid));
    },
  };
}

describe('1 GiB streamed through', () => {
  it('uploads and downloads 1 GiB with bounded server memory', async () => {
    await (await request('PUT', '/mem-bucket', {})).resume();
    // Warm the server's code paths so the baseline includes them.
    const warm = await request('PUT', '/mem-bucket/warm', { 'content-length': 4 }, (r) => r.end('warm'));
    warm.resume();
    await new Promise((r) => setTimeout(r, 300));
    const base = rssMiB(child.pid!);

    // Seven distinct MiB blocks in rotation: varied content without allocating a GiB on this side.
    const blocks = Array.from({ length: 7 }, () => randomBytes(1024 * 1024));
    const chunkAt = (i: number) => blocks[i % blocks.length]!;
    const count = GiB / blocks[0]!.length;
    let crc = 0;
    for (let i = 0; i < count; i++) crc = zlib.crc32(chunkAt(i), crc);
    const crcB64 = Buffer.from([crc >>> 24, (crc >>> 16) & 255, (crc >>> 8) & 255, crc & 255]).toString('base64');

    const up = sampler(child.pid!);
    const res = await request('PUT', '/mem-bucket/big', { 'content-length': GiB, 'x-amz-checksum-crc32': crcB64 }, (req) => {
      let i = 0;
      const pump = () => {
        while (i < count) {
          if (!req.write(chunkAt(i++))) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    res.resume();
    await new Promise((r) => res.on('end', r));
    const upPeak = up.stop();
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-amz-checksum-crc32']).toBe(crcB64);

    const down = sampler(child.pid!);
    const get = await request('GET', '/mem-bucket/big', {});
    expect(get.statusCode).toBe(200);
    expect(get.headers['content-length']).toBe(String(GiB));
    let back = 0;
    let received = 0;
    for await (const chunk of get) {
      back = zlib.crc32(chunk as Buffer, back);
      received += (chunk as Buffer).length;
    }
    const downPeak = down.stop();
    expect(received).toBe(GiB);
    expect(back).toBe(crc);
    expect(upPeak - base, `upload grew RSS from ${base.toFixed(0)} to ${upPeak.toFixed(0)} MiB`).toBeLessThan(LIMIT_MIB);
    expect(downPeak - base, `download grew RSS from ${base.toFixed(0)} to ${downPeak.toFixed(0)} MiB`).toBeLessThan(LIMIT_MIB);
  });
});
