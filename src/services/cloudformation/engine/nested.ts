/**
 * Nested stacks (`AWS::CloudFormation::Stack`): the child is a real stack — its template read from
 * Overcast's S3 through TemplateURL, named `<parent>-<LogicalId>-<SUFFIX>`, with ParentId/RootId,
 * the parent's capabilities and tags — created, updated and deleted by the same engine, the
 * parent's resource waiting for the child's terminal status. Ref is the child's stack ARN;
 * `Fn::GetAtt Child.Outputs.Name` reads the child's outputs. A child that fails is rolled back
 * (and removed, if it was being created) and the parent's resource fails with AWS's
 * "Embedded stack … was not successfully created" reason.
 */
import { randomUUID } from 'node:crypto';
import type { StackRow } from '../../../store/cloudformation-repo.js';
import type { ParameterInput } from '../template/types.js';
import { generatedName } from '../resources/physical-names.js';
import { ResourceFailure, type NestedStacks, type ResourceContext, type ResourceState } from '../resources/types.js';
import { stackArn } from './arns.js';
import { cfnRepo, sameSettings, stackData, type OperationJournal, type StackData } from './state.js';
import { fetchTemplateUrl } from './template-source.js';
import { hasChanges } from './changes.js';
import { runDelete } from './delete-stack.js';
import { runDeploy } from './deploy.js';
import { newJournal, prepareDeployment, type Deployment } from './deployment.js';
import { EventLog } from './events.js';
import { openOp, setStackStatus } from './operation.js';
import { enqueue, guarded } from './stack-queue.js';

function parameterInputs(value: unknown): ParameterInput[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).map(([k, v]) => ({
    ParameterKey: k,
    ParameterValue: Array.isArray(v) ? v.map(String).join(',') : typeof v === 'string' ? v : JSON.stringify(v),
  }));
}

/**
 * The child's stack tags: the resource's Tags, into which the engine has already merged the
 * parent's stack-level tags (engine/stack-tags.ts), so a tag removed from the parent leaves the
 * child too.
 */
function tagsOf(value: unknown): { Key: string; Value: string }[] {
  return Array.isArray(value)
    ? value.map((t: { Key?: unknown; Value?: unknown }) => ({ Key: String(t?.Key ?? ''), Value: String(t?.Value ?? '') }))
    : [];
}

function stateOfChild(child: StackRow): ResourceState {
  const data = stackData(child);
  const attributes: Record<string, unknown> = {
    StackId: child.id,
    StackStatus: child.status,
    CreationTime: new Date(child.created_at).toISOString(),
    ...(child.updated_at !== null ? { LastUpdateTime: new Date(child.updated_at).toISOString() } : {}),
    ...(child.parent_id ? { ParentId: child.parent_id, RootId: child.root_id ?? child.parent_id } : {}),
    ...(data.changeSetId ? { ChangeSetId: data.changeSetId } : {}),
  };
  for (const o of data.outputs ?? []) attributes[`Outputs.${o.key}`] = o.value;
  return { physicalId: child.id, attributes };
}

/** The reason the child's last operation failed, from its stack events. */
function childFailure(rc: ResourceContext, child: StackRow): string {
  const repo = cfnRepo(rc.ctx);
  for (const e of repo.listEvents(child.id, Number.MAX_SAFE_INTEGER, 50)) {
    if (e.logical_id === child.name && e.type === 'AWS::CloudFormation::Stack' && e.reason && e.reason !== 'User Initiated') {
      return e.reason;
    }
  }
  return child.status_reason ?? child.status;
}

function deployment(rc: ResourceContext, child: { id: string; name: string }, template: string, props: Record<string, unknown>, parent: StackRow, previous?: StackData): Deployment {
  const parentData = stackData(parent);
  try {
    return prepareDeployment(rc.ctx, {
      stackName: child.name,
      stackId: child.id,
      template,
      parameters: parameterInputs(props.Parameters),
      ...(previous ? { previousParameters: previous.parameters } : {}),
      capabilities: parentData.capabilities,
      viaChangeSet: true,
      settings: {
        tags: tagsOf(props.Tags),
        capabilities: parentData.capabilities,
        notificationArns: Array.isArray(props.NotificationARNs) ? props.NotificationARNs.map(String) : parentData.notificationArns,
        disableRollback: false,
        terminationProtection: false,
        ...(props.TimeoutInMinutes !== undefined ? { timeoutInMinutes: Number(props.TimeoutInMinutes) } : {}),
      },
    });
  } catch (err) {
    throw new ResourceFailure(err instanceof Error ? err.message : String(err));
  }
}

async function template(rc: ResourceContext, props: Record<string, unknown>): Promise<string> {
  if (typeof props.TemplateURL !== 'string') {
    throw new ResourceFailure(`Properties validation failed for resource ${rc.logicalId} with message: #: required key [TemplateURL] not found`);
  }
  try {
    return await fetchTemplateUrl(rc.ctx, props.TemplateURL);
  } catch (err) {
    throw new ResourceFailure(err instanceof Error ? err.message : String(err));
  }
}

function parentOf(rc: ResourceContext): StackRow {
  const parent = cfnRepo(rc.ctx).getStack(rc.stackId);
  if (!parent) throw new ResourceFailure(`Stack ${rc.stackId} does not exist`);
  return parent;
}

async function createNestedStack(rc: ResourceContext, props: Record<string, unknown>): Promise<ResourceState> {
  const parent = parentOf(rc);
  const text = await template(rc, props);
  const name = generatedName(rc, { max: 128, suffix: 12 });
  const id = stackArn(rc.ctx, name);
  const d = deployment(rc, { id, name }, text, props, parent);
  const repo = cfnRepo(rc.ctx);
  const journal: OperationJournal = newJournal('CREATE');
  repo.tx(() => {
    repo.insertStack({
      id,
      account: rc.ctx.account,
      region: rc.ctx.region,
      name,
      status: 'CREATE_IN_PROGRESS',
      status_reason: 'User Initiated',
      created_at: Date.now(),
      updated_at: null,
      deleted_at: null,
      parent_id: parent.id,
      root_id: parent.root_id ?? parent.id,
      description: d.description,
      data: JSON.stringify(d.data),
      op: JSON.stringify(journal),
      template: text,
    });
    new EventLog(repo, id, name, undefined, journal.id).stack('CREATE_IN_PROGRESS', 'User Initiated');
  });
  const row = { id, name, account: rc.ctx.account, region: rc.ctx.region, op: null };
  const op = openOp(rc.ctx.rt, row, nestedStacks, journal);
  await enqueue(rc.ctx.rt, id, `create nested ${name}`, () => guarded(op, () => runDeploy(op, d, 'CREATE')));
  const child = repo.getStack(id)!;
  if (child.status === 'CREATE_COMPLETE') return stateOfChild(child);
  const reason = childFailure(rc, child);
  await removeChild(rc, child);
  throw new ResourceFailure(`Embedded stack ${id} was not successfully created: ${reason}`);
}

async function updateNestedStack(
  rc: ResourceContext,
  props: Record<string, unknown>,
  previous: { props: Record<string, unknown>; state: ResourceState },
): Promise<ResourceState> {
  const repo = cfnRepo(rc.ctx);
  const child = repo.getStack(previous.state.physicalId);
  if (!child || child.deleted_at !== null) return createNestedStack(rc, props);
  const parent = parentOf(rc);
  const text = await template(rc, props);
  const before = stackData(child);
  const d = deployment(rc, child, text, props, parent, before);
  if (!hasChanges(rc.ctx, child, d) && sameSettings(before, d.data)) return stateOfChild(child);
  const journal: OperationJournal = { id: randomUUID(), type: 'UPDATE', previous: { template: child.template, description: child.description, data: before } };
  const op = openOp(rc.ctx.rt, child, nestedStacks, journal);
  op.repo.tx(() => {
    op.repo.updateStack(child.id, { op: JSON.stringify(journal) });
    setStackStatus(op, 'UPDATE_IN_PROGRESS', 'User Initiated');
  });
  await enqueue(rc.ctx.rt, child.id, `update nested ${child.name}`, () => guarded(op, () => runDeploy(op, d, 'UPDATE', before.parameters)));
  const after = repo.getStack(child.id)!;
  if (after.status === 'UPDATE_COMPLETE') return stateOfChild(after);
  throw new ResourceFailure(
    `Embedded stack ${child.id} was not successfully updated. Currently in ${after.status} with reason: ${childFailure(rc, after)}`,
  );
}

async function removeChild(rc: ResourceContext, child: StackRow): Promise<StackRow> {
  const repo = cfnRepo(rc.ctx);
  const op = openOp(rc.ctx.rt, child, nestedStacks, newJournal('DELETE'));
  op.repo.tx(() => setStackStatus(op, 'DELETE_IN_PROGRESS', 'User Initiated'));
  await enqueue(rc.ctx.rt, child.id, `delete nested ${child.name}`, () =>
    guarded(op, () => runDelete(op, { previousStatus: child.status, previousReason: child.status_reason })),
  );
  return repo.getStack(child.id)!;
}

async function deleteNestedStack(rc: ResourceContext, state: ResourceState): Promise<void> {
  const child = cfnRepo(rc.ctx).getStack(state.physicalId);
  if (!child || child.deleted_at !== null || child.status === 'DELETE_COMPLETE') return;
  const after = await removeChild(rc, child);
  if (after.status !== 'DELETE_COMPLETE') {
    throw new ResourceFailure(`Embedded stack ${child.id} was not successfully deleted: ${childFailure(rc, after)}`);
  }
}

/** The engine's nested-stack operations, as every operation hands them to its resources. */
export const nestedStacks: NestedStacks = {
  create: createNestedStack,
  update: updateNestedStack,
  delete: deleteNestedStack,
};
