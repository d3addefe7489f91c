/**
 * The cut-off of a request body that stalls: AWS answers RequestTimeout after about 20 s in which
 * no byte of the body arrives; so does Overcast (configurable), then closes the connection, which
 * fails whatever was consuming the body (an upload's temp file is removed by the blob store). One
 * timer sweeps every body in flight and polls each socket's byte counter, so the watch adds no
 * listener to the request (that would switch it to flowing mode), no socket timeout (which Node's
 * keep-alive handling owns) and no timer per request; a body that is not read because Overcast
 * itself is busy (its buffer is full) is not the client's stall.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

interface Watch {
  req: IncomingMessage;
  res: ServerResponse;
  ms: number;
  tick: number;
  seen: number;
  lastProgress: number;
  onStall: () => void;
}

/**
 * The bodies in flight, all swept by one timer (unref'd: it never keeps the process alive) at the
 * shortest tick any of them asks for; it stops when none is left.
 */
const watches = new Set<Watch>();
let sweeper: NodeJS.Timeout | undefined;
let sweepTick = Infinity;

function schedule(tick: number): void {
  if (sweeper && tick >= sweepTick) return;
  clearInterval(sweeper);
  sweepTick = tick;
  sweeper = setInterval(sweep, tick);
  sweeper.unref();
}

function unwatch(w: Watch): void {
  watches.delete(w);
  if (watches.size > 0) return;
  clearInterval(sweeper);
  sweeper = undefined;
  sweepTick = Infinity;
}

function sweep(): void {
  const now = Date.now();
  let shortest = Infinity;
  for (const w of watches) {
    const { req, res } = w;
    const socket = req.socket;
    if (req.complete || socket.destroyed) {
      unwatch(w);
      continue;
    }
    shortest = Math.min(shortest, w.tick);
    if (socket.bytesRead !== w.seen || req.readableLength >= req.readableHighWaterMark) {
      w.seen = socket.bytesRead;
      w.lastProgress = now;
      continue;
    }
    if (now - w.lastProgress < w.ms) continue;
    unwatch(w);
    // Answered already (the handler did not wait for the body): nothing left to say, just close.
    if (res.headersSent) abandon(res);
    else w.onStall();
  }
  // The watch that asked for the shortest tick is gone: sweep at the pace of those left.
  if (sweeper && shortest !== Infinity && shortest > sweepTick) {
    clearInterval(sweeper);
    sweeper = undefined;
    schedule(shortest);
  }
}

/**
 * Watches `req`'s body until it is complete; if no byte arrives for `ms` while Overcast waits for
 * one, calls `onStall` (which answers the request) once. The returned function stops the watch.
 */
export function watchBody(req: IncomingMessage, res: ServerResponse, ms: number, onStall: () => void): () => void {
  if (req.complete || ms <= 0) return () => undefined;
  const tick = Math.max(10, Math.min(1000, Math.floor(ms / 4)));
  const w: Watch = { req, res, ms, tick, seen: req.socket.bytesRead, lastProgress: Date.now(), onStall };
  watches.add(w);
  schedule(tick);
  return () => unwatch(w);
}

/**
 * Closes the connection and fails the request's body for whatever still reads it. Node destroys
 * a request whose socket closes only while its response is unfinished; once the answer is out,
 * a reader of the body (an upload's temp file) would wait forever.
 */
function abandon(res: ServerResponse): void {
  res.socket?.destroy();
  res.req.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
}

/** Writes `status`/`headers`/`body` as the request's answer and closes the connection once it is out. */
export function answerAndClose(res: ServerResponse, status: number, headers: Record<string, string | number | string[]>, body: string | undefined): void {
  if (res.headersSent) {
    abandon(res);
    return;
  }
  const text = body ?? '';
  res.writeHead(status, { ...headers, connection: 'close', 'content-length': Buffer.byteLength(text) });
  res.end(text, () => abandon(res));
}
