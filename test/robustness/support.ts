/**
 * Shared machinery of the hostile-input sweep: a seeded random source, a raw HTTP client with a
 * deadline (a request that never answers is a finding, not a stuck test), the error shape of each
 * protocol read the way the SDKs read it, the error codes a client may meet (the model's exception
 * shapes plus the codes AWS documents for each protocol), a digest of the server's whole store
 * (so a refused request can be proved to have changed nothing) and a findings list that collects
 * every defect of a sweep before one assertion reports them all.
 */
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import type { ServiceModel } from '../../src/model/service-model.js';
import type { TestServer } from '../helpers/server.js';

export type Protocol = 'rest-json' | 'rest-xml' | 'query' | 'json';

/** mulberry32: small, fast and deterministic, so every run sends the same requests. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffled<T>(random: () => number, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A SigV4-shaped Authorization header; signatures are not verified, the scope routes. */
export function authorization(service: string, accessKey = 'test'): string {
  return (
    `AWS4-HMAC-SHA256 Credential=${accessKey}/20250101/us-east-1/${service}/aws4_request, ` +
    'SignedHeaders=host;x-amz-date, Signature=0000000000000000000000000000000000000000000000000000000000000000'
  );
}

export interface RawRequest {
  method: string;
  /** Request target exactly as sent (already encoded). */
  path: string;
  headers?: Record<string, string | number>;
  body?: Buffer | string;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** Sends one request; rejects with `hang` when no complete answer arrives within `timeoutMs`. */
export function send(endpoint: string, req: RawRequest, timeoutMs = 10_000): Promise<RawResponse> {
  const url = new URL(endpoint);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined && headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) {
      headers['content-length'] = Buffer.byteLength(req.body);
    }
    const r = http.request(
      { host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) });
        });
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      },
    );
    const timer = setTimeout(() => {
      r.destroy();
      reject(new Error(`hang: no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    r.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    r.end(req.body);
  });
}

/** The error code a client of `protocol` reads from a response, or a description of why it cannot. */
export function readError(protocol: Protocol, method: string, res: RawResponse): { code?: string; problem?: string } {
  const text = res.body.toString('utf8');
  if (protocol === 'rest-json' || protocol === 'json') {
    const header = res.headers['x-amzn-errortype'];
    let body: Record<string, unknown> | undefined;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return { problem: `error body is not JSON: ${text.slice(0, 120)}` };
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) return { problem: 'error body is not a JSON object' };
    const raw = (typeof header === 'string' ? header : undefined) ?? (body.code as string) ?? (body.__type as string);
    if (!raw) return { problem: 'no x-amzn-errortype and no __type' };
    if (typeof body.message !== 'string' && typeof body.Message !== 'string') return { problem: 'no message' };
    // The SDKs strip a `:uri` suffix and a `namespace#` prefix.
    return { code: raw.split(':')[0]!.split('#').pop()! };
  }
  if (protocol === 'rest-xml' && method === 'HEAD') {
    return text === '' ? { code: undefined } : { problem: 'HEAD error with a body' };
  }
  const root = protocol === 'query' ? /^(<\?xml[^>]*>\s*)?<ErrorResponse[\s>]/ : /^(<\?xml[^>]*>\s*)?<Error>/;
  if (!root.test(text)) return { problem: `not the protocol's error document: ${text.slice(0, 120)}` };
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
  if (!code) return { problem: 'no <Code>' };
  if (!/<Message>[\s\S]*<\/Message>/.test(text) && !/<Message\/>/.test(text)) return { problem: 'no <Message>' };
  if (protocol === 'query' && !/<RequestId>[^<]+<\/RequestId>/.test(text)) return { problem: 'no <RequestId>' };
  return { code };
}

/**
 * Codes AWS itself sends for each protocol beyond the model's exception shapes: the common errors
 * of every query/JSON API ("Common Errors" in each API reference) and S3's documented list
 * (Amazon S3 API Reference, "Error responses").
 */
const COMMON: Record<Protocol, string[]> = {
  query: [
    'ValidationError', 'MissingParameter', 'InvalidParameterValue', 'InvalidParameterCombination',
    'MalformedQueryString', 'InvalidAction', 'MissingAction', 'InvalidQueryParameter', 'InternalFailure',
    'NotImplemented', 'AccessDenied', 'IncompleteSignature', 'ThrottlingException',
  ],
  json: [
    'ValidationException', 'SerializationException', 'UnknownOperationException', 'InternalServerError',
    'NotImplemented', 'AccessDeniedException', 'ThrottlingException',
  ],
  'rest-json': ['BadRequestException', 'NotFoundException', 'NotImplemented', 'ValidationException'],
  'rest-xml': [
    'AccessDenied', 'BadDigest', 'BucketAlreadyExists', 'BucketAlreadyOwnedByYou', 'BucketNotEmpty',
    'EntityTooLarge', 'EntityTooSmall', 'IllegalLocationConstraintException', 'IncompleteBody', 'InvalidArgument',
    'InvalidBucketName', 'InvalidBucketState', 'InvalidDigest', 'InvalidLocationConstraint', 'InvalidPart',
    'InvalidPartNumber', 'InvalidPartOrder', 'InvalidRange', 'InvalidRequest', 'InvalidStorageClass', 'InvalidTag',
    'InvalidURI', 'KeyTooLongError', 'MalformedACLError', 'MalformedPolicy', 'MalformedXML', 'MaxMessageLengthExceeded',
    'MetadataTooLarge', 'MethodNotAllowed', 'MissingContentLength', 'MissingRequestBodyError', 'MissingSecurityHeader',
    'NoSuchBucket', 'NoSuchBucketPolicy', 'NoSuchCORSConfiguration', 'NoSuchKey', 'NoSuchLifecycleConfiguration',
    'NoSuchTagSet', 'NoSuchUpload', 'NoSuchVersion', 'NoSuchWebsiteConfiguration', 'NotImplemented',
    'ObjectLockConfigurationNotFoundError', 'OwnershipControlsNotFoundError', 'PreconditionFailed',
    'ReplicationConfigurationNotFoundError', 'NoSuchPublicAccessBlockConfiguration',
    'ServerSideEncryptionConfigurationNotFoundError', 'TooManyBuckets', 'UnexpectedContent', 'InvalidObjectState',
    'ConditionalRequestConflict', 'InvalidEncryptionAlgorithmError', 'InvalidWriteOffset', 'RequestTimeout',
    'InvalidToken', 'NotModified', 'XAmzContentSHA256Mismatch', 'InvalidChecksum', 'RequestHeaderSectionTooLarge',
    // Not in the list, but what S3 answers to too many tags and to a CORS preflight without Origin.
    'BadRequest',
  ],
};

export function knownCodes(model: ServiceModel, protocol: Protocol): Set<string> {
  const codes = new Set(COMMON[protocol]);
  for (const [name, shape] of Object.entries(model.shapes)) {
    if (!shape.exception) continue;
    codes.add(name);
    if (shape.error?.code) codes.add(shape.error.code);
  }
  return codes;
}

/** The status a modeled error declares, by shape name or wire code. */
export function modeledStatus(model: ServiceModel, code: string): number | undefined {
  for (const [name, shape] of Object.entries(model.shapes)) {
    if (!shape.exception) continue;
    if (name === code || shape.error?.code === code) return shape.error?.httpStatusCode;
  }
  return undefined;
}

/** A digest of every table of the server's store: equal digests mean nothing changed. */
export function storeDigest(t: TestServer): string {
  const db = t.server.runtime.meta.db;
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string }[];
  const hash = createHash('sha256');
  for (const { name } of tables) {
    hash.update(`\n#${name}\n`);
    for (const row of db.prepare(`SELECT * FROM "${name}"`).raw().all()) {
      hash.update(JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : Buffer.isBuffer(v) ? v.toString('base64') : v)));
    }
  }
  return hash.digest('hex');
}

export async function healthy(t: TestServer): Promise<boolean> {
  try {
    const res = await send(t.endpoint, { method: 'GET', path: '/_overcast/health' }, 5_000);
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Defects found by a sweep, reported together (the first few in full) by one assertion. */
export class Findings {
  readonly items: string[] = [];
  count = 0;

  add(where: string, what: string): void {
    this.items.push(`${where}: ${what.split('\n')[0]!.slice(0, 300)}`);
  }

  report(): string {
    const unique = [...new Set(this.items)];
    if (process.env.ROBUSTNESS_REPORT) appendFileSync(process.env.ROBUSTNESS_REPORT, `${unique.join('\n')}\n`);
    return unique.length === 0 ? '' : `${unique.length} defects:\n${unique.slice(0, 60).join('\n')}`;
  }
}

export interface Verdict {
  protocol: Protocol;
  model: ServiceModel;
  codes: Set<string>;
  /** Operations that are not implemented at all (501 NotImplemented allowed). */
  notImplemented?: boolean;
}

/**
 * The checks every hostile request gets: an answer below 500 (501 only for an operation Overcast
 * lacks), in the protocol's error shape when refused, with a code clients know, and the status the
 * model declares for a modeled code.
 */
export function judge(v: Verdict, where: string, method: string, res: RawResponse, findings: Findings): string | undefined {
  findings.count++;
  // S3's own 501: a condition header form it does not support (`<Header>If-None-Match</Header>`).
  const s3HeaderNotImplemented = res.status === 501 && v.protocol === 'rest-xml' && /<Header>[^<]+<\/Header>/.test(res.body.toString());
  if (res.status >= 500 && !(res.status === 501 && (v.notImplemented || s3HeaderNotImplemented))) {
    findings.add(where, `status ${res.status} ${res.body.toString('utf8').slice(0, 200)}`);
    return undefined;
  }
  if (res.status < 300 || res.status === 304) return undefined;
  if (!res.headers['x-amzn-requestid'] && !res.headers['x-amz-request-id']) findings.add(where, `status ${res.status} without a request id header`);
  const { code, problem } = readError(v.protocol, method, res);
  if (problem) {
    findings.add(where, `status ${res.status}, ${problem}`);
    return undefined;
  }
  if (code === undefined) return undefined;
  if (!v.codes.has(code)) findings.add(where, `unknown error code ${code} (status ${res.status})`);
  const declared = modeledStatus(v.model, code);
  if (declared !== undefined && declared !== res.status) findings.add(where, `${code} with status ${res.status}, model says ${declared}`);
  return code;
}
