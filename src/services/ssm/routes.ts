/**
 * SSM Parameter Store on the wire: the json-1.1 codec (`X-Amz-Target: AmazonSSM.<Operation>`) and
 * the table of operations served, each pointing at its provider function.
 */
import { serviceModel } from '../../model/service-model.js';
import { jsonRpcCodec } from '../../wire/json-rpc.js';
import type { SsmOperations } from '../../model/operations/ssm.js';
import { notImplemented, type OperationHandlers, type ServiceRoutes } from '../service-routes.js';
import * as listing from './listing.js';
import * as ssm from './provider.js';

const codec = jsonRpcCodec(() => serviceModel('ssm'), 'ValidationException');

const handlers = {
  PutParameter: ssm.putParameter,
  GetParameter: ssm.getParameter,
  GetParameters: ssm.getParameters,
  DeleteParameter: ssm.deleteParameter,
  DeleteParameters: ssm.deleteParameters,
  LabelParameterVersion: ssm.labelParameterVersion,
  UnlabelParameterVersion: ssm.unlabelParameterVersion,
  AddTagsToResource: ssm.addTagsToResource,
  RemoveTagsFromResource: ssm.removeTagsFromResource,
  ListTagsForResource: ssm.listTagsForResource,
  GetParametersByPath: listing.getParametersByPath,
  DescribeParameters: listing.describeParameters,
  GetParameterHistory: listing.getParameterHistory,
  ...notImplemented<SsmOperations>()(
    'AssociateOpsItemRelatedItem', 'CancelCommand', 'CancelMaintenanceWindowExecution',
    'CreateActivation', 'CreateAssociation', 'CreateAssociationBatch', 'CreateDocument',
    'CreateMaintenanceWindow', 'CreateOpsItem', 'CreateOpsMetadata', 'CreatePatchBaseline',
    'CreateResourceDataSync', 'DeleteActivation', 'DeleteAssociation', 'DeleteDocument',
    'DeleteInventory', 'DeleteMaintenanceWindow', 'DeleteOpsItem', 'DeleteOpsMetadata',
    'DeletePatchBaseline', 'DeleteResourceDataSync', 'DeleteResourcePolicy',
    'DeregisterManagedInstance', 'DeregisterPatchBaselineForPatchGroup',
    'DeregisterTargetFromMaintenanceWindow', 'DeregisterTaskFromMaintenanceWindow',
    'DescribeActivations', 'DescribeAssociation', 'DescribeAssociationExecutionTargets',
    'DescribeAssociationExecutions', 'DescribeAutomationExecutions',
    'DescribeAutomationStepExecutions', 'DescribeAvailablePatches', 'DescribeDocument',
    'DescribeDocumentPermission', 'DescribeEffectiveInstanceAssociations',
    'DescribeEffectivePatchesForPatchBaseline', 'DescribeInstanceAssociationsStatus',
    'DescribeInstanceInformation', 'DescribeInstancePatchStates',
    'DescribeInstancePatchStatesForPatchGroup', 'DescribeInstancePatches',
    'DescribeInstanceProperties', 'DescribeInventoryDeletions',
    'DescribeMaintenanceWindowExecutionTaskInvocations', 'DescribeMaintenanceWindowExecutionTasks',
    'DescribeMaintenanceWindowExecutions', 'DescribeMaintenanceWindowSchedule',
    'DescribeMaintenanceWindowTargets', 'DescribeMaintenanceWindowTasks',
    'DescribeMaintenanceWindows', 'DescribeMaintenanceWindowsForTarget', 'DescribeOpsItems',
    'DescribePatchBaselines', 'DescribePatchGroupState', 'DescribePatchGroups',
    'DescribePatchProperties', 'DescribeSessions', 'DisassociateOpsItemRelatedItem',
    'GetAccessToken', 'GetAutomationExecution', 'GetCalendarState', 'GetCommandInvocation',
    'GetConnectionStatus', 'GetDefaultPatchBaseline', 'GetDeployablePatchSnapshotForInstance',
    'GetDocument', 'GetExecutionPreview', 'GetInventory', 'GetInventorySchema',
    'GetMaintenanceWindow', 'GetMaintenanceWindowExecution', 'GetMaintenanceWindowExecutionTask',
    'GetMaintenanceWindowExecutionTaskInvocation', 'GetMaintenanceWindowTask', 'GetOpsItem',
    'GetOpsMetadata', 'GetOpsSummary', 'GetPatchBaseline', 'GetPatchBaselineForPatchGroup',
    'GetResourcePolicies', 'GetServiceSetting', 'ListAssociationVersions', 'ListAssociations',
    'ListCommandInvocations', 'ListCommands', 'ListComplianceItems', 'ListComplianceSummaries',
    'ListDocumentMetadataHistory', 'ListDocumentVersions', 'ListDocuments', 'ListInventoryEntries',
    'ListNodes', 'ListNodesSummary', 'ListOpsItemEvents', 'ListOpsItemRelatedItems',
    'ListOpsMetadata', 'ListResourceComplianceSummaries', 'ListResourceDataSync',
    'ModifyDocumentPermission', 'PutComplianceItems', 'PutInventory', 'PutResourcePolicy',
    'RegisterDefaultPatchBaseline', 'RegisterPatchBaselineForPatchGroup',
    'RegisterTargetWithMaintenanceWindow', 'RegisterTaskWithMaintenanceWindow',
    'ResetServiceSetting', 'ResumeSession', 'SendAutomationSignal', 'SendCommand',
    'StartAccessRequest', 'StartAssociationsOnce', 'StartAutomationExecution',
    'StartChangeRequestExecution', 'StartExecutionPreview', 'StartSession',
    'StopAutomationExecution', 'TerminateSession', 'UpdateAssociation', 'UpdateAssociationStatus',
    'UpdateDocument', 'UpdateDocumentDefaultVersion', 'UpdateDocumentMetadata',
    'UpdateMaintenanceWindow', 'UpdateMaintenanceWindowTarget', 'UpdateMaintenanceWindowTask',
    'UpdateManagedInstanceRole', 'UpdateOpsItem', 'UpdateOpsMetadata', 'UpdatePatchBaseline',
    'UpdateResourceDataSync', 'UpdateServiceSetting',
  ),
} satisfies OperationHandlers<SsmOperations>;

export const routes: ServiceRoutes = { codec, handlers, internalErrorCode: 'InternalServerError' };
