/**
 * The stack-name and change-set-name rules of CreateStack and CreateChangeSet, with AWS's
 * Coral-style messages (the model itself carries no pattern for them).
 */
import { AwsError } from '../../../wire/errors.js';

const STACK_NAME = /^[a-zA-Z][-a-zA-Z0-9]*$/;
const STACK_NAME_PATTERN = '[a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*';
const CHANGE_SET_NAME = /^[a-zA-Z][-a-zA-Z0-9]*$/;

/** CreateStack's name rule, worded as AWS words it (the model itself carries no pattern). */
export function checkStackName(name: string, member = 'stackName'): void {
  if (name.length > 128) {
    throw new AwsError(
      'ValidationError',
      `1 validation error detected: Value '${name}' at '${member}' failed to satisfy constraint: Member must have length less than or equal to 128`,
      400,
    );
  }
  if (!STACK_NAME.test(name)) {
    throw new AwsError(
      'ValidationError',
      `1 validation error detected: Value '${name}' at '${member}' failed to satisfy constraint: Member must satisfy regular expression pattern: ${STACK_NAME_PATTERN}`,
      400,
    );
  }
}

export function checkChangeSetName(name: string): void {
  if (name.length > 128 || !CHANGE_SET_NAME.test(name)) {
    throw new AwsError(
      'ValidationError',
      `1 validation error detected: Value '${name}' at 'changeSetName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*`,
      400,
    );
  }
}
