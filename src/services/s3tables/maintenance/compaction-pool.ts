/**
 * Where compaction's CPU-bound rewrites run: a worker thread per compaction job when the compiled
 * worker module is next to this one (the built server), so the server's event loop keeps answering
 * requests while Parquet files are parsed and written; the same function in this thread otherwise
 * (the test suite runs the TypeScript sources, where no compiled worker exists).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { MODULE_ROOT } from '../../../package-root.js';
import { rewriteBinRows, type BinOutput, type BinTask } from './compaction-rewrite.js';

export interface Rewriter {
  readonly threaded: boolean;
  run(task: BinTask): Promise<BinOutput[]>;
  close(): Promise<void>;
}

// Beside this module in the same build (ES modules or CommonJS), found without import.meta.
const WORKER = join(MODULE_ROOT, 'services', 's3tables', 'maintenance', 'compaction-worker.js');

export function openRewriter(): Rewriter {
  if (!existsSync(WORKER)) return { threaded: false, run: rewriteBinRows, close: async () => {} };
  const worker = new Worker(WORKER);
  worker.unref();
  let next = 0;
  const pending = new Map<number, { resolve: (out: BinOutput[]) => void; reject: (err: Error) => void }>();
  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on('message', (m: { id: number; out?: BinOutput[]; error?: string }) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error !== undefined) p.reject(new Error(m.error));
    else p.resolve(m.out!);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the compaction worker exited (${code})`)));
  return {
    threaded: true,
    run(task) {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, task });
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}
