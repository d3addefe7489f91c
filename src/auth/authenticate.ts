/**
 * Strict mode's authentication of one request, from the raw request before any codec reads it:
 * the signature's date (15 minutes of skew for header signatures; X-Amz-Expires of 1 s to 7 days
 * for presigned URLs, which skew does not apply to), the access key and its session token, S3's
 * rule that every `x-amz-*` header be signed, the payload hash (S3's `x-amz-content-sha256`; the
 * other services' bodies are bounded, so they are read and hashed whole, and the codec is handed
 * those bytes rather than reading again), and the signature itself. A verified S3 body is then
 * checked as it streams (payload.ts). The result is the caller, as policies see it; every refusal
 * is the protocol's (errors.ts).
 */
import { createHash } from 'node:crypto';
import type { Caller, Runtime } from '../runtime/runtime.js';
import { bodyTooLarge, header, readBody, type WireRequest } from '../wire/http.js';
import { parseAmzDate } from '../wire/sigv4.js';
import { CredentialStore, type KnownKey } from './credentials.js';
import { authError, type AuthDetail, type AuthFailure, type AuthProtocol } from './errors.js';
import { ChunkChain, sha256Checked } from './payload.js';
import { EMPTY_SHA256, expectedSignature, firstValue, parseAuth, sameSignature, signingQuery, type SignedClaims } from './sigv4.js';

const SKEW_MS = 15 * 60_000;
const MAX_EXPIRES = 604_800;
/** The largest non-S3 body read to hash it (the Iceberg catalog's limit; the codecs apply their own after). */
const HASHED_BODY_LIMIT = 64 * 1024 * 1024;
const STREAMING_SIGNED = 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD';
const PAYLOAD_CONSTANTS = new Set([
  'UNSIGNED-PAYLOAD',
  'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
  STREAMING_SIGNED,
  `${STREAMING_SIGNED}-TRAILER`,
]);

interface Authenticated {
  caller: Caller;
  /** The request to hand the codec: its body replaced or wrapped where it is checked. */
  req: WireRequest;
}

function hasNoBody(req: WireRequest): boolean {
  const length = header(req, 'content-length');
  return length === undefined ? header(req, 'transfer-encoding') === undefined : Number(length) === 0;
}

export class Authenticator {
  readonly credentials: CredentialStore;

  constructor(rt: Runtime) {
    this.credentials = new CredentialStore(rt.config, rt.meta);
  }

  /**
   * Verifies `req` for `protocol`; throws the protocol's AwsError, or returns the caller. An
   * unsigned request is an anonymous caller where `anonymous` allows it (S3, whose bucket policies
   * may grant the public; STS's web-identity actions), else refused.
   */
  async authenticate(req: WireRequest, protocol: AuthProtocol, anonymous: boolean): Promise<Authenticated> {
    const fail = (failure: AuthFailure, detail: AuthDetail = {}) => authError(protocol, failure, detail);
    const query = signingQuery(req.rawQuery);
    const parsed = parseAuth(req, query);
    if ('none' in parsed) {
      if (!anonymous) throw fail('missing-auth');
      return { req, caller: anonymousCaller(req) };
    }
    if ('unsupported' in parsed) throw fail('unsupported-auth');
    if ('malformed' in parsed) throw fail('malformed', { reason: parsed.malformed });
    const claims = parsed.claims;
    const now = Date.now();
    const signedAt = this.checkTime(claims, now, fail);
    const key = this.keyOf(claims, now, fail);
    const s3 = claims.scope.service === 's3';
    if (s3) checkSignedHeaders(req, claims, fail);
    else if (!claims.signedHeaders.includes('host')) throw fail('signature', { accessKeyId: key.accessKeyId });

    let body = req;
    let payloadHash: string;
    const declared = header(req, 'x-amz-content-sha256');
    if (s3) {
      payloadHash = claims.kind === 'query' ? (firstValue(query, 'X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD') : declared ?? '';
      if (claims.kind === 'header') {
        if (declared === undefined) throw fail('missing-content-sha256');
        if (!PAYLOAD_CONSTANTS.has(declared) && !/^[0-9a-f]{64}$/.test(declared)) throw fail('bad-content-sha256');
      }
    } else {
      const bytes = await readBody(req, HASHED_BODY_LIMIT, () => bodyTooLarge(protocol === 'query' ? 'ValidationError' : 'ValidationException', HASHED_BODY_LIMIT));
      payloadHash = createHash('sha256').update(bytes).digest('hex');
      body = { ...req, bodyBytes: bytes };
    }

    const expected = await expectedSignature(req, query, claims, key.secretAccessKey, payloadHash);
    if (!sameSignature(expected.signature, claims.signature)) {
      throw fail('signature', {
        accessKeyId: key.accessKeyId,
        signatureProvided: claims.signature,
        stringToSign: expected.stringToSign,
        canonicalRequest: expected.canonicalRequest,
      });
    }
    if (s3 && claims.kind === 'header') body = checkedBody(req, declared!, claims, expected.signingKey, fail);
    return {
      req: body,
      caller: {
        principalArn: key.principalArn,
        arn: key.arn,
        account: key.account,
        userId: key.userId,
        authType: claims.kind === 'header' ? 'REST-HEADER' : 'REST-QUERY-STRING',
        signatureAgeMs: Math.max(0, now - signedAt),
        sourceIp: req.sourceIp,
        secureTransport: false,
        contentSha256: declared,
      },
    };
  }

  /** The signature's time: within 15 minutes of now (header), or within its presigned lifetime. */
  private checkTime(claims: SignedClaims, now: number, fail: (f: AuthFailure, d?: AuthDetail) => Error): number {
    const signedAt = parseAmzDate(claims.amzDate);
    if (signedAt === undefined) throw fail('missing-date', { reason: "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header." });
    const requestTime = claims.amzDate!;
    if (requestTime.slice(0, 8) !== claims.scope.date) throw fail('credential-date', { scopeDate: claims.scope.date, requestTime });
    if (claims.kind === 'header') {
      if (Math.abs(now - signedAt) > SKEW_MS) throw fail('skewed', { requestTime, now });
      return signedAt;
    }
    const seconds = Number(claims.expires);
    if (claims.expires === undefined || !/^\d+$/.test(claims.expires) || seconds < 1 || seconds > MAX_EXPIRES) throw fail('presign-expires');
    const expires = signedAt + seconds * 1000;
    if (now > expires) throw fail('presign-expired', { amzExpires: claims.expires, expires, now, requestTime });
    if (signedAt > now + SKEW_MS) throw fail('presign-not-yet', { requestTime, expires, now });
    return signedAt;
  }

  private keyOf(claims: SignedClaims, now: number, fail: (f: AuthFailure, d?: AuthDetail) => Error): KnownKey {
    const found = this.credentials.lookup(claims.scope.accessKeyId, claims.token, now);
    if ('unknown' in found) throw fail('unknown-key', { accessKeyId: claims.scope.accessKeyId });
    if ('badToken' in found) throw fail('bad-token');
    if ('expired' in found) throw fail('expired-token');
    return found.found;
  }
}

/** S3 refuses `x-amz-*` headers left out of the signature (an unsigned x-amz-content-sha256 is tolerated) and an unsigned Host. */
function checkSignedHeaders(req: WireRequest, claims: SignedClaims, fail: (f: AuthFailure, d?: AuthDetail) => Error): void {
  const signed = new Set(claims.signedHeaders);
  const missing: string[] = [];
  if (!signed.has('host')) missing.push('host');
  for (const name of Object.keys(req.headers)) {
    if (name.startsWith('x-amz-') && !signed.has(name) && name !== 'x-amz-content-sha256') missing.push(name);
  }
  if (missing.length) throw fail('unsigned-headers', { headersNotSigned: missing });
}

/** An S3 body checked as it streams: a hex hash against the bytes, signed chunks against their chain. */
function checkedBody(
  req: WireRequest,
  declared: string,
  claims: SignedClaims,
  signingKey: Uint8Array,
  fail: (f: AuthFailure, d?: AuthDetail) => Error,
): WireRequest {
  if (/^[0-9a-f]{64}$/.test(declared)) {
    if (hasNoBody(req)) {
      if (declared !== EMPTY_SHA256) throw fail('content-sha256-mismatch', { clientSha256: declared, computedSha256: EMPTY_SHA256 });
      return req;
    }
    const mismatch = (computed: string) => fail('content-sha256-mismatch', { clientSha256: declared, computedSha256: computed }) as never;
    return { ...req, body: sha256Checked(req.body, declared, mismatch) };
  }
  if (!declared.startsWith(STREAMING_SIGNED)) return req;
  const { date, region, service, accessKeyId } = claims.scope;
  const chain = new ChunkChain({
    signingKey,
    amzDate: claims.amzDate!,
    scope: `${date}/${region}/${service}/aws4_request`,
    seed: claims.signature,
    trailer: declared.endsWith('-TRAILER'),
    refuse: ({ stringToSign, provided }) =>
      fail('signature', { accessKeyId, stringToSign, signatureProvided: provided }) as never,
  });
  return { ...req, chunkSignatures: chain };
}

function anonymousCaller(req: WireRequest): Caller {
  return { principalArn: '*', arn: '*', account: '', userId: 'anonymous', authType: 'anonymous', sourceIp: req.sourceIp, secureTransport: false };
}
