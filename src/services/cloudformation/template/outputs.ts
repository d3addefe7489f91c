/**
 * Outputs: evaluating them once the resources exist (each value must resolve to a string; a
 * list is an error, as on AWS), and the export names an output set declares (export names never
 * depend on resources, so they are known before provisioning — the engine checks clashes with
 * them before it starts).
 */
import { formatError, validationError } from './errors.js';
import { resolveValue, STATIC_SCOPE } from './intrinsics.js';
import { resolveContext } from './prepare.js';
import type { PreparedTemplate, PrepareEnvironment, ResolveContext, ResolveScope } from './types.js';
import { isObject, scalarString } from './values.js';

/** What AWS shows for a Fn::GetAtt of a custom resource that answered `NoEcho: true`. */
const MASKED = '*****';

/** The scope outputs see: a secret resource's attributes are asterisks, its Ref is not. */
function displayScope(scope: ResolveScope): ResolveScope {
  const secret = scope.secret?.bind(scope);
  if (!secret) return scope;
  return {
    ref: (id) => scope.ref(id),
    getAtt(id, attr) {
      const value = scope.getAtt(id, attr);
      return secret(id) ? MASKED : value;
    },
  };
}

/** One evaluated output, as DescribeStacks shows it. */
export interface EvaluatedOutput {
  key: string;
  value: string;
  description?: string;
  exportName?: string;
}

function contextOf(prepared: PreparedTemplate, context: ResolveContext | PrepareEnvironment): ResolveContext {
  const ctx = 'declared' in context ? context : resolveContext(prepared, context);
  return { ...ctx, section: 'Outputs' };
}

function exportName(key: string, name: unknown, ctx: ResolveContext): string {
  const v = scalarString(resolveValue(name, STATIC_SCOPE, ctx));
  if (v === undefined) throw validationError(`Template error: the Export Name of output ${key} must resolve to a string`);
  return v;
}

/**
 * Evaluates the outputs whose Condition holds, in template order. `context` is the operation's
 * ResolveContext (or the environment to build one from).
 */
export function evaluateOutputs(
  prepared: PreparedTemplate,
  scope: ResolveScope,
  context: ResolveContext | PrepareEnvironment,
): EvaluatedOutput[] {
  const ctx = contextOf(prepared, context);
  const shown = displayScope(scope);
  const out: EvaluatedOutput[] = [];
  for (const [key, decl] of Object.entries(prepared.outputs)) {
    const value = resolveValue(decl.Value, shown, ctx);
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      throw formatError('The Value field of every Outputs member must evaluate to a String and not a List.');
    }
    if (isObject(value)) throw formatError('The Value field of every Outputs member must evaluate to a String and not a Map.');
    const text = scalarString(value);
    if (text === undefined) throw formatError('The Value field of every Outputs member must evaluate to a String.');
    const item: EvaluatedOutput = { key, value: text };
    if (typeof decl.Description === 'string') item.description = decl.Description;
    if (isObject(decl.Export)) item.exportName = exportName(key, decl.Export.Name, ctx);
    out.push(item);
  }
  return out;
}

/** The exports the template's active outputs declare: output key and export name, in template order. */
export function declaredExports(
  prepared: PreparedTemplate,
  context: ResolveContext | PrepareEnvironment,
): Array<{ key: string; name: string }> {
  const ctx = contextOf(prepared, context);
  const out: Array<{ key: string; name: string }> = [];
  for (const [key, decl] of Object.entries(prepared.outputs)) {
    if (isObject(decl.Export)) out.push({ key, name: exportName(key, decl.Export.Name, ctx) });
  }
  return out;
}
