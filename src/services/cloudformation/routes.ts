/**
 * CloudFormation on the wire: the query codec (form-encoded actions, XML responses in the
 * CloudFormation namespace) and the table of actions served. Stack actions and reads load with the
 * service; change sets, templates, exports, drift and refactors load on their first request, so a
 * first stack does not pay for them.
 */
import { serviceModel } from '../../model/service-model.js';
import { queryCodec } from '../../wire/query.js';
import type { CloudFormationOperations } from '../../model/operations/cloudformation.js';
import { notImplemented, type OperationHandlers, type ServiceRoutes } from '../service-routes.js';
import * as stacks from './stacks.js';
import * as describe from './describe.js';

const changeSets = () => import('./change-sets.js');
const templates = () => import('./templates.js');
const exportsList = () => import('./list-exports.js');
const drift = () => import('./drift.js');
const refactors = () => import('./refactors.js');

const codec = queryCodec(() => serviceModel('cloudformation'));

const handlers = {
  CreateStack: stacks.createStack,
  UpdateStack: stacks.updateStack,
  DeleteStack: stacks.deleteStack,
  DescribeStacks: describe.describeStacks,
  ListStacks: describe.listStacks,
  DescribeStackEvents: describe.describeStackEvents,
  DescribeStackResource: describe.describeStackResource,
  DescribeStackResources: describe.describeStackResources,
  ListStackResources: describe.listStackResources,
  GetTemplate: describe.getTemplate,
  GetTemplateSummary: async (ctx, input) => (await templates()).getTemplateSummary(ctx, input),
  ValidateTemplate: async (ctx, input) => (await templates()).validateTemplate(ctx, input),
  CreateChangeSet: async (ctx, input) => (await changeSets()).createChangeSet(ctx, input),
  DescribeChangeSet: async (ctx, input) => (await changeSets()).describeChangeSet(ctx, input),
  ExecuteChangeSet: async (ctx, input) => (await changeSets()).executeChangeSet(ctx, input),
  DeleteChangeSet: async (ctx, input) => (await changeSets()).deleteChangeSet(ctx, input),
  ListChangeSets: async (ctx, input) => (await changeSets()).listChangeSets(ctx, input),
  ListExports: async (ctx, input) => (await exportsList()).listExports(ctx, input),
  ListImports: async (ctx, input) => (await exportsList()).listImports(ctx, input),
  UpdateTerminationProtection: stacks.updateTerminationProtection,
  CancelUpdateStack: stacks.cancelUpdateStack,
  ContinueUpdateRollback: stacks.continueUpdateRollback,
  RollbackStack: stacks.rollbackStack,
  SetStackPolicy: stacks.setStackPolicy,
  GetStackPolicy: stacks.getStackPolicy,
  DetectStackDrift: async (ctx, input) => (await drift()).detectStackDrift(ctx, input),
  DetectStackResourceDrift: async (ctx, input) => (await drift()).detectStackResourceDrift(ctx, input),
  DescribeStackDriftDetectionStatus: async (ctx, input) => (await drift()).describeStackDriftDetectionStatus(ctx, input),
  DescribeStackResourceDrifts: async (ctx, input) => (await drift()).describeStackResourceDrifts(ctx, input),
  CreateStackRefactor: async (ctx, input) => (await refactors()).createStackRefactor(ctx, input),
  DescribeStackRefactor: async (ctx, input) => (await refactors()).describeStackRefactor(ctx, input),
  ExecuteStackRefactor: async (ctx, input) => (await refactors()).executeStackRefactor(ctx, input),
  ListStackRefactors: async (ctx, input) => (await refactors()).listStackRefactors(ctx, input),
  ListStackRefactorActions: async (ctx, input) => (await refactors()).listStackRefactorActions(ctx, input),
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
