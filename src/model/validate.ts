/**
 * Constraint validation of an operation's input against its service model, producing AWS's
 * Coral-style text ("1 validation error detected: Value 'X' at 'name' failed to satisfy
 * constraint: Member must satisfy regular expression pattern: [0-9a-z_]*"). The model is the
 * validation table: required members, length, range, pattern and enum, checked in the model's
 * member order, as the services themselves do. Providers call this first, so the API and the
 * CloudFormation engine get the same errors.
 */
import type { ServiceModel, Shape } from './service-model.js';
import { shapeOf } from './service-model.js';

const regexCache = new Map<string, RegExp | null>();

function compiled(pattern: string): RegExp | null {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(`^(?:${pattern})$`, 'su');
    } catch {
      try {
        re = new RegExp(`^(?:${pattern})$`, 's');
      } catch {
        re = null; // a Java-only construct: skip the check rather than guess
      }
    }
    regexCache.set(pattern, re);
  }
  return re;
}

function render(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return `'${value}'`;
  if (value instanceof Date) return `'${value.toISOString()}'`;
  if (Array.isArray(value)) return `'[${value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}]'`;
  return `'${JSON.stringify(value)}'`;
}

function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** Length in the units Coral counts: code points for strings, items for lists and maps. */
function lengthOf(value: unknown): number | undefined {
  // Only a string with surrogate pairs has fewer code points than UTF-16 units (ARNs never do).
  if (typeof value === 'string') return /[\uD800-\uDFFF]/.test(value) ? [...value].length : value.length;
  if (Array.isArray(value)) return value.length;
  if (value instanceof Uint8Array) return value.length;
  if (value && typeof value === 'object') return Object.keys(value).length;
  return undefined;
}

// Where the value being checked sits, as a stack of segments turned into text ('a.b.1.member')
// only for a message: every request is validated, and nearly every input is valid.
const MEMBER = 0;
const ITEM = 1;
const KEY = 2;
const VALUE = 3;
const kinds: number[] = [];
const segments: (string | number)[] = [];

function enter(kind: number, segment: string | number): void {
  kinds.push(kind);
  segments.push(segment);
}

function leave(): void {
  kinds.pop();
  segments.pop();
}

function pathText(): string {
  let text = '';
  for (let i = 0; i < kinds.length; i++) {
    const seg = segments[i]!;
    if (kinds[i] === MEMBER) text += i === 0 ? seg : `.${seg}`;
    else if (kinds[i] === KEY) text += '.key';
    else text += `.${seg}.member`; // ITEM (1-based index) and VALUE (map key)
  }
  return text;
}

function fail(value: unknown, constraint: string, out: string[]): void {
  out.push(`Value ${render(value)} at '${pathText()}' failed to satisfy constraint: Member must ${constraint}`);
}

function failNull(out: string[]): void {
  out.push(`Value null at '${pathText()}' failed to satisfy constraint: Member must not be null`);
}

function check(model: ServiceModel, shape: Shape, value: unknown, out: string[]): void {
  if (value === undefined || value === null) return;
  switch (shape.type) {
    case 'string': {
      if (typeof value !== 'string') return;
      if (shape.enum && !shape.enum.includes(value)) {
        fail(value, `satisfy enum value set: [${shape.enum.join(', ')}]`, out);
        return;
      }
      const len = lengthOf(value)!;
      if (shape.min !== undefined && len < shape.min) fail(value, `have length greater than or equal to ${shape.min}`, out);
      if (shape.max !== undefined && len > shape.max) fail(value, `have length less than or equal to ${shape.max}`, out);
      if (shape.pattern) {
        const re = compiled(shape.pattern);
        if (re && !re.test(value)) fail(value, `satisfy regular expression pattern: ${shape.pattern}`, out);
      }
      return;
    }
    case 'integer':
    case 'long':
    case 'float':
    case 'double': {
      if (typeof value !== 'number') return;
      if (shape.min !== undefined && value < shape.min) fail(value, `have value greater than or equal to ${shape.min}`, out);
      if (shape.max !== undefined && value > shape.max) fail(value, `have value less than or equal to ${shape.max}`, out);
      return;
    }
    case 'blob': {
      const len = lengthOf(value);
      if (len === undefined) return;
      if (shape.min !== undefined && len < shape.min) fail(value, `have length greater than or equal to ${shape.min}`, out);
      if (shape.max !== undefined && len > shape.max) fail(value, `have length less than or equal to ${shape.max}`, out);
      return;
    }
    case 'list': {
      if (!Array.isArray(value)) return;
      if (shape.min !== undefined && value.length < shape.min) fail(value, `have length greater than or equal to ${shape.min}`, out);
      if (shape.max !== undefined && value.length > shape.max) fail(value, `have length less than or equal to ${shape.max}`, out);
      const member = shapeOf(model, shape.member!.shape);
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        enter(ITEM, i + 1);
        if (item === null || item === undefined) failNull(out);
        else check(model, member, item, out);
        leave();
      }
      return;
    }
    case 'map': {
      if (typeof value !== 'object') return;
      const entries = Object.entries(value as Record<string, unknown>);
      if (shape.min !== undefined && entries.length < shape.min) fail(value, `have length greater than or equal to ${shape.min}`, out);
      if (shape.max !== undefined && entries.length > shape.max) fail(value, `have length less than or equal to ${shape.max}`, out);
      const keyShape = shapeOf(model, shape.key!.shape);
      const valueShape = shapeOf(model, shape.value!.shape);
      for (const [k, v] of entries) {
        enter(KEY, k);
        check(model, keyShape, k, out);
        leave();
        enter(VALUE, k);
        // A map's values are not sparse in these models: a null value is refused, never dropped.
        if (v === null || v === undefined) failNull(out);
        else check(model, valueShape, v, out);
        leave();
      }
      return;
    }
    case 'structure': {
      if (typeof value !== 'object') return;
      checkStructure(model, shape, value as Record<string, unknown>, out);
      return;
    }
    default:
      return;
  }
}

interface MemberCheck {
  name: string;
  /** The member's name as the message's path gives it (first letter lower case). */
  pathName: string;
  shape: string;
  required: boolean;
}

// Per structure shape, its members as the check walks them: every request validates its input,
// and rebuilding the required set and every member's path each time cost more than the checks.
const memberChecks = new WeakMap<Shape, MemberCheck[]>();

function membersOf(shape: Shape): MemberCheck[] {
  let members = memberChecks.get(shape);
  if (!members) {
    const required = new Set(shape.required ?? []);
    members = Object.entries(shape.members ?? {}).map(([name, ref]) => ({
      name,
      pathName: lowerFirst(name),
      shape: ref.shape,
      required: required.has(name),
    }));
    memberChecks.set(shape, members);
  }
  return members;
}

function checkStructure(model: ServiceModel, shape: Shape, value: Record<string, unknown>, out: string[]): void {
  for (const m of membersOf(shape)) {
    const memberValue = value[m.name];
    const missing = memberValue === undefined || memberValue === null;
    if (missing && !m.required) continue;
    enter(MEMBER, m.pathName);
    if (missing) failNull(out);
    else check(model, shapeOf(model, m.shape), memberValue, out);
    leave();
  }
}

/**
 * Validates `input` against the input shape of `operation`; returns the AWS validation message,
 * or undefined when the input satisfies every constraint.
 */
export function validationMessage(model: ServiceModel, operation: string, input: object): string | undefined {
  const op = model.operations[operation];
  if (!op?.input) return undefined;
  const out: string[] = [];
  kinds.length = 0;
  segments.length = 0;
  checkStructure(model, shapeOf(model, op.input.shape), input as Record<string, unknown>, out);
  if (out.length === 0) return undefined;
  const head = out.length === 1 ? '1 validation error detected: ' : `${out.length} validation errors detected: `;
  return head + out.join('; ');
}
