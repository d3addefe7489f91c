/**
 * Large PutObject bodies hashed off the main thread: uploads at once whose batches together
 * exceed what may wait for the MD5 worker still get their exact ETags; and hashes abandoned
 * midway (a client that went away) leave nothing counted as queued, so later uploads never wait
 * for acknowledgements that cannot come.
 */
import { createHash, randomBytes } from 'node:crypto';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { StreamingMd5 } from '../../src/services/s3/md5.js';
import { describe, expect, it } from '../helpers/fixture.js';

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
});
