/**
 * The AWS API requests, answered from Node's own request and response objects: the Host check, the
 * watch on a stalling body, the dispatcher, and the answer written as fastify's reply wrote it
 * (default content types, Content-Length, no body for 1xx and 204, streams piped with their errors
 * handled). Fastify keeps Overcast's own endpoints under `/_overcast/`, a browser's `GET /`, and
 * every request target its router treats specially (absolute-form, malformed percent-encoding), so
 * those are answered exactly as before. Why: a GetTableBucket spent about 3 µs of its ~20 µs of
 * server CPU in fastify's request and reply objects, router and hooks, none of which an AWS
 * request uses.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { finished, type Readable } from 'node:stream';
import { answerAndClose, watchBody } from './body-timeout.js';
import type { Dispatcher } from './dispatch.js';
import { earlyError } from './early-errors.js';
import { hostAllowed, hostCheckApplies } from './guard.js';
import type { Runtime } from '../runtime/runtime.js';
import type { ServiceDefinition } from '../services/registry.js';
import { parseQuery, type WireRequest, type WireResponse } from '../wire/http.js';
import { scopeFromAuthorization } from '../wire/sigv4.js';

/** Time spent answering AWS requests, so benchmarks can set the server's share against a client's. */
export interface RequestMetrics {
  requests: number;
  requestMs: number;
}

function toWireRequest(req: IncomingMessage): WireRequest {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const rawQuery = q < 0 ? '' : url.slice(q + 1);
  return {
    method: req.method ?? 'GET',
    rawPath: q < 0 ? url : url.slice(0, q),
    rawQuery,
    query: parseQuery(rawQuery),
    headers: req.headers,
    body: req,
    rawHeaders: req.rawHeaders,
    sourceIp: req.socket.remoteAddress,
  };
}

/** The signing name a request's credential scope names (S3 when none). */
function signingNameOf(req: IncomingMessage): string {
  const scope = scopeFromAuthorization(req.headers.authorization);
  if (scope) return scope.service;
  const m = /[?&]X-Amz-Credential=[^/&]+(?:%2F|\/)\d{8}(?:%2F|\/)[^/&%]+(?:%2F|\/)([a-z0-9-]+)(?:%2F|\/)aws4_request/i.exec(req.url ?? '');
  return m?.[1] ?? 's3';
}

/** Whether a request announces a body (the only ones whose body can stall). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return length !== undefined ? length !== '0' : req.headers['transfer-encoding'] !== undefined;
}

/**
 * A person's browser asking for `/`: it accepts HTML and sends no AWS signature. SDKs and the CLI
 * sign (ListBuckets), and plain HTTP clients do not ask for HTML, so they still reach S3.
 */
export function fromBrowser(req: IncomingMessage): boolean {
  const accept = req.headers.accept ?? '';
  return accept.includes('text/html') && req.headers.authorization === undefined;
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/**
 * Whether fastify's router would take this target as it is: an origin-form path whose
 * percent-encoding decodeURI accepts (the router refuses the rest as a bad URL, which fastify
 * answers through `frameworkErrors`). Only ASCII escapes are checked by hand; a path with a
 * multi-byte escape is tried whole.
 */
function plainTarget(url: string): boolean {
  if (url.charCodeAt(0) !== 47) return false;
  const first = url.indexOf('%');
  if (first < 0) return true;
  let end = url.indexOf('?');
  const hash = url.indexOf('#');
  if (hash >= 0 && (end < 0 || hash < end)) end = hash;
  if (end >= 0 && first > end) return true;
  const path = end < 0 ? url : url.slice(0, end);
  for (let i = first; i >= 0; i = path.indexOf('%', i + 3)) {
    const high = hexValue(path.charCodeAt(i + 1));
    if (high < 0 || hexValue(path.charCodeAt(i + 2)) < 0) return false;
    if (high >= 8) {
      try {
        decodeURI(path);
        return true;
      } catch {
        return false;
      }
    }
  }
  return true;
}

/** A stream body, told apart as fastify tells it (anything with `pipe`). */
function isStream(body: WireResponse['body']): body is Readable {
  return typeof (body as Readable).pipe === 'function';
}

const TEXT = 'text/plain; charset=utf-8';
const OCTETS = 'application/octet-stream';

/**
 * The response's headers as Node writes them: names lower-cased, Content-Disposition first. Node
 * re-encodes a Content-Disposition that comes after Content-Length (nodejs/node#46528): it reads
 * the value's Latin-1 bytes back as UTF-8 and throws unless that is Latin-1 again, so a filename
 * with an accent, stored as sent, failed. Set first, it goes out byte for byte.
 */
function outgoingHeaders(headers: WireResponse['headers']): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const disposition = headers['content-disposition'];
  if (disposition !== undefined) out['content-disposition'] = String(disposition);
  for (const k in headers) {
    if (k !== 'content-disposition') out[k.toLowerCase()] = headers[k];
  }
  return out;
}

/**
 * Writes `r` to `res` as fastify's reply did. A stream's failure before its first byte goes to
 * `fail` (an internal error in the protocol's shape); after it, the connection is cut.
 */
function writeResponse(req: IncomingMessage, res: ServerResponse, r: WireResponse, fail: (err: unknown) => void): void {
  // A request cut off for a stalled body was answered already.
  if (res.headersSent || res.writableEnded) return;
  const status = r.status;
  const headers = outgoingHeaders(r.headers);
  const body = r.body;
  if (body === undefined) {
    if (status >= 200 && status !== 204 && status !== 304 && req.method !== 'HEAD') headers['content-length'] = '0';
    res.writeHead(status, headers);
    res.end();
    return;
  }
  if ((status >= 100 && status < 200) || status === 204) {
    // A body where none may be: neither it nor Content-Type and Content-Length go out (RFC 9110 §8.6).
    delete headers['content-type'];
    delete headers['content-length'];
    res.writeHead(status, headers);
    res.end();
    if (isStream(body)) body.on('error', () => {}).resume();
    return;
  }
  if (isStream(body)) {
    res.statusCode = status;
    sendStream(res, body, headers, fail);
    return;
  }
  if (headers['content-type'] === undefined) headers['content-type'] = typeof body === 'string' ? TEXT : OCTETS;
  const length = headers['content-length'];
  if (length === undefined || (req.method !== 'HEAD' && Number(length) !== Buffer.byteLength(body))) {
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  res.writeHead(status, headers);
  res.end(body);
}

function sendStream(res: ServerResponse, body: Readable, headers: OutgoingHttpHeaders, fail: (err: unknown) => void): void {
  let open = true;
  finished(body, { readable: true, writable: false }, (err) => {
    open = false;
    if (!err) return;
    if (res.headersSent) res.destroy();
    else fail(err);
  });
  finished(res, () => {
    if (open) body.destroy();
  });
  // Headers are set, not written: a stream failing before its first byte still gets an error answer.
  for (const k in headers) res.setHeader(k, headers[k]!);
  body.pipe(res);
}

export interface ApiRequests {
  /** Answers `req` when it is an AWS API request fastify has no part in; false leaves it to fastify. */
  tryServe(req: IncomingMessage, res: ServerResponse): boolean;
  /** Answers an AWS API request (fastify's route, for targets `tryServe` left to it). */
  serve(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /**
   * Dispatches and answers a request whose Host and body watch fastify's route saw to: the
   * unsigned Iceberg catalog under `/_overcast/iceberg` (`direct`, the path without `/_overcast`).
   */
  dispatch(req: IncomingMessage, res: ServerResponse, direct: ServiceDefinition<string>): Promise<void>;
  /**
   * What every request passes first, fastify's included: the Host check (its refusal, in the shape
   * of the service the request names, is returned to be written) and the watch on a stalling body,
   * which answers and closes the connection itself (`beforeStallAnswer` first).
   */
  admit(req: IncomingMessage, res: ServerResponse, beforeStallAnswer?: () => void): Promise<WireResponse | undefined>;
}

export function apiRequests(rt: Runtime, dispatcher: Dispatcher, metrics: RequestMetrics): ApiRequests {
  const checkHost = hostCheckApplies(rt.config);

  const internal = (req: IncomingMessage, res: ServerResponse, err: unknown): void => {
    rt.log.error('unhandled error', err);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // A stream that failed before its first byte left its headers set: the error has its own.
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    const service = scopeFromAuthorization(req.headers.authorization)?.service ?? 's3';
    void earlyError(service, 'internal', req.url ?? '/').then((r) => writeResponse(req, res, r, () => res.destroy()));
  };

  const dispatch = async (req: IncomingMessage, res: ServerResponse, direct?: ServiceDefinition<string>): Promise<void> => {
    const wire = toWireRequest(req);
    const started = performance.now();
    const r = direct
      ? await dispatcher.handle({ ...wire, rawPath: wire.rawPath.slice('/_overcast'.length) }, direct)
      : await dispatcher.handle(wire);
    if (!direct) {
      metrics.requests++;
      metrics.requestMs += performance.now() - started;
    }
    writeResponse(req, res, r, (err) => internal(req, res, err));
  };

  const admit = async (req: IncomingMessage, res: ServerResponse, beforeStallAnswer?: () => void): Promise<WireResponse | undefined> => {
    const url = req.url ?? '/';
    if (checkHost && !hostAllowed(req.headers.host, rt.config.allowedHosts)) {
      // Drain what the client still sends so the answer is read, then refuse in the protocol's shape.
      req.resume();
      return earlyError(signingNameOf(req), 'host', url);
    }
    if (hasBody(req)) {
      const stop = watchBody(req, res, rt.config.bodyTimeoutMs, () => {
        beforeStallAnswer?.();
        void earlyError(signingNameOf(req), 'timeout', url).then((r) => answerAndClose(res, r.status, r.headers, r.body as string | undefined));
      });
      res.once('close', stop);
    }
    return undefined;
  };

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refusal = await admit(req, res);
    if (refusal) writeResponse(req, res, refusal, (err) => internal(req, res, err));
    else await dispatch(req, res);
  };

  return {
    tryServe(req, res) {
      const url = req.url ?? '/';
      if (!plainTarget(url) || url.startsWith('/_overcast/')) return false;
      if (url === '/' && req.method === 'GET' && fromBrowser(req)) return false;
      serve(req, res).catch((err: unknown) => internal(req, res, err));
      return true;
    },
    serve: (req, res) => serve(req, res).catch((err: unknown) => internal(req, res, err)),
    dispatch: (req, res, direct) => dispatch(req, res, direct).catch((err: unknown) => internal(req, res, err)),
    admit,
  };
}
