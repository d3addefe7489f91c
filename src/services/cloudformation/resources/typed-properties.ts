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

function coerce(t: TypeSig, v: unknown): unknown {
  if (v === undefined || v === null) return v;
  if (typeof t === 'string') return t === 'tag' ? coerceObject({ Key: { t: 's' }, Value: { t: 's' } }, v) : coerceScalar(t, v);
  if ('s' in t) return coerceScalar('s', v);
  if ('i' in t) return coerceScalar('i', v);
  if ('ref' in t) {
    const def = typeDefinition(t.ref);
    return def ? coerceObject(def.p, v) : v;
  }
  if ('arr' in t) return Array.isArray(v) ? v.map((item) => coerce(t.arr, item)) : v;
  if ('map' in t) return isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, item]) => [k, coerce(t.map, item)])) : v;
  // A union: the value as it came (validation found a member it fits).
  return v;
}

function coerceObject(props: Record<string, PropertyInfo>, v: unknown): unknown {
  if (!isObject(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([name, value]) => [name, props[name] ? coerce(props[name].t, value) : value]));
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
export function coerceProperties<T extends keyof ResourceProperties>(type: T, props: ResolvedProperties): ResourceProperties[T] {
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
