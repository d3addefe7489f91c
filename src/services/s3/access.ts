/**
 * Strict mode's authorization for S3: the `s3:` action of each operation (Service Authorization
 * Reference, "Actions defined by Amazon S3"; Delete… configuration calls need the Put… action),
 * checked on the bucket or object ARN against the bucket's policy with S3's condition keys
 * (s3:prefix, s3:x-amz-acl, s3:authType, …); DeleteObjects checks each key and, as S3 does,
 * answers a refused one with AccessDenied in its result rather than refusing the request. A
 * table's warehouse bucket is S3 Tables' table storage: only the object operations AWS supports
 * there, with the headers it lists (API Reference, "Supported Amazon S3 object-level API
 * operations for S3 Tables"), no presigned URLs, and reads/writes authorized as
 * s3tables:GetTableData / PutTableData on the table.
 */
import type * as S3 from '@aws-sdk/client-s3';
import { authorize, refusedResources, type AccessCheck } from '../../auth/authorize.js';
import type { Ctx } from '../../runtime/runtime.js';
import { checkWarehouseAccess } from '../s3tables/access.js';
import { repo } from './common.js';
import { s3Errors } from './errors.js';
import { WAREHOUSE_SUFFIX } from './naming.js';

type Input = Record<string, unknown>;

const BUCKET_ACTIONS: Record<string, string> = {
  CreateBucket: 'CreateBucket',
  DeleteBucket: 'DeleteBucket',
  HeadBucket: 'ListBucket',
  GetBucketLocation: 'GetBucketLocation',
  ListObjects: 'ListBucket',
  ListObjectsV2: 'ListBucket',
  ListObjectVersions: 'ListBucketVersions',
  ListMultipartUploads: 'ListBucketMultipartUploads',
  PutBucketPolicy: 'PutBucketPolicy',
  GetBucketPolicy: 'GetBucketPolicy',
  DeleteBucketPolicy: 'DeleteBucketPolicy',
  PutBucketTagging: 'PutBucketTagging',
  GetBucketTagging: 'GetBucketTagging',
  DeleteBucketTagging: 'PutBucketTagging',
  PutBucketCors: 'PutBucketCORS',
  GetBucketCors: 'GetBucketCORS',
  DeleteBucketCors: 'PutBucketCORS',
  PutBucketEncryption: 'PutEncryptionConfiguration',
  GetBucketEncryption: 'GetEncryptionConfiguration',
  DeleteBucketEncryption: 'PutEncryptionConfiguration',
  PutBucketVersioning: 'PutBucketVersioning',
  GetBucketVersioning: 'GetBucketVersioning',
  PutBucketLifecycleConfiguration: 'PutLifecycleConfiguration',
  GetBucketLifecycleConfiguration: 'GetLifecycleConfiguration',
  DeleteBucketLifecycle: 'PutLifecycleConfiguration',
  PutPublicAccessBlock: 'PutBucketPublicAccessBlock',
  GetPublicAccessBlock: 'GetBucketPublicAccessBlock',
  DeletePublicAccessBlock: 'PutBucketPublicAccessBlock',
  PutBucketOwnershipControls: 'PutBucketOwnershipControls',
  GetBucketOwnershipControls: 'GetBucketOwnershipControls',
  DeleteBucketOwnershipControls: 'PutBucketOwnershipControls',
  PutBucketNotificationConfiguration: 'PutBucketNotification',
  GetBucketNotificationConfiguration: 'GetBucketNotification',
  PutBucketLogging: 'PutBucketLogging',
  GetBucketLogging: 'GetBucketLogging',
  PutBucketAccelerateConfiguration: 'PutAccelerateConfiguration',
  GetBucketAccelerateConfiguration: 'GetAccelerateConfiguration',
  PutBucketRequestPayment: 'PutBucketRequestPayment',
  GetBucketRequestPayment: 'GetBucketRequestPayment',
  PutBucketWebsite: 'PutBucketWebsite',
  GetBucketWebsite: 'GetBucketWebsite',
  DeleteBucketWebsite: 'DeleteBucketWebsite',
  PutObjectLockConfiguration: 'PutBucketObjectLockConfiguration',
  GetObjectLockConfiguration: 'GetBucketObjectLockConfiguration',
  PutBucketReplication: 'PutReplicationConfiguration',
  GetBucketReplication: 'GetReplicationConfiguration',
  DeleteBucketReplication: 'PutReplicationConfiguration',
  GetBucketAcl: 'GetBucketAcl',
  PutBucketAcl: 'PutBucketAcl',
};

const OBJECT_ACTIONS: Record<string, string> = {
  PutObject: 'PutObject',
  GetObject: 'GetObject',
  HeadObject: 'GetObject',
  DeleteObject: 'DeleteObject',
  CopyObject: 'PutObject',
  GetObjectAttributes: 'GetObjectAttributes',
  CreateMultipartUpload: 'PutObject',
  UploadPart: 'PutObject',
  UploadPartCopy: 'PutObject',
  CompleteMultipartUpload: 'PutObject',
  AbortMultipartUpload: 'AbortMultipartUpload',
  ListParts: 'ListMultipartUploadParts',
  PutObjectTagging: 'PutObjectTagging',
  GetObjectTagging: 'GetObjectTagging',
  DeleteObjectTagging: 'DeleteObjectTagging',
  GetObjectAcl: 'GetObjectAcl',
  PutObjectAcl: 'PutObjectAcl',
};

/** Table storage: the supported operations, whether each reads or writes, and the headers (input members) it refuses. */
const TABLE_STORAGE: Record<string, 'read' | 'write'> = {
  GetObject: 'read',
  HeadObject: 'read',
  ListParts: 'read',
  PutObject: 'write',
  CreateMultipartUpload: 'write',
  UploadPart: 'write',
  CompleteMultipartUpload: 'write',
  AbortMultipartUpload: 'write',
};

/** Members whose headers table storage does not take (object lock, tagging, grants, KMS and customer keys, redirects). */
const UNSUPPORTED_MEMBERS: Record<string, string> = {
  Tagging: 'x-amz-tagging',
  WebsiteRedirectLocation: 'x-amz-website-redirect-location',
  ObjectLockMode: 'x-amz-object-lock-mode',
  ObjectLockRetainUntilDate: 'x-amz-object-lock-retain-until-date',
  ObjectLockLegalHoldStatus: 'x-amz-object-lock-legal-hold',
  GrantFullControl: 'x-amz-grant-full-control',
  GrantRead: 'x-amz-grant-read',
  GrantReadACP: 'x-amz-grant-read-acp',
  GrantWriteACP: 'x-amz-grant-write-acp',
  SSEKMSKeyId: 'x-amz-server-side-encryption-aws-kms-key-id',
  SSEKMSEncryptionContext: 'x-amz-server-side-encryption-context',
  BucketKeyEnabled: 'x-amz-server-side-encryption-bucket-key-enabled',
  SSECustomerAlgorithm: 'x-amz-server-side-encryption-customer-algorithm',
  SSECustomerKey: 'x-amz-server-side-encryption-customer-key',
};

function deny(message: string) {
  return s3Errors.accessDenied(message);
}

/** S3's condition keys of a request (bucket policy keys, S3 User Guide). */
function s3Keys(ctx: Ctx, operation: string, input: Input, owner: string): Record<string, string | undefined> {
  const caller = ctx.caller!;
  return {
    's3:authtype': caller.authType === 'anonymous' ? undefined : caller.authType,
    's3:signatureversion': caller.authType === 'anonymous' ? undefined : 'AWS4-HMAC-SHA256',
    's3:signatureage': caller.signatureAgeMs !== undefined ? String(caller.signatureAgeMs) : undefined,
    's3:x-amz-content-sha256': caller.contentSha256,
    's3:resourceaccount': owner,
    's3:prefix': operation.startsWith('ListObjects') || operation === 'ListObjectVersions' ? ((input.Prefix as string | undefined) ?? '') : undefined,
    's3:delimiter': input.Delimiter as string | undefined,
    's3:max-keys': input.MaxKeys !== undefined ? String(input.MaxKeys) : undefined,
    's3:x-amz-acl': input.ACL as string | undefined,
    's3:x-amz-server-side-encryption': input.ServerSideEncryption as string | undefined,
    's3:x-amz-storage-class': input.StorageClass as string | undefined,
    's3:versionid': input.VersionId as string | undefined,
  };
}

/** `bucket/key` of a CopySource (`/b/k?versionId=…`, URL-encoded). */
function copySource(value: unknown): { bucket: string; key: string } | undefined {
  if (typeof value !== 'string') return undefined;
  const path = decodeURIComponent(value.split('?')[0]!).replace(/^\//, '');
  const slash = path.indexOf('/');
  return slash > 0 ? { bucket: path.slice(0, slash), key: path.slice(slash + 1) } : undefined;
}

/** A bucket's owner and policies, looked up once per request. */
interface BucketAccess {
  owner: string;
  policies: string[];
}

function bucketAccess(ctx: Ctx, bucket: string): BucketAccess {
  const row = repo(ctx).getBucket(bucket);
  // A bucket that does not exist is the provider's to answer (NoSuchBucket); a caller without one of its own gets nothing from it.
  const owner = row?.account ?? ctx.caller!.account;
  const stored = row ? repo(ctx).getConfig(bucket, 'policy') : undefined;
  const policy = stored === undefined ? undefined : (JSON.parse(stored) as string);
  return { owner, policies: policy ? [policy] : [] };
}

/** `action` on each of `keys` in `bucket` (the bucket itself when `keys` is undefined), under the bucket's policy. */
function s3Check(ctx: Ctx, action: string, bucket: string, keys: readonly string[] | undefined, operation: string, input: Input): AccessCheck {
  const { owner, policies } = bucketAccess(ctx, bucket);
  const arn = `arn:${ctx.partition}:s3:::${bucket}`;
  const resource = keys === undefined ? arn : keys.map((key) => `${arn}/${key}`);
  return { actions: [`s3:${action}`], resource, resourceAccount: owner, policies, keys: s3Keys(ctx, operation, input, owner) };
}

function checkS3(ctx: Ctx, action: string, bucket: string, keys: readonly string[] | undefined, operation: string, input: Input): void {
  authorize(ctx, s3Check(ctx, action, bucket, keys, operation, input), deny);
}

/** The keys of a DeleteObjects request its caller may not delete, by request input. */
const refusedDeletes = new WeakMap<object, ReadonlySet<string>>();

/**
 * The keys of DeleteObjects' `input` the caller may not delete: S3 checks each key and answers a
 * refused one with AccessDenied in the result, deleting the others.
 */
export function deletesRefused(input: object): ReadonlySet<string> | undefined {
  return refusedDeletes.get(input);
}

/** Table storage's rules for one request, and its authorization as s3tables:Get/PutTableData. */
function checkTableStorage(ctx: Ctx, operation: string, input: Input, bucket: string, method: string): boolean {
  if (!bucket.endsWith(WAREHOUSE_SUFFIX)) return false;
  const access = TABLE_STORAGE[operation];
  if (!access) {
    if (!repo(ctx).getBucket(bucket)) return false;
    throw s3Errors.methodNotAllowed(method, operation.startsWith('List') || input.Key === undefined ? 'BUCKET' : 'OBJECT');
  }
  if (ctx.caller!.authType === 'REST-QUERY-STRING') throw deny('Presigned URLs are not supported for S3 Tables table storage; sign each request with SigV4.');
  for (const [member, header] of Object.entries(UNSUPPORTED_MEMBERS)) if (input[member] !== undefined) throw s3Errors.notImplemented(header);
  const fixed: [string, string, string][] = [
    ['ACL', 'x-amz-acl', 'bucket-owner-full-control'],
    ['StorageClass', 'x-amz-storage-class', 'STANDARD'],
    ['ServerSideEncryption', 'x-amz-server-side-encryption', 'AES256'],
  ];
  for (const [member, header, only] of fixed) {
    const v = input[member] as string | undefined;
    if (v !== undefined && v !== only) {
      if (member === 'StorageClass') throw s3Errors.invalidStorageClass(v);
      throw s3Errors.invalidArgument(`For S3 Tables, ${header} is always ${only} and can't be changed.`, header, v);
    }
  }
  const action = access === 'read' ? 's3tables:GetTableData' : 's3tables:PutTableData';
  return checkWarehouseAccess(ctx, [action], bucket, deny);
}

/** The routes' authorize hook for S3 (strict mode). */
export function authorizeS3(ctx: Ctx, operation: string, input: Input, method: string): void {
  if (operation === 'PreflightCors') return;
  const bucket = input.Bucket as string | undefined;
  if (operation === 'ListBuckets' || bucket === undefined) {
    if (ctx.caller!.authType === 'anonymous') throw deny('Access Denied');
    return;
  }
  if (checkTableStorage(ctx, operation, input, bucket, method)) return;
  const bucketAction = BUCKET_ACTIONS[operation];
  if (bucketAction) {
    checkS3(ctx, bucketAction, bucket, undefined, operation, input);
    return;
  }
  if (operation === 'DeleteObjects') {
    const keys = ((input.Delete as S3.Delete | undefined)?.Objects ?? []).map((o) => o.Key ?? '');
    const refused = refusedResources(ctx, s3Check(ctx, 'DeleteObject', bucket, keys, operation, input));
    const prefix = `arn:${ctx.partition}:s3:::${bucket}/`;
    if (refused.size > 0) refusedDeletes.set(input, new Set([...refused].map((arn) => arn.slice(prefix.length))));
    return;
  }
  const objectAction = OBJECT_ACTIONS[operation];
  if (!objectAction) return;
  const versioned = input.VersionId !== undefined && (objectAction === 'GetObject' || objectAction === 'DeleteObject');
  checkS3(ctx, versioned ? `${objectAction}Version` : objectAction, bucket, [String(input.Key ?? '')], operation, input);
  if (operation === 'CopyObject' || operation === 'UploadPartCopy') {
    const source = copySource(input.CopySource);
    if (source && !checkTableStorage(ctx, 'GetObject', {}, source.bucket, 'GET')) checkS3(ctx, 'GetObject', source.bucket, [source.key], 'GetObject', {});
  }
}
