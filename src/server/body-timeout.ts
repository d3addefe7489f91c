/**
 * The cut-off of a request body that stalls: AWS answers RequestTimeout after about 20 s in which
 * no byte of the body arrives; so does Overcast (configurable), then closes the connection, which
 * fails whatever was consuming the body (an upload's temp file is removed by the blob store). The
 * watch polls the socket's byte counter, so it adds no listener to the request (that would switch
 * it to flowing mode) and no socket timeout (which Node's keep-alive handling owns); a body that
 * is not read because Overcast itself is busy (its buffer is full) is not the client's stall.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Watches `req`'s body until it is complete; if no byte arrives for `ms` while Overcast waits for
 * one, calls `onStall` (which answers the request) once. The returned function stops the watch.
 */
export function watchBody(req: IncomingMessage, res: ServerResponse, ms: number, onStall: () => void): () => void {
  if (req.complete || ms <= 0) return () => undefined;
  const socket = req.socket;
  let seen = socket.bytesRead;
  let lastProgress = Date.now();
  const tick = Math.max(10, Math.min(1000, Math.floor(ms / 4)));
  const timer = setInterval(() => {
    if (req.complete || socket.destroyed) return stop();
    const now = Date.now();
    if (socket.bytesRead !== seen || req.readableLength >= req.readableHighWaterMark) {
      seen = socket.bytesRead;
      lastProgress = now;
      return;
    }
    if (now - lastProgress < ms) return;
    stop();
    // Answered already (the handler did not wait for the body): nothing left to say, just close.
    if (res.headersSent) abandon(res);
    else onStall();
  }, tick);
  timer.unref();
  function stop(): void {
    clearInterval(timer);
  }
  return stop;
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
