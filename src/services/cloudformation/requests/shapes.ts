/**
 * Rows to the SDK's own output shapes: Stack (parameters with `****` for NoEcho and ResolvedValue
 * for SSM-typed ones, outputs only outside `*_IN_PROGRESS`), StackSummary, StackEvent and the
 * three resource shapes. One place decides how a stored value looks on the wire.
 */
import type * as CFN from '@aws-sdk/client-cloudformation';
import type { EventRow, ResourceRow, StackRow, StackSummaryRow } from '../../../store/cloudformation-repo.js';
import { isSettled, stackData, versionOf, type StoredParameter } from '../engine/state.js';
import { resourceDriftInformation, stackDriftInformation } from './drift-shapes.js';

export function parameterShape(p: StoredParameter): CFN.Parameter {
  return {
    ParameterKey: p.key,
    ParameterValue: p.noEcho ? '****' : p.value,
    ...(p.resolvedValue !== undefined ? { ResolvedValue: p.noEcho ? '****' : p.resolvedValue } : {}),
  };
}

export function stackShape(row: StackRow): CFN.Stack {
  const data = stackData(row);
  const stack: CFN.Stack = {
    StackId: row.id,
    StackName: row.name,
    ...(data.changeSetId ? { ChangeSetId: data.changeSetId } : {}),
    ...(row.description !== null ? { Description: row.description } : {}),
    Parameters: data.parameters.map(parameterShape),
    CreationTime: new Date(row.created_at),
    ...(row.deleted_at !== null ? { DeletionTime: new Date(row.deleted_at) } : {}),
    ...(row.updated_at !== null ? { LastUpdatedTime: new Date(row.updated_at) } : {}),
    RollbackConfiguration: {},
    StackStatus: row.status as CFN.StackStatus,
    ...(row.status_reason !== null ? { StackStatusReason: row.status_reason } : {}),
    DisableRollback: data.disableRollback,
    NotificationARNs: data.notificationArns,
    ...(data.timeoutInMinutes !== undefined ? { TimeoutInMinutes: data.timeoutInMinutes } : {}),
    Capabilities: data.capabilities as CFN.Capability[],
    ...(data.roleArn ? { RoleARN: data.roleArn } : {}),
    Tags: data.tags,
    EnableTerminationProtection: data.terminationProtection,
    ...(row.parent_id ? { ParentId: row.parent_id, RootId: row.root_id ?? row.parent_id } : {}),
    DriftInformation: stackDriftInformation(row.drift),
    ...(data.retainExceptOnCreate !== undefined ? { RetainExceptOnCreate: data.retainExceptOnCreate } : {}),
  };
  if (isSettled(row.status) && data.outputs) {
    stack.Outputs = data.outputs.map((o) => ({
      OutputKey: o.key,
      OutputValue: o.value,
      ...(o.description !== undefined ? { Description: o.description } : {}),
      ...(o.exportName !== undefined ? { ExportName: o.exportName } : {}),
    }));
  }
  return stack;
}

export function stackSummaryShape(row: StackSummaryRow): CFN.StackSummary {
  return {
    StackId: row.id,
    StackName: row.name,
    ...(row.description !== null ? { TemplateDescription: row.description } : {}),
    CreationTime: new Date(row.created_at),
    ...(row.updated_at !== null ? { LastUpdatedTime: new Date(row.updated_at) } : {}),
    ...(row.deleted_at !== null ? { DeletionTime: new Date(row.deleted_at) } : {}),
    StackStatus: row.status as CFN.StackStatus,
    ...(row.status_reason !== null ? { StackStatusReason: row.status_reason } : {}),
    ...(row.parent_id ? { ParentId: row.parent_id, RootId: row.root_id ?? row.parent_id } : {}),
    DriftInformation: stackDriftInformation(row.drift),
  };
}

export function eventShape(row: EventRow, stackName: string): CFN.StackEvent {
  return {
    StackId: row.stack_id,
    EventId: row.event_id,
    StackName: stackName,
    ...(row.operation_id ? { OperationId: row.operation_id } : {}),
    LogicalResourceId: row.logical_id,
    PhysicalResourceId: row.physical_id ?? '',
    ResourceType: row.type,
    Timestamp: new Date(row.ts),
    ResourceStatus: row.status as CFN.ResourceStatus,
    ...(row.reason !== null ? { ResourceStatusReason: row.reason } : {}),
    ...(row.properties !== null ? { ResourceProperties: row.properties } : {}),
    ...(row.token !== null ? { ClientRequestToken: row.token } : {}),
  };
}

function description(row: ResourceRow): string | undefined {
  const d = versionOf(row).declaration;
  return typeof d?.Description === 'string' ? d.Description : undefined;
}

/** What DescribeStackResources and DescribeStackResource report alike. */
function resourceCommon(row: ResourceRow, stack: Pick<StackRow, 'id' | 'name'>) {
  const desc = description(row);
  return {
    StackName: stack.name,
    StackId: stack.id,
    LogicalResourceId: row.logical_id,
    ...(row.physical_id !== null ? { PhysicalResourceId: row.physical_id } : {}),
    ResourceType: row.type,
    ResourceStatus: row.status as CFN.ResourceStatus,
    ...(row.status_reason !== null ? { ResourceStatusReason: row.status_reason } : {}),
    ...(desc !== undefined ? { Description: desc } : {}),
    DriftInformation: resourceDriftInformation(row.drift),
  };
}

export function resourceShape(row: ResourceRow, stack: Pick<StackRow, 'id' | 'name'>): CFN.StackResource {
  return { ...resourceCommon(row, stack), Timestamp: new Date(row.updated_at) };
}

export function resourceDetailShape(row: ResourceRow, stack: Pick<StackRow, 'id' | 'name'>): CFN.StackResourceDetail {
  const v = versionOf(row);
  return {
    ...resourceCommon(row, stack),
    LastUpdatedTimestamp: new Date(row.updated_at),
    ...(v.metadata !== undefined ? { Metadata: JSON.stringify(v.metadata) } : {}),
  };
}

export function resourceSummaryShape(row: ResourceRow): CFN.StackResourceSummary {
  return {
    LogicalResourceId: row.logical_id,
    ...(row.physical_id !== null ? { PhysicalResourceId: row.physical_id } : {}),
    ResourceType: row.type,
    LastUpdatedTimestamp: new Date(row.updated_at),
    ResourceStatus: row.status as CFN.ResourceStatus,
    ...(row.status_reason !== null ? { ResourceStatusReason: row.status_reason } : {}),
    DriftInformation: resourceDriftInformation(row.drift),
  };
}
