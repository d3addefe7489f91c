/**
 * The engine's calls into resource providers: finds the provider of a type in the registry, gives
 * it its ResourceContext, and turns what it throws into the `ResourceStatusReason` AWS would show —
 * a ResourceFailure as is, a service error the way CloudFormation's registry handlers report it
 * (`Resource handler returned message: "…" (RequestToken: …, HandlerErrorCode: …)`). Types
 * Overcast does not run go to the registry's stored provider (which refuses them in strict mode).
 * Every provider call gets the resolved properties with the stack's tags (and CloudFormation's
 * system tags) merged into the tag property (stack-tags.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Tag } from '@aws-sdk/client-cloudformation';
import type { Ctx } from '../../../runtime/runtime.js';
import { isAwsError } from '../../../wire/errors.js';
import { loadedProvider, loadProvider } from '../resources/registry.js';
import { ResourceFailure, type NestedStacks, type ResourceContext, type ResourceState } from '../resources/types.js';
import { providerProperties } from './stack-tags.js';

export interface CallTarget {
  ctx: Ctx;
  stackName: string;
  stackId: string;
  logicalId: string;
  type: string;
  strict: boolean;
  nestedStacks: NestedStacks;
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
  if (err instanceof ResourceFailure) return err.message;
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
    nestedStacks: t.nestedStacks,
  };
}

/** `stackTags`: the stack-level tags the resource takes (stack-tags.ts `stackTagsFor`). */
export async function createResource(
  t: CallTarget,
  props: Record<string, unknown>,
  stackTags?: Tag[],
): Promise<{ state: ResourceState; stored: boolean }> {
  const { provider, stored } = loadedProvider(t.type) ?? (await loadProvider(t.type));
  const state = await provider.create(context(t), providerProperties(t, props, stackTags));
  return { state, stored };
}

export async function updateResource(
  t: CallTarget,
  props: Record<string, unknown>,
  stackTags: Tag[] | undefined,
  previous: { props: Record<string, unknown>; state: ResourceState; stackTags?: Tag[] },
): Promise<ResourceState> {
  return (loadedProvider(t.type) ?? (await loadProvider(t.type))).provider.update(context(t), providerProperties(t, props, stackTags), {
    props: providerProperties(t, previous.props, previous.stackTags),
    state: previous.state,
  });
}

export async function deleteResource(t: CallTarget, props: Record<string, unknown>, state: ResourceState): Promise<void> {
  await (loadedProvider(t.type) ?? (await loadProvider(t.type))).provider.delete(context(t), props, state);
}
