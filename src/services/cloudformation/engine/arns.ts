/**
 * CloudFormation identifiers: stack and change-set ARNs (`…:stack/<name>/<uuid>`), telling an ARN
 * from a name, the stack-name rule with AWS's Coral-style message, and the names AWS generates for
 * resources whose name property is omitted (`<stack>-<LogicalId>-<RANDOM>`).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Ctx } from '../../../server/runtime.js';
import { AwsError } from '../../../wire/errors.js';

export function stackArn(ctx: Pick<Ctx, 'partition' | 'region' | 'account'>, name: string): string {
  return `arn:${ctx.partition}:cloudformation:${ctx.region}:${ctx.account}:stack/${name}/${randomUUID()}`;
}

export function changeSetArn(ctx: Pick<Ctx, 'partition' | 'region' | 'account'>, name: string): string {
  return `arn:${ctx.partition}:cloudformation:${ctx.region}:${ctx.account}:changeSet/${name}/${randomUUID()}`;
}

export function isArn(value: string): boolean {
  return value.startsWith('arn:');
}

/** The name part of a stack or change-set ARN. */
export function nameFromArn(arn: string): string {
  const resource = arn.split(':').slice(5).join(':');
  return resource.split('/')[1] ?? resource;
}

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

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function randomSuffix(length = 12): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALNUM[b % ALNUM.length];
  return out;
}

/**
 * A generated physical name as AWS makes them: `<stack>-<LogicalId>-<SUFFIX>`, the stack and
 * logical parts shortened so the whole fits `max` characters.
 */
export function generatedName(stackName: string, logicalId: string, max = 255): string {
  const suffix = randomSuffix(12);
  let stack = stackName;
  let logical = logicalId;
  const budget = max - suffix.length - 2;
  while (stack.length + logical.length > budget && (stack.length > 1 || logical.length > 1)) {
    if (stack.length >= logical.length) stack = stack.slice(0, -1);
    else logical = logical.slice(0, -1);
  }
  return `${stack}-${logical}-${suffix}`;
}
