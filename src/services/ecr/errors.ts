/**
 * ECR's errors in its own words (the service's messages, `registry with id` and all), and the
 * model's constraint check, which ECR reports as InvalidParameterException.
 */
import { serviceModel } from '../../model/service-model.js';
import { validationMessage } from '../../model/validate.js';
import { AwsError } from '../../wire/errors.js';

export function checkInput(operation: string, input: object): void {
  const message = validationMessage(serviceModel('ecr'), operation, input ?? {});
  if (message) throw new AwsError('InvalidParameterException', message, 400);
}

export const ecrErrors = {
  invalid: (message: string) => new AwsError('InvalidParameterException', message, 400),
  repositoryNotFound: (name: string, registry: string) =>
    new AwsError('RepositoryNotFoundException', `The repository with name '${name}' does not exist in the registry with id '${registry}'`, 400),
  repositoryExists: (name: string, registry: string) =>
    new AwsError('RepositoryAlreadyExistsException', `The repository with name '${name}' already exists in the registry with id '${registry}'`, 400),
  repositoryNotEmpty: (name: string, registry: string) =>
    new AwsError(
      'RepositoryNotEmptyException',
      `The repository with name '${name}' in registry with id '${registry}' cannot be deleted because it still contains images`,
      400,
    ),
  imageNotFound: (id: { imageDigest?: string; imageTag?: string }, name: string, registry: string) =>
    new AwsError(
      'ImageNotFoundException',
      `The image with imageId {imageDigest:'${id.imageDigest ?? 'null'}', imageTag:'${id.imageTag ?? 'null'}'} does not exist within the repository with name '${name}' in the registry with id '${registry}'`,
      400,
    ),
  imageExists: (digest: string, tag: string | undefined, name: string, registry: string) =>
    new AwsError(
      'ImageAlreadyExistsException',
      `Image with digest '${digest}' and tag '${tag ?? 'null'}' already exists in the repository with name '${name}' in registry with id '${registry}'`,
      400,
    ),
  tagImmutable: (tag: string, name: string) =>
    new AwsError(
      'ImageTagAlreadyExistsException',
      `The image tag '${tag}' already exists in the '${name}' repository and cannot be overwritten because the repository is immutable.`,
      400,
    ),
  digestMismatch: (given: string, actual: string) =>
    new AwsError('ImageDigestDoesNotMatchException', `Invalid parameter at 'imageDigest' failed to satisfy constraint: 'provided digest ${given} does not match the digest of the manifest ${actual}'`, 400),
  lifecycleNotFound: (name: string, registry: string) =>
    new AwsError('LifecyclePolicyNotFoundException', `Lifecycle policy does not exist for the repository with name '${name}' in the registry with id '${registry}'`, 400),
  policyNotFound: (name: string, registry: string) =>
    new AwsError('RepositoryPolicyNotFoundException', `Repository policy does not exist for the repository with name '${name}' in the registry with id '${registry}'`, 400),
};
