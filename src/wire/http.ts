/**
 * The HTTP request and response as the codecs see them, independent of the web framework: the raw
 * (undecoded) path, decoded query parameters, lower-cased headers and the body as a stream. Also
 * the bounded body reader every non-streaming operation uses.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { AwsError } from './errors.js';

export interface WireRequest {
  method: string;
  /** The path exactly as sent, still percent-encoded (S3 Tables ARNs carry `%2F`). */
  rawPath: string;
  /** The query string without `?`, still encoded. */
  rawQuery: string;
  /** Decoded query parameters, in order; repeated keys repeat. */
  query: [string, string][];
  headers: IncomingHttpHeaders;
  body: Readable;
  /** The whole body, when it was read already (strict mode hashes a non-S3 body before the codec): readBody answers these bytes. */
  bodyBytes?: Buffer;
  /** The headers as received, names and values alternating (Node's rawHeaders): SigV4 signs repeats joined. */
  rawHeaders?: string[];
  /** The client's address (policies' aws:SourceIp). */
  sourceIp?: string;
  /** Strict mode: checks an aws-chunked body's chunk and trailer signatures as the codec decodes it. */
  chunkSignatures?: ChunkSignatures;
}

/**
 * The chain of signatures of a `STREAMING-AWS4-HMAC-SHA256-PAYLOAD[-TRAILER]` body, fed by the
 * aws-chunked decoder: each chunk's declared signature, its bytes, its end (where the signature is
 * checked), and the trailer. Each call throws the protocol's AwsError when a signature is wrong.
 */
export interface ChunkSignatures {
  begin(declared: string | undefined): void;
  update(data: Buffer): void;
  end(): void;
  /** The trailing headers as received (names lower-cased, `x-amz-trailer-signature` included). */
  trailer(lines: [string, string][]): void;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string | number | string[]>;
  body?: string | Buffer | Readable;
}

export function parseQuery(rawQuery: string): [string, string][] {
  if (!rawQuery) return [];
  const out: [string, string][] = [];
  for (const part of rawQuery.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const k = eq < 0 ? part : part.slice(0, eq);
    const v = eq < 0 ? '' : part.slice(eq + 1);
    out.push([safeDecode(k), safeDecode(v)]);
  }
  return out;
}

/** Form-style decoding (`+` is a space), tolerant of stray `%`. */
export function safeDecode(text: string): string {
  const plain = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!plain.includes('%')) return plain;
  try {
    return decodeURIComponent(plain);
  } catch {
    return plain.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
}

/** Strict percent-decoding of one path segment (no `+` rule); undefined when malformed. */
export function decodeSegment(segment: string): string | undefined {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export function header(req: WireRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

export const DEFAULT_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * The refusal of a body over `limit` bytes: HTTP 413 with `code`, the protocol's own validation
 * code (no AWS model or common error list has a code for it; `RequestEntityTooLarge` is none of theirs).
 */
export function bodyTooLarge(code: string, limit: number): AwsError {
  return new AwsError(code, `The request body exceeds the maximum size of ${limit} bytes.`, 413);
}

/**
 * Reads a whole (non-streaming) body, refusing more than `limit` bytes with `tooLarge()` (default
 * 413 ValidationException). The stream is left open, not destroyed: the dispatcher drains the
 * rest, so the client still reads the error instead of a reset connection.
 */
export function readBody(
  req: WireRequest,
  limit = DEFAULT_BODY_LIMIT,
  tooLarge: () => AwsError = () => bodyTooLarge('ValidationException', limit),
): Promise<Buffer> {
  if (req.bodyBytes) return req.bodyBytes.length > limit ? Promise.reject(tooLarge()) : Promise.resolve(req.bodyBytes);
  const body = req.body;
  if (body.readableEnded) return Promise.resolve(Buffer.alloc(0));
  // Destroyed before it was read (the client went away): no event would ever come.
  if (body.destroyed) return Promise.reject(incompleteBody());
  // Plain listeners rather than an async iterator: a commit's small body then costs no iterator,
  // no end-of-stream watcher and no promise per chunk.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err?: unknown) => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
      if (err === undefined) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
      // A client that goes away mid-body made the mistake: not an internal error to log.
      else if (err instanceof AwsError || !isClientGone(err)) reject(err);
      else reject(incompleteBody());
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      // The stream is left open, not destroyed: the dispatcher drains the rest.
      body.pause();
      done(tooLarge());
    };
    const onEnd = () => done();
    const onError = (err: Error) => done(err);
    const onClose = () => done(Object.assign(new Error('aborted'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}

/**
 * The first `cap` bytes of a small body that is not an AWS request's (Overcast's own JSON, a custom
 * resource's response); the rest is read and dropped, so the client still reads the answer.
 */
export async function readCapped(body: Readable, cap: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < cap) chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  const all = Buffer.concat(chunks);
  return all.length > cap ? all.subarray(0, cap) : all;
}

function incompleteBody(): AwsError {
  return new AwsError('IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header', 400);
}

function isClientGone(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e.code === 'ECONNRESET' || e.code === 'ERR_STREAM_PREMATURE_CLOSE' || e.message === 'aborted';
}
