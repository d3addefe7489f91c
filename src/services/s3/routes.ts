/**
 * S3 on the wire: the rest-xml codec with S3's own choices — virtual-hosted addressing rewritten to
 * path style, root element names of responses without a payload member — and the table of
 * operations served, each pointing at its provider function.
 */
import { serviceModel } from '../../model/service-model.js';
import { AwsError } from '../../wire/errors.js';
import type { WireRequest } from '../../wire/http.js';
import { restXmlCodec } from '../../wire/rest-xml.js';
import type { Handler, ServiceRoutes } from '../registry.js';
import * as s3 from './provider.js';

const S3_NS = 'http://s3.amazonaws.com/doc/2006-03-01/';

/** Root elements AWS uses for outputs whose members are the document (no payload member). */
const ROOT_ELEMENTS: Record<string, string> = {
  ListBuckets: 'ListAllMyBucketsResult',
  ListObjectsV2: 'ListBucketResult',
  ListObjects: 'ListBucketResult',
  GetBucketLocation: 'LocationConstraint',
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
};

/**
 * Virtual-hosted style: `bucket.localhost:4566`, `bucket.s3.localhost:4566`,
 * `bucket.s3.<region>.localhost`, `bucket.s3.amazonaws.com`, `bucket.s3.<region>.amazonaws.com`
 * become `/bucket/...`. Plain hosts (`127.0.0.1`, `localhost`, `s3.amazonaws.com`) are path style.
 */
export function bucketFromHost(host: string | undefined): string | undefined {
  if (!host) return undefined;
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

const codec = restXmlCodec(() => serviceModel('s3'), {
  normalize,
  rootElement: (op) => ROOT_ELEMENTS[op],
  xmlNamespace: S3_NS,
  unknownOperation: (req) =>
    new AwsError('NotImplemented', `Overcast does not implement ${req.method} ${req.rawPath} for S3.`, 501),
});

const handlers: Partial<Record<string, Handler>> = {
  CreateBucket: s3.createBucket,
  HeadBucket: s3.headBucket,
  GetBucketLocation: s3.getBucketLocation,
  ListBuckets: s3.listBuckets,
  DeleteBucket: s3.deleteBucket,
  PutObject: s3.putObject,
  GetObject: s3.getObject,
  HeadObject: s3.headObject,
  DeleteObject: s3.deleteObject,
  ListObjectsV2: s3.listObjectsV2,
};

export const routes: ServiceRoutes = { codec, handlers, internalErrorCode: 'InternalError' };
