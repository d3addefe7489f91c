/**
 * Durability of the on-disk store. Restart: buckets, configurations, objects of every size class,
 * multipart objects and an unfinished upload survive stop + start. Crash: a spawned
 * `overcast start` takes a stream of uploads of varied sizes (inline and blob-file sized), some
 * left half-sent, and is killed with SIGKILL; after a restart every acknowledged object is intact
 * byte for byte, no partial object is visible, tmp/ is empty and no blob file is orphaned.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetBucketTaggingCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutBucketTaggingCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { afterAll, describe, expect, it } from 'vitest';
import { internalCtx } from '../../src/runtime/runtime.js';
import { getObject } from '../../src/services/s3/provider.js';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';
import { startTestServer, tempDir } from '../helpers/server.js';
import { auth, s3Client } from './helpers.js';

const dirs: { cleanup: () => void }[] = [];
afterAll(() => dirs.forEach((d) => d.cleanup()));

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function bytes(s3: S3Client, bucket: string, key: string): Promise<Buffer> {
  const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await res.Body!.transformToByteArray());
}

describe('restart', () => {
  it('keeps buckets, configurations, objects and unfinished uploads across stop + start', async () => {
    const dir = tempDir('overcast-restart-');
    dirs.push(dir);
    const first = await startTestServer({ dataDir: dir.path });
    let s3 = s3Client(first);
    await s3.send(new CreateBucketCommand({ Bucket: 'durable' }));
    await s3.send(new PutBucketTaggingCommand({ Bucket: 'durable', Tagging: { TagSet: [{ Key: 'k', Value: 'v' }] } }));
    const bodies = new Map<string, Buffer>();
    // 20 MiB + 3: a blob file flushed in the background twice while written (write-behind), odd tail.
    for (const size of [0, 10, 128 * 1024 + 1, 2 * 1024 * 1024, 20 * 1024 * 1024 + 3]) {
      const b = randomBytes(size);
      bodies.set(`obj/${size}`, b);
      await s3.send(new PutObjectCommand({ Bucket: 'durable', Key: `obj/${size}`, Body: b, Metadata: { size: String(size) } }));
    }
    const mp = randomBytes(11 * 1024 * 1024);
    bodies.set('obj/multipart', mp);
    await new Upload({ client: s3, params: { Bucket: 'durable', Key: 'obj/multipart', Body: mp }, partSize: 5 * 1024 * 1024 }).done();
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: 'durable', Key: 'pending' }));
    const part = await s3.send(new UploadPartCommand({ Bucket: 'durable', Key: 'pending', UploadId, PartNumber: 1, Body: 'part one' }));
    await first.stop();

    const second = await startTestServer({ dataDir: dir.path });
    s3 = s3Client(second);
    for (const [key, body] of bodies) expect((await bytes(s3, 'durable', key)).equals(body), key).toBe(true);
    // Ranges across part files, through the wire (piped) and in-process (read as a stream).
    const MiB = 1024 * 1024;
    const ranged = await s3.send(new GetObjectCommand({ Bucket: 'durable', Key: 'obj/multipart', Range: `bytes=${5 * MiB - 7}-${10 * MiB + 7}` }));
    expect(Buffer.from(await ranged.Body!.transformToByteArray()).equals(mp.subarray(5 * MiB - 7, 10 * MiB + 8))).toBe(true);
    const ctx = internalCtx(second.server.runtime, '000000000000', 'us-east-1', 'test');
    const chunks: Buffer[] = [];
    for await (const c of getObject(ctx, { Bucket: 'durable', Key: 'obj/multipart', Range: `bytes=${MiB}-` }).Body) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(mp.subarray(MiB))).toBe(true);
    const head = await s3.send(new HeadObjectCommand({ Bucket: 'durable', Key: 'obj/10' }));
    expect(head.Metadata).toEqual({ size: '10' });
    expect((await s3.send(new GetBucketTaggingCommand({ Bucket: 'durable' }))).TagSet).toEqual([{ Key: 'k', Value: 'v' }]);
    const uploads = await s3.send(new ListMultipartUploadsCommand({ Bucket: 'durable' }));
    expect(uploads.Uploads?.map((u) => u.UploadId)).toEqual([UploadId]);
    // Downloads abandoned half-way close their files and leave the server answering.
    const fds = () => readdirSync('/proc/self/fd').length;
    const before = fds();
    for (let i = 0; i < 5; i++) await abandonDownload(second.endpoint, '/durable/obj/multipart');
    await new Promise((r) => setTimeout(r, 200));
    expect(fds()).toBeLessThanOrEqual(before + 2);
    await s3.send(
      new CompleteMultipartUploadCommand({ Bucket: 'durable', Key: 'pending', UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] } }),
    );
    expect((await bytes(s3, 'durable', 'pending')).toString()).toBe('part one');
    await second.stop();
  });
});

/** Starts a GET, reads a little, then drops the connection. */
function abandonDownload(endpoint: string, path: string): Promise<void> {
  const url = new URL(endpoint);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: url.hostname, port: url.port, path, agent: false, headers: { authorization: auth() } }, (res) => {
      let got = 0;
      res.on('data', (c: Buffer) => {
        got += c.length;
        if (got > 300_000) {
          req.destroy();
          resolve();
        }
      });
    });
    req.on('error', (err) => (req.destroyed ? resolve() : reject(err)));
  });
}

function startChild(dataDir: string): Promise<CliServer> {
  return startCliServer(['--port', '0', '--log-level', 'error', '--data-dir', dataDir]);
}

/** The body of upload `i`: deterministic, so what a key must hold is known without keeping it. */
function bodyFor(i: number): Buffer {
  const sizes = [100, 40_000, 128 * 1024, 128 * 1024 + 1, 700_000, 2_500_000];
  const size = sizes[i % sizes.length]!;
  const seed = createHash('sha256').update(`body-${i}`).digest();
  const out = Buffer.allocUnsafe(size);
  for (let at = 0; at < size; at += seed.length) seed.copy(out, at);
  out.writeUInt32BE(i, 0);
  return out;
}

function put(endpoint: string, key: string, body: Buffer, hold = false): { done: Promise<number>; req: http.ClientRequest } {
  const url = new URL(endpoint);
  let req!: http.ClientRequest;
  const done = new Promise<number>((resolve, reject) => {
    req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: 'PUT',
        path: `/crash/${key}`,
        agent: false,
        headers: { authorization: auth(), 'content-length': body.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    if (hold) req.write(body.subarray(0, body.length >> 1));
    else req.end(body);
  });
  return { done, req };
}

describe('crash', () => {
  it('keeps every acknowledged object intact and no partial one after kill -9 mid-stream', async () => {
    const dir = tempDir('overcast-crash-');
    dirs.push(dir);
    let { child, endpoint } = await startChild(dir.path);
    const client = (ep: string) =>
      new S3Client({ endpoint: ep, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, forcePathStyle: true });
    await client(endpoint).send(new CreateBucketCommand({ Bucket: 'crash' }));

    const acked = new Map<string, number>(); // key -> index of the body it must hold
    // A few acknowledged objects that half-sent uploads will try (and fail) to overwrite.
    for (let i = 0; i < 4; i++) {
      const status = await put(endpoint, `victim-${i}`, bodyFor(i)).done;
      expect(status).toBe(200);
      acked.set(`victim-${i}`, i);
    }
    const held = [];
    for (let i = 0; i < 4; i++) held.push(put(endpoint, `victim-${i}`, bodyFor(100 + i), true));
    for (let i = 0; i < 3; i++) held.push(put(endpoint, `half-${i}`, bodyFor(200 + i), true));
    for (const h of held) h.done.catch(() => undefined);

    // Workers stream uploads back to back; the kill lands while several are in flight.
    let n = 1000;
    let stop = false;
    const attempted = new Map<string, number>();
    const worker = async () => {
      while (!stop) {
        const i = n++;
        const key = `obj-${i}`;
        attempted.set(key, i);
        try {
          if ((await put(endpoint, key, bodyFor(i)).done) === 200 && !stop) acked.set(key, i);
        } catch {
          return; // the server died under this request
        }
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    while (acked.size < 40) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGKILL');
    stop = true;
    await new Promise((r) => child.once('exit', r));
    await Promise.allSettled(workers);

    ({ child, endpoint } = await startChild(dir.path));
    const s3 = client(endpoint);
    for (const [key, i] of acked) {
      expect(sha(await bytes(s3, 'crash', key)), key).toBe(sha(bodyFor(i)));
    }
    // Whatever is listed is whole: an acknowledged object or one that committed just before the kill.
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: 'crash' }));
    for (const o of listed.Contents ?? []) {
      const i = acked.get(o.Key!) ?? attempted.get(o.Key!);
      expect(i, o.Key).toBeDefined();
      expect(o.Size).toBe(bodyFor(i!).length);
      expect(sha(await bytes(s3, 'crash', o.Key!))).toBe(sha(bodyFor(i!)));
    }
    expect(listed.Contents?.some((o) => o.Key!.startsWith('half-'))).toBe(false);
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });

    // Nothing left behind: tmp/ is empty and every blob file belongs to an object.
    const tmp = join(dir.path, 'tmp');
    expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
    const onDisk = new Set<string>();
    const blobs = join(dir.path, 'blobs');
    for (const sub of readdirSync(blobs)) for (const f of readdirSync(join(blobs, sub))) onDisk.add(f);
    const db = new Database(join(dir.path, 'overcast.db'), { readonly: true });
    const referenced = new Set<string>();
    for (const { blob_ids } of db.prepare('SELECT blob_ids FROM s3_objects WHERE blob_ids IS NOT NULL').all() as { blob_ids: string }[]) {
      for (const seg of JSON.parse(blob_ids) as { id: string }[]) referenced.add(seg.id);
    }
    const pending = (db.prepare('SELECT COUNT(*) AS n FROM blob_pending').get() as { n: number }).n;
    db.close();
    expect(pending).toBe(0);
    expect([...onDisk].sort()).toEqual([...referenced].sort());
  });
});
