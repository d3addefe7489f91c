/**
 * The warm workers of every function version: an invocation takes an idle worker of its key (the
 * version's configuration revision) or starts one, so module state survives between invocations
 * as in Lambda, and concurrent invocations run in separate processes as Lambda's execution
 * environments do — at most PER_KEY per version and TOTAL in all; beyond that they wait for a
 * worker to come free. A worker whose invocation failed fatally (timeout, exit) is gone; workers of
 * an older revision are stopped as soon as they are idle (`retire`). `close` kills every process,
 * and so does the parent's own exit, so none outlives the server.
 */
import { Worker, type InvokeRequest, type Outcome, type WorkerSpec } from './worker.js';

const PER_KEY = 10;
const TOTAL = 64;

interface Waiter {
  spec: WorkerSpec;
  go(w: Worker): void;
}

const everyPool = new Set<WorkerPool>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const pool of everyPool) pool.killAll();
  });
}

export class WorkerPool {
  private readonly workers = new Map<string, Set<Worker>>();
  private readonly waiting: Waiter[] = [];
  private total = 0;
  private closed = false;
  /** Keys retired: their workers are stopped once idle. */
  private readonly retired = new Set<string>();

  constructor(private readonly onLog: (requestId: string | undefined, line: string) => void) {
    everyPool.add(this);
    installExitHook();
  }

  /** Runs one invocation on a worker of `spec.key`; `cold` tells whether a new process was started. */
  async run(spec: WorkerSpec, req: InvokeRequest): Promise<Outcome & { cold: boolean }> {
    if (this.closed) throw new Error('Overcast is stopping: no new Lambda invocations');
    this.retired.delete(spec.key);
    let cold = false;
    let worker = this.idle(spec.key);
    if (!worker) {
      if ((this.workers.get(spec.key)?.size ?? 0) < PER_KEY && this.total < TOTAL) {
        worker = this.start(spec);
        cold = true;
      } else {
        worker = await new Promise<Worker>((go) => this.waiting.push({ spec, go }));
      }
    }
    worker.busy = true;
    try {
      return { ...(await worker.run(req)), cold };
    } finally {
      this.released(worker);
    }
  }

  /** Stops the workers of `family` whose key is not `keep` (after a code or configuration update). */
  retire(family: string, keep?: string): void {
    for (const [key, set] of this.workers) {
      if (!key.startsWith(`${family}#`) || key === keep) continue;
      this.retired.add(key);
      for (const w of set) if (!w.busy) w.kill();
    }
  }

  /** The number of live worker processes (for tests and metrics). */
  size(): number {
    return this.total;
  }

  pids(): number[] {
    return [...this.workers.values()].flatMap((set) => [...set].map((w) => w.pid ?? -1));
  }

  killAll(): void {
    for (const set of this.workers.values()) for (const w of set) w.kill();
  }

  async close(): Promise<void> {
    this.closed = true;
    everyPool.delete(this);
    const exits: Promise<void>[] = [];
    for (const set of this.workers.values()) {
      for (const w of set) {
        exits.push(new Promise((done) => (w.alive ? this.exitWaiters.set(w, done) : done())));
        w.kill();
      }
    }
    await Promise.all(exits);
  }

  private readonly exitWaiters = new Map<Worker, () => void>();

  private idle(key: string): Worker | undefined {
    for (const w of this.workers.get(key) ?? []) if (!w.busy && w.usable) return w;
    return undefined;
  }

  private start(spec: WorkerSpec): Worker {
    const w = new Worker(spec, this.onLog, (gone) => this.gone(gone));
    let set = this.workers.get(spec.key);
    if (!set) {
      set = new Set();
      this.workers.set(spec.key, set);
    }
    set.add(w);
    this.total++;
    return w;
  }

  private gone(w: Worker): void {
    const set = this.workers.get(w.key);
    if (set?.delete(w)) this.total--;
    if (set && set.size === 0) this.workers.delete(w.key);
    this.exitWaiters.get(w)?.();
    this.exitWaiters.delete(w);
    this.wakeOne();
  }

  private released(w: Worker): void {
    w.busy = false;
    if (!w.usable) return;
    if (this.retired.has(w.key) || this.closed) {
      w.kill();
      return;
    }
    const i = this.waiting.findIndex((x) => x.spec.key === w.key);
    if (i >= 0) {
      const [waiter] = this.waiting.splice(i, 1);
      w.busy = true;
      waiter!.go(w);
    }
  }

  /** A worker went away: a waiter may now start its own. */
  private wakeOne(): void {
    if (this.closed) return;
    const i = this.waiting.findIndex((x) => (this.workers.get(x.spec.key)?.size ?? 0) < PER_KEY && this.total < TOTAL);
    if (i < 0) return;
    const [waiter] = this.waiting.splice(i, 1);
    const w = this.start(waiter!.spec);
    w.busy = true;
    waiter!.go(w);
  }
}
