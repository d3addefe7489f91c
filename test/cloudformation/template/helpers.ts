/**
 * Shared fixtures for the template-layer unit tests: an environment with SSM parameters, exports
 * and availability zones held in maps, a scope whose resources answer Ref and GetAtt from a
 * table, and a helper that asserts a ValidationError with an exact message.
 */
import { expect } from 'vitest';
import { pseudoParametersFor } from '../../../src/services/cloudformation/template/index.js';
import type { PrepareEnvironment, ResolveScope } from '../../../src/services/cloudformation/template/types.js';

export function makeEnv(
  options: { ssm?: Record<string, string>; exports?: Record<string, string>; region?: string; notificationArns?: string[] } = {},
): PrepareEnvironment {
  const region = options.region ?? 'us-east-1';
  return {
    pseudo: pseudoParametersFor({
      accountId: '123456789012',
      region,
      stackName: 'demo',
      stackId: `arn:aws:cloudformation:${region}:123456789012:stack/demo/11111111-2222-3333-4444-555555555555`,
      notificationArns: options.notificationArns ?? [],
    }),
    ssmParameter: (name) => options.ssm?.[name],
    exportValue: (name) => options.exports?.[name],
    availabilityZones: (r) => (r === region ? ['a', 'b', 'c'].map((s) => `${r}${s}`) : []),
  };
}

/** A scope where resource X has physical id `X-id` and attributes `{Attr}` → `X.Attr-value`. */
export function tableScope(extra: Record<string, Record<string, unknown>> = {}): ResolveScope {
  return {
    ref: (id) => `${id}-id`,
    getAtt: (id, attr) => extra[id]?.[attr] ?? `${id}.${attr}-value`,
  };
}

/** Runs fn and asserts a ValidationError (or `code`) with exactly `message`. */
export function expectError(fn: () => unknown, message: string | RegExp, code = 'ValidationError'): void {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error, 'expected an error').toBeDefined();
  const e = error as { name?: string; message?: string; status?: number };
  expect(e.name).toBe(code);
  if (typeof message === 'string') expect(e.message).toBe(message);
  else expect(e.message).toMatch(message);
  expect(e.status).toBe(400);
}
