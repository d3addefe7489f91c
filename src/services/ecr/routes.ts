/**
 * Amazon ECR on the wire: the json-1.1 codec (`X-Amz-Target:
 * AmazonEC2ContainerRegistry_V20150921.<Operation>`) and the table of operations served — the
 * repository and image operations `cdk gc` and AWS::ECR::Repository use; the Docker layer upload,
 * registry-wide settings, pull-through caches and scanning are not.
 */
import { serviceModel } from '../../model/service-model.js';
import { jsonRpcCodec } from '../../wire/json-rpc.js';
import type { EcrOperations } from '../../model/operations/ecr.js';
import { notImplemented, type OperationHandlers, type ServiceRoutes } from '../service-routes.js';
import * as ecr from './provider.js';

const codec = jsonRpcCodec(() => serviceModel('ecr'), 'InvalidParameterException');

const handlers = {
  CreateRepository: ecr.createRepository,
  DescribeRepositories: ecr.describeRepositories,
  DeleteRepository: ecr.deleteRepository,
  ListImages: ecr.listImages,
  DescribeImages: ecr.describeImages,
  BatchGetImage: ecr.batchGetImage,
  PutImage: ecr.putImage,
  BatchDeleteImage: ecr.batchDeleteImage,
  TagResource: ecr.tagResource,
  UntagResource: ecr.untagResource,
  ListTagsForResource: ecr.listTagsForResource,
  PutLifecyclePolicy: ecr.putLifecyclePolicy,
  GetLifecyclePolicy: ecr.getLifecyclePolicy,
  DeleteLifecyclePolicy: ecr.deleteLifecyclePolicy,
  SetRepositoryPolicy: ecr.setRepositoryPolicy,
  GetRepositoryPolicy: ecr.getRepositoryPolicy,
  DeleteRepositoryPolicy: ecr.deleteRepositoryPolicy,
  PutImageTagMutability: ecr.putImageTagMutability,
  PutImageScanningConfiguration: ecr.putImageScanningConfiguration,
  GetAuthorizationToken: ecr.getAuthorizationToken,
  ...notImplemented<EcrOperations>()(
    'BatchCheckLayerAvailability', 'BatchGetRepositoryScanningConfiguration', 'CompleteLayerUpload',
    'CreatePullThroughCacheRule', 'CreateRepositoryCreationTemplate', 'DeletePullThroughCacheRule',
    'DeleteRegistryPolicy', 'DeleteRepositoryCreationTemplate', 'DeleteSigningConfiguration',
    'DeregisterPullTimeUpdateExclusion', 'DescribeImageReplicationStatus', 'DescribeImageScanFindings',
    'DescribeImageSigningStatus', 'DescribePullThroughCacheRules', 'DescribeRegistry',
    'DescribeRepositoryCreationTemplates', 'GetAccountSetting', 'GetDownloadUrlForLayer',
    'GetLifecyclePolicyPreview', 'GetRegistryPolicy', 'GetRegistryScanningConfiguration',
    'GetSigningConfiguration', 'InitiateLayerUpload', 'ListImageReferrers',
    'ListPullTimeUpdateExclusions', 'PutAccountSetting', 'PutRegistryPolicy',
    'PutRegistryScanningConfiguration', 'PutReplicationConfiguration', 'PutSigningConfiguration',
    'RegisterPullTimeUpdateExclusion', 'StartImageScan', 'StartLifecyclePolicyPreview',
    'UpdateImageStorageClass', 'UpdatePullThroughCacheRule', 'UpdateRepositoryCreationTemplate',
    'UploadLayerPart', 'ValidatePullThroughCacheRule',
  ),
} satisfies OperationHandlers<EcrOperations>;

export const routes: ServiceRoutes = { codec, handlers, internalErrorCode: 'ServerException' };
