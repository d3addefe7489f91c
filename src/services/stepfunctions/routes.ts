/**
 * Step Functions on the wire: the json-1.0 codec (`X-Amz-Target: AWSStepFunctions.<Operation>`,
 * signing name `states`) and the table of operations served — state machines and executions;
 * activities, versions and aliases, Map runs, redrive, task tokens and the test state API are not.
 */
import { serviceModel } from '../../model/service-model.js';
import { jsonRpcCodec } from '../../wire/json-rpc.js';
import type { SfnOperations } from '../../model/operations/stepfunctions.js';
import { notImplemented, type OperationHandlers, type ServiceRoutes } from '../service-routes.js';
import * as sfn from './provider.js';

const codec = jsonRpcCodec(() => serviceModel('stepfunctions'), 'ValidationException');

const handlers = {
  CreateStateMachine: sfn.createStateMachine,
  DeleteStateMachine: sfn.deleteStateMachine,
  DescribeExecution: sfn.describeExecution,
  DescribeStateMachine: sfn.describeStateMachine,
  ListExecutions: sfn.listExecutions,
  ListStateMachines: sfn.listStateMachines,
  StartExecution: sfn.startExecution,
  StopExecution: sfn.stopExecution,
  UpdateStateMachine: sfn.updateStateMachine,
  ...notImplemented<SfnOperations>()(
    'CreateActivity', 'CreateStateMachineAlias', 'DeleteActivity', 'DeleteStateMachineAlias', 'DeleteStateMachineVersion',
    'DescribeActivity', 'DescribeMapRun', 'DescribeStateMachineAlias', 'DescribeStateMachineForExecution', 'GetActivityTask',
    'GetExecutionHistory', 'ListActivities', 'ListMapRuns', 'ListStateMachineAliases', 'ListStateMachineVersions',
    'ListTagsForResource', 'PublishStateMachineVersion', 'RedriveExecution', 'SendTaskFailure', 'SendTaskHeartbeat',
    'SendTaskSuccess', 'StartSyncExecution', 'TagResource', 'TestState', 'UntagResource', 'UpdateMapRun',
    'UpdateStateMachineAlias', 'ValidateStateMachineDefinition',
  ),
} satisfies OperationHandlers<SfnOperations>;

export const routes: ServiceRoutes = { codec, handlers, internalErrorCode: 'InternalFailure' };
