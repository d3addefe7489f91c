/**
 * Tags of functions: TagResource, UntagResource and ListTags by the function's ARN (an unqualified
 * one, as Lambda tags functions, not versions). Tags given at CreateFunction are the same tags.
 */
import type * as L from '@aws-sdk/client-lambda';
import type { Ctx } from '../../runtime/runtime.js';
import { check, lambdaErrors } from './errors.js';
import { lambdaRepo, requireFunction } from './lookup.js';

function functionOf(ctx: Ctx, arn: string) {
  if (!arn.startsWith('arn:')) throw lambdaErrors.validation(`1 validation error detected: Value '${arn}' at 'resource' failed to satisfy constraint: Member must satisfy regular expression pattern: arn:.*`);
  return requireFunction(ctx, arn).fn;
}

export function tagResource(ctx: Ctx, input: L.TagResourceRequest): void {
  check('TagResource', input);
  const fn = functionOf(ctx, input.Resource!);
  const tags = { ...(JSON.parse(fn.tags) as Record<string, string>), ...(input.Tags ?? {}) };
  if (Object.keys(tags).length > 50) throw lambdaErrors.invalidParameter('Number of tags exceeds resource tag limit.');
  lambdaRepo(ctx).setTags(ctx.account, ctx.region, fn.name, JSON.stringify(tags));
}

export function untagResource(ctx: Ctx, input: L.UntagResourceRequest): void {
  check('UntagResource', input);
  const fn = functionOf(ctx, input.Resource!);
  const tags = JSON.parse(fn.tags) as Record<string, string>;
  for (const key of input.TagKeys ?? []) delete tags[key];
  lambdaRepo(ctx).setTags(ctx.account, ctx.region, fn.name, JSON.stringify(tags));
}

export function listTags(ctx: Ctx, input: L.ListTagsRequest): L.ListTagsResponse {
  check('ListTags', input);
  return { Tags: JSON.parse(functionOf(ctx, input.Resource!).tags) as Record<string, string> };
}
