/**
 * Large PutObject bodies hashed off the main thread: uploads at once whose batches together
 * exceed what may wait for the MD5 worker still get their exact ETags; and hashes abandoned
 * midway (a client that went away) leave nothing counted as queued, so later uploads never wait
 * for acknowledgements that cannot come. A process on one core hashes inline, to the same digest.
 */
import { createHash, randomBytes } from 'node:crypto';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { StreamingMd5 } from '../../src/services/s3/md5.js';
import { startCliServer } from '../helpers/cli-server.js';
import { describe, expect, it } from '../helpers/fixture.js';
import { tempDir } from '../helpers/server.js';

const MiB = 1024 * 1024;
const md5 = (b: Buffer) => createHash('md5').update(b).digest();

describe('large uploads', () => {
  it('hashes concurrent large bodies exactly', async ({ s3 }) => {
    await s3.send(new CreateBucketCommand({ Bucket: 'large' }));
    const bodies = [randomBytes(20 * MiB), randomBytes(17 * MiB)];
    const puts = await Promise.all(bodies.map((Body, i) => s3.send(new PutObjectCommand({ Bucket: 'large', Key: `b${i}`, Body }))));
    puts.forEach((out, i) => expect(out.ETag).toBe(`"${md5(bodies[i]!).toString('hex')}"`));
  });

  it('forgets the batches of abandoned hashes', async () => {
    const chunk = randomBytes(MiB);
    for (let i = 0; i < 5; i++) {
      const abandoned = new StreamingMd5();
      for (let j = 0; j < 9; j++) abandoned.update(chunk);
      abandoned.abort();
    }
    const next = new StreamingMd5();
    for (let j = 0; j < 4; j++) {
      next.update(chunk);
      await next.ready();
    }
    expect(await next.digest()).toEqual(md5(Buffer.concat([chunk, chunk, chunk, chunk])));
  });

  it('hashes inline, as on one core, to the same digest', async () => {
    const body = randomBytes(3 * MiB + 5);
    const inline = new StreamingMd5({ inline: true });
    const offloaded = new StreamingMd5({ inline: false });
    for (let at = 0; at < body.length; at += 64 * 1024) {
      const chunk = body.subarray(at, at + 64 * 1024);
      inline.update(chunk);
      offloaded.update(chunk);
      expect(inline.ready()).toBeUndefined();
      await offloaded.ready();
    }
    expect(await inline.digest()).toEqual(md5(body));
    expect(await offloaded.digest()).toEqual(md5(body));
  });

  it('answers exact ETags from a server allowed one core', async () => {
    const dir = tempDir();
    const server = await startCliServer(['--port', '0', '--log-level', 'error', '--data-dir', dir.path], { cores: '0' });
    try {
      const s3 = new S3Client({ endpoint: server.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, forcePathStyle: true });
      await s3.send(new CreateBucketCommand({ Bucket: 'one-core' }));
      const bodies = [randomBytes(6 * MiB + 7), randomBytes(MiB / 2)];
      const puts = await Promise.all(bodies.map((Body, i) => s3.send(new PutObjectCommand({ Bucket: 'one-core', Key: `b${i}`, Body }))));
      puts.forEach((out, i) => expect(out.ETag).toBe(`"${md5(bodies[i]!).toString('hex')}"`));
      s3.destroy();
    } finally {
      await server.stop();
      dir.cleanup();
    }
  });
});
