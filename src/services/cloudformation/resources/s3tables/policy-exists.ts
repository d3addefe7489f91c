/**
 * What both S3 Tables policy resources share: the real create handlers read the policy first and
 * report AlreadyExists for a resource that has one, in CloudFormation's registry wording.
 */
import { AwsError } from '../../../../wire/errors.js';
import { hasErrorCode } from '../already-gone.js';

export function alreadyExists(type: string, id: string): AwsError {
  return new AwsError('AlreadyExistsException', `Resource of type '${type}' with identifier '${id}' already exists.`, 409);
}

/** Whether `read` finds the policy (NotFoundException: it has none). */
export function exists(read: () => unknown): boolean {
  try {
    read();
    return true;
  } catch (err) {
    if (hasErrorCode(err, ['NotFoundException'])) return false;
    throw err;
  }
}
