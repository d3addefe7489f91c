/**
 * Tags on table buckets and tables (namespaces are not resources): TagResource adds or replaces
 * keys (AWS's character rules, no `aws:` prefix, at most 50 per resource), UntagResource removes
 * keys (absent keys are not an error), ListTagsForResource reads them.
 */
import type * as S3T from '@aws-sdk/client-s3tables';
import type { Ctx } from '../../runtime/runtime.js';
import { repo, requireBucketRow, requireTableByArn, validate } from './lookup.js';
import { checkTags, MAX_TAGS, tooManyTags } from './settings-checks.js';
import { s3tErrors } from './errors.js';
import { parseBucketArn, parseTableArn } from './naming.js';

interface Taggable {
  tags: Record<string, string>;
  save(tags: Record<string, string>): void;
}

function resource(ctx: Ctx, arn: string): Taggable {
  if (parseTableArn(arn)) {
    const t = requireTableByArn(ctx, arn);
    return { tags: JSON.parse(repo(ctx).getTableConfig(t.id).tags), save: (tags) => repo(ctx).setTableColumn(t.id, 'tags', JSON.stringify(tags)) };
  }
  if (parseBucketArn(arn)) {
    const b = requireBucketRow(ctx, arn);
    return { tags: JSON.parse(b.tags), save: (tags) => repo(ctx).setBucketColumn(b, 'tags', JSON.stringify(tags)) };
  }
  throw s3tErrors.resourceNotFound();
}

export function tagResource(ctx: Ctx, input: S3T.TagResourceRequest): S3T.TagResourceResponse {
  validate('TagResource', input);
  checkTags(input.tags);
  const r = resource(ctx, input.resourceArn!);
  const merged = { ...r.tags, ...input.tags };
  if (Object.keys(merged).length > MAX_TAGS) throw tooManyTags();
  r.save(merged);
  return {};
}

export function untagResource(ctx: Ctx, input: S3T.UntagResourceRequest): void {
  validate('UntagResource', input);
  const r = resource(ctx, input.resourceArn!);
  const tags = { ...r.tags };
  for (const key of input.tagKeys ?? []) delete tags[key];
  r.save(tags);
}

export function listTagsForResource(ctx: Ctx, input: S3T.ListTagsForResourceRequest): S3T.ListTagsForResourceResponse {
  validate('ListTagsForResource', input);
  return { tags: resource(ctx, input.resourceArn!).tags };
}
