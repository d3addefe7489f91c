/**
 * The Conditions section: static checks (condition functions only, no references to resources,
 * no undefined or circular condition references) and evaluation, each condition once, in
 * dependency order, with Ref to parameters and pseudo parameters and Fn::FindInMap.
 */
import { bracketList, formatError, templateError } from './errors.js';
import { resolveRaw, STATIC_SCOPE } from './intrinsics.js';
import type { ResolveContext, TemplateDoc } from './types.js';
import { intrinsicName, isObject, isPseudoParameter, pushAll, pushValues } from './values.js';

const CONDITION_FUNCTIONS = new Set(['Fn::Equals', 'Fn::And', 'Fn::Or', 'Fn::Not', 'Condition']);

/** Condition names referenced by `{Condition: X}` (and Fn::If) inside a value. */
function conditionReferences(value: unknown, out: string[] = []): string[] {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) pushAll(stack, v);
    else if (isObject(v)) {
      const name = intrinsicName(v);
      if (name === 'Condition' && typeof v.Condition === 'string') out.push(v.Condition);
      else if (name === 'Fn::If' && Array.isArray(v['Fn::If']) && typeof v['Fn::If'][0] === 'string') {
        out.push(v['Fn::If'][0]);
        pushAll(stack, v['Fn::If'].slice(1));
      } else pushValues(stack, v);
    }
  }
  return out;
}

/** Static checks of the Conditions section. */
export function validateConditions(doc: TemplateDoc): void {
  const conditions = doc.Conditions;
  if (conditions === undefined) return;
  if (!isObject(conditions)) throw formatError('Every Conditions member must be an object.');
  const params = isObject(doc.Parameters) ? doc.Parameters : {};
  const resourceRefs: string[] = [];
  const undefinedConditions: string[] = [];
  for (const expr of Object.values(conditions)) {
    const name = intrinsicName(expr);
    if (!name || !CONDITION_FUNCTIONS.has(name)) {
      throw formatError('Conditions can only be boolean operations on parameters and other conditions');
    }
    const stack: unknown[] = [expr];
    while (stack.length) {
      const v = stack.pop();
      if (Array.isArray(v)) pushAll(stack, v);
      else if (isObject(v)) {
        const fn = intrinsicName(v);
        if (fn === 'Ref') {
          const target = v.Ref;
          if (typeof target === 'string' && !isPseudoParameter(target) && !(target in params)) {
            if (!resourceRefs.includes(target)) resourceRefs.push(target);
          }
        } else if (fn === 'Fn::GetAtt') {
          const arg = v['Fn::GetAtt'];
          const target = Array.isArray(arg) ? arg[0] : typeof arg === 'string' ? arg.split('.')[0] : undefined;
          if (typeof target === 'string' && !resourceRefs.includes(target)) resourceRefs.push(target);
        } else if (fn === 'Condition') {
          if (typeof v.Condition !== 'string') throw templateError('All Conditions must be of type string');
          if (!(v.Condition in conditions) && !undefinedConditions.includes(v.Condition)) {
            undefinedConditions.push(v.Condition);
          }
        } else pushValues(stack, v);
      }
    }
  }
  if (resourceRefs.length) {
    throw formatError(
      `Unresolved dependencies ${bracketList(resourceRefs)}. Cannot reference resources in the Conditions block of the template`,
    );
  }
  if (undefinedConditions.length) {
    throw formatError(`Unresolved condition dependencies ${bracketList(undefinedConditions)} in the Conditions block of the template`);
  }
  conditionOrder(conditions as Record<string, unknown>);
}

/**
 * The conditions in evaluation order (those a condition names come first), found iteratively so
 * a long chain cannot overflow the stack. Throws on circular references.
 */
function conditionOrder(conditions: Record<string, unknown>): string[] {
  const names = Object.keys(conditions);
  const deps = new Map(names.map((n) => [n, [...new Set(conditionReferences(conditions[n]))].filter((d) => d in conditions)]));
  const dependents = new Map<string, string[]>(names.map((n) => [n, []]));
  const pending = new Map<string, number>();
  for (const n of names) {
    pending.set(n, deps.get(n)!.length);
    for (const d of deps.get(n)!) dependents.get(d)!.push(n);
  }
  const ready = names.filter((n) => pending.get(n) === 0);
  const order: string[] = [];
  while (ready.length) {
    const n = ready.pop()!;
    order.push(n);
    for (const m of dependents.get(n)!) {
      const left = pending.get(m)! - 1;
      pending.set(m, left);
      if (left === 0) ready.push(m);
    }
  }
  if (order.length < names.length) {
    // Peel what merely hangs off a cycle; the rest are its members.
    const left = new Set(names.filter((n) => pending.get(n)! > 0));
    for (let changed = true; changed; ) {
      changed = false;
      for (const n of left) {
        if (!dependents.get(n)!.some((m) => left.has(m))) {
          left.delete(n);
          changed = true;
        }
      }
    }
    throw templateError(`Found circular condition dependency: ${bracketList(names.filter((n) => left.has(n)))}`);
  }
  return order;
}

/** Evaluates every condition (static checks must have passed). */
export function evaluateConditions(doc: TemplateDoc, base: Omit<ResolveContext, 'conditions' | 'section'>): Record<string, boolean> {
  const conditions = isObject(doc.Conditions) ? doc.Conditions : {};
  const values: Record<string, boolean> = {};
  const ctx: ResolveContext = { ...base, conditions: values, section: 'Conditions' };
  for (const name of conditionOrder(conditions)) {
    const v = resolveRaw(conditions[name], STATIC_SCOPE, ctx);
    values[name] = v === true || v === 'true';
  }
  // Template order, as the section declares them.
  const out: Record<string, boolean> = {};
  for (const name of Object.keys(conditions)) out[name] = values[name]!;
  return out;
}
