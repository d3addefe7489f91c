/**
 * S3 on the wire: the rest-xml codec with S3's own choices layered on top — virtual-hosted
 * addressing rewritten to path style; presigned-URL expiry; CORS preflight (OPTIONS) and CORS
 * headers on actual requests; aws-chunked bodies decoded for PutObject/UploadPart (trailer and
 * decoded length handed to the provider); Content-MD5 / x-amz-checksum-* verified on XML bodies;
 * 206 for ranged reads, 304 without a body; GetBucketLocation's bare root element; root element
 * names of outputs without a payload member — and the table of operations served.
 */
import { hash } from 'node:crypto';
import { Readable } from 'node:stream';
import { serviceModel } from '../../model/service-model.js';
import type { Codec, ParsedRequest } from '../../wire/codec.js';
import { AwsError } from '../../wire/errors.js';
import { readBody, type WireRequest, type WireResponse } from '../../wire/http.js';
import { restXmlCodec } from '../../wire/rest-xml.js';
import { matchRoute, splitRawPath } from '../../wire/rest-routes.js';
import { parseAmzDate } from '../../wire/sigv4.js';
import { XML_DECLARATION, escapeXml } from '../../wire/xml.js';
import type { Ctx } from '../../runtime/runtime.js';
import type { S3Operations } from '../../model/operations/s3.js';
import { NOT_IMPLEMENTED, notImplemented, type Handler, type OperationHandlers, type ServiceRoutes } from '../service-routes.js';
import { authorizeS3 } from './access.js';
import { decodeAwsChunked, isAwsChunked } from './aws-chunked.js';
import { checksumOf, isAlgorithm, parseContentMd5 } from './checksums.js';
import { corsResponseHeaders, preflightCors } from './cors.js';
import { s3Errors } from './errors.js';
import * as s3 from './provider.js';

const S3_NS = 'http://s3.amazonaws.com/doc/2006-03-01/';

/** Root elements AWS uses for outputs whose members are the document (no payload member). */
const ROOT_ELEMENTS: Record<string, string> = {
  ListBuckets: 'ListAllMyBucketsResult',
  ListObjectsV2: 'ListBucketResult',
  ListObjects: 'ListBucketResult',
  CreateMultipartUpload: 'InitiateMultipartUploadResult',
  CompleteMultipartUpload: 'CompleteMultipartUploadResult',
  ListParts: 'ListPartsResult',
  ListMultipartUploads: 'ListMultipartUploadsResult',
  DeleteObjects: 'DeleteResult',
  GetBucketTagging: 'Tagging',
  GetObjectTagging: 'Tagging',
  GetBucketCors: 'CORSConfiguration',
  GetBucketVersioning: 'VersioningConfiguration',
  GetBucketAcl: 'AccessControlPolicy',
  GetObjectAcl: 'AccessControlPolicy',
  GetBucketLifecycleConfiguration: 'LifecycleConfiguration',
  GetBucketNotificationConfiguration: 'NotificationConfiguration',
  GetBucketLogging: 'BucketLoggingStatus',
  GetBucketWebsite: 'WebsiteConfiguration',
  GetBucketAccelerateConfiguration: 'AccelerateConfiguration',
  GetBucketRequestPayment: 'RequestPaymentConfiguration',
  ListObjectVersions: 'ListVersionsResult',
  GetObjectAttributes: 'GetObjectAttributesResponse',
};

/** Largest XML request body (configurations, DeleteObjects' 1,000 keys) before MaxMessageLengthExceeded. */
const MAX_XML_BODY = 2 * 1024 * 1024;

/** Operations whose payload is the object body (streamed, possibly aws-chunked). */
const STREAMING = new Set(['PutObject', 'UploadPart']);

/**
 * Virtual-hosted style: `bucket.localhost:4566`, `bucket.s3.localhost:4566`,
 * `bucket.s3.<region>.localhost`, `bucket.s3.amazonaws.com`, `bucket.s3.<region>.amazonaws.com`
 * become `/bucket/...`. Plain hosts (`127.0.0.1`, `localhost`, `s3.amazonaws.com`) are path style.
 */
const hostBuckets = new Map<string, string | undefined>();

function bucketFromHost(host: string | undefined): string | undefined {
  if (!host) return undefined;
  if (hostBuckets.has(host)) return hostBuckets.get(host);
  const bucket = parseHost(host);
  if (hostBuckets.size >= 1000) hostBuckets.clear();
  hostBuckets.set(host, bucket);
  return bucket;
}

function parseHost(host: string): string | undefined {
  const name = host.replace(/:\d+$/, '').toLowerCase();
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.startsWith('[')) return undefined;
  const m =
    /^(.+?)\.s3(?:[.-][a-z0-9-]+)?\.(?:localhost|amazonaws\.com|localhost\.localstack\.cloud)$/.exec(name) ??
    /^(.+?)\.localhost$/.exec(name);
  if (!m) return undefined;
  const bucket = m[1]!;
  if (bucket === 's3' || bucket.startsWith('s3.') || bucket.startsWith('s3-')) return undefined;
  return bucket;
}

function normalize(req: WireRequest): WireRequest {
  const bucket = bucketFromHost(req.headers.host);
  if (!bucket) return req;
  return { ...req, rawPath: `/${encodeURIComponent(bucket)}${req.rawPath === '/' ? '' : req.rawPath}` };
}

/**
 * A request no S3 operation's URI template matches. Every operation Overcast lacks still matches
 * its template (and gets 501 from the dispatcher), so this is a client's mistake: a method the
 * addressed resource does not allow (`PUT /?tagging` without a bucket, `POST /bucket/key` without
 * `?uploads` or `?uploadId`, PATCH) is 405 MethodNotAllowed naming the resource type, as S3 answers
 * `DELETE /`; an empty bucket segment (`//key`) names no valid bucket. The one S3 feature that
 * arrives here is the browser form upload (POST to a bucket), which Overcast lacks: 501.
 */
function unknownOperation(req: WireRequest): AwsError {
  const path = req.rawPath.split('?')[0]!;
  if (path.startsWith('//')) return s3Errors.invalidBucketName('');
  const segments = splitRawPath(path).filter((p, i, all) => p !== '' || i < all.length - 1);
  if (req.method === 'POST' && segments.length === 1 && req.query.length === 0) {
    return new AwsError('NotImplemented', `Overcast does not implement ${req.method} ${req.rawPath} for S3 (browser form uploads).`, 501);
  }
  const resource = segments.length === 0 ? 'SERVICE' : segments.length === 1 ? 'BUCKET' : 'OBJECT';
  return s3Errors.methodNotAllowed(req.method, resource);
}

const inner = restXmlCodec(() => serviceModel('s3'), {
  normalize,
  rootElement: (op) => ROOT_ELEMENTS[op],
  xmlNamespace: S3_NS,
  maxXmlBody: MAX_XML_BODY,
  tooLarge: s3Errors.maxMessageLengthExceeded,
  unknownOperation,
});

/** Where wire-level facts ride along with an input, and extra response headers with an output. */
const ORIGIN = Symbol('origin');
const EXTRA_HEADERS = Symbol('extra-headers');

function header(req: WireRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

function query(req: WireRequest, name: string): string | undefined {
  for (const [k, v] of req.query) if (k === name) return v;
  return undefined;
}

/** Presigned URLs (SigV4 `X-Amz-Date` + `X-Amz-Expires`, SigV2 `Expires`) stop working when they expire. */
function checkPresignedExpiry(req: WireRequest): void {
  if (req.rawQuery === '' || !/(^|&)(X-Amz-Expires|Expires)=/i.test(req.rawQuery)) return;
  const now = Date.now();
  let expiresAt: number | undefined;
  const amzExpires = query(req, 'X-Amz-Expires');
  const amzDate = query(req, 'X-Amz-Date');
  if (amzExpires !== undefined && amzDate !== undefined) {
    const seconds = Number(amzExpires);
    if (!Number.isInteger(seconds) || seconds < 0 || seconds > 604_800) {
      throw new AwsError(
        'AuthorizationQueryParametersError',
        'X-Amz-Expires must be less than a week (in seconds) that is; 604800',
        400,
      );
    }
    const signedAt = parseAmzDate(amzDate);
    if (signedAt !== undefined) expiresAt = signedAt + seconds * 1000;
  } else if (query(req, 'AWSAccessKeyId') !== undefined) {
    const epoch = Number(query(req, 'Expires'));
    if (Number.isFinite(epoch)) expiresAt = epoch * 1000;
  }
  if (expiresAt !== undefined && expiresAt < now) {
    throw s3Errors.accessDenied('Request has expired', {
      ...(amzExpires !== undefined ? { 'X-Amz-Expires': amzExpires } : {}),
      Expires: new Date(expiresAt).toISOString(),
      ServerTime: new Date(now).toISOString(),
    });
  }
}

/** Content-MD5 / x-amz-checksum-* on an XML request body (DeleteObjects, PutBucketCors, …). */
async function verifyXmlBody(req: WireRequest, operation: string): Promise<WireRequest> {
  const md5 = header(req, 'content-md5');
  const sums = Object.keys(req.headers).filter((h) => h.startsWith('x-amz-checksum-') && h !== 'x-amz-checksum-mode');
  if (md5 === undefined && sums.length === 0) {
    if (operation === 'DeleteObjects') throw s3Errors.invalidRequest('Missing required header for this request: Content-MD5');
    return req;
  }
  const body = await readBody(req, MAX_XML_BODY, s3Errors.maxMessageLengthExceeded);
  if (md5 !== undefined) {
    const expected = parseContentMd5(md5)!;
    const computed = hash('md5', body, 'buffer');
    if (!computed.equals(expected)) throw s3Errors.badDigest(md5, computed.toString('base64'));
  }
  for (const h of sums) {
    const alg = h.slice('x-amz-checksum-'.length).toUpperCase();
    if (!isAlgorithm(alg)) continue;
    if (checksumOf(alg, body) !== header(req, h)) throw s3Errors.badChecksum(alg);
  }
  return { ...req, body: Readable.from([body]) };
}

const codec: Codec = {
  async parse(req: WireRequest): Promise<ParsedRequest> {
    checkPresignedExpiry(req);
    if (req.method === 'OPTIONS') {
      const path = normalize(req).rawPath.split('/').filter(Boolean);
      return {
        operation: 'PreflightCors',
        input: {
          Bucket: path[0] ? decodeURIComponent(path[0]) : undefined,
          Origin: header(req, 'origin'),
          RequestMethod: header(req, 'access-control-request-method'),
          RequestHeaders: header(req, 'access-control-request-headers'),
        },
      };
    }
    if ((req.method === 'PUT' || req.method === 'POST') && (header(req, 'content-md5') !== undefined || hasChecksumHeader(req) || req.method === 'POST')) {
      const n = normalize(req);
      const match = matchRoute(serviceModel('s3'), req.method, n.rawPath, req.query, req.headers);
      if (match && !STREAMING.has(match.operation) && match.operation !== 'CompleteMultipartUpload' && match.operation !== 'CreateMultipartUpload') {
        req = await verifyXmlBody(req, match.operation);
      }
    }
    req = dropInvalidDates(req);
    const parsed = await inner.parse(req);
    const input = parsed.input as Record<string | symbol, unknown>;
    if (STREAMING.has(parsed.operation)) {
      const decoded = header(req, 'x-amz-decoded-content-length');
      if (isAwsChunked(header(req, 'x-amz-content-sha256'), header(req, 'content-encoding'))) {
        const length = decoded !== undefined ? Number(decoded) : undefined;
        if (length !== undefined && (!Number.isInteger(length) || length < 0)) throw s3Errors.missingContentLength();
        input.Body = decodeAwsChunked(req.body, length, req.chunkSignatures);
        input.DecodedContentLength = length;
        input.ChecksumTrailer = header(req, 'x-amz-trailer');
      }
    }
    const origin = header(req, 'origin');
    if (origin !== undefined) input[ORIGIN] = { origin, method: req.method };
    return parsed;
  },

  serialize(operation: string, output: unknown, requestId: string): WireResponse {
    const out = (output ?? {}) as Record<string | symbol, unknown>;
    let res: WireResponse;
    if (operation === 'PreflightCors') {
      res = { status: 200, headers: { 'x-amz-request-id': requestId, 'x-amz-id-2': requestId, ...(out.headers as object) } };
    } else if (operation === 'GetBucketLocation') {
      const location = (out.LocationConstraint as string | undefined) ?? '';
      res = {
        status: 200,
        headers: { 'x-amz-request-id': requestId, 'x-amz-id-2': requestId, 'content-type': 'application/xml' },
        body:
          location === ''
            ? `${XML_DECLARATION}<LocationConstraint xmlns="${S3_NS}"/>`
            : `${XML_DECLARATION}<LocationConstraint xmlns="${S3_NS}">${escapeXml(location)}</LocationConstraint>`,
      };
    } else {
      res = inner.serialize(operation, output, requestId);
      if ((operation === 'GetObject' || operation === 'HeadObject') && out.ContentRange !== undefined) res.status = 206;
    }
    const extra = out[EXTRA_HEADERS] as Record<string, string> | undefined;
    if (extra) Object.assign(res.headers, extra);
    return res;
  },

  error(err: AwsError, requestId: string, req?: WireRequest): WireResponse {
    if (err.status === 304) {
      return { status: 304, headers: { 'x-amz-request-id': requestId, 'x-amz-id-2': requestId, ...err.headers } };
    }
    return inner.error(err, requestId, req);
  },
};

/** S3, like RFC 7232, ignores an If-(Un)Modified-Since that is not a date rather than failing. */
function dropInvalidDates(req: WireRequest): WireRequest {
  const a = req.headers['if-modified-since'];
  const b = req.headers['if-unmodified-since'];
  const bad = (v: string | undefined) => v !== undefined && Number.isNaN(Date.parse(v));
  if (!bad(a) && !bad(b)) return req;
  const headers = { ...req.headers };
  if (bad(a)) delete headers['if-modified-since'];
  if (bad(b)) delete headers['if-unmodified-since'];
  return { ...req, headers };
}

function hasChecksumHeader(req: WireRequest): boolean {
  for (const h in req.headers) if (h.startsWith('x-amz-checksum-') && h !== 'x-amz-checksum-mode') return true;
  return false;
}

/** Adds the bucket's CORS headers to the output of a request that carries Origin. */
function withCors(handler: Handler): Handler {
  return async (ctx: Ctx, input: Record<string | symbol, unknown>) => {
    const output = await (handler as (ctx: Ctx, input: unknown) => unknown)(ctx, input);
    const cors = input[ORIGIN] as { origin: string; method: string } | undefined;
    if (!cors || typeof input.Bucket !== 'string') return output;
    const headers = corsResponseHeaders(ctx, input.Bucket, cors.origin, cors.method);
    if (!headers) return output;
    const out = (output ?? {}) as Record<string | symbol, unknown>;
    out[EXTRA_HEADERS] = headers;
    return out;
  };
}

const operations = {
  CreateBucket: s3.createBucket,
  HeadBucket: s3.headBucket,
  GetBucketLocation: s3.getBucketLocation,
  ListBuckets: s3.listBuckets,
  DeleteBucket: s3.deleteBucket,
  PutObject: s3.putObject,
  GetObject: s3.getObjectContent,
  HeadObject: s3.headObject,
  DeleteObject: s3.deleteObject,
  DeleteObjects: s3.deleteObjects,
  CopyObject: s3.copyObject,
  ListObjectsV2: s3.listObjectsV2,
  ListObjects: s3.listObjects,
  ListObjectVersions: s3.listObjectVersions,
  GetObjectAttributes: s3.getObjectAttributes,
  CreateMultipartUpload: s3.createMultipartUpload,
  UploadPart: s3.uploadPart,
  UploadPartCopy: s3.uploadPartCopy,
  CompleteMultipartUpload: s3.completeMultipartUpload,
  AbortMultipartUpload: s3.abortMultipartUpload,
  ListParts: s3.listParts,
  ListMultipartUploads: s3.listMultipartUploads,
  PutObjectTagging: s3.putObjectTagging,
  GetObjectTagging: s3.getObjectTagging,
  DeleteObjectTagging: s3.deleteObjectTagging,
  GetObjectAcl: s3.getObjectAcl,
  PutObjectAcl: s3.putObjectAcl,
  PutBucketPolicy: s3.putBucketPolicy,
  GetBucketPolicy: s3.getBucketPolicy,
  DeleteBucketPolicy: s3.deleteBucketPolicy,
  PutBucketTagging: s3.putBucketTagging,
  GetBucketTagging: s3.getBucketTagging,
  DeleteBucketTagging: s3.deleteBucketTagging,
  PutBucketCors: s3.putBucketCors,
  GetBucketCors: s3.getBucketCors,
  DeleteBucketCors: s3.deleteBucketCors,
  PutBucketEncryption: s3.putBucketEncryption,
  GetBucketEncryption: s3.getBucketEncryption,
  DeleteBucketEncryption: s3.deleteBucketEncryption,
  PutBucketVersioning: s3.putBucketVersioning,
  GetBucketVersioning: s3.getBucketVersioning,
  PutBucketLifecycleConfiguration: s3.putBucketLifecycleConfiguration,
  GetBucketLifecycleConfiguration: s3.getBucketLifecycleConfiguration,
  DeleteBucketLifecycle: s3.deleteBucketLifecycle,
  PutPublicAccessBlock: s3.putPublicAccessBlock,
  GetPublicAccessBlock: s3.getPublicAccessBlock,
  DeletePublicAccessBlock: s3.deletePublicAccessBlock,
  PutBucketOwnershipControls: s3.putBucketOwnershipControls,
  GetBucketOwnershipControls: s3.getBucketOwnershipControls,
  DeleteBucketOwnershipControls: s3.deleteBucketOwnershipControls,
  PutBucketNotificationConfiguration: s3.putBucketNotificationConfiguration,
  GetBucketNotificationConfiguration: s3.getBucketNotificationConfiguration,
  PutBucketLogging: s3.putBucketLogging,
  GetBucketLogging: s3.getBucketLogging,
  PutBucketAccelerateConfiguration: s3.putBucketAccelerateConfiguration,
  GetBucketAccelerateConfiguration: s3.getBucketAccelerateConfiguration,
  PutBucketRequestPayment: s3.putBucketRequestPayment,
  GetBucketRequestPayment: s3.getBucketRequestPayment,
  PutBucketWebsite: s3.putBucketWebsite,
  GetBucketWebsite: s3.getBucketWebsite,
  DeleteBucketWebsite: s3.deleteBucketWebsite,
  PutObjectLockConfiguration: s3.putObjectLockConfiguration,
  GetObjectLockConfiguration: s3.getObjectLockConfiguration,
  PutBucketReplication: s3.putBucketReplication,
  GetBucketReplication: s3.getBucketReplication,
  DeleteBucketReplication: s3.deleteBucketReplication,
  GetBucketAcl: s3.getBucketAcl,
  PutBucketAcl: s3.putBucketAcl,
  ...notImplemented<S3Operations>()(
    'CreateBucketMetadataConfiguration', 'CreateBucketMetadataTableConfiguration', 'CreateSession',
    'DeleteBucketAnalyticsConfiguration', 'DeleteBucketIntelligentTieringConfiguration',
    'DeleteBucketInventoryConfiguration', 'DeleteBucketMetadataConfiguration',
    'DeleteBucketMetadataTableConfiguration', 'DeleteBucketMetricsConfiguration', 'GetBucketAbac',
    'GetBucketAnalyticsConfiguration', 'GetBucketIntelligentTieringConfiguration',
    'GetBucketInventoryConfiguration', 'GetBucketLifecycle', 'GetBucketMetadataConfiguration',
    'GetBucketMetadataTableConfiguration', 'GetBucketMetricsConfiguration',
    'GetBucketNotification', 'GetBucketPolicyStatus', 'GetObjectLegalHold', 'GetObjectRetention',
    'GetObjectTorrent', 'ListBucketAnalyticsConfigurations',
    'ListBucketIntelligentTieringConfigurations', 'ListBucketInventoryConfigurations',
    'ListBucketMetricsConfigurations', 'ListDirectoryBuckets', 'PutBucketAbac',
    'PutBucketAnalyticsConfiguration', 'PutBucketIntelligentTieringConfiguration',
    'PutBucketInventoryConfiguration', 'PutBucketLifecycle', 'PutBucketMetricsConfiguration',
    'PutBucketNotification', 'PutObjectLegalHold', 'PutObjectRetention', 'RenameObject',
    'RestoreObject', 'SelectObjectContent', 'UpdateBucketMetadataInventoryTableConfiguration',
    'UpdateBucketMetadataJournalTableConfiguration', 'UpdateObjectEncryption',
    'WriteGetObjectResponse',
  ),
} satisfies OperationHandlers<S3Operations>;

const handlers: ServiceRoutes['handlers'] = {
  ...Object.fromEntries(Object.entries(operations).map(([name, h]) => [name, h === NOT_IMPLEMENTED ? h : withCors(h)])),
  // OPTIONS: a CORS preflight, which the codec names as if it were an operation of the model.
  PreflightCors: preflightCors,
};

export const routes: ServiceRoutes = {
  codec,
  handlers,
  internalErrorCode: 'InternalError',
  authorize: (ctx, operation, input, req) => authorizeS3(ctx, operation, input, req.method),
};
