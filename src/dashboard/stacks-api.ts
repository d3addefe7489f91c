/**
 * The dashboard's CloudFormation data: stacks page by page (ListStacks' own tokens), a stack with
 * parameters, outputs and tags (read without DescribeStacks' wait for a running operation, so a
 * page opened mid-deploy shows it mid-deploy), its resources with links to their own pages, its
 * events by sequence (the cursor the live stream continues from), the template as deployed, the
 * resource graph, change sets with their changes, the last update's changes, and DeleteStack.
 */
import type * as CFN from '@aws-sdk/client-cloudformation';
import * as cfn from '../services/cloudformation/provider.js';
import { findStack } from '../services/cloudformation/requests/lookup.js';
import { stackShape } from '../services/cloudformation/requests/shapes.js';
import { cfnRepo } from '../services/cloudformation/engine/state.js';
import type { Ctx } from '../runtime/runtime.js';
import type { EventRow, StackRow } from '../store/cloudformation-repo.js';
import { iso, nextToken, notFound, type DashboardRequest, type JsonAnswer } from './http.js';
import { linkOf } from './resource-links.js';
import { stackGraph, type ResourceState } from './stack-graph.js';
import { lastUpdate } from './stack-diff.js';

const ACTIVE = [
  'CREATE_IN_PROGRESS', 'CREATE_FAILED', 'CREATE_COMPLETE', 'ROLLBACK_IN_PROGRESS', 'ROLLBACK_FAILED', 'ROLLBACK_COMPLETE',
  'DELETE_IN_PROGRESS', 'DELETE_FAILED', 'UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 'UPDATE_COMPLETE',
  'UPDATE_FAILED', 'UPDATE_ROLLBACK_IN_PROGRESS', 'UPDATE_ROLLBACK_FAILED', 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
  'UPDATE_ROLLBACK_COMPLETE', 'REVIEW_IN_PROGRESS', 'IMPORT_IN_PROGRESS', 'IMPORT_COMPLETE', 'IMPORT_ROLLBACK_IN_PROGRESS',
  'IMPORT_ROLLBACK_FAILED', 'IMPORT_ROLLBACK_COMPLETE',
] as CFN.StackStatus[];

export const EVENT_PAGE = 100;

/** A stack by name (live) or id (deleted ones too), read as it is now. */
export function stackRow(ctx: Ctx, nameOrId: string): StackRow {
  const row = findStack(ctx, nameOrId);
  if (!row) throw notFound(`Stack with id ${nameOrId} does not exist`);
  return row;
}

interface DashboardEvent {
  seq: number;
  id: string;
  timestamp: string;
  logicalId: string;
  physicalId?: string;
  type: string;
  status: string;
  reason?: string;
}

export function eventOf(e: EventRow): DashboardEvent {
  return {
    seq: e.seq,
    id: e.event_id,
    timestamp: iso(e.ts)!,
    logicalId: e.logical_id,
    ...(e.physical_id ? { physicalId: e.physical_id } : {}),
    type: e.type,
    status: e.status,
    ...(e.reason ? { reason: e.reason } : {}),
  };
}

export function listStacks(r: DashboardRequest): JsonAnswer {
  const all = r.query.get('deleted') === '1';
  const out = cfn.listStacks(r.ctx, { NextToken: nextToken(r.query), ...(all ? {} : { StackStatusFilter: ACTIVE }) });
  return {
    body: {
      items: (out.StackSummaries ?? []).map((s) => ({
        name: s.StackName,
        id: s.StackId,
        status: s.StackStatus,
        reason: s.StackStatusReason,
        description: s.TemplateDescription,
        created: s.CreationTime,
        updated: s.LastUpdatedTime,
        deleted: s.DeletionTime,
        parentId: s.ParentId,
      })),
      next: out.NextToken,
    },
  };
}

export function getStack(r: DashboardRequest, name: string): JsonAnswer {
  const row = stackRow(r.ctx, name);
  const last = cfnRepo(r.ctx).listEvents(row.id, Number.MAX_SAFE_INTEGER, 1)[0];
  return { body: { stack: stackShape(row), deleted: row.deleted_at !== null, lastEventSeq: last?.seq ?? 0 } };
}

export function listResources(r: DashboardRequest, name: string): JsonAnswer {
  const row = stackRow(r.ctx, name);
  const out = cfn.listStackResources(r.ctx, { StackName: row.id, NextToken: nextToken(r.query) });
  return {
    body: {
      items: (out.StackResourceSummaries ?? []).map((s) => ({
        logicalId: s.LogicalResourceId,
        physicalId: s.PhysicalResourceId,
        type: s.ResourceType,
        status: s.ResourceStatus,
        reason: s.ResourceStatusReason,
        updated: s.LastUpdatedTimestamp,
        link: linkOf(s.ResourceType ?? '', s.PhysicalResourceId),
      })),
      next: out.NextToken,
    },
  };
}

/** Events read at most to find one resource's history (newest first). */
const RESOURCE_EVENT_SCAN = 5_000;
const RESOURCE_EVENTS = 50;

/** A resource with its own recent events: after a rollback its row is DELETE_COMPLETE, the failure is in its events. */
export function getResource(r: DashboardRequest, name: string, logicalId: string): JsonAnswer {
  const row = stackRow(r.ctx, name);
  const d = cfn.describeStackResource(r.ctx, { StackName: row.id, LogicalResourceId: logicalId }).StackResourceDetail!;
  const repo = cfnRepo(r.ctx);
  const events: DashboardEvent[] = [];
  let before = Number.MAX_SAFE_INTEGER;
  for (let scanned = 0; scanned < RESOURCE_EVENT_SCAN && events.length < RESOURCE_EVENTS; ) {
    const rows = repo.listEvents(row.id, before, 500);
    if (!rows.length) break;
    scanned += rows.length;
    before = rows[rows.length - 1]!.seq;
    for (const e of rows) if (e.logical_id === logicalId && events.length < RESOURCE_EVENTS) events.push(eventOf(e));
  }
  const failure = events.find((e) => e.status.endsWith('_FAILED') && e.reason);
  return { body: { resource: d, link: linkOf(d.ResourceType ?? '', d.PhysicalResourceId), events, lastFailure: failure } };
}

/** Events newest first, before sequence `?before=` (the next page's cursor is the last one's seq). */
export function listEvents(r: DashboardRequest, name: string): JsonAnswer {
  const row = stackRow(r.ctx, name);
  const before = Number(r.query.get('before') ?? Number.MAX_SAFE_INTEGER);
  const rows = cfnRepo(r.ctx).listEvents(row.id, Number.isFinite(before) ? before : Number.MAX_SAFE_INTEGER, EVENT_PAGE + 1);
  const page = rows.slice(0, EVENT_PAGE);
  return { body: { items: page.map(eventOf), next: rows.length > EVENT_PAGE ? String(page[page.length - 1]!.seq) : undefined } };
}

export async function getTemplate(r: DashboardRequest, name: string): Promise<JsonAnswer> {
  const row = stackRow(r.ctx, name);
  const original = await cfn.getTemplate(r.ctx, { StackName: row.id, TemplateStage: 'Original' });
  const processed = await cfn.getTemplate(r.ctx, { StackName: row.id, TemplateStage: 'Processed' });
  const body = original.TemplateBody ?? '';
  return {
    body: {
      body,
      format: body.trimStart().startsWith('{') ? 'json' : 'yaml',
      ...(processed.TemplateBody !== body ? { processed: processed.TemplateBody } : {}),
    },
  };
}

/** Events read at most, newest first, to find the failures of the stack's last operation. */
const FAILURE_SCAN = 2_000;
const OPERATION_START = new Set(['CREATE_IN_PROGRESS', 'UPDATE_IN_PROGRESS', 'DELETE_IN_PROGRESS', 'IMPORT_IN_PROGRESS']);

/** The resources that failed in the stack's last operation, with the first failure of each. */
function lastOperationFailures(ctx: Ctx, stack: StackRow): Map<string, { status: string; reason?: string }> {
  const repo = cfnRepo(ctx);
  const failures = new Map<string, { status: string; reason?: string }>();
  let before = Number.MAX_SAFE_INTEGER;
  for (let scanned = 0; scanned < FAILURE_SCAN; ) {
    const rows = repo.listEvents(stack.id, before, 500);
    if (!rows.length) break;
    scanned += rows.length;
    before = rows[rows.length - 1]!.seq;
    for (const e of rows) {
      const isStack = e.type === 'AWS::CloudFormation::Stack' && e.logical_id === stack.name;
      if (isStack && OPERATION_START.has(e.status)) return failures;
      // Newest first: an older failure of the same resource replaces a later one (the cause comes first).
      if (!isStack && e.status.endsWith('_FAILED')) failures.set(e.logical_id, { status: e.status, ...(e.reason ? { reason: e.reason } : {}) });
    }
  }
  return failures;
}

/** Every resource's state (a stack holds at most a few thousand), for the graph. */
function resourceStates(ctx: Ctx, stack: StackRow): Map<string, ResourceState> {
  const stackId = stack.id;
  const failures = lastOperationFailures(ctx, stack);
  const states = new Map<string, ResourceState>();
  for (const res of cfnRepo(ctx).listResources(stackId, -1, 10_000)) {
    states.set(res.logical_id, {
      status: res.status,
      ...(res.status_reason ? { reason: res.status_reason } : {}),
      ...(res.physical_id ? { physicalId: res.physical_id } : {}),
      ...(linkOf(res.type, res.physical_id ?? undefined) ? { link: linkOf(res.type, res.physical_id ?? undefined) } : {}),
      ...(failures.has(res.logical_id) ? { failure: failures.get(res.logical_id) } : {}),
    });
  }
  return states;
}

export async function getGraph(r: DashboardRequest, name: string): Promise<JsonAnswer> {
  const row = stackRow(r.ctx, name);
  const processed = await cfn.getTemplate(r.ctx, { StackName: row.id, TemplateStage: 'Processed' });
  return { body: stackGraph(processed.TemplateBody ?? '{}', resourceStates(r.ctx, row)) };
}

export function listChangeSets(r: DashboardRequest, name: string): JsonAnswer {
  const row = stackRow(r.ctx, name);
  const out = cfn.listChangeSets(r.ctx, { StackName: row.id, NextToken: nextToken(r.query) });
  return { body: { items: out.Summaries ?? [], next: out.NextToken } };
}

export function getChangeSet(r: DashboardRequest, name: string, changeSet: string): JsonAnswer {
  const row = stackRow(r.ctx, name);
  const out = cfn.describeChangeSet(r.ctx, {
    StackName: row.id,
    ChangeSetName: changeSet,
    IncludePropertyValues: true,
    NextToken: nextToken(r.query),
  });
  return { body: { changeSet: out, next: out.NextToken } };
}

export function getLastUpdate(r: DashboardRequest, name: string): JsonAnswer {
  const row = stackRow(r.ctx, name);
  return { body: lastUpdate(cfnRepo(r.ctx), row) };
}

export async function deleteStack(r: DashboardRequest, name: string): Promise<JsonAnswer> {
  const row = stackRow(r.ctx, name);
  await cfn.deleteStack(r.ctx, { StackName: row.id });
  return { status: 202, body: { deleting: row.id } };
}
