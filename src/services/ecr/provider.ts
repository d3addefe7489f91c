/**
 * A minimal Amazon ECR: repositories (create, describe, delete — with `force` when images remain
 * —, tags, lifecycle and repository policies, tag mutability, scanning settings) and their images
 * (images.ts), scoped by account and region like every Overcast service, with ECR's messages.
 * It is what `cdk gc` needs of the bootstrap's container-assets repository and what
 * AWS::ECR::Repository runs on; there is no Docker registry API behind it, so images arrive by
 * PutImage (a manifest), as ECR's API allows. GetAuthorizationToken answers a token for the
 * registry endpoint. The account's registry id is the account.
 */
import type * as ECR from '@aws-sdk/client-ecr';
import type { Ctx } from '../../runtime/runtime.js';
import type { RepositoryRow } from '../../store/ecr-repo.js';
import { dataOf, repo, repositoryArn, requireRepository, type RepositoryData } from './common.js';
import { checkInput, ecrErrors } from './errors.js';

export { listImages, describeImages, batchGetImage, putImage, batchDeleteImage } from './images.js';
export { repositoryArn } from './common.js';

function shape(ctx: Ctx, row: RepositoryRow): ECR.Repository {
  const d = dataOf(row);
  const suffix = ctx.partition === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com';
  return {
    repositoryArn: repositoryArn(ctx, row.name),
    registryId: ctx.account,
    repositoryName: row.name,
    repositoryUri: `${ctx.account}.dkr.ecr.${ctx.region}.${suffix}/${row.name}`,
    createdAt: new Date(row.created_at),
    imageTagMutability: d.imageTagMutability,
    ...(d.exclusionFilters?.length ? { imageTagMutabilityExclusionFilters: d.exclusionFilters } : {}),
    imageScanningConfiguration: { scanOnPush: d.scanOnPush },
    encryptionConfiguration: d.encryption,
  };
}

function update(ctx: Ctx, row: RepositoryRow, change: Partial<RepositoryData>): RepositoryData {
  const next = { ...dataOf(row), ...change };
  repo(ctx).updateRepository(ctx, row.name, JSON.stringify(next));
  return next;
}

export function createRepository(ctx: Ctx, input: ECR.CreateRepositoryRequest): ECR.CreateRepositoryResponse {
  checkInput('CreateRepository', input);
  const name = input.repositoryName!;
  if (repo(ctx).getRepository(ctx, name)) throw ecrErrors.repositoryExists(name, ctx.account);
  const data: RepositoryData = {
    imageTagMutability: input.imageTagMutability ?? 'MUTABLE',
    ...(input.imageTagMutabilityExclusionFilters?.length ? { exclusionFilters: input.imageTagMutabilityExclusionFilters } : {}),
    scanOnPush: input.imageScanningConfiguration?.scanOnPush ?? false,
    encryption: input.encryptionConfiguration ?? { encryptionType: 'AES256' },
    tags: input.tags ?? [],
  };
  const row: RepositoryRow = { account: ctx.account, region: ctx.region, name, created_at: Date.now(), data: JSON.stringify(data) };
  repo(ctx).insertRepository(row);
  return { repository: shape(ctx, row) };
}

export function describeRepositories(ctx: Ctx, input: ECR.DescribeRepositoriesRequest): ECR.DescribeRepositoriesResponse {
  checkInput('DescribeRepositories', input);
  if (input.repositoryNames?.length) {
    if (input.nextToken !== undefined || input.maxResults !== undefined) {
      throw ecrErrors.invalid('Invalid parameter: nextToken and maxResults cannot be used with repositoryNames');
    }
    return { repositories: input.repositoryNames.map((n) => shape(ctx, requireRepository(ctx, n))) };
  }
  const limit = input.maxResults ?? 100;
  const after = input.nextToken ? Buffer.from(input.nextToken, 'base64url').toString('utf8') : '';
  const rows = repo(ctx).listRepositories(ctx, after, limit + 1);
  const page = rows.slice(0, limit);
  return {
    repositories: page.map((r) => shape(ctx, r)),
    ...(rows.length > limit ? { nextToken: Buffer.from(page[page.length - 1]!.name, 'utf8').toString('base64url') } : {}),
  };
}

export function deleteRepository(ctx: Ctx, input: ECR.DeleteRepositoryRequest): ECR.DeleteRepositoryResponse {
  checkInput('DeleteRepository', input);
  const row = requireRepository(ctx, input.repositoryName!);
  if (!input.force && repo(ctx).hasImages(ctx, row.name)) throw ecrErrors.repositoryNotEmpty(row.name, ctx.account);
  const out = shape(ctx, row);
  repo(ctx).tx(() => repo(ctx).deleteRepository(ctx, row.name));
  return { repository: out };
}

function byArn(ctx: Ctx, arn: string | undefined): RepositoryRow {
  const name = /:repository\/(.+)$/.exec(arn ?? '')?.[1];
  if (!name || arn !== repositoryArn(ctx, name)) throw ecrErrors.invalid(`Invalid parameter at 'resourceArn' failed to satisfy constraint: 'Invalid ARN'`);
  return requireRepository(ctx, name);
}

export function tagResource(ctx: Ctx, input: ECR.TagResourceRequest): ECR.TagResourceResponse {
  checkInput('TagResource', input);
  const row = byArn(ctx, input.resourceArn);
  const tags = new Map(dataOf(row).tags.map((t) => [t.Key!, t.Value ?? '']));
  for (const t of input.tags ?? []) tags.set(t.Key!, t.Value ?? '');
  update(ctx, row, { tags: [...tags].map(([Key, Value]) => ({ Key, Value })) });
  return {};
}

export function untagResource(ctx: Ctx, input: ECR.UntagResourceRequest): ECR.UntagResourceResponse {
  checkInput('UntagResource', input);
  const row = byArn(ctx, input.resourceArn);
  const drop = new Set(input.tagKeys ?? []);
  update(ctx, row, { tags: dataOf(row).tags.filter((t) => !drop.has(t.Key!)) });
  return {};
}

export function listTagsForResource(ctx: Ctx, input: ECR.ListTagsForResourceRequest): ECR.ListTagsForResourceResponse {
  checkInput('ListTagsForResource', input);
  return { tags: dataOf(byArn(ctx, input.resourceArn)).tags };
}

export function putLifecyclePolicy(ctx: Ctx, input: ECR.PutLifecyclePolicyRequest): ECR.PutLifecyclePolicyResponse {
  checkInput('PutLifecyclePolicy', input);
  const row = requireRepository(ctx, input.repositoryName!);
  try {
    JSON.parse(input.lifecyclePolicyText!);
  } catch {
    throw ecrErrors.invalid("Invalid parameter at 'LifecyclePolicyText' failed to satisfy constraint: 'Lifecycle policy validation failure: could not parse the policy'");
  }
  update(ctx, row, { lifecyclePolicy: input.lifecyclePolicyText! });
  return { registryId: ctx.account, repositoryName: row.name, lifecyclePolicyText: input.lifecyclePolicyText! };
}

export function getLifecyclePolicy(ctx: Ctx, input: ECR.GetLifecyclePolicyRequest): ECR.GetLifecyclePolicyResponse {
  checkInput('GetLifecyclePolicy', input);
  const row = requireRepository(ctx, input.repositoryName!);
  const policy = dataOf(row).lifecyclePolicy;
  if (policy === undefined) throw ecrErrors.lifecycleNotFound(row.name, ctx.account);
  return { registryId: ctx.account, repositoryName: row.name, lifecyclePolicyText: policy, lastEvaluatedAt: new Date(row.created_at) };
}

export function deleteLifecyclePolicy(ctx: Ctx, input: ECR.DeleteLifecyclePolicyRequest): ECR.DeleteLifecyclePolicyResponse {
  const out = getLifecyclePolicy(ctx, input);
  update(ctx, requireRepository(ctx, input.repositoryName!), { lifecyclePolicy: undefined });
  return out;
}

export function setRepositoryPolicy(ctx: Ctx, input: ECR.SetRepositoryPolicyRequest): ECR.SetRepositoryPolicyResponse {
  checkInput('SetRepositoryPolicy', input);
  const row = requireRepository(ctx, input.repositoryName!);
  try {
    JSON.parse(input.policyText!);
  } catch {
    throw ecrErrors.invalid("Invalid parameter at 'PolicyText' failed to satisfy constraint: 'Invalid repository policy provided'");
  }
  update(ctx, row, { policy: input.policyText! });
  return { registryId: ctx.account, repositoryName: row.name, policyText: input.policyText! };
}

export function getRepositoryPolicy(ctx: Ctx, input: ECR.GetRepositoryPolicyRequest): ECR.GetRepositoryPolicyResponse {
  checkInput('GetRepositoryPolicy', input);
  const row = requireRepository(ctx, input.repositoryName!);
  const policy = dataOf(row).policy;
  if (policy === undefined) throw ecrErrors.policyNotFound(row.name, ctx.account);
  return { registryId: ctx.account, repositoryName: row.name, policyText: policy };
}

export function deleteRepositoryPolicy(ctx: Ctx, input: ECR.DeleteRepositoryPolicyRequest): ECR.DeleteRepositoryPolicyResponse {
  const out = getRepositoryPolicy(ctx, input);
  update(ctx, requireRepository(ctx, input.repositoryName!), { policy: undefined });
  return out;
}

export function putImageTagMutability(ctx: Ctx, input: ECR.PutImageTagMutabilityRequest): ECR.PutImageTagMutabilityResponse {
  checkInput('PutImageTagMutability', input);
  const row = requireRepository(ctx, input.repositoryName!);
  const d = update(ctx, row, {
    imageTagMutability: input.imageTagMutability!,
    exclusionFilters: input.imageTagMutabilityExclusionFilters?.length ? input.imageTagMutabilityExclusionFilters : undefined,
  });
  return { registryId: ctx.account, repositoryName: row.name, imageTagMutability: d.imageTagMutability };
}

export function putImageScanningConfiguration(
  ctx: Ctx,
  input: ECR.PutImageScanningConfigurationRequest,
): ECR.PutImageScanningConfigurationResponse {
  checkInput('PutImageScanningConfiguration', input);
  const row = requireRepository(ctx, input.repositoryName!);
  update(ctx, row, { scanOnPush: input.imageScanningConfiguration!.scanOnPush ?? false });
  return { registryId: ctx.account, repositoryName: row.name, imageScanningConfiguration: input.imageScanningConfiguration! };
}

export function getAuthorizationToken(ctx: Ctx, input: ECR.GetAuthorizationTokenRequest): ECR.GetAuthorizationTokenResponse {
  checkInput('GetAuthorizationToken', input);
  const suffix = ctx.partition === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com';
  return {
    authorizationData: [
      {
        authorizationToken: Buffer.from('AWS:overcast', 'utf8').toString('base64'),
        expiresAt: new Date(Date.now() + 12 * 3600_000),
        proxyEndpoint: `https://${ctx.account}.dkr.ecr.${ctx.region}.${suffix}`,
      },
    ],
  };
}
