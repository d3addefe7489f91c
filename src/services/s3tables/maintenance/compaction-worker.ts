/**
 * The worker thread of compaction: runs `rewriteBinRows` (compaction-rewrite.ts) for each task the
 * server posts and answers with the Parquet files written (their buffers transferred, not copied),
 * or the error's message.
 */
import { parentPort } from 'node:worker_threads';
import { rewriteBinRows, type BinTask } from './compaction-rewrite.js';

parentPort!.on('message', (message: { id: number; task: BinTask }) => {
  rewriteBinRows(message.task).then(
    (out) => {
      const buffers = new Set(out.map((o) => o.parquet.bytes.buffer as ArrayBuffer));
      parentPort!.postMessage({ id: message.id, out }, [...buffers]);
    },
    (err: unknown) => parentPort!.postMessage({ id: message.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
