/**
 * Errors answered before (or around) a service's codec — a request line with malformed
 * percent-encoding, a header section larger than Node accepts, a message Node cannot parse, a
 * client too slow to send its headers or its body, a Host the server does not answer (DNS rebinding),
 * a failure the dispatcher did not catch — chosen per
 * protocol and rendered by the codec of the service the credential scope names (unsigned: S3), so
 * every client still reads a code. For a message Node's parser gave up on, the answer is written
 * to the socket directly and closes it (`Connection: close`: a keep-alive client must not reuse it).
 */
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { serviceModel } from '../model/service-model.js';
import { ICEBERG_CATALOG, serviceForRequest, serviceForSigningName } from '../services/registry.js';
import { AwsError } from '../wire/errors.js';
import type { WireResponse } from '../wire/http.js';

type Failure = 'uri' | 'header-overflow' | 'timeout' | 'malformed' | 'internal' | 'host';

/**
 * Per protocol, the code for each failure. S3's are its documented codes (InvalidURI,
 * RequestHeaderSectionTooLarge, RequestTimeout); the JSON and query services have no documented
 * code for a broken HTTP message, so they get their protocol's generic client error.
 */
const CODES: Record<string, Record<Failure, string>> = {
  'rest-xml': {
    uri: 'InvalidURI',
    'header-overflow': 'RequestHeaderSectionTooLarge',
    timeout: 'RequestTimeout',
    malformed: 'InvalidRequest',
    internal: 'InternalError',
    host: 'AccessDenied',
  },
  'rest-json': {
    uri: 'BadRequestException',
    'header-overflow': 'BadRequestException',
    timeout: 'BadRequestException',
    malformed: 'BadRequestException',
    internal: 'InternalServerErrorException',
    host: 'AccessDeniedException',
  },
  json: {
    uri: 'SerializationException',
    'header-overflow': 'ValidationException',
    timeout: 'ValidationException',
    malformed: 'SerializationException',
    internal: 'InternalServerError',
    host: 'AccessDeniedException',
  },
  query: {
    uri: 'MalformedQueryString',
    'header-overflow': 'ValidationError',
    timeout: 'ValidationError',
    malformed: 'MalformedQueryString',
    internal: 'InternalFailure',
    host: 'AccessDenied',
  },
};

const MESSAGES: Record<Failure, string> = {
  uri: "Couldn't parse the specified URI.",
  'header-overflow': 'Your request header section exceeds the maximum allowed size.',
  timeout: 'Your socket connection to the server was not read from or written to within the timeout period. Idle connections will be closed.',
  malformed: 'The HTTP request could not be parsed.',
  internal: 'We encountered an internal error. Please try again.',
  host:
    'Blocked request: this Host is not allowed (DNS rebinding defence). Overcast answers localhost, *.localhost, ' +
    'loopback addresses and the names given with --allowed-hosts (OVERCAST_ALLOWED_HOSTS).',
};

const STATUS: Partial<Record<Failure, number>> = { internal: 500, host: 403 };

/**
 * The error for `failure` rendered by the codec of `service` (S3 when Overcast does not emulate
 * it): 500 for `internal`, 403 for a refused `host`, else 400; `uri` goes into S3's `<URI>`.
 */
export async function earlyError(service: string, failure: Failure, uri?: string): Promise<WireResponse> {
  // The Iceberg catalog (signed for s3tables under /iceberg/, or /_overcast/iceberg/) answers in Iceberg's error shape.
  const path = uri?.split('?')[0] ?? '';
  const catalog = path.startsWith('/_overcast/iceberg/') ? ICEBERG_CATALOG : serviceForRequest(service, path);
  if (catalog === ICEBERG_CATALOG) {
    const err =
      failure === 'internal'
        ? new AwsError('InternalServerError', MESSAGES.internal, 500)
        : failure === 'host'
          ? new AwsError('ForbiddenException', MESSAGES.host, 403)
          : new AwsError('BadRequestException', MESSAGES[failure], 400);
    return (await catalog.load()).codec.error(err, randomUUID());
  }
  const def = serviceForSigningName(service) ?? serviceForSigningName('s3')!;
  const protocol = serviceModel(def.id).metadata.protocol;
  const fields = protocol === 'rest-xml' && failure === 'uri' && uri !== undefined ? { URI: uri } : {};
  const err = new AwsError(CODES[protocol]![failure], MESSAGES[failure], STATUS[failure] ?? 400, { fields });
  return (await def.load()).codec.error(err, randomUUID());
}

const SCOPE = /Credential=[^/\s]+\/\d{8}\/[^/\s]+\/([a-z0-9-]+)\/aws4_request/;

/** The signing name in whatever part of the request Node had buffered (S3 when none is seen). */
function serviceInBytes(bytes: Buffer | undefined): string {
  if (!bytes || bytes.length === 0) return 's3';
  return SCOPE.exec(bytes.toString('latin1'))?.[1] ?? 's3';
}

interface Pending {
  failure: Failure;
  seen: Buffer[];
  size: number;
  timer: NodeJS.Timeout;
  answered: boolean;
}

const pending = new WeakMap<Socket, Pending>();
/** How long, and how many bytes, to wait for the credential scope after the parser gave up. */
const SNIFF_MS = 100;
const SNIFF_BYTES = 256 * 1024;

async function respond(socket: Socket, failure: Failure, seen: Buffer[]): Promise<void> {
  const bytes = Buffer.concat(seen);
  const res = await earlyError(serviceInBytes(bytes), failure);
  if (socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  // A HEAD request gets no body: the client would read it as the start of a next response.
  const body = bytes.subarray(0, 5).toString('latin1') === 'HEAD ' || res.body === undefined ? '' : String(res.body);
  const head = [`HTTP/1.1 ${res.status} ${STATUS_CODES[res.status]}`, 'connection: close', `content-length: ${Buffer.byteLength(body)}`];
  for (const [k, v] of Object.entries(res.headers)) head.push(`${k}: ${String(v)}`);
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

/**
 * The answer to a connection Node's parser gave up on (server 'clientError'), in the shape of the
 * service it was meant for. A header section too large usually fails inside the request line,
 * before the Authorization header: Node reports each further chunk as another clientError, so the
 * bytes are gathered (briefly, boundedly) until the credential scope or the end of the headers
 * shows, then the error is written and the socket closed.
 */
export function answerClientError(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const bytes = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : Buffer.alloc(0);
  let state = pending.get(socket);
  if (!state) {
    const failure: Failure =
      err.code === 'HPE_HEADER_OVERFLOW' ? 'header-overflow' : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'timeout' : 'malformed';
    const created: Pending = { failure, seen: [], size: 0, answered: false, timer: setTimeout(() => finish(socket, created), SNIFF_MS) };
    created.timer.unref();
    pending.set(socket, created);
    socket.once('close', () => clearTimeout(created.timer));
    state = created;
  }
  if (state.answered) return;
  if (state.size < SNIFF_BYTES) {
    state.seen.push(bytes);
    state.size += bytes.length;
  }
  const text = bytes.toString('latin1');
  if (state.failure !== 'header-overflow' || SCOPE.test(text) || text.includes('\r\n\r\n') || state.size >= SNIFF_BYTES) {
    finish(socket, state);
  }
}

function finish(socket: Socket, state: Pending): void {
  clearTimeout(state.timer);
  if (state.answered) return;
  state.answered = true;
  const go = () => void respond(socket, state.failure, state.seen).catch(() => socket.destroy());
  // Bytes after a complete request (more body than its Content-Length announced) fail to parse
  // while that request is still being answered: its answer goes first, so the client does not
  // take this error for the request's fate.
  const inflight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (inflight && !inflight.writableFinished && inflight.req?.complete) {
    let done = false;
    const once = () => {
      if (!done) {
        done = true;
        go();
      }
    };
    inflight.once('finish', once);
    inflight.once('close', once);
  } else go();
}
