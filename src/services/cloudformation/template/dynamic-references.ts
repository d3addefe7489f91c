/**
 * Dynamic references in resolved values: `{{resolve:ssm:name[:version]}}` is replaced by the
 * parameter's value, read through the environment (SSM in-process); references to other services
 * (secretsmanager, ssm-secure) are refused with a ValidationError naming them.
 */
import { validationError } from './errors.js';
import type { ResolveContext } from './types.js';
import { isObject } from './values.js';

const DYNAMIC_REFERENCE = /\{\{resolve:([a-z-]+):([^}]*)\}\}/g;

/** Replaces `{{resolve:ssm:name[:version]}}` in a string; other services are refused. */
export function resolveDynamicReferences(text: string, ctx: ResolveContext): string {
  if (!text.includes('{{resolve:')) return text;
  return text.replace(DYNAMIC_REFERENCE, (_m, service: string, ref: string) => {
    if (service !== 'ssm') {
      throw validationError(
        `Dynamic references to ${service} are not supported by Overcast: {{resolve:${service}:${ref}}}. Use {{resolve:ssm:…}} or a parameter.`,
      );
    }
    // `name:version` is also how SSM GetParameter selects a version, so it passes through as is.
    const value = ctx.env.ssmParameter(ref);
    if (value === undefined) {
      const name = ref.replace(/:\d+$/, '');
      throw validationError(`Unable to fetch parameters [${name}] from parameter store for this account.`);
    }
    return value;
  });
}

/** Resolves the dynamic references in every string of a resolved value. */
export function applyDynamicReferences(v: unknown, ctx: ResolveContext): unknown {
  if (typeof v === 'string') return resolveDynamicReferences(v, ctx);
  if (Array.isArray(v)) return v.map((x) => applyDynamicReferences(x, ctx));
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k in v) if (Object.hasOwn(v, k)) out[k] = applyDynamicReferences(v[k], ctx);
    return out;
  }
  return v;
}
