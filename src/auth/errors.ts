/**
 * Strict mode's refusals in each protocol's words: one table from the kind of failure to the
 * code, status and message S3 (rest-xml), the JSON services (SSM), S3 Tables and its Iceberg
 * catalog (rest-json) and the query services (STS, CloudFormation) answer, with S3's extra
 * elements (StringToSign, CanonicalRequest, ServerTime, …). Sources: the reference's §2–§4 (AWS
 * responses quoted in public threads); where AWS's text is not on record the nearest documented
 * one is used (marked INF there).
 */
import { AwsError } from '../wire/errors.js';
import { formatAmzDate, parseAmzDate } from '../wire/sigv4.js';

export type AuthProtocol = 'rest-xml' | 'rest-json' | 'json' | 'query';

export type AuthFailure =
  | 'missing-auth'
  | 'unsupported-auth'
  | 'malformed'
  | 'missing-date'
  | 'credential-date'
  | 'skewed'
  | 'presign-expired'
  | 'presign-not-yet'
  | 'presign-expires'
  | 'unknown-key'
  | 'bad-token'
  | 'expired-token'
  | 'signature'
  | 'unsigned-headers'
  | 'missing-content-sha256'
  | 'bad-content-sha256'
  | 'content-sha256-mismatch';

/** What a refusal may report beyond its kind. */
export interface AuthDetail {
  accessKeyId?: string;
  signatureProvided?: string;
  stringToSign?: string;
  canonicalRequest?: string;
  /** The request's X-Amz-Date (YYYYMMDD'T'HHMMSS'Z'). */
  requestTime?: string;
  /** The credential scope's date (YYYYMMDD). */
  scopeDate?: string;
  now?: number;
  expires?: number;
  amzExpires?: string;
  headersNotSigned?: string[];
  clientSha256?: string;
  computedSha256?: string;
  reason?: string;
}

const SKEW_MS = 15 * 60_000;
const SIGNATURE_TEXT = 'The request signature we calculated does not match the signature you provided.';
const INVALID_TOKEN = 'The security token included in the request is invalid.';
const EXPIRED_TOKEN = 'The security token included in the request is expired';

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function bytesOf(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => b.toString(16).padStart(2, '0')).join(' ');
}

/** "Signature expired: … is now earlier than … (… - 15 min.)", as STS and the JSON services word skew. */
function skewText(d: AuthDetail): string {
  const now = d.now ?? Date.now();
  const sent = d.requestTime ?? '';
  const sentMs = parseAmzDate(sent);
  if (sentMs !== undefined && sentMs > now) {
    return `Signature not yet current: ${sent} is still later than ${formatAmzDate(now + SKEW_MS)} (${formatAmzDate(now)} + 15 min.)`;
  }
  return `Signature expired: ${sent} is now earlier than ${formatAmzDate(now - SKEW_MS)} (${formatAmzDate(now)} - 15 min.)`;
}

function s3Error(failure: AuthFailure, d: AuthDetail): AwsError {
  const now = d.now ?? Date.now();
  const e = (code: string, message: string, status: number, fields: Record<string, string | number | undefined> = {}) =>
    new AwsError(code, message, status, { fields });
  switch (failure) {
    case 'missing-auth':
      return e('AccessDenied', 'Access Denied', 403);
    case 'unsupported-auth':
      return e('InvalidRequest', 'The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.', 400);
    case 'malformed':
      return e('AuthorizationHeaderMalformed', `The authorization header is malformed; ${d.reason ?? 'the Credential is mal-formed'}.`, 400);
    case 'missing-date':
      return e('AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header', 403);
    case 'credential-date':
      return e('AuthorizationHeaderMalformed', 'The authorization header is malformed; Invalid credential date. Date is not the same as X-Amz-Date.', 400);
    case 'skewed':
      return e('RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.', 403, {
        RequestTime: d.requestTime,
        ServerTime: iso(now),
        MaxAllowedSkewMilliseconds: SKEW_MS,
      });
    case 'presign-expired':
      return e('AccessDenied', 'Request has expired', 403, {
        'X-Amz-Expires': d.amzExpires,
        Expires: d.expires !== undefined ? iso(d.expires) : undefined,
        ServerTime: iso(now),
      });
    case 'presign-not-yet':
      return e('AccessDenied', 'Request is not yet valid', 403, {
        'X-Amz-Date': d.requestTime,
        Expires: d.expires !== undefined ? iso(d.expires) : undefined,
        ServerTime: iso(now),
      });
    case 'presign-expires':
      return e(
        'AuthorizationQueryParametersError',
        'X-Amz-Expires must be less than a week (in seconds); that is, the given X-Amz-Expires must be less than 604800 seconds',
        400,
      );
    case 'unknown-key':
      return e('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', 403, { AWSAccessKeyId: d.accessKeyId });
    case 'bad-token':
      return e('InvalidToken', 'The provided token is malformed or otherwise invalid.', 400);
    case 'expired-token':
      return e('ExpiredToken', 'The provided token has expired.', 400);
    case 'signature':
      return e('SignatureDoesNotMatch', `${SIGNATURE_TEXT} Check your key and signing method.`, 403, {
        AWSAccessKeyId: d.accessKeyId,
        StringToSign: d.stringToSign,
        SignatureProvided: d.signatureProvided,
        StringToSignBytes: d.stringToSign !== undefined ? bytesOf(d.stringToSign) : undefined,
        CanonicalRequest: d.canonicalRequest,
        CanonicalRequestBytes: d.canonicalRequest !== undefined ? bytesOf(d.canonicalRequest) : undefined,
      });
    case 'unsigned-headers':
      return e('AccessDenied', 'There were headers present in the request which were not signed', 403, {
        HeadersNotSigned: d.headersNotSigned?.join(', '),
      });
    case 'missing-content-sha256':
      return e('InvalidRequest', 'Missing required header for this request: x-amz-content-sha256', 400);
    case 'bad-content-sha256':
      return e('InvalidArgument', 'x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-UNSIGNED-PAYLOAD-TRAILER, STREAMING-AWS4-HMAC-SHA256-PAYLOAD, STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER or a valid sha256 value.', 400);
    case 'content-sha256-mismatch':
      return e('XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.", 400, {
        ClientComputedContentSHA256: d.clientSha256,
        S3ComputedContentSHA256: d.computedSha256,
      });
  }
}

/** The long signature message of the query and JSON services, with the canonical request AWS shows. */
function longSignatureText(d: AuthDetail): string {
  const base = `${SIGNATURE_TEXT} Check your AWS Secret Access Key and signing method. Consult the service documentation for details.`;
  if (d.canonicalRequest === undefined || d.stringToSign === undefined) return base;
  return `${base}\n\nThe Canonical String for this request should have been\n'${d.canonicalRequest}'\n\nThe String-to-Sign should have been\n'${d.stringToSign}'\n`;
}

type Family = 'json' | 'query';

/** The codes (and the missing token's text) of the JSON services and of the query services; the other messages are the same. */
const WORDS: Record<'missingToken' | 'missingTokenText' | 'incomplete' | 'signature' | 'invalidToken' | 'expiredToken', Record<Family, string>> = {
  missingToken: { json: 'MissingAuthenticationTokenException', query: 'MissingAuthenticationToken' },
  missingTokenText: { json: 'Missing Authentication Token', query: 'Request is missing Authentication Token' },
  incomplete: { json: 'IncompleteSignatureException', query: 'IncompleteSignature' },
  signature: { json: 'InvalidSignatureException', query: 'SignatureDoesNotMatch' },
  invalidToken: { json: 'UnrecognizedClientException', query: 'InvalidClientTokenId' },
  expiredToken: { json: 'ExpiredTokenException', query: 'ExpiredToken' },
};

/** A JSON or query service's refusal: `status` (SSM answers 400, S3 Tables' rest-json and the query services 403), an incomplete signature 400. */
function serviceError(family: Family, failure: AuthFailure, d: AuthDetail, status: number): AwsError {
  const w = (word: keyof typeof WORDS) => WORDS[word][family];
  const e = (code: string, message: string) => new AwsError(code, message, code === w('incomplete') ? 400 : status);
  switch (failure) {
    case 'missing-auth':
      return e(w('missingToken'), w('missingTokenText'));
    case 'unsupported-auth':
    case 'malformed':
    case 'missing-date':
      return e(w('incomplete'), d.reason ?? "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
    case 'credential-date':
      return e(w('signature'), `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${d.scopeDate}' != '${d.requestTime?.slice(0, 8)}', from '${d.requestTime}'.`);
    case 'skewed':
    case 'presign-expired':
    case 'presign-not-yet':
      return e(w('signature'), skewText(d));
    case 'presign-expires':
      return e(w('signature'), 'X-Amz-Expires must be between 1 and 604800 seconds.');
    case 'unknown-key':
    case 'bad-token':
      return e(w('invalidToken'), INVALID_TOKEN);
    case 'expired-token':
      return e(w('expiredToken'), EXPIRED_TOKEN);
    default:
      return e(w('signature'), longSignatureText(d));
  }
}

/** The refusal of `failure` as clients of `protocol` expect it. */
export function authError(protocol: AuthProtocol, failure: AuthFailure, detail: AuthDetail = {}): AwsError {
  switch (protocol) {
    case 'rest-xml':
      return s3Error(failure, detail);
    case 'rest-json':
      return serviceError('json', failure, detail, 403);
    case 'json':
      return serviceError('json', failure, detail, 400);
    case 'query':
      return serviceError('query', failure, detail, 403);
  }
}
