/**
 * ECR images: PutImage stores a manifest under its sha256 digest (its size the sum of the config
 * and layer sizes it names) and moves or adds a tag — refused for a tag of an IMMUTABLE repository
 * that names another image, and for an image and tag already there; ListImages (one id per tag,
 * untagged images by digest; tagStatus filter; paged by digest), DescribeImages, BatchGetImage and
 * BatchDeleteImage, whose unknown ids are per-image failures, as ECR reports them. Removing an
 * image's last tag removes the image, as ECR does.
 */
import { createHash } from 'node:crypto';
import type * as ECR from '@aws-sdk/client-ecr';
import type { Ctx } from '../../runtime/runtime.js';
import type { ImageRow } from '../../store/ecr-repo.js';
import { checkInput, ecrErrors } from './errors.js';
import { dataOf, repo, requireRepository } from './common.js';

const DEFAULT_MEDIA_TYPE = 'application/vnd.docker.distribution.manifest.v2+json';

function cursor(token: string | undefined): string {
  return token ? Buffer.from(token, 'base64url').toString('utf8') : '';
}

function token(digest: string): string {
  return Buffer.from(digest, 'utf8').toString('base64url');
}

function manifestSize(manifest: string): number {
  try {
    const m = JSON.parse(manifest) as { config?: { size?: number }; layers?: { size?: number }[] };
    const sum = (m.config?.size ?? 0) + (m.layers ?? []).reduce((n, l) => n + (l.size ?? 0), 0);
    return sum || Buffer.byteLength(manifest);
  } catch {
    return Buffer.byteLength(manifest);
  }
}

/** The image an id names (by digest, or by tag), if it exists. */
function resolve(ctx: Ctx, repoName: string, id: ECR.ImageIdentifier): ImageRow | undefined {
  const digest = id.imageDigest ?? (id.imageTag !== undefined ? repo(ctx).tagDigest(ctx, repoName, id.imageTag) : undefined);
  if (!digest) return undefined;
  if (id.imageTag !== undefined && id.imageDigest !== undefined && repo(ctx).tagDigest(ctx, repoName, id.imageTag) !== id.imageDigest) return undefined;
  return repo(ctx).getImage(ctx, repoName, digest);
}

function notFoundFailure(id: ECR.ImageIdentifier): ECR.ImageFailure {
  if (id.imageDigest === undefined && id.imageTag === undefined) {
    return { imageId: id, failureCode: 'MissingDigestAndTag', failureReason: 'Invalid request parameters: both tag and digest cannot be null' };
  }
  return { imageId: id, failureCode: 'ImageNotFound', failureReason: 'Requested image not found' };
}

export function listImages(ctx: Ctx, input: ECR.ListImagesRequest): ECR.ListImagesResponse {
  checkInput('ListImages', input);
  const name = requireRepository(ctx, input.repositoryName!).name;
  const status = input.filter?.tagStatus ?? 'ANY';
  const limit = input.maxResults ?? 100;
  let after = cursor(input.nextToken);
  const ids: ECR.ImageIdentifier[] = [];
  let more = false;
  for (;;) {
    const rows = repo(ctx).listImages(ctx, name, after, limit);
    for (const r of rows) {
      const tags = repo(ctx).tagsOf(ctx, name, r.digest);
      if ((status === 'TAGGED' && !tags.length) || (status === 'UNTAGGED' && tags.length)) {
        after = r.digest;
        continue;
      }
      if (ids.length >= limit) {
        more = true;
        break;
      }
      if (tags.length) ids.push(...tags.map((imageTag) => ({ imageDigest: r.digest, imageTag })));
      else ids.push({ imageDigest: r.digest });
      after = r.digest;
    }
    if (more || rows.length < limit) break;
  }
  return { imageIds: ids, ...(more ? { nextToken: token(after) } : {}) };
}

function detail(ctx: Ctx, name: string, r: ImageRow): ECR.ImageDetail {
  const tags = repo(ctx).tagsOf(ctx, name, r.digest);
  return {
    registryId: ctx.account,
    repositoryName: name,
    imageDigest: r.digest,
    ...(tags.length ? { imageTags: tags } : {}),
    imageSizeInBytes: r.size,
    imagePushedAt: new Date(r.pushed_at),
    imageManifestMediaType: r.media_type,
    imageStatus: 'ACTIVE',
  };
}

export function describeImages(ctx: Ctx, input: ECR.DescribeImagesRequest): ECR.DescribeImagesResponse {
  checkInput('DescribeImages', input);
  const name = requireRepository(ctx, input.repositoryName!).name;
  if (input.imageIds?.length) {
    const seen = new Set<string>();
    const out: ECR.ImageDetail[] = [];
    for (const id of input.imageIds) {
      const r = resolve(ctx, name, id);
      if (!r) throw ecrErrors.imageNotFound(id, name, ctx.account);
      if (!seen.has(r.digest)) out.push(detail(ctx, name, r));
      seen.add(r.digest);
    }
    return { imageDetails: out };
  }
  const status = input.filter?.tagStatus ?? 'ANY';
  const limit = input.maxResults ?? 100;
  let after = cursor(input.nextToken);
  const out: ECR.ImageDetail[] = [];
  let more = false;
  for (;;) {
    const rows = repo(ctx).listImages(ctx, name, after, limit);
    for (const r of rows) {
      const d = detail(ctx, name, r);
      const tagged = (d.imageTags ?? []).length > 0;
      if ((status === 'TAGGED' && !tagged) || (status === 'UNTAGGED' && tagged)) {
        after = r.digest;
        continue;
      }
      if (out.length >= limit) {
        more = true;
        break;
      }
      out.push(d);
      after = r.digest;
    }
    if (more || rows.length < limit) break;
  }
  return { imageDetails: out, ...(more ? { nextToken: token(after) } : {}) };
}

export function batchGetImage(ctx: Ctx, input: ECR.BatchGetImageRequest): ECR.BatchGetImageResponse {
  checkInput('BatchGetImage', input);
  const name = requireRepository(ctx, input.repositoryName!).name;
  const images: ECR.Image[] = [];
  const failures: ECR.ImageFailure[] = [];
  for (const id of input.imageIds ?? []) {
    const r = resolve(ctx, name, id);
    if (!r) failures.push(notFoundFailure(id));
    else images.push({ registryId: ctx.account, repositoryName: name, imageId: { imageDigest: r.digest, ...(id.imageTag !== undefined ? { imageTag: id.imageTag } : {}) }, imageManifest: r.manifest, imageManifestMediaType: r.media_type });
  }
  return { images, failures };
}

export function putImage(ctx: Ctx, input: ECR.PutImageRequest): ECR.PutImageResponse {
  checkInput('PutImage', input);
  const row = requireRepository(ctx, input.repositoryName!);
  const name = row.name;
  const manifest = input.imageManifest!;
  const digest = `sha256:${createHash('sha256').update(manifest, 'utf8').digest('hex')}`;
  if (input.imageDigest !== undefined && input.imageDigest !== digest) throw ecrErrors.digestMismatch(input.imageDigest, digest);
  const tag = input.imageTag;
  const existing = repo(ctx).getImage(ctx, name, digest);
  const tagged = tag !== undefined ? repo(ctx).tagDigest(ctx, name, tag) : undefined;
  if (existing && (tag === undefined || tagged === digest)) throw ecrErrors.imageExists(digest, tag, name, ctx.account);
  if (tagged !== undefined && tagged !== digest && dataOf(row).imageTagMutability.startsWith('IMMUTABLE')) throw ecrErrors.tagImmutable(tag!, name);
  let mediaType = input.imageManifestMediaType;
  if (!mediaType) {
    try {
      mediaType = (JSON.parse(manifest) as { mediaType?: string }).mediaType;
    } catch {
      // not JSON: the default media type
    }
  }
  repo(ctx).tx(() => {
    if (!existing) {
      repo(ctx).putImage({
        account: ctx.account, region: ctx.region, repo: name, digest, pushed_at: Date.now(),
        media_type: mediaType ?? DEFAULT_MEDIA_TYPE, size: manifestSize(manifest), manifest,
      });
    }
    if (tag !== undefined) {
      repo(ctx).putTag(ctx, name, tag, digest);
      // The image the tag left may now be untagged; it stays, as in ECR.
    }
  });
  return {
    image: { registryId: ctx.account, repositoryName: name, imageId: { imageDigest: digest, ...(tag !== undefined ? { imageTag: tag } : {}) }, imageManifest: manifest, imageManifestMediaType: mediaType ?? DEFAULT_MEDIA_TYPE },
  };
}

export function batchDeleteImage(ctx: Ctx, input: ECR.BatchDeleteImageRequest): ECR.BatchDeleteImageResponse {
  checkInput('BatchDeleteImage', input);
  const name = requireRepository(ctx, input.repositoryName!).name;
  const deleted: ECR.ImageIdentifier[] = [];
  const failures: ECR.ImageFailure[] = [];
  repo(ctx).tx(() => {
    for (const id of input.imageIds ?? []) {
      const r = resolve(ctx, name, id);
      if (!r) {
        failures.push(notFoundFailure(id));
        continue;
      }
      if (id.imageDigest === undefined) {
        repo(ctx).deleteTag(ctx, name, id.imageTag!);
        // Removing an image's last tag removes the image.
        if (repo(ctx).tagsOf(ctx, name, r.digest).length === 0) repo(ctx).deleteImage(ctx, name, r.digest);
        deleted.push({ imageDigest: r.digest, imageTag: id.imageTag! });
      } else {
        const tags = repo(ctx).tagsOf(ctx, name, r.digest);
        repo(ctx).deleteImage(ctx, name, r.digest);
        if (tags.length) deleted.push(...tags.map((imageTag) => ({ imageDigest: r.digest, imageTag })));
        else deleted.push({ imageDigest: r.digest });
      }
    }
  });
  return { imageIds: deleted, failures };
}
