/**
 * CloudFormation on the wire: the query codec (form-encoded actions, XML responses in the
 * CloudFormation namespace) and the table of actions served.
 */
import { serviceModel } from '../../model/service-model.js';
import { queryCodec } from '../../wire/query.js';
import type { CloudFormationOperations } from '../../model/operations/cloudformation.js';
import { notImplemented, type OperationHandlers, type ServiceRoutes } from '../service-routes.js';
import * as p from './provider.js';

const codec = queryCodec(() => serviceModel('cloudformation'));

const handlers = {
  CreateStack: p.createStack,
  UpdateStack: p.updateStack,
  DeleteStack: p.deleteStack,
  DescribeStacks: p.describeStacks,
  ListStacks: p.listStacks,
  DescribeStackEvents: p.describeStackEvents,
  DescribeStackResource: p.describeStackResource,
  DescribeStackResources: p.describeStackResources,
  ListStackResources: p.listStackResources,
  GetTemplate: p.getTemplate,
  GetTemplateSummary: p.getTemplateSummary,
  ValidateTemplate: p.validateTemplate,
  CreateChangeSet: p.createChangeSet,
  DescribeChangeSet: p.describeChangeSet,
  ExecuteChangeSet: p.executeChangeSet,
  DeleteChangeSet: p.deleteChangeSet,
  ListChangeSets: p.listChangeSets,
  ListExports: p.listExports,
  ListImports: p.listImports,
  UpdateTerminationProtection: p.updateTerminationProtection,
  CancelUpdateStack: p.cancelUpdateStack,
  ContinueUpdateRollback: p.continueUpdateRollback,
  RollbackStack: p.rollbackStack,
  SetStackPolicy: p.setStackPolicy,
  GetStackPolicy: p.getStackPolicy,
  DetectStackDrift: p.detectStackDrift,
  DetectStackResourceDrift: p.detectStackResourceDrift,
  DescribeStackDriftDetectionStatus: p.describeStackDriftDetectionStatus,
  DescribeStackResourceDrifts: p.describeStackResourceDrifts,
  CreateStackRefactor: p.createStackRefactor,
  DescribeStackRefactor: p.describeStackRefactor,
  ExecuteStackRefactor: p.executeStackRefactor,
  ListStackRefactors: p.listStackRefactors,
  ListStackRefactorActions: p.listStackRefactorActions,
  ...notImplemented<CloudFormationOperations>()(
    'ActivateOrganizationsAccess', 'ActivateType', 'BatchDescribeTypeConfigurations',
    'CreateGeneratedTemplate', 'CreateStackInstances', 'CreateStackSet',
    'DeactivateOrganizationsAccess', 'DeactivateType', 'DeleteGeneratedTemplate',
    'DeleteStackInstances', 'DeleteStackSet', 'DeregisterType', 'DescribeAccountLimits',
    'DescribeChangeSetHooks', 'DescribeEvents', 'DescribeGeneratedTemplate',
    'DescribeOrganizationsAccess', 'DescribePublisher', 'DescribeResourceScan',
    'DescribeStackInstance',
    'DescribeStackSet', 'DescribeStackSetOperation', 'DescribeType',
    'DescribeTypeRegistration',
    'DetectStackSetDrift', 'EstimateTemplateCost', 'GetGeneratedTemplate',
    'GetHookResult', 'ImportStacksToStackSet', 'ListGeneratedTemplates', 'ListHookResults',
    'ListResourceScanRelatedResources', 'ListResourceScanResources', 'ListResourceScans',
    'ListStackInstanceResourceDrifts', 'ListStackInstances',
    'ListStackSetAutoDeploymentTargets', 'ListStackSetOperationResults',
    'ListStackSetOperations', 'ListStackSets', 'ListTypeRegistrations', 'ListTypeVersions',
    'ListTypes', 'PublishType', 'RecordHandlerProgress', 'RegisterPublisher', 'RegisterType',
    'SetTypeConfiguration', 'SetTypeDefaultVersion', 'SignalResource', 'StartResourceScan',
    'StopStackSetOperation', 'TestType', 'UpdateGeneratedTemplate', 'UpdateStackInstances',
    'UpdateStackSet',
  ),
} satisfies OperationHandlers<CloudFormationOperations>;

export const routes: ServiceRoutes = { codec, handlers, internalErrorCode: 'InternalFailure' };
