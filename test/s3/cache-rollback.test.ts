/**
 * The S3 repository caches bucket rows and small object rows; a transaction that rolls back must
 * leave neither behind. Overcast's own writers (S3 Tables creating a warehouse and its first
 * metadata file, CloudFormation's turn transaction) read rows inside transactions that can roll
 * back; no valid client request makes one fail after such a read, so the rollback is driven
 * in-process here and the outcome observed through the SDK.
 */
import { CreateBucketCommand, GetObjectCommand, HeadBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { internalCtx } from '../../src/runtime/runtime.js';
import { createBucket, deleteBucket, deleteObject, putSmallObject, repo } from '../../src/services/s3/provider.js';
import { failure } from '../helpers/errors.js';
import { describe, expect, it } from '../helpers/fixture.js';

function rolledBack(fn: () => void): void {
  expect(fn).toThrow('a later step failed');
}

describe('a rolled-back transaction and the S3 caches', () => {
  it('leaves no bucket behind that its creation read', async ({ server: t, s3 }) => {
    const ctx = internalCtx(t.server.runtime, '000000000000', 'us-east-1', 'test');
    rolledBack(() =>
      t.server.runtime.meta.tx(() => {
        createBucket(ctx, { Bucket: 'never-committed' }, { internal: true });
        expect(repo(ctx).getBucket('never-committed')).toBeDefined();
        throw new Error('a later step failed');
      }),
    );
    expect((await failure(s3.send(new HeadBucketCommand({ Bucket: 'never-committed' })))).status).toBe(404);
    const put = await failure(s3.send(new PutObjectCommand({ Bucket: 'never-committed', Key: 'k', Body: 'x' })));
    expect(put.name).toBe('NoSuchBucket');
  });

  it('keeps a bucket whose deletion rolled back', async ({ server: t, s3 }) => {
    const ctx = internalCtx(t.server.runtime, '000000000000', 'us-east-1', 'test');
    await s3.send(new CreateBucketCommand({ Bucket: 'still-here' }));
    rolledBack(() =>
      t.server.runtime.meta.tx(() => {
        deleteBucket(ctx, { Bucket: 'still-here' });
        expect(repo(ctx).getBucket('still-here')).toBeUndefined();
        throw new Error('a later step failed');
      }),
    );
    expect((await s3.send(new HeadBucketCommand({ Bucket: 'still-here' }))).$metadata.httpStatusCode).toBe(200);
  });

  it('leaves no object behind, nor keeps one deleted, when the transaction rolls back', async ({ server: t, s3 }) => {
    const ctx = internalCtx(t.server.runtime, '000000000000', 'us-east-1', 'test');
    await s3.send(new CreateBucketCommand({ Bucket: 'objects-rolled-back' }));
    rolledBack(() =>
      t.server.runtime.meta.tx(() => {
        putSmallObject(ctx, { Bucket: 'objects-rolled-back', Key: 'ghost', Body: Buffer.from('boo') });
        expect(repo(ctx).getObject('objects-rolled-back', 'ghost')).toBeDefined();
        throw new Error('a later step failed');
      }),
    );
    expect((await failure(s3.send(new GetObjectCommand({ Bucket: 'objects-rolled-back', Key: 'ghost' })))).name).toBe('NoSuchKey');

    await s3.send(new PutObjectCommand({ Bucket: 'objects-rolled-back', Key: 'kept', Body: 'kept' }));
    rolledBack(() =>
      t.server.runtime.meta.tx(() => {
        deleteObject(ctx, { Bucket: 'objects-rolled-back', Key: 'kept' });
        expect(repo(ctx).getObject('objects-rolled-back', 'kept')).toBeUndefined();
        throw new Error('a later step failed');
      }),
    );
    const got = await s3.send(new GetObjectCommand({ Bucket: 'objects-rolled-back', Key: 'kept' }));
    expect(await got.Body!.transformToString()).toBe('kept');
  });
});
