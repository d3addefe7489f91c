/**
 * Noncurrent warehouse objects. AWS's unreferenced file removal first marks an object noncurrent —
 * from then on no customer can read or list it, only AWS Support can restore it — and deletes it
 * permanently `nonCurrentDays` later (S3 User Guide, "Maintenance for table buckets"). Here marking
 * moves the object's row out of the warehouse bucket to a hidden bucket name that no request can
 * address (a `/` is never part of a bucket name), and records when, in one transaction: the bytes
 * stay where they are, GetObject, HeadObject and listings answer as for a missing key, and a crash
 * leaves either the old state or the new one. Deleting releases the bytes; `restore` (the stand-in
 * for AWS Support) moves an object back while its key is free.
 */
import { perStore, type Ctx } from '../../../runtime/runtime.js';
import { MaintenanceRepo, type NoncurrentRow } from '../../../store/maintenance-repo.js';
import { repo as s3Repo } from '../../s3/common.js';

function hiddenBucketOf(warehouse: string): string {
  return `${warehouse}/noncurrent`;
}

export const maintenanceRepo = perStore((meta) => new MaintenanceRepo(meta));

function release(ctx: Ctx, blobIds: string[] | undefined): boolean {
  if (!blobIds?.length) return false;
  ctx.rt.blobs.release(blobIds);
  return true;
}

/**
 * Marks objects of a warehouse noncurrent as of `since` (Overcast time), all in one transaction that
 * first runs `check` (which throws to abandon the batch, e.g. when the table moved on). Keys that
 * no longer exist are skipped. Returns the keys marked.
 */
export function markNoncurrent(ctx: Ctx, warehouse: string, keys: readonly string[], since: number, check?: () => void): string[] {
  const s3 = s3Repo(ctx);
  const m = maintenanceRepo(ctx);
  const hidden = hiddenBucketOf(warehouse);
  let released = false;
  const marked = ctx.rt.meta.tx(() => {
    check?.();
    const done: string[] = [];
    for (const key of keys) {
      const head = s3.headObject(warehouse, key);
      if (!head) continue;
      // An earlier noncurrent object of the same key (the key was written again) goes for good.
      if (m.getNoncurrent(warehouse, key)) released = release(ctx, s3.deleteObject(hidden, key)) || released;
      s3.moveObject(warehouse, key, hidden);
      m.addNoncurrent({ warehouse, key, since, size: head.size });
      done.push(key);
    }
    return done;
  });
  if (released) ctx.rt.blobs.sweep();
  return marked;
}

/** Deletes permanently up to `limit` noncurrent objects marked at or before `before`; their rows. */
export function deleteDueNoncurrent(ctx: Ctx, warehouse: string, before: number, limit: number): NoncurrentRow[] {
  const s3 = s3Repo(ctx);
  const m = maintenanceRepo(ctx);
  const hidden = hiddenBucketOf(warehouse);
  let released = false;
  const rows = ctx.rt.meta.tx(() => {
    const due = m.dueNoncurrent(warehouse, before, limit);
    for (const row of due) {
      released = release(ctx, s3.deleteObject(hidden, row.key)) || released;
      m.removeNoncurrent(warehouse, row.key);
    }
    return due;
  });
  if (released) ctx.rt.blobs.sweep();
  return rows;
}

/** Every noncurrent object of a warehouse removed, a batch per transaction (the table was deleted). */
export async function purgeNoncurrent(ctx: Ctx, warehouse: string): Promise<void> {
  for (;;) {
    const rows = deleteDueNoncurrent(ctx, warehouse, Number.MAX_SAFE_INTEGER, 500);
    if (rows.length < 500) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  // Rows the bookkeeping lost (none expected): the hidden bucket is emptied as well.
  const s3 = s3Repo(ctx);
  for (;;) {
    const { count, blobIds } = ctx.rt.meta.tx(() => {
      const batch = s3.deleteContentsBatch(hiddenBucketOf(warehouse), 500);
      ctx.rt.blobs.release(batch.blobIds);
      return batch;
    });
    if (blobIds.length) ctx.rt.blobs.sweep();
    if (count < 500) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Moves a noncurrent object back into its warehouse (AWS Support's restore); false if it cannot. */
export function restoreNoncurrent(ctx: Ctx, warehouse: string, key: string): boolean {
  const s3 = s3Repo(ctx);
  const m = maintenanceRepo(ctx);
  return ctx.rt.meta.tx(() => {
    if (!m.getNoncurrent(warehouse, key) || s3.headObject(warehouse, key)) return false;
    if (!s3.moveObject(hiddenBucketOf(warehouse), key, warehouse)) return false;
    m.removeNoncurrent(warehouse, key);
    return true;
  });
}
