/**
 * Per-resource change computation, shared by change sets (reported before anything runs) and by
 * updates (decided while running, with real values). A resource is added, removed, unchanged,
 * modified in place or replaced; replacement comes from the resource type's create-only
 * properties in the spec index (`causesReplacement: 'yes'` → Always, `'maybe'` → Conditionally)
 * and from a changed Type. Before execution, a value that depends on a resource being added or
 * replaced is unknown: it is resolved to a marker and reported as `Evaluation: Dynamic` with the
 * causing resource (`ResourceReference` for Ref, `ResourceAttribute` for GetAtt), so `Always` +
 * `Dynamic` gives `Replacement: Conditional`, as AWS reports it (reference §2.5, §6).
 *
 * planResource is one long function on purpose: the decision table of one resource's change (type,
 * properties, policies, tags) reads best in one place.
 */
import type { Change, ResourceChangeDetail, Tag } from '@aws-sdk/client-cloudformation';
import { replacementOf, resourceType } from '../spec/resource-types.js';
import type { PreparedResource, ResolveScope } from '../template/types.js';
import type { ResourceVersion, StoredParameter } from './state.js';
import { mergeTags } from './stack-tags.js';

const MARK = '\u0000overcast-dynamic:';
const MARK_RE = /\u0000overcast-dynamic:([^\u0000]+)\u0000/g;

function dynamicMarker(entity: string): string {
  return `${MARK}${entity}\u0000`;
}

/** Entities (`Res` for Ref, `Res.Attr` for GetAtt) whose unknown values a resolved value contains. */
export function dynamicCauses(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (value.includes(MARK)) for (const m of value.matchAll(MARK_RE)) out.add(m[1]!);
  } else if (Array.isArray(value)) {
    for (const v of value) dynamicCauses(v, out);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) dynamicCauses(v, out);
  }
  return out;
}

/** Loose equality as CloudFormation compares values: `10` ≡ `"10"`, `true` ≡ `"true"`. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  const scalar = (v: unknown) =>
    typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
  const sa = scalar(a);
  const sb = scalar(b);
  if (sa !== undefined && sb !== undefined) return sa === sb;
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
    const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => k in rb && sameValue(ra[k], rb[k]));
  }
  return false;
}

const NON_PROPERTY_ATTRIBUTES = ['Metadata', 'DeletionPolicy', 'UpdateReplacePolicy', 'UpdatePolicy', 'CreationPolicy'] as const;

export type RequiresRecreation = 'Never' | 'Conditionally' | 'Always';

export interface PropertyChange {
  attribute: 'Properties' | 'Tags' | (typeof NON_PROPERTY_ATTRIBUTES)[number];
  name?: string;
  requiresRecreation: RequiresRecreation;
  evaluation: 'Static' | 'Dynamic';
  changeSource: 'DirectModification' | 'ResourceReference' | 'ResourceAttribute' | 'ParameterReference';
  causingEntity?: string;
  before?: unknown;
  after?: unknown;
  changeType: 'Add' | 'Remove' | 'Modify';
}

export interface ResourcePlan {
  logicalId: string;
  type: string;
  action: 'Add' | 'Modify' | 'Remove' | 'None' | 'Import';
  physicalId?: string;
  /** Import only: the existing resource's primary identifier (engine/import-plan.ts). */
  identifier?: Record<string, string>;
  /** Modify only. */
  replacement?: 'True' | 'False' | 'Conditional';
  changes: PropertyChange[];
  /** The type itself changed (always a replacement). */
  typeChanged?: boolean;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  policyAction?: string;
}

function recreationOf(type: string, prop: string): RequiresRecreation {
  const r = replacementOf(type, prop);
  return r === 'yes' ? 'Always' : r === 'maybe' ? 'Conditionally' : 'Never';
}

/** Parameters a raw template value refers to (`Ref: P`, `${P}` in Fn::Sub). */
function referencedNames(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) referencedNames(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'Ref' && typeof v === 'string') out.add(v);
      else if (k === 'Fn::Sub') {
        const text = typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : '';
        for (const m of text.matchAll(/\$\{([^!}][^}]*)\}/g)) out.add(m[1]!.split('.')[0]!);
        if (Array.isArray(v)) referencedNames(v[1], out);
      } else referencedNames(v, out);
    }
  }
  return out;
}

interface PlanInput {
  resource: PreparedResource;
  /** Properties resolved (markers where values are not known yet). */
  props: Record<string, unknown>;
  current?: ResourceVersion;
  /** The stack-level tags the resource takes now (stack-tags.ts `stackTagsFor`). */
  stackTags?: Tag[];
  oldParameters: StoredParameter[];
  newParameters: StoredParameter[];
}

/** Compares one resource's new declaration and resolved properties with what exists. */
export function planResource(input: PlanInput): ResourcePlan {
  const { resource, props, current } = input;
  if (!current || current.physicalId === undefined) {
    return { logicalId: resource.logicalId, type: resource.type, action: 'Add', changes: [], after: props };
  }
  const plan: ResourcePlan = {
    logicalId: resource.logicalId,
    type: resource.type,
    action: 'None',
    physicalId: current.physicalId,
    changes: [],
    before: current.props,
    after: props,
  };
  if (current.type !== resource.type) {
    plan.action = 'Modify';
    plan.typeChanged = true;
    plan.replacement = 'True';
    return plan;
  }
  const changedParams = new Set(
    input.newParameters
      .filter((p) => {
        const old = input.oldParameters.find((o) => o.key === p.key);
        return !old || old.value !== p.value || old.resolvedValue !== p.resolvedValue;
      })
      .map((p) => p.key),
  );
  const oldRaw = ((current.declaration?.Properties ?? {}) as Record<string, unknown>) ?? {};
  const newRaw = resource.properties ?? {};
  const tagProp = resourceType(resource.type)?.tag?.[0];
  // The tag property is compared with the stack's tags merged in, so a change of the stack's tags
  // alone modifies the resource (Scope Tags, never a replacement).
  const beforeProps = mergeTags(resource.type, current.props, current.stackTags);
  const afterProps = mergeTags(resource.type, props, input.stackTags);
  const names = new Set([...Object.keys(beforeProps), ...Object.keys(afterProps)]);
  for (const name of names) {
    const before = beforeProps[name];
    const after = afterProps[name];
    if (sameValue(before, after)) continue;
    const changeType = before === undefined ? 'Add' : after === undefined ? 'Remove' : 'Modify';
    const attribute = name === tagProp ? 'Tags' : 'Properties';
    const requiresRecreation = attribute === 'Tags' ? 'Never' : recreationOf(resource.type, name);
    const base = { attribute, name: attribute === 'Tags' ? undefined : name, requiresRecreation, before, after, changeType } as const;
    const causes = dynamicCauses(after);
    const rawChanged = !sameValue(oldRaw[name], newRaw[name]);
    if (causes.size > 0) {
      for (const c of causes) {
        plan.changes.push({
          ...base,
          evaluation: 'Dynamic',
          changeSource: c.includes('.') ? 'ResourceAttribute' : 'ResourceReference',
          causingEntity: c,
        });
      }
      if (rawChanged) plan.changes.push({ ...base, evaluation: 'Static', changeSource: 'DirectModification' });
      continue;
    }
    const params = [...referencedNames(newRaw[name])].filter((p) => changedParams.has(p));
    if (!rawChanged && params.length > 0) {
      for (const p of params) {
        plan.changes.push({ ...base, evaluation: 'Static', changeSource: 'ParameterReference', causingEntity: p });
      }
    } else {
      plan.changes.push({ ...base, evaluation: 'Static', changeSource: 'DirectModification' });
    }
  }
  const decl = resource.declaration as unknown as Record<string, unknown>;
  const oldDecl = current.declaration ?? {};
  for (const attr of NON_PROPERTY_ATTRIBUTES) {
    if (!sameValue(oldDecl[attr], decl[attr])) {
      plan.changes.push({
        attribute: attr,
        requiresRecreation: 'Never',
        evaluation: 'Static',
        changeSource: 'DirectModification',
        before: oldDecl[attr],
        after: decl[attr],
        changeType: oldDecl[attr] === undefined ? 'Add' : decl[attr] === undefined ? 'Remove' : 'Modify',
      });
    }
  }
  if (plan.changes.length === 0) return plan;
  plan.action = 'Modify';
  let replacement: ResourcePlan['replacement'] = 'False';
  for (const c of plan.changes) {
    if (c.requiresRecreation === 'Always' && c.evaluation === 'Static') replacement = 'True';
    else if (c.requiresRecreation !== 'Never' && replacement !== 'True') replacement = 'Conditional';
  }
  plan.replacement = replacement;
  if (replacement !== 'False') {
    const p = resource.updateReplacePolicy;
    plan.policyAction = p === 'Retain' ? 'ReplaceAndRetain' : p === 'Snapshot' ? 'ReplaceAndSnapshot' : 'ReplaceAndDelete';
  }
  return plan;
}

/** A scope for planning: known values for resources that stay, markers for those that will change identity. */
export function planningScope(
  current: (id: string) => ResourceVersion | undefined,
  changesIdentity: (id: string) => boolean,
): ResolveScope {
  return {
    ref(id) {
      const v = current(id);
      if (!v || v.physicalId === undefined || changesIdentity(id)) return dynamicMarker(id);
      return v.ref ?? v.physicalId;
    },
    getAtt(id, attr) {
      const v = current(id);
      if (!v || v.physicalId === undefined || changesIdentity(id)) return dynamicMarker(`${id}.${attr}`);
      const value = v.attributes[attr];
      return value === undefined ? dynamicMarker(`${id}.${attr}`) : value;
    },
    secret: (id) => current(id)?.masked === true && !changesIdentity(id),
  };
}

function stringify(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Replaces markers by `{{changeSet:KNOWN_AFTER_APPLY}}`, as AWS shows values known only after execution. */
function shown(v: unknown): unknown {
  if (typeof v === 'string') return v.includes(MARK) ? v.replace(MARK_RE, '{{changeSet:KNOWN_AFTER_APPLY}}') : v;
  if (Array.isArray(v)) return v.map(shown);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shown(x)]));
  return v;
}

/** DescribeChangeSet's `Changes` entry for one planned resource. */
export function toChange(plan: ResourcePlan, includeValues: boolean): Change {
  const details: ResourceChangeDetail[] = plan.changes.map((c) => {
    const d: ResourceChangeDetail = {
      Target: {
        Attribute: c.attribute,
        ...(c.name !== undefined ? { Name: c.name } : {}),
        RequiresRecreation: c.requiresRecreation,
        ...(includeValues
          ? {
              Path: c.name !== undefined ? `/Properties/${c.name}` : `/${c.attribute}`,
              BeforeValue: stringify(shown(c.before)),
              AfterValue: stringify(shown(c.after)),
              AttributeChangeType: c.changeType,
            }
          : {}),
      },
      Evaluation: c.evaluation,
      ChangeSource: c.changeSource,
      ...(c.causingEntity !== undefined ? { CausingEntity: c.causingEntity } : {}),
    };
    return d;
  });
  const scope = [...new Set(plan.changes.map((c) => c.attribute))];
  return {
    Type: 'Resource',
    ResourceChange: {
      Action: plan.action === 'None' ? undefined : plan.action,
      LogicalResourceId: plan.logicalId,
      ...(plan.physicalId !== undefined ? { PhysicalResourceId: plan.physicalId } : {}),
      ResourceType: plan.type,
      ...(plan.action === 'Modify' ? { Replacement: plan.replacement, Scope: scope } : { Scope: [] }),
      ...(plan.policyAction ? { PolicyAction: plan.policyAction as never } : {}),
      Details: details,
      ...(includeValues && plan.before !== undefined ? { BeforeContext: JSON.stringify({ Properties: shown(plan.before) }) } : {}),
      ...(includeValues && plan.after !== undefined && plan.action !== 'Remove'
        ? { AfterContext: JSON.stringify({ Properties: shown(plan.after) }) }
        : {}),
    },
  };
}
