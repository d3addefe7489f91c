/**
 * The engine's calls into resource providers: finds the provider of a type in the registry, gives
 * it its ResourceContext, and turns what it throws into the `ResourceStatusReason` AWS would show —
 * a provider's own ResourceFailure as is, a service error the way CloudFormation's registry
 * handlers report it (`Resource handler returned message: "…" (RequestToken: …, HandlerErrorCode:
 * …)`). Types Overcast does not run are "stored": kept with a generated physical id unless strict
 * mode refuses them. Every provider call gets the resolved properties with the stack's tags (and
 * CloudFormation's system tags) merged into the tag property (stack-tags.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Tag } from '@aws-sdk/client-cloudformation';
import type { Ctx } from '../../../server/runtime.js';
import { isAwsError } from '../../../wire/errors.js';
import { generatedName } from './arns.js';
import { ResourceFailure, type ResourceContext, type ResourceProvider, type ResourceState } from '../resources/types.js';
import { providerProperties } from './stack-tags.js';

export class ResourceError extends Error {}

type Registry = typeof import('../resources/registry.js');
let registry: Registry | undefined;

export async function loadRegistry(): Promise<Registry> {
  registry ??= await import('../resources/registry.js');
  return registry;
}

export interface CallTarget {
  ctx: Ctx;
  stackName: string;
  stackId: string;
  logicalId: string;
  type: string;
  strict: boolean;
}

export interface Resolved {
  provider?: ResourceProvider;
  stored: boolean;
  unrecognized: boolean;
  storedReason?: string;
}

export function lookup(type: string): Resolved {
  if (!registry) throw new Error('resource registry not loaded');
  return registry.providerFor(type);
}

/** The note on events of a resource Overcast keeps without running it. */
export function storedReason(type: string): string {
  return lookup(type).storedReason ?? `Resource type ${type} is not emulated by Overcast: stored, not run`;
}

const HANDLER_CODES: Record<string, string> = {
  ConflictException: 'AlreadyExists',
  BucketAlreadyExists: 'AlreadyExists',
  BucketAlreadyOwnedByYou: 'AlreadyExists',
  ResourceAlreadyExistsException: 'AlreadyExists',
  ParameterAlreadyExists: 'AlreadyExists',
  AlreadyExistsException: 'AlreadyExists',
  NotFoundException: 'NotFound',
  NoSuchBucket: 'NotFound',
  ParameterNotFound: 'NotFound',
  ResourceNotFoundException: 'NotFound',
  AccessDeniedException: 'AccessDenied',
  AccessDenied: 'AccessDenied',
  ForbiddenException: 'AccessDenied',
  TooManyRequestsException: 'Throttling',
  ServiceQuotaExceededException: 'ServiceLimitExceeded',
};

/** The status reason for an error thrown while provisioning. */
export function failureReason(err: unknown): string {
  if (err instanceof ResourceError || err instanceof ResourceFailure) return err.message;
  if (isAwsError(err)) {
    if (err.code === 'ValidationError') return err.message; // template errors found while resolving
    const code = HANDLER_CODES[err.code] ?? (err.status < 500 ? 'InvalidRequest' : 'GeneralServiceException');
    return `Resource handler returned message: "${err.message}" (RequestToken: ${randomUUID()}, HandlerErrorCode: ${code})`;
  }
  return err instanceof Error ? `Internal failure: ${err.message}` : 'Internal failure';
}

function context(t: CallTarget): ResourceContext {
  return {
    ctx: t.ctx,
    stackName: t.stackName,
    stackId: t.stackId,
    logicalId: t.logicalId,
    resourceType: t.type,
    strict: t.strict,
  };
}

function refuseStored(t: CallTarget): never {
  throw new ResourceError(
    `Resource type ${t.type} is not emulated by Overcast and --strict-resources (OVERCAST_STRICT_RESOURCES=1) is on: it would only be stored, not run`,
  );
}

/** `stackTags`: the stack-level tags the resource takes (stack-tags.ts `stackTagsFor`). */
export async function createResource(
  t: CallTarget,
  props: Record<string, unknown>,
  stackTags?: Tag[],
): Promise<{ state: ResourceState; stored: boolean }> {
  const found = lookup(t.type);
  if (found.unrecognized) throw new ResourceError(`Template format error: Unrecognized resource types: [${t.type}]`);
  if (found.provider) {
    const state = await found.provider.create(context(t), providerProperties(t, props, stackTags));
    return { state, stored: found.stored };
  }
  if (t.strict) refuseStored(t);
  return { state: { physicalId: generatedName(t.stackName, t.logicalId), attributes: {} }, stored: true };
}

export async function updateResource(
  t: CallTarget,
  props: Record<string, unknown>,
  stackTags: Tag[] | undefined,
  previous: { props: Record<string, unknown>; state: ResourceState; stackTags?: Tag[] },
): Promise<ResourceState> {
  const found = lookup(t.type);
  if (found.provider) {
    return found.provider.update(context(t), providerProperties(t, props, stackTags), {
      props: providerProperties(t, previous.props, previous.stackTags),
      state: previous.state,
    });
  }
  if (t.strict) refuseStored(t);
  return previous.state;
}

export async function deleteResource(t: CallTarget, props: Record<string, unknown>, state: ResourceState): Promise<void> {
  const found = lookup(t.type);
  if (found.provider) await found.provider.delete(context(t), props, state);
}
