/**
 * Validation of a resource's resolved Properties against its type's schema from the spec index,
 * the way CloudFormation's registry validation reports it ("Properties validation failed for
 * resource X with message: #: required key [Y] not found"; several violations as a bracketed
 * list): required keys, extraneous keys, basic types of every value (nested type definitions,
 * lists, maps, unions, tags) and allowed values. Like CloudFormation it accepts scalars written as
 * strings where the schema wants numbers or booleans (templates carry `"5"` and `"true"`), and
 * numbers and booleans where it wants strings (typed-properties.ts turns them into the schema's).
 */
import { resourceType, typeDefinition, type PropertyInfo, type TypeSig } from '../spec/resource-types.js';
import { ResourceFailure, type ResolvedProperties } from './types.js';

function foundType(v: unknown): string {
  if (Array.isArray(v)) return 'JSONArray';
  if (v === null) return 'Null';
  switch (typeof v) {
    case 'string':
      return 'String';
    case 'boolean':
      return 'Boolean';
    case 'number':
      return Number.isInteger(v) ? 'Integer' : 'BigDecimal';
    default:
      return 'JSONObject';
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const TAG: Record<string, PropertyInfo> = { Key: { t: 's', r: 1 }, Value: { t: 's', r: 1 } };

const expected = (path: string, want: string, v: unknown) => `${path}: expected type: ${want}, found: ${foundType(v)}`;

function checkValue(t: TypeSig, v: unknown, path: string, out: string[]): void {
  if (v === undefined || v === null) return;
  if (typeof t === 'string') {
    switch (t) {
      case 's':
      case 'dt':
        if (isObject(v) || Array.isArray(v)) out.push(expected(path, 'String', v));
        return;
      case 'i':
        if (!(Number.isInteger(Number(v)) && (typeof v === 'number' || (typeof v === 'string' && v.trim() !== '')))) {
          out.push(expected(path, 'Integer', v));
        }
        return;
      case 'n':
        if (!(typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))))) {
          out.push(expected(path, 'Number', v));
        }
        return;
      case 'b':
        if (!(typeof v === 'boolean' || (typeof v === 'string' && /^(true|false)$/i.test(v)))) {
          out.push(expected(path, 'Boolean', v));
        }
        return;
      case 'tag':
        checkObject(TAG, v, path, out);
        return;
      default:
        return; // json, null: anything goes
    }
  }
  if ('s' in t) {
    if (isObject(v) || Array.isArray(v)) out.push(expected(path, 'String', v));
    else if (!t.s.includes(String(v))) out.push(`${path}: ${String(v)} is not a valid enum value`);
    return;
  }
  if ('i' in t) {
    checkValue('i', v, path, out);
    if (Number.isInteger(Number(v)) && !t.i.includes(Number(v))) out.push(`${path}: ${String(v)} is not a valid enum value`);
    return;
  }
  if ('ref' in t) {
    const def = typeDefinition(t.ref);
    if (def) checkObject(def.p, v, path, out);
    return;
  }
  if ('arr' in t) {
    if (!Array.isArray(v)) {
      out.push(expected(path, 'JSONArray', v));
      return;
    }
    v.forEach((item, i) => checkValue(t.arr, item, `${path}/${i}`, out));
    return;
  }
  if ('map' in t) {
    if (!isObject(v)) {
      out.push(expected(path, 'JSONObject', v));
      return;
    }
    for (const [k, item] of Object.entries(v)) checkValue(t.map, item, `${path}/${k}`, out);
    return;
  }
  if ('u' in t) {
    const ok = t.u.some((member) => {
      const trial: string[] = [];
      checkValue(member, v, path, trial);
      return trial.length === 0;
    });
    if (!ok) out.push(`${path}: #: no subschema matched out of the total ${t.u.length} subschemas`);
  }
}

// The required keys of each schema object: walking a type's every property for them, on every
// resource, cost more than checking the values a template gives.
const requiredKeys = new WeakMap<Record<string, PropertyInfo>, string[]>();

function required(props: Record<string, PropertyInfo>): string[] {
  let names = requiredKeys.get(props);
  if (!names) requiredKeys.set(props, (names = Object.keys(props).filter((name) => props[name]!.r)));
  return names;
}

function checkObject(props: Record<string, PropertyInfo>, v: unknown, path: string, out: string[]): void {
  if (!isObject(v)) {
    out.push(expected(path, 'JSONObject', v));
    return;
  }
  for (const name of required(props)) {
    if (v[name] === undefined || v[name] === null) out.push(`${path}: required key [${name}] not found`);
  }
  const names = Object.keys(v);
  for (const name of names) {
    if (!Object.hasOwn(props, name)) out.push(`${path}: extraneous key [${name}] is not permitted`);
  }
  for (const name of names) {
    if (Object.hasOwn(props, name)) checkValue(props[name]!.t, v[name], `${path}/${name}`, out);
  }
}

/** The schema violations of `props` for `type` (empty when valid or when the type has no schema). */
export function propertyViolations(type: string, props: ResolvedProperties): string[] {
  const out: string[] = [];
  if (type.startsWith('Custom::') || type === 'AWS::CloudFormation::CustomResource') {
    // Custom resources take any properties; only the service token is required.
    if (props.ServiceToken === undefined) out.push('#: required key [ServiceToken] not found');
    return out;
  }
  const info = resourceType(type);
  if (!info) return out;
  checkObject(info.p, props, '#', out);
  return out;
}

export function violationMessage(logicalId: string, violations: string[]): string {
  const detail = violations.length === 1 ? violations[0] : `[${violations.join(', ')}]`;
  return `Properties validation failed for resource ${logicalId} with message: ${detail}`;
}

/** Throws the CloudFormation-style ResourceFailure when `props` violate the type's schema. */
export function validateProperties(logicalId: string, type: string, props: ResolvedProperties): void {
  const violations = propertyViolations(type, props);
  if (violations.length) throw new ResourceFailure(violationMessage(logicalId, violations));
}
