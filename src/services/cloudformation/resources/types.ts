/**
 * The contract between the CloudFormation engine and a resource provider: one module per resource
 * type, listed in the registry, each creating, updating in place and deleting its resources
 * through the same service providers the APIs use. The engine owns everything generic — template
 * evaluation, ordering, replacement decisions (from the spec's create-only properties), events,
 * rollback; a provider only does its resource. A type that reads its live state (`read`) takes
 * part in drift detection, one that finds an existing resource by its identifier (`adopt`) in
 * resource import.
 */
import type { Ctx } from '../../../runtime/runtime.js';

/** Properties after every intrinsic is resolved: plain JSON values (numbers may still be strings). */
export type ResolvedProperties = Record<string, unknown>;

export interface ResourceContext {
  /** The stack's account, region and the runtime; calls into service providers use this. */
  ctx: Ctx;
  stackName: string;
  stackId: string;
  logicalId: string;
  resourceType: string;
  /** True when the engine runs in `--strict-resources` mode. */
  strict: boolean;
  /** The engine's stack operations, for `AWS::CloudFormation::Stack` (a nested stack is a stack). */
  nestedStacks: NestedStacks;
}

/** What the engine offers a nested-stack resource: its child stack created, updated, deleted. */
export interface NestedStacks {
  create(rc: ResourceContext, props: ResolvedProperties): Promise<ResourceState>;
  update(rc: ResourceContext, props: ResolvedProperties, previous: { props: ResolvedProperties; state: ResourceState }): Promise<ResourceState>;
  delete(rc: ResourceContext, state: ResourceState): Promise<void>;
}

export interface ResourceState {
  /** The physical id: what Ref returns unless `ref` says otherwise. */
  physicalId: string;
  /** Values for Fn::GetAtt, keyed by attribute name (dotted for nested ones). */
  attributes: Record<string, unknown>;
  /** Ref's value when it is not the physical id (rare). */
  ref?: string;
  /** The attributes are secret (a custom resource's NoEcho): shown as asterisks where AWS masks them. */
  masked?: boolean;
}

export interface ResourceProvider {
  readonly type: string;
  create(rc: ResourceContext, props: ResolvedProperties): Promise<ResourceState>;
  /**
   * Updates in place. Called only when no changed property requires replacement; the engine
   * replaces (create new, then delete old in cleanup) otherwise.
   */
  update(
    rc: ResourceContext,
    props: ResolvedProperties,
    previous: { props: ResolvedProperties; state: ResourceState },
  ): Promise<ResourceState>;
  delete(rc: ResourceContext, props: ResolvedProperties, state: ResourceState): Promise<void>;
  /**
   * The type's read handler, for drift detection: the live resource's properties in the
   * template's shape (only what the service can tell; the stack's and system tags left in, the
   * engine drops `aws:` tags), or undefined when it no longer exists. A type without one is
   * NOT_CHECKED, as AWS reports types that do not support drift.
   */
  read?(rc: ResourceContext, state: ResourceState): Promise<ResolvedProperties | undefined>;
  /** Properties `read` can never return (the schema's writeOnlyProperties): drift leaves them out. */
  readonly writeOnly?: readonly string[];
  /**
   * Array properties whose order does not count (the schema's `insertionOrder: false`), as paths
   * like `/Tags` (a `*` segment matches any index); the tag property always counts as one.
   */
  readonly unordered?: readonly string[];
  /**
   * Resource import: the existing resource `identifier` (the type's primary identifier
   * properties) names, adopted as it is; undefined when there is none.
   */
  adopt?(rc: ResourceContext, identifier: Record<string, string>, props: ResolvedProperties): Promise<ResourceState | undefined>;
}

/** A resource's failure (a provider's or the engine's): its message becomes the `ResourceStatusReason`. */
export class ResourceFailure extends Error {}
