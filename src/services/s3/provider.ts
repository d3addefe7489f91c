/**
 * The S3 provider: S3's rules as plain functions of (ctx, input) over the store, shared by the S3
 * API, S3 Tables (warehouse buckets) and the CloudFormation engine (AWS::S3::Bucket). This is the
 * module other services import; the implementation lives in the modules re-exported here
 * (buckets, bucket-config, objects, copy, multipart, listing, object-meta).
 */
export { repo, requireBucket, ownerId } from './common.js';
export {
  createBucket,
  headBucket,
  getBucketLocation,
  listBuckets,
  deleteBucket,
  purgeBucket,
  type CreateBucketOptions,
} from './buckets.js';
export * from './bucket-config.js';
export {
  putObject,
  putSmallObject,
  getObject,
  getObjectContent,
  getObjectBytes,
  headObject,
  deleteObject,
  deleteObjects,
  getObjectAttributes,
  type PutObjectInput,
  type GetObjectResult,
} from './objects.js';
export { copyObject } from './copy.js';
export {
  createMultipartUpload,
  uploadPart,
  uploadPartCopy,
  completeMultipartUpload,
  abortMultipartUpload,
  listParts,
  type UploadPartInput,
} from './multipart.js';
export { listObjectsV2, listObjects, listMultipartUploads, listObjectVersions } from './listing.js';
export { putObjectTagging, getObjectTagging, deleteObjectTagging, getObjectAcl, putObjectAcl } from './object-meta.js';
