/**
 * Test support for calling resource providers directly: a ResourceContext for a stack in the
 * test server's runtime (account/region as the SDK clients use them), and a helper that awaits a
 * rejection and returns its error.
 */
import { randomUUID } from 'node:crypto';
import { internalCtx } from '../../../src/runtime/runtime.js';
import { nestedStacks } from '../../../src/services/cloudformation/engine/nested.js';
import type { ResourceContext } from '../../../src/services/cloudformation/resources/types.js';
import type { TestServer } from '../../helpers/server.js';

export const ACCOUNT = '000000000000';

export function resourceContext(
  t: TestServer,
  resourceType: string,
  logicalId: string,
  opts: { stackName?: string; strict?: boolean; account?: string } = {},
): ResourceContext {
  const stackName = opts.stackName ?? 'test-stack';
  const account = opts.account ?? ACCOUNT;
  return {
    ctx: internalCtx(t.server.runtime, account, t.region, randomUUID()),
    stackName,
    stackId: `arn:aws:cloudformation:${t.region}:${account}:stack/${stackName}/${randomUUID()}`,
    logicalId,
    resourceType,
    strict: opts.strict ?? false,
    nestedStacks,
  };
}

export async function rejection(p: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await p;
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error('expected the call to fail');
}
