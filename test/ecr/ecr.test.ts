/**
 * Amazon ECR through the SDK: repositories (create, describe with paging, tags, lifecycle and
 * repository policies, delete refused while images remain, force), images pushed as manifests
 * (digests, tags moved, IMMUTABLE repositories refusing to move one, the last tag's removal
 * removing the image), ListImages / DescribeImages / BatchGetImage / BatchDeleteImage with their
 * per-image failures; and AWS::ECR::Repository deployed, drift-checked and deleted.
 */
import { createHash } from 'node:crypto';
import { CreateStackCommand, DeleteStackCommand, DescribeStacksCommand, DescribeStackDriftDetectionStatusCommand, DetectStackDriftCommand } from '@aws-sdk/client-cloudformation';
import {
  BatchDeleteImageCommand,
  BatchGetImageCommand,
  CreateRepositoryCommand,
  DeleteRepositoryCommand,
  DescribeImagesCommand,
  DescribeRepositoriesCommand,
  ECRClient,
  GetLifecyclePolicyCommand,
  ListImagesCommand,
  ListTagsForResourceCommand,
  PutImageCommand,
  PutLifecyclePolicyCommand,
  TagResourceCommand,
} from '@aws-sdk/client-ecr';
import { describe, expect, it } from '../helpers/fixture.js';
import { failure } from '../helpers/errors.js';

function manifest(layer: string): string {
  return JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
    config: { mediaType: 'application/vnd.docker.container.image.v1+json', size: 100, digest: `sha256:${'c'.repeat(64)}` },
    layers: [{ mediaType: 'application/vnd.docker.image.rootfs.diff.tar.gzip', size: 1000, digest: `sha256:${createHash('sha256').update(layer).digest('hex')}` }],
  });
}

const digestOf = (m: string) => `sha256:${createHash('sha256').update(m).digest('hex')}`;

const LIFECYCLE = JSON.stringify({
  rules: [{ rulePriority: 1, description: 'expire untagged', selection: { tagStatus: 'untagged', countType: 'sinceImagePushed', countUnit: 'days', countNumber: 14 }, action: { type: 'expire' } }],
});

describe('ECR', () => {
  it('keeps repositories and images as ECR does', async ({ server }) => {
    const ecr = new ECRClient({ ...server.clientConfig, maxAttempts: 1 });
    const created = await ecr.send(new CreateRepositoryCommand({ repositoryName: 'apps/web', imageTagMutability: 'IMMUTABLE', tags: [{ Key: 'team', Value: 'web' }] }));
    expect(created.repository).toMatchObject({
      repositoryName: 'apps/web',
      registryId: '000000000000',
      repositoryArn: 'arn:aws:ecr:us-east-1:000000000000:repository/apps/web',
      repositoryUri: '000000000000.dkr.ecr.us-east-1.amazonaws.com/apps/web',
      imageTagMutability: 'IMMUTABLE',
      encryptionConfiguration: { encryptionType: 'AES256' },
    });
    const again = await failure(ecr.send(new CreateRepositoryCommand({ repositoryName: 'apps/web' })));
    expect(again).toMatchObject({ name: 'RepositoryAlreadyExistsException', message: "The repository with name 'apps/web' already exists in the registry with id '000000000000'" });
    const badName = await failure(ecr.send(new CreateRepositoryCommand({ repositoryName: 'Apps' })));
    expect(badName.name).toBe('InvalidParameterException');

    const one = manifest('one');
    const put = await ecr.send(new PutImageCommand({ repositoryName: 'apps/web', imageManifest: one, imageTag: 'v1' }));
    expect(put.image?.imageId).toEqual({ imageDigest: digestOf(one), imageTag: 'v1' });
    await ecr.send(new PutImageCommand({ repositoryName: 'apps/web', imageManifest: one, imageTag: 'stable' }));
    const two = manifest('two');
    await ecr.send(new PutImageCommand({ repositoryName: 'apps/web', imageManifest: two }));
    const dup = await failure(ecr.send(new PutImageCommand({ repositoryName: 'apps/web', imageManifest: one, imageTag: 'v1' })));
    expect(dup.name).toBe('ImageAlreadyExistsException');
    const moved = await failure(ecr.send(new PutImageCommand({ repositoryName: 'apps/web', imageManifest: two, imageTag: 'v1' })));
    expect(moved).toMatchObject({
      name: 'ImageTagAlreadyExistsException',
      message: "The image tag 'v1' already exists in the 'apps/web' repository and cannot be overwritten because the repository is immutable.",
    });

    const listed = await ecr.send(new ListImagesCommand({ repositoryName: 'apps/web' }));
    expect(listed.imageIds).toHaveLength(3);
    const untagged = await ecr.send(new ListImagesCommand({ repositoryName: 'apps/web', filter: { tagStatus: 'UNTAGGED' } }));
    expect(untagged.imageIds).toEqual([{ imageDigest: digestOf(two) }]);
    const details = await ecr.send(new DescribeImagesCommand({ repositoryName: 'apps/web', imageIds: [{ imageTag: 'stable' }] }));
    expect(details.imageDetails![0]).toMatchObject({ imageDigest: digestOf(one), imageTags: ['stable', 'v1'], imageSizeInBytes: 1100, imagePushedAt: expect.any(Date) });
    const missing = await failure(ecr.send(new DescribeImagesCommand({ repositoryName: 'apps/web', imageIds: [{ imageTag: 'nope' }] })));
    expect(missing.name).toBe('ImageNotFoundException');
    const got = await ecr.send(new BatchGetImageCommand({ repositoryName: 'apps/web', imageIds: [{ imageTag: 'v1' }, { imageTag: 'nope' }] }));
    expect(got.images![0]!.imageManifest).toBe(one);
    expect(got.failures).toEqual([{ imageId: { imageTag: 'nope' }, failureCode: 'ImageNotFound', failureReason: 'Requested image not found' }]);

    // Removing one of two tags keeps the image; removing the last removes it.
    await ecr.send(new BatchDeleteImageCommand({ repositoryName: 'apps/web', imageIds: [{ imageTag: 'v1' }] }));
    expect((await ecr.send(new ListImagesCommand({ repositoryName: 'apps/web', filter: { tagStatus: 'TAGGED' } }))).imageIds).toEqual([{ imageDigest: digestOf(one), imageTag: 'stable' }]);
    const deleted = await ecr.send(new BatchDeleteImageCommand({ repositoryName: 'apps/web', imageIds: [{ imageTag: 'stable' }, { imageDigest: `sha256:${'0'.repeat(64)}` }] }));
    expect(deleted.imageIds).toEqual([{ imageDigest: digestOf(one), imageTag: 'stable' }]);
    expect(deleted.failures![0]!.failureCode).toBe('ImageNotFound');
    expect((await ecr.send(new ListImagesCommand({ repositoryName: 'apps/web' }))).imageIds).toEqual([{ imageDigest: digestOf(two) }]);

    await ecr.send(new TagResourceCommand({ resourceArn: created.repository!.repositoryArn, tags: [{ Key: 'env', Value: 'dev' }] }));
    expect((await ecr.send(new ListTagsForResourceCommand({ resourceArn: created.repository!.repositoryArn }))).tags).toEqual([
      { Key: 'team', Value: 'web' },
      { Key: 'env', Value: 'dev' },
    ]);
    const noPolicy = await failure(ecr.send(new GetLifecyclePolicyCommand({ repositoryName: 'apps/web' })));
    expect(noPolicy.name).toBe('LifecyclePolicyNotFoundException');
    await ecr.send(new PutLifecyclePolicyCommand({ repositoryName: 'apps/web', lifecyclePolicyText: LIFECYCLE }));
    expect((await ecr.send(new GetLifecyclePolicyCommand({ repositoryName: 'apps/web' }))).lifecyclePolicyText).toBe(LIFECYCLE);

    const notEmpty = await failure(ecr.send(new DeleteRepositoryCommand({ repositoryName: 'apps/web' })));
    expect(notEmpty.name).toBe('RepositoryNotEmptyException');
    await ecr.send(new DeleteRepositoryCommand({ repositoryName: 'apps/web', force: true }));
    const gone = await failure(ecr.send(new DescribeRepositoriesCommand({ repositoryNames: ['apps/web'] })));
    expect(gone).toMatchObject({ name: 'RepositoryNotFoundException', message: "The repository with name 'apps/web' does not exist in the registry with id '000000000000'" });

    for (const n of ['page-a', 'page-b', 'page-c']) await ecr.send(new CreateRepositoryCommand({ repositoryName: n }));
    const first = await ecr.send(new DescribeRepositoriesCommand({ maxResults: 2 }));
    const rest = await ecr.send(new DescribeRepositoriesCommand({ maxResults: 2, nextToken: first.nextToken }));
    expect([...first.repositories!, ...rest.repositories!].map((r) => r.repositoryName)).toEqual(['page-a', 'page-b', 'page-c']);
  });

  it('runs AWS::ECR::Repository in a stack, with drift', async ({ server, cloudformation: cfn }) => {
    const ecr = new ECRClient({ ...server.clientConfig, maxAttempts: 1 });
    const TemplateBody = JSON.stringify({
      Resources: {
        Repo: {
          Type: 'AWS::ECR::Repository',
          Properties: {
            RepositoryName: 'stack-repo',
            ImageTagMutability: 'IMMUTABLE',
            ImageScanningConfiguration: { ScanOnPush: true },
            LifecyclePolicy: { LifecyclePolicyText: LIFECYCLE },
            EmptyOnDelete: true,
          },
        },
      },
      Outputs: { Uri: { Value: { 'Fn::GetAtt': ['Repo', 'RepositoryUri'] } }, Arn: { Value: { 'Fn::GetAtt': ['Repo', 'Arn'] } } },
    });
    await cfn.send(new CreateStackCommand({ StackName: 'Registry', TemplateBody }));
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'Registry' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    expect(stack.Outputs).toContainEqual({ OutputKey: 'Uri', OutputValue: '000000000000.dkr.ecr.us-east-1.amazonaws.com/stack-repo' });
    const repo = (await ecr.send(new DescribeRepositoriesCommand({ repositoryNames: ['stack-repo'] }))).repositories![0]!;
    expect(repo).toMatchObject({ imageTagMutability: 'IMMUTABLE', imageScanningConfiguration: { scanOnPush: true } });

    const { StackDriftDetectionId } = await cfn.send(new DetectStackDriftCommand({ StackName: 'Registry' }));
    expect((await cfn.send(new DescribeStackDriftDetectionStatusCommand({ StackDriftDetectionId }))).StackDriftStatus).toBe('IN_SYNC');

    await ecr.send(new PutImageCommand({ repositoryName: 'stack-repo', imageManifest: manifest('app'), imageTag: 'v1' }));
    await cfn.send(new DeleteStackCommand({ StackName: 'Registry' }));
    expect((await cfn.send(new DescribeStacksCommand({ StackName: stack.StackId }))).Stacks![0]!.StackStatus).toBe('DELETE_COMPLETE');
    expect((await failure(ecr.send(new DescribeRepositoriesCommand({ repositoryNames: ['stack-repo'] })))).name).toBe('RepositoryNotFoundException');
  });
});
