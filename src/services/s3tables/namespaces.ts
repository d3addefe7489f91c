/**
 * Namespaces: CreateNamespace (one level, naming rules, unique within the bucket), GetNamespace,
 * ListNamespaces (prefix, pages by name) and DeleteNamespace (refused while tables remain).
 */
import type * as S3T from '@aws-sdk/client-s3tables';
import type { Ctx } from '../../runtime/runtime.js';
import type { NamespaceRow } from '../../store/s3tables-repo.js';
import { bucketArnOf, repo, requireBucket, requireNamespace, validate } from './lookup.js';
import { DEFAULT_PAGE_SIZE, decodeToken, encodeToken } from './page-tokens.js';
import { s3tErrors } from './errors.js';
import { newId, validNamespaceName } from './naming.js';

function summary(ns: NamespaceRow): S3T.NamespaceSummary {
  return {
    namespace: [ns.name],
    createdAt: new Date(ns.created_at),
    createdBy: ns.created_by,
    ownerAccountId: ns.owner,
    namespaceId: ns.id,
    tableBucketId: ns.bucket_id,
  };
}

export function createNamespace(ctx: Ctx, input: S3T.CreateNamespaceRequest): S3T.CreateNamespaceResponse {
  validate('CreateNamespace', input);
  const name = input.namespace![0]!;
  if (!validNamespaceName(name)) throw s3tErrors.invalidNamespaceName();
  const b = requireBucket(ctx, input.tableBucketARN!);
  const r = repo(ctx);
  if (r.getNamespace(b.account, b.region, b.name, name)) throw s3tErrors.namespaceExists();
  r.insertNamespace({
    account: b.account,
    region: b.region,
    bucket: b.name,
    name,
    id: newId(),
    bucket_id: b.id,
    owner: b.account,
    created_at: Date.now(),
    created_by: ctx.account,
  });
  return { tableBucketARN: bucketArnOf(b, ctx.partition), namespace: [name] };
}

export function getNamespace(ctx: Ctx, input: S3T.GetNamespaceRequest): S3T.GetNamespaceResponse {
  validate('GetNamespace', input);
  const b = requireBucket(ctx, input.tableBucketARN!);
  const ns = requireNamespace(ctx, b, input.namespace!);
  const s = summary(ns);
  return {
    namespace: s.namespace,
    createdAt: s.createdAt,
    createdBy: s.createdBy,
    ownerAccountId: s.ownerAccountId,
    namespaceId: s.namespaceId,
    tableBucketId: s.tableBucketId,
  };
}

export function listNamespaces(ctx: Ctx, input: S3T.ListNamespacesRequest): S3T.ListNamespacesResponse {
  validate('ListNamespaces', input);
  const b = requireBucket(ctx, input.tableBucketARN!);
  const filters = { bucket: b.name, prefix: input.prefix };
  const after = decodeToken(input.continuationToken, 'namespaces', filters, 1)?.[0] ?? '';
  const limit = input.maxNamespaces ?? DEFAULT_PAGE_SIZE;
  const rows = repo(ctx).listNamespaces(b, { prefix: input.prefix ?? '', after, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return {
    namespaces: page.map(summary),
    continuationToken: rows.length > limit ? encodeToken('namespaces', filters, [page[page.length - 1]!.name]) : undefined,
  };
}

export function deleteNamespace(ctx: Ctx, input: S3T.DeleteNamespaceRequest): void {
  validate('DeleteNamespace', input);
  const b = requireBucket(ctx, input.tableBucketARN!);
  const ns = requireNamespace(ctx, b, input.namespace!);
  const r = repo(ctx);
  if (r.namespaceHasTables(ns)) throw s3tErrors.namespaceNotEmpty();
  r.deleteNamespace(ns);
}
