/**
 * What the engine knows about every CloudFormation resource type, from the compact index that
 * `npm run build` derives from @aws-cdk/aws-service-spec (scripts/build-cfn-spec.mjs): properties
 * with their type, required and replacement (`causesReplacement`) flags, attributes for GetAtt,
 * identifiers for Ref, ARN templates and tag information. Read lazily, on first use.
 */
import { readFileSync } from 'node:fs';

/** A property type: 's' string, 'n' number, 'i' integer, 'b' boolean, 'j' json, 'dt' date-time, … */
export type TypeSig =
  | 's'
  | 'n'
  | 'i'
  | 'b'
  | 'j'
  | 'dt'
  | 'null'
  | 'tag'
  | { s: string[] }
  | { i: number[] }
  | { ref: string }
  | { arr: TypeSig }
  | { map: TypeSig }
  | { u: TypeSig[] };

export interface PropertyInfo {
  t: TypeSig;
  /** Required. */
  r?: 1;
  /** Changing it replaces the resource ('yes') or may ('maybe'). */
  c?: 'yes' | 'maybe';
  /** Default value, as the spec writes it. */
  d?: string;
}

export interface ResourceTypeInfo {
  p: Record<string, PropertyInfo>;
  /** Attributes available to Fn::GetAtt (nested ones dotted). */
  a: string[];
  /** Primary identifier properties. */
  id?: string[];
  /** What Ref returns when it differs from the primary identifier. */
  ref?: string[];
  /** ARN template, e.g. `arn:${Partition}:s3tables:${Region}:${Account}:bucket/${TableBucketName}`. */
  arn?: string;
  /** [tag property name, variant ('standard' | 'asg' | 'map')]. */
  tag?: [string, string];
  /** Transform that must be declared to use the type (SAM). */
  tr?: string;
}

export interface TypeDefinitionInfo {
  n: string;
  p: Record<string, PropertyInfo>;
}

interface SpecIndex {
  specVersion: string;
  types: Record<string, ResourceTypeInfo>;
  defs: Record<string, TypeDefinitionInfo>;
}

let index: SpecIndex | undefined;

function load(): SpecIndex {
  if (!index) {
    const url = new URL('../../../models/cfn-spec.json', import.meta.url);
    index = JSON.parse(readFileSync(url, 'utf8')) as SpecIndex;
  }
  return index;
}

export function resourceType(type: string): ResourceTypeInfo | undefined {
  return load().types[type];
}

export function typeDefinition(id: string): TypeDefinitionInfo | undefined {
  return load().defs[id];
}

export function specVersion(): string {
  return load().specVersion;
}

/** The replacement effect of changing top-level property `name` of `type`. */
export function replacementOf(type: string, name: string): 'yes' | 'maybe' | 'no' {
  return resourceType(type)?.p[name]?.c ?? 'no';
}
