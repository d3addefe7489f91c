/**
 * An object's metadata as stored (the `meta` JSON column): content headers, user metadata,
 * tags, encryption and website redirect — built from PutObject, CopyObject (REPLACE) and
 * CreateMultipartUpload inputs with AWS's validations (storage class, 2 KB of user metadata,
 * tag rules), and turned back into the header members of HeadObject/GetObject. Also the object
 * tagging and ACL operations, which only touch this metadata.
 */
import type * as S3 from '@aws-sdk/client-s3';
import type { Ctx } from '../../runtime/runtime.js';
import { AwsError } from '../../wire/errors.js';
import type { ObjectRow } from '../../store/s3-repo.js';
import { defaultEncryption } from './bucket-config.js';
import { ownerOf, repo, requireBucket } from './common.js';
import { s3Errors } from './errors.js';
import { parseTaggingHeader, validateTagSet } from './tag-set.js';

export interface ObjectMeta {
  contentType?: string;
  contentEncoding?: string;
  contentDisposition?: string;
  contentLanguage?: string;
  cacheControl?: string;
  /** The Expires header as sent (S3 stores it verbatim; the model types it as a string). */
  expires?: string;
  metadata?: Record<string, string>;
  tags?: S3.Tag[];
  websiteRedirectLocation?: string;
  sse?: string;
  kmsKeyId?: string;
  bucketKeyEnabled?: boolean;
  sseCustomerAlgorithm?: string;
  sseCustomerKeyMd5?: string;
}

const STORAGE_CLASSES = [
  'STANDARD',
  'REDUCED_REDUNDANCY',
  'STANDARD_IA',
  'ONEZONE_IA',
  'INTELLIGENT_TIERING',
  'GLACIER',
  'DEEP_ARCHIVE',
  'GLACIER_IR',
  'EXPRESS_ONEZONE',
];

export const ARCHIVED = ['GLACIER', 'DEEP_ARCHIVE'];

export function storageClassOf(value: string | undefined): string {
  if (value === undefined) return 'STANDARD';
  if (!STORAGE_CLASSES.includes(value)) throw s3Errors.invalidStorageClass(value);
  return value;
}

type MetaInput = Pick<
  S3.PutObjectRequest,
  | 'ContentType'
  | 'ContentEncoding'
  | 'ContentDisposition'
  | 'ContentLanguage'
  | 'CacheControl'
  | 'Expires'
  | 'Metadata'
  | 'Tagging'
  | 'WebsiteRedirectLocation'
  | 'ServerSideEncryption'
  | 'SSEKMSKeyId'
  | 'BucketKeyEnabled'
  | 'SSECustomerAlgorithm'
  | 'SSECustomerKeyMD5'
>;

/** The metadata a write stores, from its request members (and the bucket's default encryption). */
export function metaFromInput(ctx: Ctx, bucket: string, input: MetaInput): ObjectMeta {
  const metadata = input.Metadata && Object.keys(input.Metadata).length ? input.Metadata : undefined;
  if (metadata) {
    let size = 0;
    for (const [k, v] of Object.entries(metadata)) size += Buffer.byteLength(k) + Buffer.byteLength(v);
    if (size > 2048) {
      throw new AwsError('MetadataTooLarge', 'Your metadata headers exceed the maximum allowed metadata size', 400, {
        fields: { MaxSizeAllowed: 2048, Size: size },
      });
    }
  }
  const meta: ObjectMeta = {
    contentType: input.ContentType ?? 'binary/octet-stream',
    contentEncoding: stripAwsChunked(input.ContentEncoding),
    contentDisposition: input.ContentDisposition,
    contentLanguage: input.ContentLanguage,
    cacheControl: input.CacheControl,
    expires: input.Expires === undefined ? undefined : String(input.Expires),
    metadata,
    tags: input.Tagging !== undefined ? parseTaggingHeader(input.Tagging) : undefined,
    websiteRedirectLocation: input.WebsiteRedirectLocation,
  };
  const sse = input.ServerSideEncryption ?? defaultEncryption(ctx, bucket)?.SSEAlgorithm;
  if (sse) {
    if (!['AES256', 'aws:kms', 'aws:kms:dsse'].includes(sse)) {
      throw s3Errors.invalidArgument('The encryption method specified is not supported', 'x-amz-server-side-encryption', sse);
    }
    meta.sse = sse;
    if (sse.startsWith('aws:kms')) {
      const key = input.SSEKMSKeyId ?? defaultEncryption(ctx, bucket)?.KMSMasterKeyID;
      meta.kmsKeyId = key ? kmsArn(ctx, key) : `arn:${ctx.partition}:kms:${ctx.region}:${ctx.account}:alias/aws/s3`;
      if (input.BucketKeyEnabled) meta.bucketKeyEnabled = true;
    }
  }
  if (input.SSECustomerAlgorithm) {
    meta.sseCustomerAlgorithm = input.SSECustomerAlgorithm;
    meta.sseCustomerKeyMd5 = input.SSECustomerKeyMD5;
  }
  return meta;
}

function kmsArn(ctx: Ctx, key: string): string {
  return key.startsWith('arn:') ? key : `arn:${ctx.partition}:kms:${ctx.region}:${ctx.account}:key/${key}`;
}

/** AWS drops the `aws-chunked` coding from the stored Content-Encoding. */
function stripAwsChunked(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const rest = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && s !== 'aws-chunked');
  return rest.length ? rest.join(',') : undefined;
}

/** The header members GetObject and HeadObject answer with for a stored object. */
export function objectHeaders(row: Omit<ObjectRow, 'inline' | 'blob_ids'>, meta: ObjectMeta): S3.HeadObjectOutput {
  const out: S3.HeadObjectOutput = {
    AcceptRanges: 'bytes',
    LastModified: new Date(row.last_modified),
    ContentLength: row.size,
    ETag: row.etag,
    ContentType: meta.contentType,
  };
  if (meta.contentEncoding !== undefined) out.ContentEncoding = meta.contentEncoding;
  if (meta.contentDisposition !== undefined) out.ContentDisposition = meta.contentDisposition;
  if (meta.contentLanguage !== undefined) out.ContentLanguage = meta.contentLanguage;
  if (meta.cacheControl !== undefined) out.CacheControl = meta.cacheControl;
  if (meta.expires !== undefined) out.Expires = meta.expires as unknown as Date;
  if (meta.metadata) out.Metadata = meta.metadata;
  if (row.storage_class !== 'STANDARD') out.StorageClass = row.storage_class as S3.StorageClass;
  if (meta.websiteRedirectLocation) out.WebsiteRedirectLocation = meta.websiteRedirectLocation;
  Object.assign(out, encryptionHeaders(meta));
  return out;
}

export function encryptionHeaders(meta: ObjectMeta): Pick<
  S3.HeadObjectOutput,
  'ServerSideEncryption' | 'SSEKMSKeyId' | 'BucketKeyEnabled' | 'SSECustomerAlgorithm' | 'SSECustomerKeyMD5'
> {
  const out: ReturnType<typeof encryptionHeaders> = {};
  if (meta.sse) out.ServerSideEncryption = meta.sse as S3.ServerSideEncryption;
  if (meta.kmsKeyId) out.SSEKMSKeyId = meta.kmsKeyId;
  if (meta.bucketKeyEnabled) out.BucketKeyEnabled = true;
  if (meta.sseCustomerAlgorithm) {
    out.SSECustomerAlgorithm = meta.sseCustomerAlgorithm;
    out.SSECustomerKeyMD5 = meta.sseCustomerKeyMd5;
  }
  return out;
}

function requireObjectMeta(ctx: Ctx, bucket: string, key: string): { meta: ObjectMeta } {
  requireBucket(ctx, bucket);
  const row = repo(ctx).headObject(bucket, key);
  if (!row) throw s3Errors.noSuchKey(key);
  return { meta: JSON.parse(row.meta) as ObjectMeta };
}

export function putObjectTagging(ctx: Ctx, input: S3.PutObjectTaggingRequest): S3.PutObjectTaggingOutput {
  const tags = input.Tagging?.TagSet;
  if (!tags) throw s3Errors.malformedXml();
  validateTagSet(tags, 'object');
  ctx.rt.meta.tx(() => {
    const { meta } = requireObjectMeta(ctx, input.Bucket!, input.Key!);
    meta.tags = tags.map((t) => ({ Key: t.Key, Value: t.Value }));
    repo(ctx).setObjectMeta(input.Bucket!, input.Key!, JSON.stringify(meta));
  });
  return {};
}

export function getObjectTagging(ctx: Ctx, input: S3.GetObjectTaggingRequest): S3.GetObjectTaggingOutput {
  const { meta } = requireObjectMeta(ctx, input.Bucket!, input.Key!);
  return { TagSet: meta.tags ?? [] };
}

export function deleteObjectTagging(ctx: Ctx, input: S3.DeleteObjectTaggingRequest): S3.DeleteObjectTaggingOutput {
  ctx.rt.meta.tx(() => {
    const { meta } = requireObjectMeta(ctx, input.Bucket!, input.Key!);
    delete meta.tags;
    repo(ctx).setObjectMeta(input.Bucket!, input.Key!, JSON.stringify(meta));
  });
  return {};
}

export function getObjectAcl(ctx: Ctx, input: S3.GetObjectAclRequest): S3.GetObjectAclOutput {
  requireObjectMeta(ctx, input.Bucket!, input.Key!);
  const owner = ownerOf(requireBucket(ctx, input.Bucket!).account);
  return { Owner: owner, Grants: [{ Grantee: { ...owner, Type: 'CanonicalUser' }, Permission: 'FULL_CONTROL' }] };
}

export function putObjectAcl(ctx: Ctx, input: S3.PutObjectAclRequest): S3.PutObjectAclOutput {
  requireObjectMeta(ctx, input.Bucket!, input.Key!);
  return {};
}
