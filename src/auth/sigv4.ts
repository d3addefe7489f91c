/**
 * SigV4 as strict mode checks it, from the raw request: what a request's Authorization header or
 * presigned query says (algorithm, credential scope, signed headers, signature, date, expiry,
 * token), and the signature it should carry, computed with `@smithy/signature-v4` — the AWS SDK's
 * own signer — from the path exactly as sent (S3 signs it as is; every other service, the Iceberg
 * catalog included, URI-encodes it once more after removing dot segments), the query decoded
 * without the form rule (`+` stays `+`), and the signed headers' values as received (a repeated
 * header joined with commas, in order).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { getSigningKey, SignatureV4Base } from '@smithy/signature-v4';
import type { HttpRequest } from '@smithy/types';
import { header, type WireRequest } from '../wire/http.js';
import { formatAmzDate } from '../wire/sigv4.js';

const ALGORITHM = 'AWS4-HMAC-SHA256';
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** The SHA-256 constructor smithy's signer takes, over node:crypto (HMAC when given a key). */
class Sha256 {
  private readonly hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    const key = secret instanceof ArrayBuffer ? new Uint8Array(secret) : ArrayBuffer.isView(secret) ? new Uint8Array(secret.buffer, secret.byteOffset, secret.byteLength) : secret;
    this.hash = key === undefined ? createHash('sha256') : createHmac('sha256', key);
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(typeof data === 'string' ? data : data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(this.hash.digest());
  }
}

/** Smithy's canonical-request builder, whose methods are protected there. */
class Canonicalizer extends SignatureV4Base {
  constructor(uriEscapePath: boolean) {
    super({ service: 'x', region: 'x', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, sha256: Sha256, uriEscapePath });
  }
  canonicalRequest(request: HttpRequest, headers: Record<string, string>, payloadHash: string): string {
    return this.createCanonicalRequest(request, headers, payloadHash);
  }
  stringToSign(longDate: string, scope: string, canonical: string): Promise<string> {
    return this.createStringToSign(longDate, scope, canonical, ALGORITHM);
  }
}

const S3_CANONICAL = new Canonicalizer(false);
const OTHER_CANONICAL = new Canonicalizer(true);

export interface Scope {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
}

/** What a signed request claims, before anything is checked. */
export interface SignedClaims {
  kind: 'header' | 'query';
  scope: Scope;
  signedHeaders: string[];
  signature: string;
  /** X-Amz-Date (header or query), or the Date header in the same form; undefined when absent. */
  amzDate?: string;
  /** Presigned: X-Amz-Expires as given. */
  expires?: string;
  /** X-Amz-Security-Token (header or query). */
  token?: string;
}

type ParsedAuth = { claims: SignedClaims } | { none: true } | { unsupported: true } | { malformed: string };

/** The query decoded as SigV4 canonicalizes it: percent-decoding only, repeated keys kept in order. */
export function signingQuery(rawQuery: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (!rawQuery) return out;
  for (const part of rawQuery.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const k = decode(eq < 0 ? part : part.slice(0, eq));
    const v = decode(eq < 0 ? '' : part.slice(eq + 1));
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else if (Array.isArray(prev)) prev.push(v);
    else out[k] = [prev, v];
  }
  return out;
}

function decode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The first value of a query parameter. */
export function firstValue(q: Record<string, string | string[]>, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[0] : v;
}

function parseScope(credential: string | undefined): Scope | undefined {
  const parts = credential?.split('/');
  if (!parts || parts.length !== 5 || parts[4] !== 'aws4_request' || !parts[0] || !/^\d{8}$/.test(parts[1]!)) return undefined;
  return { accessKeyId: parts[0], date: parts[1]!, region: parts[2]!, service: parts[3]! };
}

/** `Date: Tue, 27 Mar 2007 19:36:42 +0000` in X-Amz-Date's form, for clients that sign `date`. */
function fromHttpDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : formatAmzDate(ms);
}

/** Reads the signature a request carries: its Authorization header, or its presigned query. */
export function parseAuth(req: WireRequest, query: Record<string, string | string[]>): ParsedAuth {
  const authorization = header(req, 'authorization');
  if (authorization !== undefined) {
    if (!authorization.startsWith(`${ALGORITHM} `)) return { unsupported: true };
    const fields: Record<string, string> = {};
    for (const part of authorization.slice(ALGORITHM.length + 1).split(',')) {
      const eq = part.indexOf('=');
      if (eq > 0) fields[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
    }
    const scope = parseScope(fields.Credential);
    if (!scope) return { malformed: 'the Credential is mal-formed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request"' };
    if (!fields.SignedHeaders || !fields.Signature) {
      return { malformed: `Authorization header requires 'SignedHeaders' and 'Signature' parameters` };
    }
    const signedHeaders = fields.SignedHeaders.split(';').map((h) => h.trim().toLowerCase());
    const amzDate = header(req, 'x-amz-date') ?? (signedHeaders.includes('date') ? fromHttpDate(header(req, 'date')) : undefined);
    return {
      claims: { kind: 'header', scope, signedHeaders, signature: fields.Signature, amzDate, token: header(req, 'x-amz-security-token') },
    };
  }
  const algorithm = firstValue(query, 'X-Amz-Algorithm');
  if (algorithm !== undefined || firstValue(query, 'X-Amz-Signature') !== undefined) {
    if (algorithm !== ALGORITHM) return { unsupported: true };
    const scope = parseScope(firstValue(query, 'X-Amz-Credential'));
    const signature = firstValue(query, 'X-Amz-Signature');
    const signed = firstValue(query, 'X-Amz-SignedHeaders');
    if (!scope || !signature || !signed) return { malformed: 'Query-string authentication requires the X-Amz-Credential, X-Amz-SignedHeaders and X-Amz-Signature parameters' };
    return {
      claims: {
        kind: 'query',
        scope,
        signedHeaders: signed.split(';').map((h) => h.trim().toLowerCase()),
        signature,
        amzDate: firstValue(query, 'X-Amz-Date'),
        expires: firstValue(query, 'X-Amz-Expires'),
        token: firstValue(query, 'X-Amz-Security-Token'),
      },
    };
  }
  if (firstValue(query, 'AWSAccessKeyId') !== undefined && firstValue(query, 'Signature') !== undefined) return { unsupported: true };
  return { none: true };
}

/** The signed headers' canonical values from the raw header list: trimmed, runs of spaces collapsed, repeats joined with `,`. */
function canonicalHeaders(req: WireRequest, names: readonly string[]): Record<string, string> {
  const wanted = new Set(names);
  const out: Record<string, string> = {};
  const raw = req.rawHeaders;
  if (raw) {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      if (!wanted.has(name)) continue;
      const value = raw[i + 1]!.replace(/[\r\n]/g, ' ').replace(/[ \t]+/g, ' ').trim();
      out[name] = name in out ? `${out[name]},${value}` : value;
    }
  } else {
    for (const name of names) {
      const v = header(req, name);
      if (v !== undefined) out[name] = v.replace(/[ \t]+/g, ' ').trim();
    }
  }
  for (const name of names) out[name] ??= '';
  return out;
}

interface Expected {
  signature: string;
  canonicalRequest: string;
  stringToSign: string;
  signingKey: Uint8Array;
}

/** The signature `claims` should carry for this request, and the texts it is computed from. */
export async function expectedSignature(
  req: WireRequest,
  query: Record<string, string | string[]>,
  claims: SignedClaims,
  secretAccessKey: string,
  payloadHash: string,
): Promise<Expected> {
  const s3 = claims.scope.service === 's3';
  const request = { method: req.method, path: req.rawPath || '/', query, headers: {} } as unknown as HttpRequest;
  const canonicalizer = s3 ? S3_CANONICAL : OTHER_CANONICAL;
  const canonicalRequest = canonicalizer.canonicalRequest(request, canonicalHeaders(req, claims.signedHeaders), payloadHash);
  const { date, region, service, accessKeyId } = claims.scope;
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = await canonicalizer.stringToSign(claims.amzDate ?? '', scope, canonicalRequest);
  const signingKey = await getSigningKey(Sha256, { accessKeyId, secretAccessKey }, date, region, service);
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return { signature, canonicalRequest, stringToSign, signingKey };
}

/** Constant-time comparison of two hex signatures. */
export function sameSignature(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
