/**
 * The Rules section: static shape checks, and evaluation after parameters are resolved and
 * before anything is provisioned. A rule whose RuleCondition is false is skipped; a false
 * Assert refuses the operation with its AssertDescription (AWS's behaviour). The rule-only
 * functions (Contains, EachMemberEquals, EachMemberIn, RefAll, ValueOf, ValueOfAll) live in
 * intrinsics.ts and are allowed here only.
 */
import { formatError, validationError } from './errors.js';
import { resolveRaw, STATIC_SCOPE } from './intrinsics.js';
import type { ResolveContext, TemplateDoc } from './types.js';
import { isObject } from './values.js';

/** Static checks of the Rules section. */
export function validateRules(doc: TemplateDoc): void {
  const rules = doc.Rules;
  if (rules === undefined) return;
  if (!isObject(rules)) throw formatError('Every Rules member must be an object.');
  for (const [name, rule] of Object.entries(rules)) {
    if (!isObject(rule)) throw formatError(`Rule ${name} must be an object.`);
    for (const key of Object.keys(rule)) {
      if (key !== 'RuleCondition' && key !== 'Assertions') throw formatError(`Invalid rule property '${key}' in rule ${name}`);
    }
    if (!Array.isArray(rule.Assertions)) throw formatError(`Rule ${name} must contain an Assertions list.`);
    for (const a of rule.Assertions) {
      if (!isObject(a) || !('Assert' in a)) throw formatError(`Every Assertions member of rule ${name} must contain an Assert member.`);
      for (const key of Object.keys(a)) {
        if (key !== 'Assert' && key !== 'AssertDescription') throw formatError(`Invalid assertion property '${key}' in rule ${name}`);
      }
    }
  }
}

function truthy(v: unknown): boolean {
  return v === true || v === 'true';
}

/** Evaluates every rule; throws the first failing assertion's AssertDescription. */
export function evaluateRules(doc: TemplateDoc, ctx: ResolveContext): void {
  const rules = isObject(doc.Rules) ? doc.Rules : {};
  const rc: ResolveContext = { ...ctx, section: 'Rules' };
  for (const [name, rule] of Object.entries(rules)) {
    if (!isObject(rule)) continue;
    if (rule.RuleCondition !== undefined && !truthy(resolveRaw(rule.RuleCondition, STATIC_SCOPE, rc))) continue;
    for (const a of (rule.Assertions as Array<Record<string, unknown>>) ?? []) {
      if (truthy(resolveRaw(a.Assert, STATIC_SCOPE, rc))) continue;
      const description = typeof a.AssertDescription === 'string' ? a.AssertDescription : `Assertion failed for rule ${name}`;
      throw validationError(description);
    }
  }
}
