/**
 * The stack actions that change state: CreateStack, UpdateStack, DeleteStack,
 * UpdateTerminationProtection, CancelUpdateStack, ContinueUpdateRollback, RollbackStack and the
 * stack policy. Each validates synchronously with AWS's errors, records the new status, and leaves
 * the work to the engine, which runs right after the response.
 */
import type * as CFN from '@aws-sdk/client-cloudformation';
import type { Ctx } from '../../runtime/runtime.js';
import { cfnErrors, checkInput, validation } from './requests/errors.js';
import { newJournal, prepareDeployment } from './engine/deployment.js';
import { deploymentTypes, providersLoaded, startContinueRollback, startCreate, startDelete, startRollback, startUpdate } from './engine/start.js';
import { requestCancel } from './engine/deploy.js';
import { EventLog } from './engine/events.js';
import { settled } from './engine/stack-queue.js';
import { findStack, requireLiveStack } from './requests/lookup.js';
import { stackArn } from './engine/arns.js';
import { checkStackName } from './requests/name-rules.js';
import { cfnRepo, emptyStackData, sameSettings, stackData, UPDATABLE, type StackData } from './engine/state.js';
import { templateText } from './engine/template-source.js';
import { parameterInputs, requestedSettings, stackPolicyText, tagsOf } from './requests/inputs.js';

export async function createStack(ctx: Ctx, input: CFN.CreateStackInput): Promise<CFN.CreateStackOutput> {
  checkInput('CreateStack', input);
  const name = input.StackName;
  if (!name) throw validation("1 validation error detected: Value null at 'stackName' failed to satisfy constraint: Member must not be null");
  checkStackName(name);
  if (input.OnFailure !== undefined && input.DisableRollback !== undefined) {
    throw validation('Either DisableRollback or OnFailure can be specified, not both.');
  }
  const repo = cfnRepo(ctx);
  const live = repo.getLiveStack(ctx.account, ctx.region, name);
  if (live) {
    // A retry of the same request (same ClientRequestToken) gets the same answer.
    const last = stackData(live).lastOperation;
    if (input.ClientRequestToken && last?.type === 'CREATE_STACK' && last.token === input.ClientRequestToken) {
      return { StackId: live.id, OperationId: last.id } as CFN.CreateStackOutput;
    }
    throw cfnErrors.alreadyExists(name);
  }
  const text = (await templateText(ctx, input, { allowPrevious: false }))!;
  const stackId = stackArn(ctx, name);
  const settings: Omit<StackData, 'parameters' | 'outputs'> = {
    ...emptyStackData(),
    tags: tagsOf(input.Tags),
    capabilities: input.Capabilities ?? [],
    notificationArns: input.NotificationARNs ?? [],
    disableRollback: input.DisableRollback === true || input.OnFailure === 'DO_NOTHING',
    ...(input.TimeoutInMinutes !== undefined ? { timeoutInMinutes: input.TimeoutInMinutes } : {}),
    ...(input.RoleARN ? { roleArn: input.RoleARN } : {}),
    terminationProtection: input.EnableTerminationProtection === true,
    ...(input.RetainExceptOnCreate !== undefined ? { retainExceptOnCreate: input.RetainExceptOnCreate } : {}),
  };
  const policy = await stackPolicyText(ctx, input.StackPolicyBody, input.StackPolicyURL);
  if (policy !== undefined) settings.stackPolicy = policy;
  const d = prepareDeployment(ctx, {
    stackName: name,
    stackId,
    template: text,
    parameters: parameterInputs(input.Parameters),
    capabilities: input.Capabilities ?? [],
    settings,
  });
  await providersLoaded(ctx, stackId, deploymentTypes(d));
  if (repo.getLiveStack(ctx.account, ctx.region, name)) throw cfnErrors.alreadyExists(name);
  const journal = newJournal('CREATE', {
    ...(input.ClientRequestToken ? { token: input.ClientRequestToken } : {}),
    disableRollback: settings.disableRollback,
    deleteOnFailure: input.OnFailure === 'DELETE',
    ...(input.RetainExceptOnCreate ? { retainExceptOnCreate: true } : {}),
  });
  d.data.lastOperation = { id: journal.id, type: 'CREATE_STACK', ...(journal.token ? { token: journal.token } : {}) };
  const now = Date.now();
  repo.tx(() => {
    repo.insertStack({
      id: stackId,
      account: ctx.account,
      region: ctx.region,
      name,
      status: 'CREATE_IN_PROGRESS',
      status_reason: 'User Initiated',
      created_at: now,
      updated_at: null,
      deleted_at: null,
      parent_id: null,
      root_id: null,
      description: d.description,
      data: JSON.stringify(d.data),
      op: JSON.stringify(journal),
      template: text,
    });
    new EventLog(repo, stackId, name, journal.token, journal.id).stack('CREATE_IN_PROGRESS', 'User Initiated');
  });
  void startCreate(ctx, { id: stackId, name }, d, journal);
  return { StackId: stackId, OperationId: journal.id } as CFN.CreateStackOutput;
}

export async function updateStack(ctx: Ctx, input: CFN.UpdateStackInput): Promise<CFN.UpdateStackOutput> {
  checkInput('UpdateStack', input);
  await settled(ctx.rt, requireLiveStack(ctx, input.StackName, cfnErrors.stackNotFound).id);
  const stack = requireLiveStack(ctx, input.StackName, cfnErrors.stackNotFound);
  const last = stackData(stack).lastOperation;
  if (input.ClientRequestToken && last?.type === 'UPDATE_STACK' && last.token === input.ClientRequestToken) {
    return { StackId: stack.id, OperationId: last.id } as CFN.UpdateStackOutput;
  }
  if (!UPDATABLE.has(stack.status)) throw cfnErrors.cannotUpdate(stack.id, stack.status);
  const text = (await templateText(ctx, input, { allowPrevious: true })) ?? stack.template ?? '';
  const before = stackData(stack);
  const settings = requestedSettings(before, input);
  const policy = await stackPolicyText(ctx, input.StackPolicyBody, input.StackPolicyURL);
  if (policy !== undefined) settings.stackPolicy = policy;
  const d = prepareDeployment(ctx, {
    stackName: stack.name,
    stackId: stack.id,
    template: text,
    parameters: parameterInputs(input.Parameters),
    previousParameters: before.parameters,
    capabilities: input.Capabilities ?? [],
    settings,
  });
  const { hasChanges } = await import('./engine/changes.js');
  if (!hasChanges(ctx, stack, d) && sameSettings(before, d.data)) throw cfnErrors.noUpdates();
  await providersLoaded(ctx, stack.id, deploymentTypes(d));
  const during = await stackPolicyText(ctx, input.StackPolicyDuringUpdateBody, input.StackPolicyDuringUpdateURL, 'stackPolicyDuringUpdateBody');
  const inForce = during ?? settings.stackPolicy;
  const journal = newJournal('UPDATE', {
    ...(input.ClientRequestToken ? { token: input.ClientRequestToken } : {}),
    ...(inForce !== undefined ? { policy: inForce } : {}),
    disableRollback: input.DisableRollback === true,
    ...(input.RetainExceptOnCreate ? { retainExceptOnCreate: true } : {}),
  });
  const repo = cfnRepo(ctx);
  // A direct update makes the stack's change sets stale.
  for (const cs of repo.listChangeSets(stack.id, -1, 1000)) {
    repo.updateChangeSet(cs.id, { execution_status: 'OBSOLETE' });
  }
  d.data.lastOperation = { id: journal.id, type: 'UPDATE_STACK', ...(journal.token ? { token: journal.token } : {}) };
  void startUpdate(ctx, stack, d, journal);
  return { StackId: stack.id, OperationId: journal.id } as CFN.UpdateStackOutput;
}

export async function deleteStack(ctx: Ctx, input: CFN.DeleteStackInput): Promise<void> {
  checkInput('DeleteStack', input);
  if (!input.StackName) {
    throw validation("1 validation error detected: Value null at 'stackName' failed to satisfy constraint: Member must not be null");
  }
  const found = findStack(ctx, input.StackName);
  if (found) {
    await settled(ctx.rt, found.id);
    await providersLoaded(ctx, found.id);
  }
  const stack = findStack(ctx, input.StackName);
  // Deleting a stack that does not exist (or is gone) succeeds and does nothing.
  if (!stack || stack.deleted_at !== null || stack.status === 'DELETE_COMPLETE') return;
  const data = stackData(stack);
  if (data.terminationProtection) throw cfnErrors.terminationProtection(stack.name);
  if (stack.status === 'DELETE_IN_PROGRESS') return;
  if (input.RetainResources?.length && stack.status !== 'DELETE_FAILED') {
    throw validation(
      `Invalid operation on stack [${stack.id}]. RetainResources can only be specified when the stack is in the DELETE_FAILED state`,
    );
  }
  if (stack.status.startsWith('UPDATE') && stack.status.endsWith('_IN_PROGRESS')) throw cfnErrors.cannotDeleteWhile(stack.status);
  const journal = newJournal('DELETE', input.ClientRequestToken ? { token: input.ClientRequestToken } : {});
  void startDelete(ctx, stack, journal, input.RetainResources);
}

export function updateTerminationProtection(
  ctx: Ctx,
  input: CFN.UpdateTerminationProtectionInput,
): CFN.UpdateTerminationProtectionOutput {
  checkInput('UpdateTerminationProtection', input);
  const stack = requireLiveStack(ctx, input.StackName, cfnErrors.stackWithIdNotFound);
  if (stack.parent_id) {
    throw validation(
      `Termination protection cannot be updated on nested stack ${stack.id}. Update it on the root stack ${stack.root_id ?? stack.parent_id} instead.`,
    );
  }
  const data = stackData(stack);
  data.terminationProtection = input.EnableTerminationProtection === true;
  cfnRepo(ctx).updateStack(stack.id, { data: JSON.stringify(data) });
  return { StackId: stack.id };
}

export function cancelUpdateStack(ctx: Ctx, input: CFN.CancelUpdateStackInput): void {
  checkInput('CancelUpdateStack', input);
  const stack = requireLiveStack(ctx, input.StackName, cfnErrors.stackWithIdNotFound);
  if (stack.status !== 'UPDATE_IN_PROGRESS') {
    throw validation(`CancelUpdateStack cannot be called from current stack status ${stack.status}.`);
  }
  requestCancel(stack.id);
}

export async function continueUpdateRollback(
  ctx: Ctx,
  input: CFN.ContinueUpdateRollbackInput,
): Promise<CFN.ContinueUpdateRollbackOutput> {
  checkInput('ContinueUpdateRollback', input);
  const stack = requireLiveStack(ctx, input.StackName, cfnErrors.stackWithIdNotFound);
  if (stack.status !== 'UPDATE_ROLLBACK_FAILED') {
    throw validation(`ContinueUpdateRollback cannot be called from current stack status ${stack.status}.`);
  }
  void startContinueRollback(ctx, stack, input.ResourcesToSkip ?? [], input.ClientRequestToken);
  return {};
}

export async function rollbackStack(ctx: Ctx, input: CFN.RollbackStackInput): Promise<CFN.RollbackStackOutput> {
  checkInput('RollbackStack', input);
  const stack = requireLiveStack(ctx, input.StackName, cfnErrors.stackWithIdNotFound);
  if (!['CREATE_FAILED', 'UPDATE_FAILED', 'ROLLBACK_FAILED', 'UPDATE_ROLLBACK_FAILED'].includes(stack.status)) {
    throw validation(`Stack ${stack.id} is in ${stack.status} state and can not be rolled back.`);
  }
  void startRollback(ctx, stack, input.ClientRequestToken);
  return { StackId: stack.id };
}

export async function setStackPolicy(ctx: Ctx, input: CFN.SetStackPolicyInput): Promise<void> {
  checkInput('SetStackPolicy', input);
  const stack = requireLiveStack(ctx, input.StackName, cfnErrors.stackWithIdNotFound);
  const policy = await stackPolicyText(ctx, input.StackPolicyBody, input.StackPolicyURL);
  if (policy === undefined) throw validation('Either StackPolicyBody or StackPolicyURL must be specified.');
  const data = stackData(stack);
  data.stackPolicy = policy;
  cfnRepo(ctx).updateStack(stack.id, { data: JSON.stringify(data) });
}

export function getStackPolicy(ctx: Ctx, input: CFN.GetStackPolicyInput): CFN.GetStackPolicyOutput {
  checkInput('GetStackPolicy', input);
  const stack = requireLiveStack(ctx, input.StackName, cfnErrors.stackWithIdNotFound);
  const policy = stackData(stack).stackPolicy;
  return policy !== undefined ? { StackPolicyBody: policy } : {};
}
