/**
 * Table warehouses in Overcast's S3: each table owns one general-purpose bucket (named like AWS's
 * `…--table-s3`), created in-process through the S3 provider; CreateTable writes the initial
 * metadata.json into it; deleting a table purges the bucket and its objects (with those maintenance
 * made noncurrent) in the background, as AWS does asynchronously. Every purge is recorded in
 * `s3t_purges` in the transaction that makes the bucket an orphan, and only unrecorded once the
 * bucket is gone, so a restart resumes it.
 */
import type { Ctx, Runtime } from '../../runtime/runtime.js';
import { internalCtx } from '../../runtime/runtime.js';
import { WAREHOUSE_OWNER } from '../../store/s3-repo.js';
import { S3TablesRepo } from '../../store/s3tables-repo.js';
import { DEFAULT_ACCOUNT, DEFAULT_REGION } from '../../wire/sigv4.js';
import { createBucket, purgeBucket } from '../s3/buckets.js';
import { putObject } from '../s3/objects.js';
import { repo } from './lookup.js';
import { purgeNoncurrent } from './maintenance/noncurrent.js';

/**
 * The owner of warehouse buckets. On AWS they live in an account of the S3 Tables service, so
 * they never show in the table owner's ListBuckets, yet clients with the table's permissions read
 * and write them by name; an owner no access key can map to gives the same here.
 */
export { WAREHOUSE_OWNER };

/** Creates the warehouse bucket (call inside the transaction that records the table or the purge). */
export function createWarehouseBucket(ctx: Ctx, bucket: string): void {
  createBucket({ ...ctx, account: WAREHOUSE_OWNER }, { Bucket: bucket }, { allowReserved: true });
}

async function* once(bytes: Buffer): AsyncIterable<Buffer> {
  yield bytes;
}

/** Writes `<key>` into the warehouse bucket through the S3 provider. */
export async function writeWarehouseObject(ctx: Ctx, bucket: string, key: string, body: string): Promise<void> {
  await putObject(ctx, { Bucket: bucket, Key: key, Body: once(Buffer.from(body, 'utf8')), ContentType: 'application/json' });
}

const inFlight = new WeakMap<Runtime, Set<string>>();

/**
 * Purges a warehouse bucket in the background. The caller has already recorded the purge (inside
 * the transaction that dropped the table); the record goes once the bucket and its objects are gone.
 */
export function schedulePurge(ctx: Ctx, bucket: string): void {
  let running = inFlight.get(ctx.rt);
  if (!running) {
    running = new Set();
    inFlight.set(ctx.rt, running);
  }
  if (running.has(bucket)) return;
  running.add(bucket);
  const rt = ctx.rt;
  void rt.background.spawn(`s3tables warehouse purge ${bucket}`, async () => {
    try {
      await purgeBucket(ctx, bucket);
      if (rt.meta.db.open) await purgeNoncurrent(ctx, bucket);
      if (rt.meta.db.open) repo(ctx).unqueuePurge(bucket);
    } finally {
      running!.delete(bucket);
    }
  });
}

/** Resumes the purges a previous run recorded but did not finish (called once at start-up). */
export function resumePurges(rt: Runtime): number {
  const ctx = internalCtx(rt, DEFAULT_ACCOUNT, DEFAULT_REGION, 's3tables-recovery');
  const pending = new S3TablesRepo(rt.meta).pendingPurges(100_000);
  for (const bucket of pending) schedulePurge(ctx, bucket);
  if (pending.length > 0) rt.log.info(`s3tables: resuming the purge of ${pending.length} warehouse bucket(s)`);
  return pending.length;
}
