/**
 * Step Functions' errors as AWS sends them (json-1.0: `{"__type": code, "message"}`, status 400),
 * in AWS's words: `State Machine Does Not Exist: '<arn>'`, `Invalid State Machine Definition:
 * '<CODE>: …'` and the like.
 */
import { serviceModel } from '../../model/service-model.js';
import { validationMessage } from '../../model/validate.js';
import { AwsError } from '../../wire/errors.js';

export const sfnErrors = {
  validation: (message: string) => new AwsError('ValidationException', message, 400),
  invalidArn: (arn: string) => new AwsError('InvalidArn', `Invalid Arn: 'Resource type not valid in this context: ${arn}'`, 400),
  invalidName: (name: string) => new AwsError('InvalidName', `Invalid Name: '${name}'`, 400),
  invalidDefinition: (detail: string) => new AwsError('InvalidDefinition', `Invalid State Machine Definition: '${detail}'`, 400),
  invalidInput: (detail: string) => new AwsError('InvalidExecutionInput', `Invalid State Machine Execution Input: '${detail}'`, 400),
  stateMachineNotFound: (arn: string) => new AwsError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${arn}'`, 400),
  stateMachineExists: (arn: string) => new AwsError('StateMachineAlreadyExists', `State Machine Already Exists: '${arn}'`, 400),
  executionNotFound: (arn: string) => new AwsError('ExecutionDoesNotExist', `Execution Does Not Exist: '${arn}'`, 400),
  executionExists: (arn: string) => new AwsError('ExecutionAlreadyExists', `Execution Already Exists: '${arn}'`, 400),
  missingParameter: (message: string) => new AwsError('MissingRequiredParameter', message, 400),
  invalidToken: () => new AwsError('InvalidToken', 'Invalid Token', 400),
};

/** The model's constraints on an operation's input, checked first. */
export function check(operation: string, input: object): void {
  const message = validationMessage(serviceModel('stepfunctions'), operation, input as Record<string, unknown>);
  if (message) throw sfnErrors.validation(message);
}
