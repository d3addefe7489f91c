/**
 * MD5 of an upload (its ETag) without holding the event loop: bodies up to 1 MiB are hashed on
 * the main thread at the end; a larger body is handed, in 1 MiB batches copied into transferable
 * buffers, to one shared worker thread that hashes while the main thread keeps reading the socket
 * and writing the blob file. MD5 runs at about 500 MB/s, so on the main thread a 1 GiB upload
 * would stall every other request for two seconds. The caller paces itself with `ready()`, which
 * waits while the batches queued for the worker, all uploads together, exceed 32 MiB: memory
 * stays bounded, and an upload the worker cannot keep up with streams to its blob file at full
 * speed and lets the hashing of its tail overlap the file's fsync. A process allowed only one core
 * hashes a larger body's chunks inline instead: there the worker could only take turns with the
 * main thread, and its batches cost a copy of every byte (a 64 MiB PUT pinned to one core spent
 * ~290 ms of CPU, all threads, with the worker against ~235 ms inline). One chunk (64 KiB,
 * ~0.1 ms) never holds the loop long.
 */
import { createHash, hash, type Hash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

const OFFLOAD_AFTER = 1024 * 1024;
const BATCH = 1024 * 1024;
const MAX_BACKLOG = 32 * 1024 * 1024;

const WORKER = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const jobs = new Map();
parentPort.on('message', (m) => {
  if (m.op === 'update') {
    let h = jobs.get(m.id);
    if (!h) jobs.set(m.id, (h = createHash('md5')));
    h.update(new Uint8Array(m.data, 0, m.length));
    // The batch buffer goes back to be filled again: no allocation per MiB on either side.
    parentPort.postMessage({ op: 'ack', id: m.id, length: m.length, data: m.data }, [m.data]);
  } else if (m.op === 'digest') {
    const h = jobs.get(m.id) ?? createHash('md5');
    jobs.delete(m.id);
    parentPort.postMessage({ op: 'digest', id: m.id, digest: h.digest() });
  } else if (m.op === 'drop') {
    jobs.delete(m.id);
  }
});
`;

interface Job {
  backlog: number;
  drained: (() => void)[];
  done?: { resolve: (d: Buffer) => void; reject: (e: Error) => void };
}

let worker: Worker | undefined;
const jobs = new Map<number, Job>();
/** Bytes queued for the worker by every job. */
let queued = 0;
/** Batch buffers back from the worker, ready for reuse. */
const spare: ArrayBuffer[] = [];
let nextId = 1;

function hasher(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER, { eval: true });
  w.unref();
  w.on('message', (m: { op: string; id: number; length?: number; digest?: Uint8Array; data?: ArrayBuffer }) => {
    if (m.data && spare.length < 8) spare.push(m.data);
    // An aborted job's batches are still acknowledged: they leave the queue all the same.
    if (m.op === 'ack') queued -= m.length!;
    const job = jobs.get(m.id);
    if (!job) return;
    if (m.op === 'ack') {
      job.backlog -= m.length!;
      if (queued <= MAX_BACKLOG / 2) for (const j of jobs.values()) j.drained.splice(0).forEach((r) => r());
    } else if (m.op === 'digest') {
      jobs.delete(m.id);
      job.done?.resolve(Buffer.from(m.digest!));
    }
  });
  const fail = (err: Error) => {
    worker = undefined;
    queued = 0;
    for (const job of jobs.values()) {
      job.done?.reject(err);
      job.drained.splice(0).forEach((r) => r());
    }
    jobs.clear();
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`md5 worker exited with code ${code}`)));
  worker = w;
  return w;
}

/** Whether hashes run inline by default: libuv counts the cores the process may run on (its affinity). */
const ONE_CORE = availableParallelism() === 1;

export class StreamingMd5 {
  private readonly hashInline: boolean;
  private inline: Hash | undefined;
  private held: Buffer[] = [];
  private heldBytes = 0;
  private id = 0;
  private batch: Uint8Array | undefined;
  private batchLength = 0;
  private failed: Error | undefined;

  constructor(opts: { inline?: boolean } = {}) {
    this.hashInline = opts.inline ?? ONE_CORE;
  }

  update(chunk: Buffer): void {
    if (this.inline) {
      this.inline.update(chunk);
      return;
    }
    if (this.id === 0) {
      this.held.push(chunk);
      this.heldBytes += chunk.length;
      if (this.heldBytes <= OFFLOAD_AFTER) return;
      if (this.hashInline) {
        this.inline = createHash('md5');
        for (const c of this.held) this.inline.update(c);
        this.held = [];
        return;
      }
      this.id = nextId++;
      jobs.set(this.id, { backlog: 0, drained: [] });
      for (const c of this.held) this.add(c);
      this.held = [];
      return;
    }
    this.add(chunk);
  }

  private add(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      this.batch ??= new Uint8Array(spare.pop() ?? new ArrayBuffer(BATCH));
      const n = Math.min(chunk.length - at, BATCH - this.batchLength);
      this.batch.set(chunk.subarray(at, at + n), this.batchLength);
      this.batchLength += n;
      at += n;
      if (this.batchLength === BATCH) this.flush();
    }
  }

  private flush(): void {
    if (!this.batch || this.batchLength === 0) return;
    const job = jobs.get(this.id);
    if (!job) {
      this.failed ??= new Error('md5 worker failed');
      this.batch = undefined;
      this.batchLength = 0;
      return;
    }
    job.backlog += this.batchLength;
    queued += this.batchLength;
    const data = this.batch.buffer;
    try {
      hasher().postMessage({ op: 'update', id: this.id, data, length: this.batchLength }, [data as ArrayBuffer]);
    } catch (err) {
      this.failed ??= err as Error;
    }
    this.batch = undefined;
    this.batchLength = 0;
  }

  /** A promise to await before reading more when the worker is behind, else undefined. */
  ready(): Promise<void> | undefined {
    const job = this.id ? jobs.get(this.id) : undefined;
    if (!job || job.backlog === 0 || queued <= MAX_BACKLOG) return undefined;
    return new Promise((resolve) => job.drained.push(resolve));
  }

  async digest(): Promise<Buffer> {
    if (this.inline) return this.inline.digest();
    if (this.id === 0) {
      const held = this.held;
      this.held = [];
      // One chunk (most small bodies) is hashed in one call, without a Hash object.
      if (held.length === 1) return hash('md5', held[0]!, 'buffer');
      const h = createHash('md5');
      for (const c of held) h.update(c);
      return h.digest();
    }
    this.flush();
    if (this.failed) throw this.failed;
    const job = jobs.get(this.id);
    if (!job) throw new Error('md5 worker failed');
    return new Promise<Buffer>((resolve, reject) => {
      job.done = { resolve, reject };
      hasher().postMessage({ op: 'digest', id: this.id });
    });
  }

  /** Forgets a hash whose body was refused midway. */
  abort(): void {
    this.held = [];
    if (this.id && jobs.delete(this.id)) worker?.postMessage({ op: 'drop', id: this.id });
  }
}
