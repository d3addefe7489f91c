/**
 * Stack refactoring (cfn-drift-import-refactor.md §3): CreateStackRefactor plans the moves
 * (engine/refactor-plan.ts) and answers with an id whose DescribeStackRefactor already says
 * CREATE_COMPLETE / AVAILABLE — or CREATE_FAILED / UNAVAILABLE with the rule it breaks, where the
 * CDK prints it from; ExecuteStackRefactor moves the resources (engine/refactor-run.ts) and ends
 * EXECUTE_COMPLETE, or OBSOLETE when one of its stacks changed since; ListStackRefactors and
 * ListStackRefactorActions page through the refactors (newest first) and their MOVE (and, with
 * EnableStackCreation, CREATE) actions.
 */
import { randomUUID } from 'node:crypto';
import type * as CFN from '@aws-sdk/client-cloudformation';
import type { Ctx } from '../../runtime/runtime.js';
import type { RefactorRow } from '../../store/cloudformation-records-repo.js';
import { AwsError } from '../../wire/errors.js';
import { checkInput, validation } from './requests/errors.js';
import { decodeToken, encodeToken, isNumberCursor } from './requests/lookup.js';
import { cfnRecords } from './engine/records.js';
import { fingerprint, planRefactor, type RefactorMove, type RefactorStack } from './engine/refactor-plan.js';
import { runRefactor } from './engine/refactor-run.js';
import { isBusy } from './engine/stack-queue.js';
import { hasSystemTags } from './engine/stack-tags.js';
import { cfnRepo, versionOf } from './engine/state.js';
import { resourceType } from './spec/resource-types.js';

interface RefactorData {
  description?: string;
  status: CFN.StackRefactorStatus;
  statusReason?: string;
  executionStatusReason?: string;
  stacks: RefactorStack[];
  moves: RefactorMove[];
}

/** CloudFormation's system tags (engine/stack-tags.ts), which a move rewrites. */
const SYSTEM_TAG_KEYS = ['aws:cloudformation:stack-name', 'aws:cloudformation:logical-id', 'aws:cloudformation:stack-id'];

function notFound(): AwsError {
  return new AwsError('StackRefactorNotFoundException', "The specified stack refactor can't be found.", 404);
}

function find(ctx: Ctx, id: string | undefined): { row: RefactorRow; data: RefactorData } {
  const row = id ? cfnRecords(ctx).getRefactor(id) : undefined;
  if (!row || row.account !== ctx.account || row.region !== ctx.region) throw notFound();
  return { row, data: JSON.parse(row.data) as RefactorData };
}

export async function createStackRefactor(ctx: Ctx, input: CFN.CreateStackRefactorInput): Promise<CFN.CreateStackRefactorOutput> {
  checkInput('CreateStackRefactor', input);
  const plan = await planRefactor(ctx, input);
  const id = randomUUID();
  const data: RefactorData = {
    ...(input.Description !== undefined ? { description: input.Description } : {}),
    status: plan.failure ? 'CREATE_FAILED' : 'CREATE_COMPLETE',
    ...(plan.failure ? { statusReason: plan.failure } : {}),
    stacks: plan.stacks,
    moves: plan.moves,
  };
  cfnRecords(ctx).insertRefactor({
    id,
    account: ctx.account,
    region: ctx.region,
    created_at: Date.now(),
    execution_status: plan.failure ? 'UNAVAILABLE' : 'AVAILABLE',
    data: JSON.stringify(data),
  });
  return { StackRefactorId: id };
}

/** AVAILABLE turns OBSOLETE once one of the refactor's stacks has changed since its creation. */
function executionStatus(ctx: Ctx, row: RefactorRow, data: RefactorData): string {
  if (row.execution_status !== 'AVAILABLE') return row.execution_status;
  const repo = cfnRepo(ctx);
  const stale = data.stacks.some((s) => {
    if (s.create) return repo.getLiveStack(ctx.account, ctx.region, s.name) !== undefined;
    const now = repo.getStack(s.id);
    return !now || now.deleted_at !== null || fingerprint(now) !== s.fingerprint;
  });
  return stale ? 'OBSOLETE' : 'AVAILABLE';
}

export function describeStackRefactor(ctx: Ctx, input: CFN.DescribeStackRefactorInput): CFN.DescribeStackRefactorOutput {
  checkInput('DescribeStackRefactor', input);
  const { row, data } = find(ctx, input.StackRefactorId);
  return {
    ...(data.description !== undefined ? { Description: data.description } : {}),
    StackRefactorId: row.id,
    StackIds: data.stacks.map((s) => s.id),
    ExecutionStatus: executionStatus(ctx, row, data) as CFN.StackRefactorExecutionStatus,
    ...(data.executionStatusReason ? { ExecutionStatusReason: data.executionStatusReason } : {}),
    Status: data.status,
    ...(data.statusReason ? { StatusReason: data.statusReason } : {}),
  };
}

export async function executeStackRefactor(ctx: Ctx, input: CFN.ExecuteStackRefactorInput): Promise<void> {
  checkInput('ExecuteStackRefactor', input);
  const { row, data } = find(ctx, input.StackRefactorId);
  const status = executionStatus(ctx, row, data);
  const records = cfnRecords(ctx);
  if (status !== 'AVAILABLE') {
    if (status === 'OBSOLETE') records.updateRefactor(row.id, 'OBSOLETE', row.data);
    // [INF] the wording follows ExecuteChangeSet's refusal.
    throw validation(`StackRefactor [${row.id}] cannot be executed in its current execution status of [${status}]`);
  }
  const busy = data.stacks.find((s) => isBusy(ctx.rt, s.id));
  if (busy) throw validation(`Stack [${busy.name}] has an operation in progress.`);
  records.updateRefactor(row.id, 'EXECUTE_IN_PROGRESS', row.data);
  try {
    await runRefactor(ctx, data.stacks, data.moves);
    records.updateRefactor(row.id, 'EXECUTE_COMPLETE', row.data);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    records.updateRefactor(row.id, 'EXECUTE_FAILED', JSON.stringify({ ...data, executionStatusReason: reason }));
  }
}

const PAGE = 100;

export function listStackRefactors(ctx: Ctx, input: CFN.ListStackRefactorsInput): CFN.ListStackRefactorsOutput {
  checkInput('ListStackRefactors', input);
  const filter = input.ExecutionStatusFilter?.length ? new Set<string>(input.ExecutionStatusFilter) : undefined;
  const limit = input.MaxResults ?? PAGE;
  let before = decodeToken(input.NextToken, isNumberCursor)?.n ?? Number.MAX_SAFE_INTEGER;
  const out: CFN.StackRefactorSummary[] = [];
  let more = false;
  for (;;) {
    const rows = cfnRecords(ctx).listRefactors(ctx.account, ctx.region, before, PAGE);
    for (const row of rows) {
      const data = JSON.parse(row.data) as RefactorData;
      const status = executionStatus(ctx, row, data);
      if (filter && !filter.has(status)) {
        before = row.seq;
        continue;
      }
      if (out.length === limit) {
        more = true;
        break;
      }
      out.push({
        StackRefactorId: row.id,
        ...(data.description !== undefined ? { Description: data.description } : {}),
        ExecutionStatus: status as CFN.StackRefactorExecutionStatus,
        ...(data.executionStatusReason ? { ExecutionStatusReason: data.executionStatusReason } : {}),
        Status: data.status,
        ...(data.statusReason ? { StatusReason: data.statusReason } : {}),
      });
      before = row.seq;
    }
    if (more || rows.length < PAGE) break;
  }
  return { StackRefactorSummaries: out, ...(more ? { NextToken: encodeToken({ n: before }) } : {}) };
}

function moveAction(ctx: Ctx, data: RefactorData, m: RefactorMove): CFN.StackRefactorAction {
  const name = (id: string) => data.stacks.find((s) => s.id === id)?.name ?? id;
  const idProps = resourceType(m.type)?.id ?? [];
  const row = cfnRepo(ctx).getResource(m.from.stackId, m.from.logicalId) ?? cfnRepo(ctx).getResource(m.to.stackId, m.to.logicalId);
  const props = row ? versionOf(row).props : {};
  const identifier = idProps.length === 1 ? `${idProps[0]}=${String(props[idProps[0]!] ?? m.physicalId)}` : m.physicalId;
  const tagged = hasSystemTags(m.type);
  return {
    Action: 'MOVE',
    Entity: 'RESOURCE',
    PhysicalResourceId: m.physicalId,
    ResourceIdentifier: identifier,
    Description: 'No configuration changes detected.',
    Detection: m.detection,
    ...(m.detection === 'AUTO' ? { DetectionReason: 'The resource was found under another logical ID or stack with the same configuration.' } : {}),
    TagResources: tagged
      ? [
          { Key: SYSTEM_TAG_KEYS[0]!, Value: name(m.to.stackId) },
          { Key: SYSTEM_TAG_KEYS[1]!, Value: m.to.logicalId },
          { Key: SYSTEM_TAG_KEYS[2]!, Value: m.to.stackId },
        ]
      : [],
    UntagResources: tagged ? SYSTEM_TAG_KEYS : [],
    ResourceMapping: {
      Source: { StackName: m.from.stackId, LogicalResourceId: m.from.logicalId },
      Destination: { StackName: m.to.stackId, LogicalResourceId: m.to.logicalId },
    },
  };
}

export function listStackRefactorActions(ctx: Ctx, input: CFN.ListStackRefactorActionsInput): CFN.ListStackRefactorActionsOutput {
  checkInput('ListStackRefactorActions', input);
  const { data } = find(ctx, input.StackRefactorId);
  const all: CFN.StackRefactorAction[] = [
    ...data.stacks.filter((s) => s.create).map((s) => ({ Action: 'CREATE' as const, Entity: 'STACK' as const, Description: `Stack ${s.name} will be created.`, PhysicalResourceId: s.id })),
    ...data.moves.map((m) => moveAction(ctx, data, m)),
  ];
  const start = decodeToken(input.NextToken, isNumberCursor)?.n ?? 0;
  const limit = input.MaxResults ?? PAGE;
  const page = all.slice(start, start + limit);
  return { StackRefactorActions: page, ...(start + limit < all.length ? { NextToken: encodeToken({ n: start + limit }) } : {}) };
}
