/**
 * SSM Parameter Store's error codes and messages as AWS sends them (json-1.1: `__type` + message,
 * all HTTP 400). Where AWS sends no message at all — ParameterNotFound from GetParameter and
 * DeleteParameter, whose SDK v2 `message` is null and whose CLI line ends in ": " — so does
 * Overcast; the CDK keys on the code (`Has the environment been bootstrapped?`).
 */
import { AwsError } from '../../wire/errors.js';

const NAME_RULES =
  'If formed as a path, it can consist of sub-paths divided by slash symbol; each sub-path can be formed as a mix of letters, numbers and the following 3 symbols .-_';

export const ssmErrors = {
  validation: (message: string) => new AwsError('ValidationException', message, 400),
  parameterNotFound: () => new AwsError('ParameterNotFound', '', 400),
  parameterAlreadyExists: () =>
    new AwsError(
      'ParameterAlreadyExists',
      'The parameter already exists. To overwrite this value, set the overwrite option in the request to true.',
      400,
    ),
  versionNotFound: (name: string, version: string | number) =>
    new AwsError(
      'ParameterVersionNotFound',
      `Systems Manager could not find version ${version} of ${name}. Verify the version and try again.`,
      400,
    ),
  reservedPrefix: () =>
    new AwsError('ValidationException', 'Parameter name: can\'t be prefixed with "aws" or "ssm" (case-insensitive).', 400),
  reservedPathPrefix: () =>
    new AwsError('ValidationException', `Parameter name: can't be prefixed with "ssm" (case-insensitive). ${NAME_RULES}`, 400),
  reservedAwsPath: (name: string) => new AwsError('AccessDeniedException', `No access to reserved parameter name: ${name}.`, 400),
  invalidName: () =>
    new AwsError(
      'ValidationException',
      `Parameter name: can't be prefixed with "aws" or "ssm" (case-insensitive). ${NAME_RULES}`,
      400,
    ),
  notFullyQualified: () => new AwsError('ValidationException', 'Parameter name must be a fully qualified name.', 400),
  hierarchyTooDeep: () =>
    new AwsError(
      'HierarchyLevelLimitExceededException',
      'A hierarchy can have a maximum of 15 levels. For more information, see Requirements and constraints for parameter names in the Amazon Web Services Systems Manager User Guide.',
      400,
    ),
  invalidPath: () =>
    new AwsError(
      'ValidationException',
      'The parameter doesn\'t meet the parameter name requirements. The parameter name must begin with a forward slash "/". ' +
        'It can\'t be prefixed with "aws" or "ssm" (case-insensitive). It must use only letters, numbers, or the following symbols: ' +
        '. (period), - (hyphen), _ (underscore). Special characters are not allowed. All sub-paths, if specified, must use the ' +
        'forward slash symbol "/". Valid example: /get/parameters2-/by1./path0_.',
      400,
    ),
  patternMismatch: (pattern: string) =>
    new AwsError('ParameterPatternMismatchException', `Parameter value, cannot be validated against allowedPattern: ${pattern}`, 400),
  invalidAllowedPattern: () =>
    new AwsError('InvalidAllowedPatternException', 'The request does not meet the regular expression requirement.', 400),
  maxVersions: (name: string, oldest: number) =>
    new AwsError(
      'ParameterMaxVersionLimitExceeded',
      `You attempted to create a new version of ${name} by calling the PutParameter API with the overwrite flag. ` +
        `Version ${oldest}, the oldest version, can't be deleted because it has a label associated with it. ` +
        'Move the label to another version of the parameter, and try again.',
      400,
    ),
  invalidPolicyType: () =>
    new AwsError(
      'InvalidPolicyTypeException',
      'The policy type is not supported. Parameter Store supports the following policy types: Expiration, ExpirationNotification, and NoChangeNotification.',
      400,
    ),
  invalidPolicyAttribute: () =>
    new AwsError('InvalidPolicyAttributeException', 'A policy attribute or its value is invalid.', 400),
  policiesLimit: () =>
    new AwsError(
      'PoliciesLimitExceededException',
      'You specified more than the maximum number of allowed policies for the parameter. The maximum is 10.',
      400,
    ),
  labelLimit: () =>
    new AwsError(
      'ParameterVersionLabelLimitExceeded',
      'A parameter version can have maximum 10 labels.Move one or more labels to another version and try again.',
      400,
    ),
  invalidNextToken: () => new AwsError('InvalidNextToken', 'The specified token is not valid.', 400),
  invalidFilterKey: (message: string) => new AwsError('InvalidFilterKey', message, 400),
  invalidFilterOption: (message: string) => new AwsError('InvalidFilterOption', message, 400),
  invalidFilterValue: (message: string) => new AwsError('InvalidFilterValue', message, 400),
  invalidResourceId: () => new AwsError('InvalidResourceId', '', 400),
  invalidResourceType: () => new AwsError('InvalidResourceType', '', 400),
  tooManyTags: () => new AwsError('TooManyTagsError', '', 400),
};
