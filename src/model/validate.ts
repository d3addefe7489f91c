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

function check(model: ServiceModel, shape: Shape, value: unknown, path: string, out: string[]): void {
  if (value === undefined || value === null) return;
  const fail = (constraint: string) =>
    out.push(`Value ${render(value)} at '${path}' failed to satisfy constraint: Member must ${constraint}`);
  switch (shape.type) {
    case 'string': {
      if (typeof value !== 'string') return;
      if (shape.enum && !shape.enum.includes(value)) {
        fail(`satisfy enum value set: [${shape.enum.join(', ')}]`);
        return;
      }
      const len = lengthOf(value)!;
      if (shape.min !== undefined && len < shape.min) fail(`have length greater than or equal to ${shape.min}`);
      if (shape.max !== undefined && len > shape.max) fail(`have length less than or equal to ${shape.max}`);
      if (shape.pattern) {
        const re = compiled(shape.pattern);
        if (re && !re.test(value)) fail(`satisfy regular expression pattern: ${shape.pattern}`);
      }
      return;
    }
    case 'integer':
    case 'long':
    case 'float':
    case 'double': {
      if (typeof value !== 'number') return;
      if (shape.min !== undefined && value < shape.min) fail(`have value greater than or equal to ${shape.min}`);
      if (shape.max !== undefined && value > shape.max) fail(`have value less than or equal to ${shape.max}`);
      return;
    }
    case 'blob': {
      const len = lengthOf(value);
      if (len === undefined) return;
      if (shape.min !== undefined && len < shape.min) fail(`have length greater than or equal to ${shape.min}`);
      if (shape.max !== undefined && len > shape.max) fail(`have length less than or equal to ${shape.max}`);
      return;
    }
    case 'list': {
      if (!Array.isArray(value)) return;
      if (shape.min !== undefined && value.length < shape.min) fail(`have length greater than or equal to ${shape.min}`);
      if (shape.max !== undefined && value.length > shape.max) fail(`have length less than or equal to ${shape.max}`);
      const member = shapeOf(model, shape.member!.shape);
      value.forEach((item, i) => {
        if (item === null || item === undefined) {
          out.push(`Value null at '${path}.${i + 1}.member' failed to satisfy constraint: Member must not be null`);
        } else check(model, member, item, `${path}.${i + 1}.member`, out);
      });
      return;
    }
    case 'map': {
      if (typeof value !== 'object') return;
      const entries = Object.entries(value as Record<string, unknown>);
      if (shape.min !== undefined && entries.length < shape.min) fail(`have length greater than or equal to ${shape.min}`);
      if (shape.max !== undefined && entries.length > shape.max) fail(`have length less than or equal to ${shape.max}`);
      const keyShape = shapeOf(model, shape.key!.shape);
      const valueShape = shapeOf(model, shape.value!.shape);
      for (const [k, v] of entries) {
        check(model, keyShape, k, `${path}.key`, out);
        // A map's values are not sparse in these models: a null value is refused, never dropped.
        if (v === null || v === undefined) out.push(`Value null at '${path}.${k}.member' failed to satisfy constraint: Member must not be null`);
        else check(model, valueShape, v, `${path}.${k}.member`, out);
      }
      return;
    }
    case 'structure': {
      if (typeof value !== 'object') return;
      checkStructure(model, shape, value as Record<string, unknown>, `${path}.`, out);
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

function checkStructure(
  model: ServiceModel,
  shape: Shape,
  value: Record<string, unknown>,
  prefix: string,
  out: string[],
): void {
  for (const m of membersOf(shape)) {
    const memberValue = value[m.name];
    if (memberValue === undefined || memberValue === null) {
      if (m.required) out.push(`Value null at '${prefix}${m.pathName}' failed to satisfy constraint: Member must not be null`);
      continue;
    }
    check(model, shapeOf(model, m.shape), memberValue, `${prefix}${m.pathName}`, out);
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
  checkStructure(model, shapeOf(model, op.input.shape), input as Record<string, unknown>, '', out);
  if (out.length === 0) return undefined;
  const head = out.length === 1 ? '1 validation error detected: ' : `${out.length} validation errors detected: `;
  return head + out.join('; ');
}
