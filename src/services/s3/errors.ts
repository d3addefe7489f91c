/**
 * S3's error codes, messages and status codes as AWS sends them, with the extra elements
 * (BucketName, Key, …) its XML error documents carry.
 */
import { AwsError } from '../../wire/errors.js';

export const s3Errors = {
  noSuchBucket: (bucket: string) =>
    new AwsError('NoSuchBucket', 'The specified bucket does not exist', 404, { fields: { BucketName: bucket } }),
  noSuchKey: (key: string) => new AwsError('NoSuchKey', 'The specified key does not exist.', 404, { fields: { Key: key } }),
  invalidBucketName: (bucket: string) =>
    new AwsError('InvalidBucketName', 'The specified bucket is not valid.', 400, { fields: { BucketName: bucket } }),
  bucketAlreadyExists: (bucket: string) =>
    new AwsError(
      'BucketAlreadyExists',
      'The requested bucket name is not available. The bucket namespace is shared by all users of the system. Please select a different name and try again.',
      409,
      { fields: { BucketName: bucket } },
    ),
  bucketAlreadyOwnedByYou: (bucket: string) =>
    new AwsError(
      'BucketAlreadyOwnedByYou',
      'Your previous request to create the named bucket succeeded and you already own it.',
      409,
      { fields: { BucketName: bucket } },
    ),
  bucketNotEmpty: (bucket: string) =>
    new AwsError('BucketNotEmpty', 'The bucket you tried to delete is not empty', 409, { fields: { BucketName: bucket } }),
  invalidArgument: (message: string, name?: string, value?: string) =>
    new AwsError('InvalidArgument', message, 400, { fields: { ArgumentName: name, ArgumentValue: value } }),
  malformedXml: () =>
    new AwsError(
      'MalformedXML',
      'The XML you provided was not well-formed or did not validate against our published schema',
      400,
    ),
  methodNotAllowed: (method: string, resource: string) =>
    new AwsError('MethodNotAllowed', 'The specified method is not allowed against this resource.', 405, {
      fields: { Method: method, ResourceType: resource },
    }),
};
