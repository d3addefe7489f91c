/**
 * The errors S3 Tables answers with, in one place: codes and statuses from the service model,
 * texts observed from the real service where known (cited), short texts in the same style
 * otherwise. Clients key on the code; the texts are for people.
 */
import { AwsError } from '../../wire/errors.js';

const bad = (message: string) => new AwsError('BadRequestException', message, 400);
const notFound = (message: string) => new AwsError('NotFoundException', message, 404);
const conflict = (message: string) => new AwsError('ConflictException', message, 409);

/**
 * DeleteNamespace on a namespace that still holds tables: AWS does not document the code; pyiceberg
 * and the Java S3TablesCatalog both catch ConflictException for it, so that is what they get.
 */
const NAMESPACE_NOT_EMPTY_STATUS = 409;

export const s3tErrors = {
  /** A model constraint violation, with the validator's Coral text. */
  validation: (message: string) => bad(message),
  badRequest: bad,

  invalidBucketName: () => bad('The specified bucket name is not valid.'),
  invalidNamespaceName: () => bad('The specified namespace name is not valid.'),
  invalidTableName: () => bad('The specified table name is not valid.'),
  invalidContinuationToken: () => bad('The continuation token is not valid.'),
  invalidArn: (arn: string) => bad(`The specified ARN is not valid: ${arn}`),

  bucketNotFound: () => notFound('The specified bucket does not exist.'),
  namespaceNotFound: () => notFound('The specified namespace does not exist.'),
  destinationNamespaceNotFound: () => notFound('The specified destination namespace does not exist.'),
  tableNotFound: () => notFound('The specified table does not exist.'),
  resourceNotFound: () => notFound('The request was rejected because the specified resource could not be found.'),
  bucketPolicyNotFound: () => notFound('The specified table bucket policy does not exist.'),
  tablePolicyNotFound: () => notFound('The specified table policy does not exist.'),
  metricsNotFound: () => notFound('The specified table bucket metrics configuration does not exist.'),
  replicationNotFound: () => notFound('The specified replication configuration does not exist.'),

  bucketExists: () => conflict('The bucket that you tried to create already exists, and you own it.'),
  namespaceExists: () => conflict('A namespace with an identical name already exists in the bucket.'),
  tableExists: () => conflict('A table with an identical name already exists in the namespace.'),
  /** Observed: BadRequestException 400 (hashicorp/terraform-provider-aws#43713). */
  bucketNotEmpty: () => bad('The bucket that you tried to delete is not empty.'),
  namespaceNotEmpty: () =>
    new AwsError(
      NAMESPACE_NOT_EMPTY_STATUS === 409 ? 'ConflictException' : 'BadRequestException',
      'The namespace that you tried to delete is not empty.',
      NAMESPACE_NOT_EMPTY_STATUS,
    ),
  versionTokenMismatch: () => conflict('Provided version token does not match the table version token.'),
  invalidMetadataLocation: () => bad('The specified metadata location is not valid.'),

  /** Observed for PutTableReplication (hashicorp/terraform-provider-aws#46675). */
  replicationTokenMissing: () => bad('A version token is not specified'),
  replicationTokenMismatch: () =>
    conflict('Provided version token does not match the replication configuration version token.'),

  /**
   * A write to a replica table. AWS documents replicas as read-only without publishing the error
   * (S3 User Guide, "How S3 Tables replication works"); 403 naming the source table.
   */
  replicaReadOnly: (source: string) =>
    new AwsError(
      'ForbiddenException',
      `The table is a replica of ${source}. Replica tables are read-only: only S3 Tables replication updates them.`,
      403,
    ),
  replicaCompaction: () => new AwsError('ForbiddenException', 'Compaction is not supported on replica tables.', 403),

  recordExpirationNotAllowed: () =>
    new AwsError(
      'MethodNotAllowedException',
      'Record expiration is not available for tables that you create; it is supported only for certain AWS managed tables.',
      405,
    ),
};
