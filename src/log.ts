/**
 * Overcast's log, on pino (the logger fastify ships): one line per answered request (service,
 * operation, status, error code, milliseconds, request id) at `info`, events (start, reset, stack
 * operations, background jobs) at `info`, problems at `warn`/`error`. Two formats: `json`, pino's
 * own lines for machines, and `text`, the same records rendered as compact columns — coloured
 * only on a terminal (and never under NO_COLOR). `overcast start` writes to stdout, asynchronously
 * (pino's SonicBoom, in batches); an in-process server writes to stderr, synchronously. pino is
 * loaded when the first line needs it. Callers keep the small `Logger` interface
 * (`rt.log.info(message, extra)`), so no module but this one knows pino.
 */
import { writeSync } from 'node:fs';
import type { DestinationStream, Logger as PinoLogger } from 'pino';
import { LEVEL_ORDER as ORDER, type LogFormat, type LogLevel } from './log-levels.js';
import { requireOnDemand } from './on-demand.js';

export { isLogFormat, isLogLevel, LOG_FORMATS, type LogFormat, type LogLevel } from './log-levels.js';

/** One answered request, as the request log records it. */
interface RequestRecord {
  service: string;
  operation: string;
  status: number;
  /** The error code of an error answer. */
  code?: string;
  /** The error message (logged at `debug` only). */
  message?: string;
  ms: number;
  requestId: string;
}

export interface Logger {
  readonly level: LogLevel;
  enabled(level: LogLevel): boolean;
  debug(msg: string, extra?: unknown): void;
  info(msg: string, extra?: unknown): void;
  warn(msg: string, extra?: unknown): void;
  error(msg: string, extra?: unknown): void;
  /** The request log's line for one answered request (at `info`). */
  request(r: RequestRecord): void;
  /** A notable event at `info`: `event` names its kind (`start`, `reset`, `stack`, `job`, …). */
  event(event: string, msg: string, fields?: Record<string, unknown>): void;
  /** Writes out what is buffered (before the process exits). */
  flush(): void;
}

/** The logger `overcast start` uses: also prints plain lines (its greeting) in order with the log. */
interface ConsoleLogger extends Logger {
  line(text: string): void;
}

interface LoggerOptions {
  format?: LogFormat;
  /** A file descriptor (1 stdout, 2 stderr; default 2) or a stream that takes whole lines. */
  destination?: number | { write(line: string): unknown };
  /** Buffer and write asynchronously (for a server's stdout); default false. */
  async?: boolean;
  /** Colour the text format; default: when the destination is a terminal and NO_COLOR is unset. */
  color?: boolean;
}

/** Extra arguments of the Logger methods as pino's merge object. */
function fieldsOf(extra: unknown): Record<string, unknown> | undefined {
  if (extra === undefined) return undefined;
  if (extra instanceof Error) return { err: extra };
  if (extra !== null && typeof extra === 'object' && !Array.isArray(extra)) return extra as Record<string, unknown>;
  return { detail: extra };
}

type Pino = typeof import('pino').default;
type Sink = DestinationStream & { flushSync?: () => void };

let pinoLoaded: Pino | undefined;

/**
 * pino, loaded on first use rather than at start-up: fastify without its logger does not load it,
 * and `overcast start` answers its first request before anything is logged (loading pino costs
 * about a tenth of loading fastify). Synchronous, through a require rooted at the package, so it
 * works the same from the ES module and the CommonJS build.
 */
function loadPino(): Pino {
  return (pinoLoaded ??= requireOnDemand<Pino>('pino'));
}

export function createLogger(level: LogLevel, options: LoggerOptions = {}): ConsoleLogger {
  const format = options.format ?? 'text';
  const target = options.destination ?? 2;
  const color = format === 'text' && (options.color ?? (typeof target === 'number' && isTerminal(target) && !process.env.NO_COLOR));
  let state: { log: PinoLogger; sink: Sink; flushPending: () => void } | undefined;
  const ready = () => (state ??= build());
  function build() {
    const pino = loadPino();
    let sink: Sink = target as Sink;
    let flushPending = () => {};
    if (typeof target === 'number') {
      const boom = pino.destination({ dest: target, sync: options.async !== true });
      // A closed stdout (`overcast start | head`) must not crash the server.
      boom.on('error', () => {});
      sink = boom;
      if (options.async === true) [sink, flushPending] = batched(boom);
    }
    const stream: DestinationStream = format === 'text' ? { write: (line: string) => void sink.write(renderText(line, color)) } : sink;
    const log = pino(
      {
        level: level === 'silent' ? 'silent' : level,
        base: undefined,
        timestamp: format === 'json' ? pino.stdTimeFunctions.isoTime : pino.stdTimeFunctions.epochTime,
        formatters: { level: (label) => ({ level: label }) },
      },
      stream,
    );
    return { log, sink, flushPending };
  }
  const enabled = (l: LogLevel) => ORDER[l] >= ORDER[level];
  const at = (l: 'debug' | 'info' | 'warn' | 'error') => (msg: string, extra?: unknown) => {
    if (!enabled(l)) return;
    const fields = fieldsOf(extra);
    if (fields) ready().log[l](fields, msg);
    else ready().log[l](msg);
  };
  return {
    level,
    enabled,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    request(r) {
      if (!enabled('info')) return;
      const message = r.message !== undefined && enabled('debug') ? r.message : undefined;
      // The hot path: in the text format the line goes straight to pino's destination — through
      // pino it would be serialized to JSON only to be parsed back.
      if (format === 'text') {
        ready().sink.write(requestLine(r, message, color));
        return;
      }
      const record: Record<string, unknown> = { service: r.service, operation: r.operation, status: r.status, ms: Math.round(r.ms * 100) / 100, requestId: r.requestId };
      if (r.code) record.code = r.code;
      if (message !== undefined) record.message = message;
      ready().log.info(record, r.code ? `${r.service} ${r.operation} ${r.status} ${r.code}` : `${r.service} ${r.operation} ${r.status}`);
    },
    event(event, msg, fields) {
      if (enabled('info')) ready().log.info({ event, ...fields }, msg);
    },
    line(text) {
      // Before the first log line, plainly and at once (the greeting must not wait for pino).
      if (state) state.sink.write(`${text}\n`);
      else if (typeof target !== 'number') target.write(`${text}\n`);
      else {
        try {
          writeSync(target, `${text}\n`);
        } catch {
          (target === 2 ? process.stderr : process.stdout).write(`${text}\n`); // a non-blocking pipe that is full
        }
      }
    },
    flush() {
      if (!state) return;
      state.flushPending();
      try {
        state.sink.flushSync?.();
      } catch {
        // nothing buffered, or the destination is gone (a closed pipe)
      }
    },
  };
}

/**
 * Lines gathered into writes of about 4 KiB, or whatever 50 ms brought: a busy server makes one
 * write per few dozen requests (each costs a native call and a thread hop, and SonicBoom measures
 * its whole pending buffer on every write), and a quiet one shows its lines within 50 ms.
 */
function batched(boom: Sink): [Sink, () => void] {
  let lines: string[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (lines.length === 0) return;
    const text = lines.length === 1 ? lines[0]! : lines.join('');
    lines = [];
    size = 0;
    boom.write(text);
  };
  const stream = {
    write(line: string) {
      lines.push(line);
      size += line.length;
      if (size >= 4096) flush();
      else timer ??= setTimeout(flush, 50);
    },
    flushSync: () => boom.flushSync?.(),
  };
  return [stream, flush];
}

function isTerminal(fd: number): boolean {
  return (fd === 1 ? process.stdout.isTTY : fd === 2 ? process.stderr.isTTY : false) === true;
}

// ---- the text format

const LEVEL_TAG: Record<string, [string, number]> = {
  debug: ['DEBUG', 90],
  warn: ['WARN ', 33],
  error: ['ERROR', 31],
  fatal: ['FATAL', 31],
};

function paint(on: boolean, code: number, text: string): string {
  return on ? `\u001b[${code}m${text}\u001b[39m` : text;
}

let clockSecond = -1;
let clockPrefix = '';

/** Local `HH:MM:SS.mmm`; the part up to the second is worked out once a second. */
function clock(epochMs: number): string {
  const second = Math.floor(epochMs / 1000);
  if (second !== clockSecond) {
    const d = new Date(epochMs);
    const two = (n: number) => (n < 10 ? `0${n}` : String(n));
    clockSecond = second;
    clockPrefix = `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.`;
  }
  const ms = epochMs - second * 1000;
  return `${clockPrefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}`;
}

function milliseconds(ms: number): string {
  return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
}

const SHOWN = new Set(['level', 'time', 'msg', 'event', 'err', 'ms']);

/** One pino JSON line as a text line, e.g. `12:00:01.240 cloudformation create Analytics → CREATE_COMPLETE  12 ms`. */
function renderText(line: string, color: boolean): string {
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  return renderRecord(r, color);
}

/** A request's line: `12:00:01.240 s3tables  GetTableBucket  404  0.4 ms  NotFoundException  <request id>`. */
function requestLine(r: RequestRecord, message: string | undefined, color: boolean): string {
  const statusColor = r.status >= 500 ? 31 : r.status >= 400 ? 33 : 32;
  let out = `${paint(color, 2, clock(Date.now()))} ${r.service.padEnd(14)} ${r.operation.padEnd(30)} ${paint(color, statusColor, String(r.status))} `;
  out += `${milliseconds(r.ms).padStart(9)}  `;
  if (r.code) out += `${paint(color, statusColor, r.code)}  `;
  out += paint(color, 2, r.requestId);
  return message === undefined ? `${out}\n` : `${out}  ${message}\n`;
}

/** A record of pino's as a text line: the level before anything but info, then the message. */
function renderRecord(r: Record<string, unknown>, color: boolean): string {
  const tag = LEVEL_TAG[String(r.level)];
  let out = paint(color, 2, clock(Number(r.time))) + ' ';
  if (tag) out += `${paint(color, tag[1], tag[0])} `;
  out += String(r.msg ?? '');
  if (typeof r.ms === 'number') out += `  ${milliseconds(r.ms)}`;
  // An event's message says it all; its fields are for the JSON format.
  if (r.event === undefined) for (const [k, v] of Object.entries(r)) {
    if (SHOWN.has(k)) continue;
    out += ` ${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`;
  }
  const err = r.err as { stack?: string; message?: string } | undefined;
  if (err) out += `\n    ${(err.stack ?? err.message ?? '').split('\n').join('\n    ')}`;
  return `${out}\n`;
}
