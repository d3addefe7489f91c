/**
 * What ECR's operations share: the repository of the store, a repository's settings document,
 * its ARN, and the lookup that answers RepositoryNotFoundException.
 */
import type * as ECR from '@aws-sdk/client-ecr';
import { perStore, type Ctx } from '../../runtime/runtime.js';
import { EcrRepo, type RepositoryRow } from '../../store/ecr-repo.js';
import { ecrErrors } from './errors.js';

export const repo = perStore((meta) => new EcrRepo(meta));

export interface RepositoryData {
  imageTagMutability: ECR.ImageTagMutability;
  exclusionFilters?: ECR.ImageTagMutabilityExclusionFilter[];
  scanOnPush: boolean;
  encryption: ECR.EncryptionConfiguration;
  lifecyclePolicy?: string;
  policy?: string;
  tags: ECR.Tag[];
}

export function dataOf(row: RepositoryRow): RepositoryData {
  return JSON.parse(row.data) as RepositoryData;
}

export function repositoryArn(ctx: Ctx, name: string): string {
  return `arn:${ctx.partition}:ecr:${ctx.region}:${ctx.account}:repository/${name}`;
}

/** The repository `name` of the caller's registry, or RepositoryNotFoundException. */
export function requireRepository(ctx: Ctx, name: string): RepositoryRow {
  const row = repo(ctx).getRepository(ctx, name);
  if (!row) throw ecrErrors.repositoryNotFound(name, ctx.account);
  return row;
}

