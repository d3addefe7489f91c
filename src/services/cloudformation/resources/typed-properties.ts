/**
 * A resource's resolved Properties as the typed interface the spec gives its type
 * (spec/property-types.ts): validated against the type's schema first (property-schema.ts), then
 * every scalar turned into the type the schema declares — templates write numbers and booleans as
 * strings (`"5"`, `"true"`), and CloudFormation accepts numbers and booleans where it wants
 * strings — so a provider maps typed values onto the SDK's input types without reading each one
 * through a converter. The input is not changed; the engine keeps the properties as resolved.
 */
import type { ResourceProperties } from '../spec/property-types.js';
import { resourceType, typeDefinition, type PropertyInfo, type TypeSig } from '../spec/resource-types.js';
import { propertyViolations, violationMessage } from './property-schema.js';
import { ResourceFailure, type ResolvedProperties, type ResourceContext, type ResourceProvider } from './types.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function coerceScalar(t: string, v: unknown): unknown {
  switch (t) {
    case 's':
    case 'dt':
      return typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
    case 'n':
    case 'i':
      return typeof v === 'string' ? Number(v) : v;
    case 'b':
      return typeof v === 'string' ? v.toLowerCase() === 'true' : v;
    default:
      return v;
  }
}

const TAG: Record<string, PropertyInfo> = { Key: { t: 's' }, Value: { t: 's' } };

// Copy on write: templates rarely need a value converted, and rebuilding every object and list
// of every resource's properties cost more than the checks.
function coerce(t: TypeSig, v: unknown): unknown {
  if (v === undefined || v === null) return v;
  if (typeof t === 'string') return t === 'tag' ? coerceObject(TAG, v) : coerceScalar(t, v);
  if ('s' in t) return coerceScalar('s', v);
  if ('i' in t) return coerceScalar('i', v);
  if ('ref' in t) {
    const def = typeDefinition(t.ref);
    return def ? coerceObject(def.p, v) : v;
  }
  if ('arr' in t) {
    if (!Array.isArray(v)) return v;
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const item = coerce(t.arr, v[i]);
      if (item !== v[i]) (out ??= v.slice())[i] = item;
    }
    return out ?? v;
  }
  if ('map' in t) return isObject(v) ? coerceMembers(v, () => t.map) : v;
  // A union: the value as it came (validation found a member it fits).
  return v;
}

function coerceMembers(v: Record<string, unknown>, typeOf: (name: string) => TypeSig | undefined): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const name in v) {
    if (!Object.hasOwn(v, name)) continue;
    const value = v[name];
    const t = typeOf(name);
    const typed = t === undefined ? value : coerce(t, value);
    if (typed !== value) (out ??= { ...v })[name] = typed;
  }
  return out ?? v;
}

function coerceObject(props: Record<string, PropertyInfo>, v: unknown): unknown {
  return isObject(v) ? coerceMembers(v, (name) => props[name]?.t) : v;
}

/**
 * `props` validated against `type`'s schema (a violation is the resource's failure, in
 * CloudFormation's words) and typed as the spec declares them.
 */
export function typedProperties<T extends keyof ResourceProperties>(
  rc: Pick<ResourceContext, 'logicalId'>,
  type: T,
  props: ResolvedProperties,
): ResourceProperties[T] {
  const violations = propertyViolations(type, props);
  if (violations.length) throw new ResourceFailure(violationMessage(rc.logicalId, violations));
  return coerceProperties(type, props);
}

/** Properties validated when they were deployed (an update's previous ones), typed the same way. */
function coerceProperties<T extends keyof ResourceProperties>(type: T, props: ResolvedProperties): ResourceProperties[T] {
  const info = resourceType(type);
  return (info ? coerceObject(info.p, props) : props) as ResourceProperties[T];
}

/** An update's new properties (validated and typed) and its previous ones (typed). */
export function typedChange<T extends keyof ResourceProperties>(
  rc: Pick<ResourceContext, 'logicalId'>,
  type: T,
  props: ResolvedProperties,
  previous: { props: ResolvedProperties },
): { props: ResourceProperties[T]; old: ResourceProperties[T] } {
  return { props: typedProperties(rc, type, props), old: coerceProperties(type, previous.props) };
}

/**
 * The update of a type whose every property is create-only (the engine replaces it on any change
 * the spec knows of): the new properties are checked and the resource stays as it is.
 */
export function createOnlyUpdate<T extends keyof ResourceProperties>(type: T): ResourceProvider['update'] {
  return async (rc, resolved, previous) => {
    typedProperties(rc, type, resolved);
    return previous.state;
  };
}
