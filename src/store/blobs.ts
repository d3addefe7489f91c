/**
 * Object bytes. Small bodies come back inline, for the caller to keep in its own SQLite row (one
 * transaction, nothing to orphan); larger ones become blob files. A blob file is written under
 * `tmp/`, fsynced and renamed into `blobs/` before the metadata commit that references it. Blobs
 * whose commit never happened (`blob_pending`) and blobs released by a commit (`blob_garbage`) are
 * recorded in SQLite, so a crash at any point leaves nothing visible and start-up removes exactly
 * those files, without scanning the directory. In-memory mode keeps blobs in a Map.
 */
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { BlobStream } from './blob-stream.js';
import { randomUUID } from 'node:crypto';
import type { MetadataStore, Migration } from './database.js';

export const blobMigrations: Migration[] = [
  {
    id: 'blobs-001',
    sql: `
      CREATE TABLE blob_pending (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE blob_garbage (id TEXT PRIMARY KEY) WITHOUT ROWID;
    `,
  },
];

/** Bodies up to this size are returned inline instead of becoming blob files. */
export const INLINE_LIMIT = 128 * 1024;

export interface BlobRef {
  id: string;
  size: number;
}

export interface WrittenBody {
  size: number;
  /** The bytes, when the body was small enough to keep inline. */
  inline?: Buffer;
  /** The blob holding the bytes otherwise; pass its id to adopt() inside the referencing commit. */
  blob?: BlobRef;
}

/** A byte range (inclusive end) across one or more blobs, opened synchronously. */
export interface BlobStore {
  readonly kind: 'file' | 'memory';
  /** Streams `source` into storage; `observe` sees each chunk in order (for hashing). */
  write(source: AsyncIterable<Buffer | Uint8Array>, observe?: (chunk: Buffer) => void, forceBlob?: boolean): Promise<WrittenBody>;
  /** Marks blobs as owned by the commit in progress (call inside that transaction). */
  adopt(ids: readonly string[]): void;
  /** Marks blobs as no longer referenced (call inside the transaction that drops them). */
  release(ids: readonly string[]): void;
  /** Removes the bytes of released blobs (call after the commit). */
  sweep(): void;
  /** Drops a blob whose commit will not happen (validation failed after the write). */
  discard(ref: BlobRef): void;
  /**
   * Opens `segments` and returns a stream of bytes [start, end] of their concatenation. Opening is
   * synchronous so that a concurrent overwrite, which may delete the blobs, cannot interleave.
   */
  read(segments: readonly BlobRef[], start: number, end: number): Readable;
  /** Recovers after a crash: deletes pending and garbage blobs. */
  recover(): void;
  /** Deletes every blob (reset; the caller has deleted every reference). */
  clear(): void;
  close(): void;
}

const WRITE_BATCH = 1024 * 1024;

/** Writes every byte of `buffers` (writev may write less than asked). */
async function writeAll(fh: FileHandle, buffers: Buffer[], length: number): Promise<void> {
  let { bytesWritten } = await fh.writev(buffers);
  while (bytesWritten < length) {
    const rest = Buffer.concat(buffers, length).subarray(bytesWritten);
    bytesWritten += (await fh.write(rest)).bytesWritten;
  }
}

/** Bytes written between two background flushes of a large blob file. */
const SYNC_STEP = 8 * 1024 * 1024;

/**
 * Write-behind for a blob file being written: every SYNC_STEP bytes, an fdatasync starts in the
 * thread pool (one at a time) while the body keeps arriving, so the disk writes the file alongside
 * the network and the hashing instead of all at the end. The fsync before the rename then finds
 * little left to write. Without it a 64 MiB PUT spent its CPU (receiving, MD5) and then waited for
 * the whole file to reach the disk, one after the other.
 */
class WriteBehind {
  private unsynced = 0;
  private syncing: Promise<void> | undefined;

  constructor(private readonly fh: FileHandle) {}

  wrote(bytes: number): void {
    this.unsynced += bytes;
    if (this.unsynced < SYNC_STEP || this.syncing) return;
    this.unsynced = 0;
    const p = this.fh.datasync().finally(() => {
      if (this.syncing === p) this.syncing = undefined;
    });
    this.syncing = p;
    p.catch(() => undefined); // a failure surfaces in settled() or in the final fsync
  }

  /** The background flush in progress, if any, has finished. */
  async settled(): Promise<void> {
    if (this.syncing) await this.syncing;
  }
}

export class FileBlobStore implements BlobStore {
  readonly kind = 'file' as const;
  private readonly tmpDir: string;
  private readonly blobDir: string;
  private sweepScheduled = false;

  constructor(
    private readonly meta: MetadataStore,
    dataDir: string,
  ) {
    this.tmpDir = join(dataDir, 'tmp');
    this.blobDir = join(dataDir, 'blobs');
    rmSync(this.tmpDir, { recursive: true, force: true }); // only ever holds unfinished writes
    mkdirSync(this.tmpDir, { recursive: true });
    mkdirSync(this.blobDir, { recursive: true });
  }

  private pathOf(id: string): string {
    return join(this.blobDir, id.slice(0, 2), id);
  }

  async write(
    source: AsyncIterable<Buffer | Uint8Array>,
    observe?: (chunk: Buffer) => void,
    forceBlob = false,
  ): Promise<WrittenBody> {
    const head: Buffer[] = [];
    let size = 0;
    const it = source[Symbol.asyncIterator]();
    // Buffer up to the inline limit; most bodies end here.
    for (;;) {
      if (size > INLINE_LIMIT) break;
      const next = await it.next();
      if (next.done) {
        const inline = head.length === 1 ? head[0]! : Buffer.concat(head, size);
        if (!forceBlob) return { size, inline };
        return { size, blob: await this.spill([inline], size, undefined) };
      }
      const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
      observe?.(chunk);
      head.push(chunk);
      size += chunk.length;
    }
    return this.spillStream(head, size, it, observe);
  }

  private async spillStream(
    head: Buffer[],
    headSize: number,
    it: AsyncIterator<Buffer | Uint8Array>,
    observe?: (chunk: Buffer) => void,
  ): Promise<WrittenBody> {
    const blob = await this.spill(head, headSize, it, observe);
    return { size: blob.size, blob };
  }

  /** Writes head + the rest of the iterator to a new blob file (fsynced, renamed, pending). */
  private async spill(
    head: Buffer[],
    headSize: number,
    it: AsyncIterator<Buffer | Uint8Array> | undefined,
    observe?: (chunk: Buffer) => void,
  ): Promise<BlobRef> {
    const id = randomUUID().replace(/-/g, '');
    this.meta.stmt('INSERT INTO blob_pending (id, created_at) VALUES (?, ?)').run(id, Date.now());
    const tmp = join(this.tmpDir, id);
    const fh = await open(tmp, 'w');
    let size = headSize;
    // One write in flight while the next batch is read: network and disk overlap, memory stays
    // at two batches. Batches go out with writev (no concatenation copies).
    let inFlight: Promise<void> | undefined;
    const behind = new WriteBehind(fh);
    try {
      let batch: Buffer[] = head;
      let batchSize = headSize;
      const flush = async () => {
        if (batchSize === 0) return;
        const buffers = batch;
        const length = batchSize;
        batch = [];
        batchSize = 0;
        if (inFlight) await inFlight;
        inFlight = writeAll(fh, buffers, length).then(() => behind.wrote(length));
        inFlight.catch(() => undefined); // awaited below; never an unhandled rejection meanwhile
      };
      if (it) {
        for (;;) {
          const next = await it.next();
          if (next.done) break;
          const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
          observe?.(chunk);
          batch.push(chunk);
          batchSize += chunk.length;
          size += chunk.length;
          if (batchSize >= WRITE_BATCH) await flush();
        }
      }
      await flush();
      if (inFlight) await inFlight;
      await behind.settled();
      await fh.sync();
    } catch (err) {
      if (inFlight) await inFlight.catch(() => undefined);
      await behind.settled().catch(() => undefined);
      await fh.close().catch(() => undefined);
      rmSync(tmp, { force: true });
      this.meta.stmt('DELETE FROM blob_pending WHERE id = ?').run(id);
      throw err;
    }
    await fh.close();
    mkdirSync(join(this.blobDir, id.slice(0, 2)), { recursive: true });
    await rename(tmp, this.pathOf(id));
    return { id, size };
  }

  adopt(ids: readonly string[]): void {
    const del = this.meta.stmt('DELETE FROM blob_pending WHERE id = ?');
    for (const id of ids) del.run(id);
  }

  release(ids: readonly string[]): void {
    const ins = this.meta.stmt('INSERT OR IGNORE INTO blob_garbage (id) VALUES (?)');
    for (const id of ids) ins.run(id);
  }

  sweep(): void {
    if (this.sweepScheduled) return;
    this.sweepScheduled = true;
    setImmediate(() => {
      this.sweepScheduled = false;
      void this.collectAsync();
    });
  }

  /**
   * collect() off the event loop: unlinking a large file takes milliseconds of the kernel's
   * time, so the sweep after an overwrite unlinks through the thread pool. A crash in between
   * leaves the rows in blob_garbage, and recover() removes those files again.
   */
  private async collectAsync(): Promise<void> {
    try {
      const rows = this.meta.stmt('SELECT id FROM blob_garbage LIMIT 1000').all() as { id: string }[];
      if (rows.length === 0) return;
      await Promise.all(rows.map(({ id }) => rm(this.pathOf(id), { force: true })));
      const del = this.meta.stmt('DELETE FROM blob_garbage WHERE id = ?');
      this.meta.tx(() => {
        for (const { id } of rows) del.run(id);
      });
      if (rows.length === 1000) this.sweep();
    } catch {
      // the store may have closed meanwhile; recover() finishes the job at the next start
    }
  }

  private collect(): void {
    const rows = this.meta.stmt('SELECT id FROM blob_garbage LIMIT 1000').all() as { id: string }[];
    if (rows.length === 0) return;
    const del = this.meta.stmt('DELETE FROM blob_garbage WHERE id = ?');
    for (const { id } of rows) {
      rmSync(this.pathOf(id), { force: true });
    }
    this.meta.tx(() => {
      for (const { id } of rows) del.run(id);
    });
    if (rows.length === 1000) this.sweep();
  }

  discard(ref: BlobRef): void {
    rmSync(this.pathOf(ref.id), { force: true });
    this.meta.stmt('DELETE FROM blob_pending WHERE id = ?').run(ref.id);
  }

  read(segments: readonly BlobRef[], start: number, end: number): Readable {
    // Open every segment now (synchronously): an unlinked-but-open file stays readable.
    const opened: { fd: number; from: number; to: number }[] = [];
    let offset = 0;
    try {
      for (const seg of segments) {
        const segStart = offset;
        const segEnd = offset + seg.size - 1;
        offset += seg.size;
        if (seg.size === 0 || segEnd < start || segStart > end) continue;
        const fd = openSync(this.pathOf(seg.id), 'r');
        opened.push({ fd, from: Math.max(start, segStart) - segStart, to: Math.min(end, segEnd) - segStart });
      }
    } catch (err) {
      for (const o of opened) closeSync(o.fd);
      throw err;
    }
    return new BlobStream(opened);
  }

  recover(): void {
    const pending = this.meta.stmt('SELECT id FROM blob_pending').all() as { id: string }[];
    for (const { id } of pending) rmSync(this.pathOf(id), { force: true });
    this.meta.stmt('DELETE FROM blob_pending').run();
    this.collect();
  }

  clear(): void {
    rmSync(this.blobDir, { recursive: true, force: true });
    mkdirSync(this.blobDir, { recursive: true });
  }

  close(): void {
    try {
      this.collect();
    } catch {
      // closing anyway
    }
  }
}

/** Blobs held in memory, for `--in-memory` and tests. */
export class MemoryBlobStore implements BlobStore {
  readonly kind = 'memory' as const;
  private readonly blobs = new Map<string, Buffer>();
  private readonly garbage = new Set<string>();

  async write(
    source: AsyncIterable<Buffer | Uint8Array>,
    observe?: (chunk: Buffer) => void,
    forceBlob = false,
  ): Promise<WrittenBody> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of source) {
      const chunk = Buffer.isBuffer(c) ? c : Buffer.from(c);
      observe?.(chunk);
      chunks.push(chunk);
      size += chunk.length;
    }
    const data = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
    if (size <= INLINE_LIMIT && !forceBlob) return { size, inline: data };
    const id = randomUUID().replace(/-/g, '');
    this.blobs.set(id, data);
    return { size, blob: { id, size } };
  }

  adopt(): void {}

  release(ids: readonly string[]): void {
    for (const id of ids) this.garbage.add(id);
  }

  sweep(): void {
    for (const id of this.garbage) this.blobs.delete(id);
    this.garbage.clear();
  }

  discard(ref: BlobRef): void {
    this.blobs.delete(ref.id);
  }

  read(segments: readonly BlobRef[], start: number, end: number): Readable {
    const parts: Buffer[] = [];
    let offset = 0;
    for (const seg of segments) {
      const segStart = offset;
      offset += seg.size;
      const data = this.blobs.get(seg.id);
      if (!data) throw new Error(`blob ${seg.id} missing`);
      const from = Math.max(start, segStart) - segStart;
      const to = Math.min(end, offset - 1) - segStart;
      if (to >= from) parts.push(data.subarray(from, to + 1));
    }
    return Readable.from(parts, { objectMode: false });
  }

  recover(): void {}

  clear(): void {
    this.blobs.clear();
    this.garbage.clear();
  }

  close(): void {
    this.clear();
  }
}
