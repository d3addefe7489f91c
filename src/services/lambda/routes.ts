/**
 * Lambda on the wire: the rest-json codec (operations from the model's URI templates; errors as
 * `x-amzn-ErrorType` plus Lambda's body `{"Type": "User", "Message": …}`; Invoke's payload as raw
 * bytes both ways) and the table of operations served, each pointing at its provider function.
 */
import { serviceModel } from '../../model/service-model.js';
import { AwsError } from '../../wire/errors.js';
import type { WireRequest } from '../../wire/http.js';
import { restJsonCodec } from '../../wire/rest-json.js';
import type { LambdaOperations } from '../../model/operations/lambda.js';
import { notImplemented, type OperationHandlers, type ServiceRoutes } from '../service-routes.js';
import * as p from './provider.js';

function unknownOperation(req: WireRequest): AwsError {
  return new AwsError('UnknownOperationException', `No Lambda operation matches ${req.method} ${req.rawPath}`, 404);
}

const codec = restJsonCodec(() => serviceModel('lambda'), {
  invalidInputCode: 'InvalidRequestContentException',
  unknownOperation,
  errorBody: (err) => ({ Type: err.status >= 500 ? 'Service' : 'User', Message: err.message }),
});

const handlers = {
  AddLayerVersionPermission: p.addLayerVersionPermission,
  AddPermission: p.addPermission,
  CreateAlias: p.createAlias,
  CreateFunction: p.createFunction,
  DeleteAlias: p.deleteAlias,
  DeleteFunction: p.deleteFunction,
  DeleteLayerVersion: p.deleteLayerVersion,
  GetAlias: p.getAlias,
  GetFunction: p.getFunction,
  GetFunctionConfiguration: p.getFunctionConfiguration,
  GetLayerVersion: p.getLayerVersion,
  GetLayerVersionByArn: p.getLayerVersionByArn,
  GetLayerVersionPolicy: p.getLayerVersionPolicy,
  GetPolicy: p.getPolicy,
  Invoke: p.invoke,
  ListAliases: p.listAliases,
  ListFunctions: p.listFunctions,
  ListLayerVersions: p.listLayerVersions,
  ListLayers: p.listLayers,
  ListTags: p.listTags,
  ListVersionsByFunction: p.listVersionsByFunction,
  PublishLayerVersion: p.publishLayerVersion,
  PublishVersion: p.publishVersion,
  RemoveLayerVersionPermission: p.removeLayerVersionPermission,
  RemovePermission: p.removePermission,
  TagResource: p.tagResource,
  UntagResource: p.untagResource,
  UpdateAlias: p.updateAlias,
  UpdateFunctionCode: p.updateFunctionCode,
  UpdateFunctionConfiguration: p.updateFunctionConfiguration,
  ...notImplemented<LambdaOperations>()(
    'CheckpointDurableExecution',
    'CreateCapacityProvider',
    'CreateCodeSigningConfig',
    'CreateEventSourceMapping',
    'CreateFunctionUrlConfig',
    'DeleteCapacityProvider',
    'DeleteCodeSigningConfig',
    'DeleteEventSourceMapping',
    'DeleteFunctionCodeSigningConfig',
    'DeleteFunctionConcurrency',
    'DeleteFunctionEventInvokeConfig',
    'DeleteFunctionUrlConfig',
    'DeleteProvisionedConcurrencyConfig',
    'GetAccountSettings',
    'GetCapacityProvider',
    'GetCodeSigningConfig',
    'GetDurableExecution',
    'GetDurableExecutionHistory',
    'GetDurableExecutionState',
    'GetEventSourceMapping',
    'GetFunctionCodeSigningConfig',
    'GetFunctionConcurrency',
    'GetFunctionEventInvokeConfig',
    'GetFunctionRecursionConfig',
    'GetFunctionScalingConfig',
    'GetFunctionUrlConfig',
    'GetProvisionedConcurrencyConfig',
    'GetRuntimeManagementConfig',
    'InvokeAsync',
    'InvokeWithResponseStream',
    'ListCapacityProviders',
    'ListCodeSigningConfigs',
    'ListDurableExecutionsByFunction',
    'ListEventSourceMappings',
    'ListFunctionEventInvokeConfigs',
    'ListFunctionUrlConfigs',
    'ListFunctionVersionsByCapacityProvider',
    'ListFunctionsByCodeSigningConfig',
    'ListProvisionedConcurrencyConfigs',
    'PutFunctionCodeSigningConfig',
    'PutFunctionConcurrency',
    'PutFunctionEventInvokeConfig',
    'PutFunctionRecursionConfig',
    'PutFunctionScalingConfig',
    'PutProvisionedConcurrencyConfig',
    'PutRuntimeManagementConfig',
    'SendDurableExecutionCallbackFailure',
    'SendDurableExecutionCallbackHeartbeat',
    'SendDurableExecutionCallbackSuccess',
    'StopDurableExecution',
    'UpdateCapacityProvider',
    'UpdateCodeSigningConfig',
    'UpdateEventSourceMapping',
    'UpdateFunctionEventInvokeConfig',
    'UpdateFunctionUrlConfig',
  ),
} satisfies OperationHandlers<LambdaOperations>;

export const routes: ServiceRoutes = { codec, handlers, internalErrorCode: 'ServiceException' };
