/**
 * The read actions over stacks: DescribeStacks (a stack by name or ARN — deleted ones by ARN
 * only — or every live stack), ListStacks (deleted ones too, with a status filter),
 * DescribeStackEvents (newest first), DescribeStackResource(s), ListStackResources and
 * GetTemplate (the submitted text for Original; the processed JSON when transforms ran). A
 * DescribeStacks of one stack waits (briefly) for an operation of that stack to finish, so a
 * waiter's first poll sees the result.
 */
import type * as CFN from '@aws-sdk/client-cloudformation';
import type { Ctx } from '../../runtime/runtime.js';
import { cfnErrors, checkInput, validation } from './requests/errors.js';
import { settled } from './engine/stack-queue.js';
import { decodeToken, encodeToken, findStack, isNumberCursor, requireStack } from './requests/lookup.js';
import { eventShape, resourceDetailShape, resourceShape, resourceSummaryShape, stackShape, stackSummaryShape } from './requests/shapes.js';
import { cfnRepo, stackData } from './engine/state.js';

const STACK_PAGE = 100;
const EVENT_PAGE = 100;
const RESOURCE_PAGE = 100;

export async function describeStacks(ctx: Ctx, input: CFN.DescribeStacksInput): Promise<CFN.DescribeStacksOutput> {
  checkInput('DescribeStacks', input);
  const repo = cfnRepo(ctx);
  if (input.StackName) {
    const first = findStack(ctx, input.StackName);
    if (first) await settled(ctx.rt, first.id);
    const row = findStack(ctx, input.StackName);
    if (!row) throw cfnErrors.stackWithIdNotFound(input.StackName);
    return { Stacks: [stackShape(row)] };
  }
  const before = decodeToken(input.NextToken, isNumberCursor)?.n ?? Number.MAX_SAFE_INTEGER;
  const rows = repo.listLiveStacks(ctx.account, ctx.region, before, STACK_PAGE + 1);
  const page = rows.slice(0, STACK_PAGE);
  return {
    Stacks: page.map(stackShape),
    ...(rows.length > STACK_PAGE ? { NextToken: encodeToken({ n: page[page.length - 1]!.seq }) } : {}),
  };
}

export function listStacks(ctx: Ctx, input: CFN.ListStacksInput): CFN.ListStacksOutput {
  checkInput('ListStacks', input);
  const repo = cfnRepo(ctx);
  const filter = input.StackStatusFilter?.length ? new Set<string>(input.StackStatusFilter) : undefined;
  let before = decodeToken(input.NextToken, isNumberCursor)?.n ?? Number.MAX_SAFE_INTEGER;
  const out: CFN.StackSummary[] = [];
  let more = false;
  // A filter that matches few stacks costs more batches; every batch is one index range.
  for (let batch = 0; batch < 50 && out.length < STACK_PAGE; batch++) {
    const rows = repo.listStacks(ctx.account, ctx.region, before, STACK_PAGE, false);
    if (rows.length === 0) break;
    for (const r of rows) {
      before = r.seq;
      if (filter && !filter.has(r.status)) continue;
      out.push(stackSummaryShape(r));
      if (out.length === STACK_PAGE) break;
    }
    if (rows.length < STACK_PAGE && out.length < STACK_PAGE) break;
  }
  if (out.length === STACK_PAGE || before !== Number.MAX_SAFE_INTEGER) {
    more = repo.listStacks(ctx.account, ctx.region, before, 1, false).length > 0;
  }
  return { StackSummaries: out, ...(more ? { NextToken: encodeToken({ n: before }) } : {}) };
}

export function describeStackEvents(ctx: Ctx, input: CFN.DescribeStackEventsInput): CFN.DescribeStackEventsOutput {
  checkInput('DescribeStackEvents', input);
  const stack = requireStack(ctx, input.StackName, cfnErrors.stackNotFound);
  const before = decodeToken(input.NextToken, isNumberCursor)?.n ?? Number.MAX_SAFE_INTEGER;
  const rows = cfnRepo(ctx).listEvents(stack.id, before, EVENT_PAGE + 1);
  const page = rows.slice(0, EVENT_PAGE);
  return {
    StackEvents: page.map((e) => eventShape(e, stack.name)),
    ...(rows.length > EVENT_PAGE ? { NextToken: encodeToken({ n: page[page.length - 1]!.seq }) } : {}),
  };
}

export function describeStackResource(ctx: Ctx, input: CFN.DescribeStackResourceInput): CFN.DescribeStackResourceOutput {
  checkInput('DescribeStackResource', input);
  const stack = requireStack(ctx, input.StackName, cfnErrors.stackWithIdNotFound);
  const id = input.LogicalResourceId ?? '';
  const row = cfnRepo(ctx).getResource(stack.id, id);
  if (!row) throw validation(`Resource ${id} does not exist for stack ${stack.name}`);
  return { StackResourceDetail: resourceDetailShape(row, stack) };
}

export function describeStackResources(ctx: Ctx, input: CFN.DescribeStackResourcesInput): CFN.DescribeStackResourcesOutput {
  checkInput('DescribeStackResources', input);
  const repo = cfnRepo(ctx);
  if (input.StackName && input.PhysicalResourceId) {
    throw validation('Cannot specify both StackName and PhysicalResourceId');
  }
  let stack;
  if (input.StackName) {
    stack = requireStack(ctx, input.StackName, cfnErrors.stackWithIdNotFound);
  } else if (input.PhysicalResourceId) {
    const match = repo
      .findResourceByPhysicalId(input.PhysicalResourceId)
      .map((r) => repo.getStack(r.stack_id))
      .find((s) => s && s.account === ctx.account && s.region === ctx.region);
    if (!match) throw validation(`Stack for ${input.PhysicalResourceId} does not exist`);
    stack = match;
  } else {
    throw validation('Either StackName or PhysicalResourceId must be specified');
  }
  const rows = repo
    .listResources(stack.id, -1, 100_000)
    .filter((r) => input.LogicalResourceId === undefined || r.logical_id === input.LogicalResourceId)
    .slice(0, 100);
  return { StackResources: rows.map((r) => resourceShape(r, stack)) };
}

export function listStackResources(ctx: Ctx, input: CFN.ListStackResourcesInput): CFN.ListStackResourcesOutput {
  checkInput('ListStackResources', input);
  const stack = requireStack(ctx, input.StackName, cfnErrors.stackWithIdNotFound);
  const after = decodeToken(input.NextToken, isNumberCursor)?.n ?? -1;
  const rows = cfnRepo(ctx).listResources(stack.id, after, RESOURCE_PAGE + 1);
  const page = rows.slice(0, RESOURCE_PAGE);
  return {
    StackResourceSummaries: page.map(resourceSummaryShape),
    ...(rows.length > RESOURCE_PAGE ? { NextToken: encodeToken({ n: page[page.length - 1]!.seq }) } : {}),
  };
}

export async function getTemplate(ctx: Ctx, input: CFN.GetTemplateInput): Promise<CFN.GetTemplateOutput> {
  checkInput('GetTemplate', input);
  const stage = input.TemplateStage ?? 'Processed';
  if (input.ChangeSetName) {
    const { findChangeSet } = await import('./change-sets.js');
    const { cs } = findChangeSet(ctx, input.ChangeSetName, input.StackName);
    if (!cs) throw cfnErrors.changeSetNotFound(input.ChangeSetName);
    return { TemplateBody: cs.template ?? '', StagesAvailable: ['Original', 'Processed'] };
  }
  if (!input.StackName) throw validation('Either StackName or ChangeSetName must be specified.');
  const stack = requireStack(ctx, input.StackName, cfnErrors.stackWithIdNotFound);
  if (stack.template === null) {
    // A stack waiting for its first change set has no template yet.
    return { TemplateBody: '{}', StagesAvailable: ['Original', 'Processed'] };
  }
  const data = stackData(stack);
  const body = stage === 'Processed' && data.processed !== undefined ? data.processed : stack.template;
  return { TemplateBody: body, StagesAvailable: ['Original', 'Processed'] };
}
