/**
 * Lambda's error codes and messages as AWS sends them (rest-json: `x-amzn-ErrorType` and a body
 * `{"Type": "User", "Message": …}`; the status from the model). Messages follow AWS's wording
 * where it is known: `Function not found: <arn>` names the qualified ARN, a duplicate is
 * `Function already exist: <name>`, a stale RevisionId is refused with PreconditionFailed.
 */
import { serviceModel } from '../../model/service-model.js';
import { validationMessage } from '../../model/validate.js';
import { AwsError } from '../../wire/errors.js';

export const lambdaErrors = {
  validation: (message: string) => new AwsError('ValidationException', message, 400),
  invalidParameter: (message: string) => new AwsError('InvalidParameterValueException', message, 400),
  functionNotFound: (arn: string) => new AwsError('ResourceNotFoundException', `Function not found: ${arn}`, 404),
  aliasNotFound: (arn: string) => new AwsError('ResourceNotFoundException', `Alias not found: ${arn}`, 404),
  /** A policy, or a layer version, that is not there: Lambda's generic wording. */
  resourceNotFound: () =>
    new AwsError('ResourceNotFoundException', 'The resource you requested does not exist.', 404),
  statementNotFound: (id: string, arn: string) =>
    new AwsError('ResourceNotFoundException', `Statement ${id} is not found in resource policy.`, 404, { fields: { arn } }),
  functionExists: (name: string) => new AwsError('ResourceConflictException', `Function already exist: ${name}`, 409),
  aliasExists: (arn: string) => new AwsError('ResourceConflictException', `Alias already exists: ${arn}`, 409),
  statementExists: (id: string) =>
    new AwsError('ResourceConflictException', `The statement id (${id}) provided already exists. Please provide a new statement id, or remove the existing statement.`, 409),
  conflict: (message: string) => new AwsError('ResourceConflictException', message, 409),
  revisionMismatch: () =>
    new AwsError(
      'PreconditionFailedException',
      'The Revision Id provided does not match the latest Revision Id. Call the GetFunction/GetAlias API to retrieve the latest Revision Id',
      412,
    ),
  requestTooLarge: (size: number, limit: number) =>
    new AwsError('RequestTooLargeException', `${size} byte payload is too large for the ${limit === 262_144 ? 'Event' : 'RequestResponse'} invocation type (limit ${limit} bytes)`, 413),
  invalidContent: (detail: string) =>
    new AwsError('InvalidRequestContentException', `Could not parse request body into json: ${detail}`, 400),
  invalidZip: (detail: string) =>
    new AwsError('InvalidParameterValueException', `Could not unzip uploaded file. Please check your file, then try to upload again. (${detail})`, 400),
  codeFromS3: (bucket: string, key: string, reason: string) =>
    new AwsError(
      'InvalidParameterValueException',
      `Error occurred while GetObject. S3 Error Code: ${reason}. S3 Error Message: ${reason === 'NoSuchBucket' ? 'The specified bucket does not exist' : 'The specified key does not exist.'} (s3://${bucket}/${key})`,
      400,
    ),
  unsupportedRuntime: (runtime: string) =>
    new AwsError(
      'InvalidParameterValueException',
      `The runtime parameter of ${runtime} is no longer supported for creating or updating AWS Lambda functions. We recommend you use a supported runtime while creating or updating functions.`,
      400,
    ),
};

/** The model's constraints on an operation's input, checked first as every provider does. */
export function check(operation: string, input: object): void {
  const message = validationMessage(serviceModel('lambda'), operation, input as Record<string, unknown>);
  if (message) throw lambdaErrors.validation(message);
}

/**
 * The optimistic-locking check of Lambda's writes: a `RevisionId` the caller sent must be the
 * current one (`current`; undefined when the target has none yet, which any RevisionId passes).
 */
export function checkRevision(sent: string | undefined, current: string | undefined): void {
  if (sent !== undefined && current !== undefined && sent !== current) throw lambdaErrors.revisionMismatch();
}
