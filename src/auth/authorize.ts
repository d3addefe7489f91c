/**
 * What every service's strict-mode authorization does once it knows an operation's actions, its
 * resource, the resource's owner and policies: evaluate each action for the verified caller with
 * the global condition keys added to the service's, and refuse the first one denied with the
 * service's error and AWS's message. Overcast's own calls (the CloudFormation engine, background
 * work) carry no caller and are not evaluated.
 */
import type { Ctx } from '../runtime/runtime.js';
import type { AwsError } from '../wire/errors.js';
import { denialMessage, evaluate, globalKeys, type ContextKeys, type PolicyRequest } from './policy.js';

export interface AccessCheck {
  actions: readonly string[];
  /** The resource's ARN; several (S3's DeleteObjects) are each checked, under the same policies and keys. */
  resource: string | readonly string[];
  resourceAccount: string;
  policies: readonly (string | object | undefined)[];
  /** The service's condition keys (lower-cased names). */
  keys?: ContextKeys;
}

/** Each resource of `check` that `ctx.caller` may not act on as every action asks, with AWS's message; no caller, no check. */
function* denials(ctx: Ctx, check: AccessCheck): Generator<[resource: string, message: string]> {
  const caller = ctx.caller;
  if (!caller) return;
  const keys = { ...globalKeys(caller), 'aws:resourceaccount': check.resourceAccount, ...check.keys };
  for (const resource of typeof check.resource === 'string' ? [check.resource] : check.resource) {
    for (const action of check.actions) {
      const request: PolicyRequest = { principal: caller, action, resource, resourceAccount: check.resourceAccount, keys };
      const evaluation = evaluate(check.policies, request);
      if (evaluation.decision !== 'allow') {
        yield [resource, denialMessage(request, evaluation)];
        break;
      }
    }
  }
}

/** Throws `deny(message)` unless `ctx.caller` may perform every action of `check`; no caller, no check. */
export function authorize(ctx: Ctx, check: AccessCheck, deny: (message: string) => AwsError): void {
  for (const [, message] of denials(ctx, check)) throw deny(message);
}

/** The resources of `check` the caller may not act on, for an operation that answers each in its result (S3's DeleteObjects). */
export function refusedResources(ctx: Ctx, check: AccessCheck): Set<string> {
  return new Set(Array.from(denials(ctx, check), ([resource]) => resource));
}
