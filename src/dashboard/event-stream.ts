/**
 * One stack's events as server-sent events: the stream starts after the sequence number the page
 * already shows (`?after=`, or the SSE `Last-Event-ID` a reconnecting EventSource sends) and writes
 * each new event as it is recorded — the engine's event feed wakes the stream, which reads what
 * it has not sent by index once the engine's write is visible — plus the stack's status after each
 * batch. A comment every 15 s keeps proxies from closing an idle stream and re-checks the index.
 */
import { watchStackEvents } from '../services/cloudformation/engine/event-feed.js';
import { cfnRepo } from '../services/cloudformation/engine/state.js';
import type { DashboardRequest } from './http.js';
import { trackStream } from './open-streams.js';
import { eventOf, stackRow } from './stacks-api.js';

const HEARTBEAT_MS = 15_000;
const BATCH = 200;

export function streamEvents(r: DashboardRequest, name: string): void {
  const row = stackRow(r.ctx, name);
  const repo = cfnRepo(r.ctx);
  const resume = Number(r.request.headers['last-event-id'] ?? r.query.get('after') ?? 0);
  let after = Number.isFinite(resume) && resume >= 0 ? resume : 0;

  const res = r.reply.raw;
  r.reply.hijack();
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write('retry: 2000\n\n');

  let closed = false;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (closed) return;
    try {
      for (;;) {
        const rows = repo.eventsAfter(row.id, after, BATCH);
        if (rows.length === 0) break;
        for (const e of rows) {
          res.write(`id: ${e.seq}\nevent: stack-event\ndata: ${JSON.stringify(eventOf(e))}\n\n`);
          after = e.seq;
        }
        const now = repo.getStack(row.id);
        if (now) res.write(`event: stack-status\ndata: ${JSON.stringify({ status: now.status, reason: now.status_reason })}\n\n`);
        if (rows.length < BATCH) break;
      }
    } catch (err) {
      r.rt.log.error('dashboard: event stream failed', err);
      close();
    }
  };
  // The engine writes an event inside a transaction that commits later in the same turn; reading
  // on the next immediate sees it committed.
  const wake = () => {
    if (scheduled || closed) return;
    scheduled = true;
    setImmediate(flush);
  };
  const stop = watchStackEvents(row.id, wake);
  const heartbeat = setInterval(() => {
    if (!closed) res.write(': keep-alive\n\n');
    wake();
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const close = () => {
    if (closed) return;
    closed = true;
    stop();
    untrack();
    clearInterval(heartbeat);
    res.end();
  };
  const untrack = trackStream(r.rt, close);
  r.request.raw.on('close', close);
  res.on('close', close);
  res.on('error', close);
  // Whatever happened between the page's read and this stream.
  wake();
}
