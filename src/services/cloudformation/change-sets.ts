/**
 * Change sets: CreateChangeSet (CREATE puts a new stack in REVIEW_IN_PROGRESS; UPDATE plans
 * against the running stack), DescribeChangeSet (paged Changes, property values on request),
 * ExecuteChangeSet (runs the stack operation; the stack's change sets then disappear, as the CDK
 * expects), DeleteChangeSet (a missing name on an existing stack succeeds) and ListChangeSets.
 * Changes are computed while CreateChangeSet runs, so the first DescribeChangeSet already says
 * CREATE_COMPLETE — or FAILED with AWS's "didn't contain changes" reason. IMPORT change sets and
 * ImportExistingResources are planned by engine/import-plan.ts.
 *
 * createChangeSet is one long function on purpose: its checks run in AWS's order, which reads best
 * top to bottom.
 */
import type * as CFN from '@aws-sdk/client-cloudformation';
import type { Ctx } from '../../runtime/runtime.js';
import type { ChangeSetRow, StackRow } from '../../store/cloudformation-repo.js';
import { cfnErrors, checkInput, NO_CHANGES_REASON, validation } from './requests/errors.js';
import { computeChanges } from './engine/changes.js';
import { EventLog } from './engine/events.js';
import { settled } from './engine/stack-queue.js';
import { toChange, type ResourcePlan } from './engine/plan.js';
import { newJournal, prepareDeployment } from './engine/deployment.js';
import { providersLoaded, startCreate, startImport, startUpdate } from './engine/start.js';
import { autoImport, planImport } from './engine/import-plan.js';
import { parameterInputs, requestedSettings } from './requests/inputs.js';
import { decodeToken, encodeToken, findStack, isNumberCursor } from './requests/lookup.js';
import { changeSetArn, isArn, stackArn } from './engine/arns.js';
import { checkChangeSetName, checkStackName } from './requests/name-rules.js';
import { parameterShape } from './requests/shapes.js';
import { cfnRepo, emptyStackData, sameSettings, stackData, UPDATABLE, type StackData, type StoredParameter } from './engine/state.js';
import { templateText } from './engine/template-source.js';

interface ChangeSetData {
  type: 'CREATE' | 'UPDATE' | 'IMPORT';
  description?: string;
  parameters: StoredParameter[];
  settings: Omit<StackData, 'parameters' | 'outputs'>;
  changes: ResourcePlan[];
  includeNestedStacks?: boolean;
  onStackFailure?: string;
  importExistingResources?: boolean;
}

const PAGE = 100;

function dataOf(row: Pick<ChangeSetRow, 'data'>): ChangeSetData {
  return JSON.parse(row.data) as ChangeSetData;
}

/** The change set a request names: an ARN alone, or a name with its stack. */
export function findChangeSet(ctx: Ctx, name: string | undefined, stackName: string | undefined): { cs?: ChangeSetRow; stack?: StackRow } {
  if (!name) throw validation("1 validation error detected: Value null at 'changeSetName' failed to satisfy constraint: Member must not be null");
  const repo = cfnRepo(ctx);
  if (isArn(name)) {
    const cs = repo.getChangeSet(name);
    const stack = cs ? repo.getStack(cs.stack_id) : stackName ? findStack(ctx, stackName) : undefined;
    if (cs && stack && (stack.account !== ctx.account || stack.region !== ctx.region)) return {};
    return { ...(cs ? { cs } : {}), ...(stack ? { stack } : {}) };
  }
  if (!stackName) throw validation('StackName must be specified if ChangeSetName is not specified as an ARN.');
  const stack = findStack(ctx, stackName);
  if (!stack) return {};
  const cs = repo.getChangeSetByName(stack.id, name);
  return { stack, ...(cs ? { cs } : {}) };
}

export async function createChangeSet(ctx: Ctx, input: CFN.CreateChangeSetInput): Promise<CFN.CreateChangeSetOutput> {
  checkInput('CreateChangeSet', input);
  const stackName = input.StackName;
  if (!stackName) throw validation("1 validation error detected: Value null at 'stackName' failed to satisfy constraint: Member must not be null");
  const name = input.ChangeSetName;
  if (!name) throw validation("1 validation error detected: Value null at 'changeSetName' failed to satisfy constraint: Member must not be null");
  checkChangeSetName(name);
  const type = input.ChangeSetType ?? 'UPDATE';
  // [INF] AWS's wording for ResourcesToImport on another type is not documented.
  if (type !== 'IMPORT' && input.ResourcesToImport?.length) throw validation('ResourcesToImport can only be specified for a change set of type IMPORT.');
  if (input.OnStackFailure === 'DELETE' && type !== 'CREATE') {
    throw validation('OnStackFailure DELETE is only supported for a change set of type CREATE.');
  }
  const repo = cfnRepo(ctx);
  let stack = findStack(ctx, stackName);
  if (stack) await settled(ctx.rt, stack.id);
  stack = findStack(ctx, stackName);
  if (stack?.deleted_at !== null && stack?.deleted_at !== undefined) stack = undefined;
  if (type === 'IMPORT' && (!stack || stack.status === 'REVIEW_IN_PROGRESS')) {
    // An import may create its stack from existing resources.
    if (!isArn(stackName)) checkStackName(stackName);
  } else if (type === 'CREATE') {
    if (!isArn(stackName)) checkStackName(stackName);
    if (stack && stack.status !== 'REVIEW_IN_PROGRESS') {
      throw validation(`Stack [${stackName}] already exists and cannot be created again with the changeSet [${name}].`);
    }
  } else {
    if (!stack) throw cfnErrors.stackNotFound(stackName);
    if (!UPDATABLE.has(stack.status)) throw cfnErrors.cannotUpdate(stack.id, stack.status);
  }
  const text = (await templateText(ctx, input, { allowPrevious: type === 'UPDATE' })) ?? stack?.template ?? '';
  const clash = stack ? repo.getChangeSetByName(stack.id, name) : undefined;
  if (clash) {
    const same =
      clash.template === text &&
      JSON.stringify(dataOf(clash).parameters.map((p) => [p.key, p.value])) ===
        JSON.stringify(parameterInputs(input.Parameters).map((p) => [p.ParameterKey, p.ParameterValue]));
    if (same && clash.status !== 'FAILED') return { Id: clash.id, StackId: stack!.id };
    // A FAILED change set can never run; Overcast answers so fast that the aws CLI's per-second
    // names (awscli-cloudformation-package-deploy-<epoch>) can repeat, so it gives way.
    if (clash.status !== 'FAILED') throw cfnErrors.changeSetExists(name);
    repo.deleteChangeSet(clash.id);
  }
  const stackId = stack?.id ?? stackArn(ctx, stackName);
  const before = stack && stack.status !== 'REVIEW_IN_PROGRESS' ? stackData(stack) : undefined;
  const settings = requestedSettings(before ?? emptyStackData(), input);
  const d = prepareDeployment(ctx, {
    stackName: stack?.name ?? stackName,
    stackId,
    template: text,
    parameters: parameterInputs(input.Parameters),
    ...(before ? { previousParameters: before.parameters } : {}),
    capabilities: input.Capabilities ?? [],
    viaChangeSet: true,
    settings,
  });
  let changes: ResourcePlan[] = [];
  let failure: string | undefined;
  const where = { stackName: stack?.name ?? stackName, stackId };
  if (type === 'IMPORT') {
    changes = await planImport(ctx, where, before ? stack : undefined, d, input.ResourcesToImport, computeChanges(ctx, before ? stack : undefined, d));
  } else {
    try {
      const c = computeChanges(ctx, before ? stack : undefined, d);
      changes = c.resources;
      if (before && changes.length === 0 && !c.outputsChanged && sameSettings(before, d.data)) failure = NO_CHANGES_REASON;
      if (!failure && input.ImportExistingResources) failure = await autoImport(ctx, where, d, changes);
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
    }
  }
  const id = changeSetArn(ctx, name);
  const now = Date.now();
  const data: ChangeSetData = {
    type,
    ...(input.Description !== undefined ? { description: input.Description } : {}),
    parameters: d.data.parameters,
    settings,
    changes,
    ...(input.IncludeNestedStacks !== undefined ? { includeNestedStacks: input.IncludeNestedStacks } : {}),
    ...(input.OnStackFailure ? { onStackFailure: input.OnStackFailure } : {}),
    ...(input.ImportExistingResources !== undefined ? { importExistingResources: input.ImportExistingResources } : {}),
  };
  repo.tx(() => {
    if (!stack) {
      repo.insertStack({
        id: stackId,
        account: ctx.account,
        region: ctx.region,
        name: stackName,
        status: 'REVIEW_IN_PROGRESS',
        status_reason: 'User Initiated',
        created_at: now,
        updated_at: null,
        deleted_at: null,
        parent_id: null,
        root_id: null,
        description: null,
        data: JSON.stringify({ ...settings, parameters: [] }),
        op: null,
        template: null,
      });
      new EventLog(repo, stackId, stackName).stack('REVIEW_IN_PROGRESS', 'User Initiated');
    }
    repo.insertChangeSet({
      id,
      stack_id: stackId,
      name,
      created_at: now,
      status: failure ? 'FAILED' : 'CREATE_COMPLETE',
      execution_status: failure ? 'UNAVAILABLE' : 'AVAILABLE',
      status_reason: failure ?? null,
      data: JSON.stringify(data),
      template: text,
    });
  });
  return { Id: id, StackId: stackId };
}

export function describeChangeSet(ctx: Ctx, input: CFN.DescribeChangeSetInput): CFN.DescribeChangeSetOutput {
  checkInput('DescribeChangeSet', input);
  const { cs, stack } = findChangeSet(ctx, input.ChangeSetName, input.StackName);
  if (!cs || !stack) throw cfnErrors.changeSetNotFound(input.ChangeSetName!);
  const data = dataOf(cs);
  const start = decodeToken(input.NextToken, isNumberCursor)?.n ?? 0;
  const page = data.changes.slice(start, start + PAGE);
  const next = start + PAGE < data.changes.length ? encodeToken({ n: start + PAGE }) : undefined;
  return {
    ChangeSetName: cs.name,
    ChangeSetId: cs.id,
    StackId: stack.id,
    StackName: stack.name,
    ...(data.description !== undefined ? { Description: data.description } : {}),
    Parameters: data.parameters.map(parameterShape),
    CreationTime: new Date(cs.created_at),
    ExecutionStatus: cs.execution_status as CFN.ExecutionStatus,
    Status: cs.status as CFN.ChangeSetStatus,
    ...(cs.status_reason !== null ? { StatusReason: cs.status_reason } : {}),
    NotificationARNs: data.settings.notificationArns,
    RollbackConfiguration: {},
    Capabilities: data.settings.capabilities as CFN.Capability[],
    Tags: data.settings.tags,
    Changes: page.map((p) => toChange(p, input.IncludePropertyValues === true)),
    ...(next ? { NextToken: next } : {}),
    ...(data.includeNestedStacks !== undefined ? { IncludeNestedStacks: data.includeNestedStacks } : {}),
    ...(data.onStackFailure ? { OnStackFailure: data.onStackFailure as CFN.OnStackFailure } : {}),
    ...(data.importExistingResources !== undefined ? { ImportExistingResources: data.importExistingResources } : {}),
  };
}

export async function executeChangeSet(ctx: Ctx, input: CFN.ExecuteChangeSetInput): Promise<CFN.ExecuteChangeSetOutput> {
  checkInput('ExecuteChangeSet', input);
  const found = findChangeSet(ctx, input.ChangeSetName, input.StackName);
  if (!found.cs || !found.stack) throw cfnErrors.changeSetNotFound(input.ChangeSetName!);
  await settled(ctx.rt, found.stack.id);
  await providersLoaded(ctx, found.stack.id, dataOf(found.cs).changes.map((c) => c.type));
  const repo = cfnRepo(ctx);
  const cs = repo.getChangeSet(found.cs.id);
  const stack = repo.getStack(found.stack.id);
  if (!cs || !stack) throw cfnErrors.changeSetNotFound(input.ChangeSetName!);
  if (cs.status !== 'CREATE_COMPLETE') {
    throw cfnErrors.invalidChangeSetStatus(`ChangeSet [${cs.id}] cannot be executed in its current status of [${cs.status}]`);
  }
  if (cs.execution_status !== 'AVAILABLE') {
    throw cfnErrors.invalidChangeSetStatus(
      `ChangeSet [${cs.id}] cannot be executed in its current execution status of [${cs.execution_status}]`,
    );
  }
  const data = dataOf(cs);
  if (input.DisableRollback !== undefined && data.onStackFailure !== undefined) {
    throw validation('You cannot specify both DisableRollback and OnStackFailure.');
  }
  const fresh = stack.status === 'REVIEW_IN_PROGRESS';
  if (data.type === 'CREATE' && !fresh) throw cfnErrors.cannotUpdate(stack.id, stack.status);
  if (data.type !== 'CREATE' && !fresh && !UPDATABLE.has(stack.status)) throw cfnErrors.cannotUpdate(stack.id, stack.status);
  if (data.type === 'UPDATE' && fresh) throw cfnErrors.cannotUpdate(stack.id, stack.status);
  const before = fresh ? undefined : stackData(stack);
  const d = prepareDeployment(ctx, {
    stackName: stack.name,
    stackId: stack.id,
    template: cs.template ?? '',
    parameters: data.parameters.map((p) => ({ ParameterKey: p.key, ParameterValue: p.value })),
    ...(before ? { previousParameters: before.parameters } : {}),
    capabilities: data.settings.capabilities,
    viaChangeSet: true,
    settings: { ...data.settings, changeSetId: cs.id },
  });
  const imports = data.changes.filter((c) => c.action === 'Import' && c.identifier);
  if (imports.length) d.adopt = Object.fromEntries(imports.map((c) => [c.logicalId, c.identifier!]));
  const disableRollback = input.DisableRollback === true || data.onStackFailure === 'DO_NOTHING';
  const journal = newJournal(data.type, {
    ...(input.ClientRequestToken ? { token: input.ClientRequestToken } : {}),
    ...(before?.stackPolicy !== undefined ? { policy: before.stackPolicy } : {}),
    disableRollback,
    ...(data.onStackFailure === 'DELETE' ? { deleteOnFailure: true } : {}),
    ...(input.RetainExceptOnCreate ? { retainExceptOnCreate: true } : {}),
  });
  // Executing a change set removes every change set of the stack (the CDK waits for its own to go).
  repo.deleteChangeSetsOfStack(stack.id);
  if (data.type === 'CREATE') {
    d.data.disableRollback = disableRollback;
    d.data.lastOperation = { id: journal.id, type: 'CREATE_STACK' };
    repo.tx(() => {
      repo.updateStack(stack.id, {
        status: 'CREATE_IN_PROGRESS',
        status_reason: 'User Initiated',
        data: JSON.stringify(d.data),
        template: d.template,
        description: d.description,
        op: JSON.stringify(journal),
      });
      new EventLog(repo, stack.id, stack.name, journal.token, journal.id).stack('CREATE_IN_PROGRESS', 'User Initiated');
    });
    void startCreate(ctx, stack, d, journal);
  } else if (data.type === 'IMPORT') {
    d.data.lastOperation = { id: journal.id, type: 'IMPORT_STACK' };
    void startImport(ctx, stack, d, journal);
  } else {
    d.data.lastOperation = { id: journal.id, type: 'UPDATE_STACK' };
    void startUpdate(ctx, stack, d, journal);
  }
  return {};
}

export async function deleteChangeSet(ctx: Ctx, input: CFN.DeleteChangeSetInput): Promise<CFN.DeleteChangeSetOutput> {
  checkInput('DeleteChangeSet', input);
  const { cs, stack } = findChangeSet(ctx, input.ChangeSetName, input.StackName);
  if (!cs) {
    // A name that does not exist on an existing stack is no error: the CDK deletes blindly.
    if (!stack && !isArn(input.ChangeSetName!)) throw cfnErrors.stackNotFound(input.StackName!);
    return {};
  }
  if (cs.execution_status === 'EXECUTE_IN_PROGRESS') {
    throw cfnErrors.invalidChangeSetStatus('An operation on this ChangeSet is currently in progress.  Please attempt this operation again later.');
  }
  cfnRepo(ctx).deleteChangeSet(cs.id);
  return {};
}

export function listChangeSets(ctx: Ctx, input: CFN.ListChangeSetsInput): CFN.ListChangeSetsOutput {
  checkInput('ListChangeSets', input);
  const stack = findStack(ctx, input.StackName ?? '');
  if (!stack) throw cfnErrors.stackNotFound(input.StackName ?? '');
  const after = decodeToken(input.NextToken, isNumberCursor)?.n ?? -1;
  const rows = cfnRepo(ctx).listChangeSets(stack.id, after, PAGE + 1) as (ChangeSetRow & { data: string })[];
  const page = rows.slice(0, PAGE);
  return {
    Summaries: page.map((cs) => {
      const data = dataOf(cs);
      return {
        StackId: stack.id,
        StackName: stack.name,
        ChangeSetId: cs.id,
        ChangeSetName: cs.name,
        ExecutionStatus: cs.execution_status as CFN.ExecutionStatus,
        Status: cs.status as CFN.ChangeSetStatus,
        ...(cs.status_reason !== null ? { StatusReason: cs.status_reason } : {}),
        CreationTime: new Date(cs.created_at),
        ...(data.description !== undefined ? { Description: data.description } : {}),
        ...(data.includeNestedStacks !== undefined ? { IncludeNestedStacks: data.includeNestedStacks } : {}),
        ...(data.importExistingResources !== undefined ? { ImportExistingResources: data.importExistingResources } : {}),
      };
    }),
    ...(rows.length > PAGE ? { NextToken: encodeToken({ n: page[page.length - 1]!.seq }) } : {}),
  };
}
