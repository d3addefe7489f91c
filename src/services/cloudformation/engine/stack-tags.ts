/**
 * Stack-level tags on resources, as CloudFormation applies them: the stack's Tags (CreateStack,
 * UpdateStack, CreateChangeSet) go into the tag property of every resource whose type has one —
 * the spec's tag variant says its shape: a `[{Key, Value}]` list, a `{key: value}` map, or the
 * AutoScaling form with PropagateAtLaunch — and a tag the resource declares itself wins over the
 * stack's with the same key. Types whose registry schema sets `tagging.cloudFormationSystemTags`
 * also get `aws:cloudformation:stack-name`, `…:stack-id` and `…:logical-id`.
 *
 * The merge is the engine's, so providers see one tag property and need no knowledge of stacks.
 * Resource rows keep the template's resolved properties and the stack's tags apart (a version's
 * `stackTags`), as AWS does — its handlers get the model and `desiredResourceTags`/`systemTags`
 * separately, and events and change-set contexts show the template's own properties. Change
 * detection compares the merged tag property, so a stack-tags-only update modifies every taggable
 * resource in place (Scope `Tags`), and providers get the merged properties on both sides.
 */
import type { Tag } from '@aws-sdk/client-cloudformation';
import { resourceType } from '../spec/resource-types.js';

/**
 * Types Overcast runs whose registry schema has `cloudFormationSystemTags: true` (the spec index
 * does not carry the flag): AWS::S3::Bucket and AWS::SSM::Parameter (whose schema says "On stack
 * creation, CloudFormation adds the following three tags to the parameter"). The S3 Tables types
 * say `false`, so table buckets and tables carry only user tags; stored types have no service to
 * show tags.
 */
const SYSTEM_TAGGED = new Set(['AWS::S3::Bucket', 'AWS::SSM::Parameter']);

const SYSTEM_TAG_PREFIX = 'aws:cloudformation:';

interface TagOwner {
  type: string;
  stackName: string;
  stackId: string;
  logicalId: string;
}

type Props = Record<string, unknown>;

/**
 * The stack tags a resource of `type` takes, in key order (the order a caller sends them in is not
 * a change); undefined when there are none or the type has no tag property.
 */
export function stackTagsFor(type: string, tags: readonly Tag[] | undefined): Tag[] | undefined {
  if (!tags?.length || !resourceType(type)?.tag) return undefined;
  return tags
    .map((t) => ({ Key: t.Key ?? '', Value: t.Value ?? '' }))
    .sort((a, b) => (a.Key < b.Key ? -1 : a.Key > b.Key ? 1 : 0));
}

/** Whether resources of `type` carry CloudFormation's `aws:cloudformation:*` system tags. */
export function hasSystemTags(type: string): boolean {
  return SYSTEM_TAGGED.has(type);
}

function systemTags(o: TagOwner): Tag[] {
  if (!SYSTEM_TAGGED.has(o.type)) return [];
  return [
    { Key: `${SYSTEM_TAG_PREFIX}stack-name`, Value: o.stackName },
    { Key: `${SYSTEM_TAG_PREFIX}stack-id`, Value: o.stackId },
    { Key: `${SYSTEM_TAG_PREFIX}logical-id`, Value: o.logicalId },
  ];
}

function isObject(v: unknown): v is Props {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `props` with `inherited` tags merged into the type's tag property: declared tags keep their
 * place and win over inherited ones with the same key; `system` tags (never settable by a
 * template) come last and win over everything. A declared value of the wrong shape is left as it
 * is, for validation to report.
 */
export function mergeTags(type: string, props: Props, inherited: readonly Tag[] | undefined, system: readonly Tag[] = []): Props {
  const info = resourceType(type)?.tag;
  if (!info || (!inherited?.length && system.length === 0)) return props;
  const [name, variant] = info;
  const declared = props[name];
  if (variant === 'map') {
    if (declared !== undefined && !isObject(declared)) return props;
    const out: Props = { ...declared };
    for (const t of inherited ?? []) if (!Object.hasOwn(out, t.Key!)) out[t.Key!] = t.Value;
    for (const t of system) out[t.Key!] = t.Value;
    return { ...props, [name]: out };
  }
  if (declared !== undefined && !Array.isArray(declared)) return props;
  const systemKeys = new Set(system.map((t) => t.Key));
  const own = (declared ?? []).filter((t) => !(isObject(t) && systemKeys.has(t.Key as string)));
  const ownKeys = new Set(own.filter(isObject).map((t) => t.Key));
  // Stack-level tags reach an Auto Scaling group's instances whatever PropagateAtLaunch says.
  const shape = (t: Tag) => (variant === 'asg' ? { Key: t.Key, Value: t.Value, PropagateAtLaunch: true } : { Key: t.Key, Value: t.Value });
  const added = (inherited ?? []).filter((t) => !ownKeys.has(t.Key)).map(shape);
  return { ...props, [name]: [...own, ...added, ...system.map(shape)] };
}

/** What a provider is given: the resolved properties with the stack's and the system tags merged. */
export function providerProperties(owner: TagOwner, props: Props, stackTags: readonly Tag[] | undefined): Props {
  return mergeTags(owner.type, props, stackTags, systemTags(owner));
}
