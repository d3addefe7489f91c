/**
 * A readable over byte ranges of already-opened blob files, in order. Consumed as an ordinary
 * stream it behaves like fs.createReadStream. Piped into a writable (how a server sends a response
 * body) it skips the stream machinery and writes the file straight to the destination through a
 * small shared pool of read buffers, each taken back only once the destination's write callback
 * says it was flushed. Reading a large object then allocates nothing per chunk: the per-chunk
 * 256 KiB buffers of createReadStream are external memory that makes V8 run full mark-compacts
 * every few dozen MB, which in a server with a real heap costs more CPU than the copy itself.
 */
import { close, read } from 'node:fs';
import { Readable, type Writable } from 'node:stream';

interface OpenSegment {
  fd: number;
  /** First byte to read, inclusive. */
  from: number;
  /** Last byte to read, inclusive. */
  to: number;
}

const CHUNK = 256 * 1024;
/** Buffers a pipe may have in flight; with one write outstanding at a time two are plenty. */
const PER_STREAM = 3;
/** Idle buffers kept for the next streams (bounds the pool at a few MiB). */
const POOL_MAX = 32;
const pool: Buffer[] = [];

function take(): Buffer {
  return pool.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
}

function give(buf: Buffer): void {
  if (pool.length < POOL_MAX) pool.push(buf);
}

function readAt(fd: number, buf: Buffer, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => read(fd, buf, 0, length, position, (err, n) => (err ? reject(err) : resolve(n))));
}

export class BlobStream extends Readable {
  private segment = 0;
  private position: number;
  private piping = false;
  /** The read in progress: descriptors are closed only once it has returned (no fd reuse race). */
  private pending: Promise<unknown> | undefined;

  constructor(private readonly segments: OpenSegment[]) {
    super({ highWaterMark: CHUNK });
    this.position = segments[0]?.from ?? 0;
  }

  private readInto(fd: number, buf: Buffer, length: number, position: number): Promise<number> {
    const p = readAt(fd, buf, length, position);
    this.pending = p;
    return p.finally(() => {
      if (this.pending === p) this.pending = undefined;
    });
  }

  /** The next range to read, or undefined when done. */
  private next(): { fd: number; length: number; position: number } | undefined {
    while (this.segment < this.segments.length) {
      const s = this.segments[this.segment]!;
      if (this.position <= s.to) return { fd: s.fd, length: Math.min(CHUNK, s.to - this.position + 1), position: this.position };
      this.segment++;
      this.position = this.segments[this.segment]?.from ?? 0;
    }
    return undefined;
  }

  override _read(): void {
    const at = this.next();
    if (!at) {
      this.push(null);
      return;
    }
    const buf = Buffer.allocUnsafe(at.length);
    this.readInto(at.fd, buf, at.length, at.position).then(
      (n) => {
        if (n === 0) return this.destroy(new Error('blob file shorter than its record'));
        this.position += n;
        this.push(n === buf.length ? buf : buf.subarray(0, n));
      },
      (err: Error) => this.destroy(err),
    );
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    // Only a fresh stream takes the direct path; one already being read keeps the ordinary one.
    if (this.piping || this.readableFlowing !== null || this.readableLength > 0 || this.destroyed) {
      return super.pipe(destination, options);
    }
    this.piping = true;
    void this.pump(destination as unknown as Writable, options?.end !== false);
    return destination;
  }

  private async pump(dest: Writable, end: boolean): Promise<void> {
    let inFlight = 0;
    let wake: (() => void) | undefined;
    const settle = () => {
      const w = wake;
      wake = undefined;
      w?.();
    };
    const onClose = () => settle();
    dest.on('close', onClose);
    dest.on('drain', settle);
    try {
      for (let at = this.next(); at; at = this.next()) {
        if (this.destroyed || dest.destroyed) return;
        while (inFlight >= PER_STREAM && !dest.destroyed) await new Promise<void>((r) => (wake = r));
        const buf = take();
        const n = await this.readInto(at.fd, buf, at.length, at.position);
        if (n === 0) throw new Error('blob file shorter than its record');
        this.position += n;
        if (this.destroyed || dest.destroyed) {
          give(buf);
          return;
        }
        inFlight++;
        const ok = dest.write(n === buf.length ? buf : buf.subarray(0, n), () => {
          inFlight--;
          give(buf);
          settle();
        });
        if (!ok) await new Promise<void>((r) => (wake = r));
      }
      // Done: the readable side ends (listeners see 'end'), then the destination.
      this.push(null);
      this.resume();
      if (end) dest.end();
    } catch (err) {
      this.destroy(err as Error);
    } finally {
      dest.off('close', onClose);
      dest.off('drain', settle);
    }
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    const fds = this.segments.map((s) => s.fd);
    this.segments.length = 0;
    const closeAll = () => fds.forEach((fd) => close(fd, () => undefined));
    if (this.pending) void this.pending.then(closeAll, closeAll);
    else closeAll();
    callback(err);
  }
}
