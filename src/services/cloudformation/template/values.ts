/**
 * Small helpers over template values shared by every module of the template layer: recognising
 * an intrinsic function object (exactly one key, `Ref`, `Condition` or `Fn::*`), the `AWS::NoValue`
 * sentinel, and the string coercions CloudFormation applies (numbers and booleans stand for their
 * text wherever a string is expected).
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What `Ref: AWS::NoValue` resolves to; removed from objects and lists by the resolver. */
export const NO_VALUE: unique symbol = Symbol('AWS::NoValue');

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Pushes every item of a template's array onto a walk's stack. `stack.push(...items)` passes them
 * as arguments, and past ~100,000 of them (a 600 KB template can hold 300,000) that overflows the
 * call stack.
 */
export function pushAll(stack: unknown[], items: readonly unknown[]): void {
  for (const x of items) stack.push(x);
}

/** Pushes an object's own values onto a walk's stack (see pushAll). */
export function pushValues(stack: unknown[], o: Record<string, unknown>): void {
  for (const k in o) if (Object.hasOwn(o, k)) stack.push(o[k]);
}

/**
 * Visits every object inside `roots` (arrays are walked through), depth first without recursion,
 * so a deeply nested template cannot overflow the stack. `visit` returns the values to descend
 * into next; nothing returned means all of the object's values.
 */
export function walkObjects(roots: unknown[], visit: (o: Record<string, unknown>) => unknown[] | void): void {
  const stack = [...roots];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      pushAll(stack, v);
      continue;
    }
    if (!isObject(v)) continue;
    const next = visit(v);
    if (next) pushAll(stack, next);
    else pushValues(stack, v);
  }
}

/** The function name when `value` is an intrinsic call (`{ Ref: … }`, `{ 'Fn::Join': … }`), else undefined. */
export function intrinsicName(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  // Every object of a template passes here, in several walks: no array of keys is built.
  let key: string | undefined;
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    if (key !== undefined) return undefined;
    key = k;
  }
  if (key === undefined) return undefined;
  if (key === 'Ref' || key === 'Condition' || key.startsWith('Fn::')) return key;
  return undefined;
}

/** Scalars as CloudFormation passes them: numbers and booleans become their text. */
export function scalarString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return undefined;
}

/** Loose equality as CloudFormation compares values: `10` ≡ `"10"`, `true` ≡ `"true"`, lists member-wise. */
export function looseEquals(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => looseEquals(x, b[i]));
  }
  const sa = scalarString(a);
  const sb = scalarString(b);
  if (sa !== undefined && sb !== undefined) return sa === sb;
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => k in b && looseEquals(a[k], b[k]));
  }
  return a === b;
}

const PSEUDO_PARAMETERS = [
  'AWS::AccountId',
  'AWS::NotificationARNs',
  'AWS::NoValue',
  'AWS::Partition',
  'AWS::Region',
  'AWS::StackId',
  'AWS::StackName',
  'AWS::URLSuffix',
] as const;

export function isPseudoParameter(name: string): boolean {
  return (PSEUDO_PARAMETERS as readonly string[]).includes(name);
}

/** Deep copy of plain JSON-like data (templates never hold anything else). */
export function clone<T>(value: T): T {
  return value === undefined ? value : (structuredClone(value) as T);
}

export const LOGICAL_ID = /^[A-Za-z0-9]+$/;
