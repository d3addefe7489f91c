/**
 * S3's error codes, messages and status codes as AWS sends them, with the extra elements
 * (BucketName, Key, UploadId, RangeRequested, Condition, …) its XML error documents carry, so
 * clients that switch on the code or read the fields see what they see against AWS.
 */
import { AwsError } from '../../wire/errors.js';

const e = (code: string, message: string, status: number, fields?: Record<string, string | number | undefined>) =>
  new AwsError(code, message, status, { fields });

export const s3Errors = {
  noSuchBucket: (bucket: string) => e('NoSuchBucket', 'The specified bucket does not exist', 404, { BucketName: bucket }),
  noSuchKey: (key: string) => e('NoSuchKey', 'The specified key does not exist.', 404, { Key: key }),
  noSuchUpload: (uploadId: string) =>
    e(
      'NoSuchUpload',
      'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
      404,
      { UploadId: uploadId },
    ),
  invalidBucketName: (bucket: string) => e('InvalidBucketName', 'The specified bucket is not valid.', 400, { BucketName: bucket }),
  bucketAlreadyExists: (bucket: string) =>
    e(
      'BucketAlreadyExists',
      'The requested bucket name is not available. The bucket namespace is shared by all users of the system. Please select a different name and try again.',
      409,
      { BucketName: bucket },
    ),
  bucketAlreadyOwnedByYou: (bucket: string) =>
    e('BucketAlreadyOwnedByYou', 'Your previous request to create the named bucket succeeded and you already own it.', 409, {
      BucketName: bucket,
    }),
  bucketNotEmpty: (bucket: string) =>
    e('BucketNotEmpty', 'The bucket you tried to delete is not empty', 409, { BucketName: bucket }),
  invalidLocationConstraint: (constraint: string) =>
    e('InvalidLocationConstraint', 'The specified location-constraint is not valid', 400, { LocationConstraint: constraint }),
  illegalLocationConstraint: (constraint: string | undefined) =>
    e(
      'IllegalLocationConstraintException',
      `The ${constraint ?? 'unspecified'} location constraint is incompatible for the region specific endpoint this request was sent to.`,
      400,
    ),
  invalidArgument: (message: string, name?: string, value?: string | number) =>
    e('InvalidArgument', message, 400, { ArgumentName: name, ArgumentValue: value }),
  invalidRequest: (message: string) => e('InvalidRequest', message, 400),
  malformedXml: () =>
    e('MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema', 400),
  malformedPolicy: (message: string) => e('MalformedPolicy', message, 400),
  methodNotAllowed: (method: string, resource: string) =>
    e('MethodNotAllowed', 'The specified method is not allowed against this resource.', 405, {
      Method: method,
      ResourceType: resource,
    }),
  invalidRange: (requested: string, size: number) =>
    e('InvalidRange', 'The requested range is not satisfiable', 416, { RangeRequested: requested, ActualObjectSize: size }),
  invalidPartNumber: (requested: number, count: number) =>
    e('InvalidPartNumber', 'The requested partnumber is not satisfiable', 416, {
      PartNumberRequested: requested,
      ActualPartCount: count,
    }),
  preconditionFailed: (condition: string) =>
    e('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', 412, { Condition: condition }),
  conditionalRequestConflict: (condition: string, key: string) =>
    e(
      'ConditionalRequestConflict',
      'The conditional request cannot succeed due to a conflicting operation against this resource.',
      409,
      { Condition: condition, Key: key },
    ),
  notModified: (etag: string, lastModified: Date) =>
    new AwsError('NotModified', 'Not Modified', 304, {
      headers: { etag, 'last-modified': lastModified.toUTCString() },
    }),
  notImplemented: (header: string, message = 'A header you provided implies functionality that is not implemented') =>
    e('NotImplemented', message, 501, { Header: header }),
  badDigest: (expected: string, calculated: string) =>
    e('BadDigest', 'The Content-MD5 you specified did not match what we received.', 400, {
      ExpectedDigest: expected,
      CalculatedDigest: calculated,
    }),
  badChecksum: (alg: string) => e('BadDigest', `The ${alg} you specified did not match the calculated checksum.`, 400),
  invalidDigest: (value: string) =>
    e('InvalidDigest', 'The Content-MD5 you specified was invalid.', 400, { 'Content-MD5': value }),
  entityTooSmall: (proposed: number, partNumber: number, etag: string) =>
    e('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size', 400, {
      ProposedSize: proposed,
      MinSizeAllowed: 5 * 1024 * 1024,
      PartNumber: partNumber,
      ETag: etag,
    }),
  entityTooLarge: (proposed: number, max: number) =>
    e('EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size', 400, {
      ProposedSize: proposed,
      MaxSizeAllowed: max,
    }),
  invalidPart: (uploadId: string, partNumber: number, etag: string | undefined) =>
    e(
      'InvalidPart',
      "One or more of the specified parts could not be found.  The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
      400,
      { UploadId: uploadId, PartNumber: partNumber, ETag: etag },
    ),
  invalidPartOrder: (uploadId: string) =>
    e('InvalidPartOrder', 'The list of parts was not in ascending order. Parts must be ordered by part number.', 400, {
      UploadId: uploadId,
    }),
  incompleteBody: () =>
    e('IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header', 400),
  maxMessageLengthExceeded: () => e('MaxMessageLengthExceeded', 'Your request was too big.', 400),
  missingContentLength: () => e('MissingContentLength', 'You must provide the Content-Length HTTP header.', 411),
  keyTooLong: (size: number) => e('KeyTooLongError', 'Your key is too long', 400, { MaxSizeAllowed: 1024, Size: size }),
  invalidStorageClass: (value: string) =>
    e('InvalidStorageClass', 'The storage class you specified is not valid', 400, { StorageClassRequested: value }),
  invalidTag: (message: string, key?: string) => e('InvalidTag', message, 400, { TagKey: key }),
  accessDenied: (message = 'Access Denied', fields?: Record<string, string>) => e('AccessDenied', message, 403, fields),
  notFoundConfig: (code: string, message: string, bucket: string) => e(code, message, 404, { BucketName: bucket }),
};
