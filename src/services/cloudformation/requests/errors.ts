/**
 * CloudFormation's API errors in AWS's words (reference §1.5 and §5): the model's constraint
 * check and the generic `ValidationError` with its many exact messages, `AlreadyExistsException`, `ChangeSetNotFound`
 * (404), `InvalidChangeSetStatus`, `InsufficientCapabilitiesException`. The CDK and the aws CLI
 * compare some of these messages exactly ("Stack with id X does not exist", "No updates are to be
 * performed.").
 */
import { serviceModel } from '../../../model/service-model.js';
import { validationMessage } from '../../../model/validate.js';
import { AwsError } from '../../../wire/errors.js';

export function validation(message: string): AwsError {
  return new AwsError('ValidationError', message, 400);
}

/**
 * The model's constraints on an action's input (required members, lengths, patterns, enums,
 * ranges), checked first as AWS does, with its "N validation error(s) detected" text.
 */
export function checkInput(operation: string, input: object): void {
  const message = validationMessage(serviceModel('cloudformation'), operation, input ?? {});
  if (message) throw validation(message);
}

export const cfnErrors = {
  /** DescribeStacks and most read APIs; `input` is exactly what the caller sent. */
  stackWithIdNotFound: (input: string) => validation(`Stack with id ${input} does not exist`),
  /** UpdateStack, DescribeStackEvents, change-set APIs. */
  stackNotFound: (input: string) => validation(`Stack [${input}] does not exist`),
  alreadyExists: (name: string) => new AwsError('AlreadyExistsException', `Stack [${name}] already exists`, 400),
  changeSetNotFound: (name: string) => new AwsError('ChangeSetNotFound', `ChangeSet [${name}] does not exist`, 404),
  changeSetExists: (name: string) =>
    new AwsError('AlreadyExistsException', `ChangeSet ${name} cannot be created due to a mismatch with existing attribute Template`, 400),
  noUpdates: () => validation('No updates are to be performed.'),
  cannotUpdate: (stackId: string, status: string) =>
    validation(`Stack:${stackId} is in ${status} state and can not be updated.`),
  terminationProtection: (name: string) =>
    validation(`Stack [${name}] cannot be deleted while TerminationProtection is enabled`),
  cannotDeleteWhile: (status: string) => validation(`Stack cannot be deleted while in status ${status}`),
  invalidChangeSetStatus: (message: string) => new AwsError('InvalidChangeSetStatus', message, 400),
};

export const NO_CHANGES_REASON =
  "The submitted information didn't contain changes. Submit different information to create a change set.";
