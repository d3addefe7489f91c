/**
 * Drift detection (cfn-drift-import-refactor.md §1): DetectStackDrift checks every resource of a
 * stack (or the LogicalResourceIds given) and DetectStackResourceDrift one, each through its
 * type's read handler (the resource module's `read`, over the same providers the APIs use),
 * comparing the live properties with the ones the stack expects (engine/drift-compare.ts);
 * DescribeStackDriftDetectionStatus and DescribeStackResourceDrifts report the results, and
 * every stack and resource listing shows the latest check as DriftInformation. Types Overcast
 * only stores, nested stacks, custom resources and the CDK's metadata have no read handler: they
 * stay NOT_CHECKED and out of the drift list, as AWS leaves out types that do not support drift.
 * A detection reads in-process state only, so it completes before DetectStackDrift answers; the
 * first DescribeStackDriftDetectionStatus already says DETECTION_COMPLETE.
 */
import { randomUUID } from 'node:crypto';
import type * as CFN from '@aws-sdk/client-cloudformation';
import type { Ctx } from '../../runtime/runtime.js';
import type { ResourceRow, StackRow } from '../../store/cloudformation-repo.js';
import { isAwsError } from '../../wire/errors.js';
import { cfnErrors, checkInput, validation } from './requests/errors.js';
import { decodeToken, encodeToken, isNumberCursor, requireLiveStack } from './requests/lookup.js';
import { recordOf, type ResourceDriftRecord, type StackDriftRecord } from './requests/drift-shapes.js';
import { compareProperties } from './engine/drift-compare.js';
import { cfnRecords } from './engine/records.js';
import { nestedStacks } from './engine/nested.js';
import { stateOf } from './engine/operation.js';
import { settled } from './engine/stack-queue.js';
import { mergeTags } from './engine/stack-tags.js';
import { cfnRepo, versionOf } from './engine/state.js';
import { loadedProvider, loadProvider } from './resources/registry.js';
import { resourceType } from './spec/resource-types.js';

/** Stable statuses drift detection runs on (the 2019 user guide's list, plus the two import ones). */
const DETECTABLE = new Set([
  'CREATE_COMPLETE',
  'UPDATE_COMPLETE',
  'UPDATE_ROLLBACK_COMPLETE',
  'UPDATE_ROLLBACK_FAILED',
  'IMPORT_COMPLETE',
  'IMPORT_ROLLBACK_COMPLETE',
]);

const GONE = ['NotFoundException', 'NoSuchBucket', 'NoSuchBucketPolicy', 'ParameterNotFound', 'RepositoryNotFoundException', 'ResourceNotFoundException'];

/** Stacks with a detection running in this process: one at a time per stack, as on AWS. */
const running = new Set<string>();

interface DetectionData {
  status: CFN.StackDriftDetectionStatus;
  stackDriftStatus?: CFN.StackDriftStatus;
  reason?: string;
  drifted?: number;
}

async function detectableStack(ctx: Ctx, name: string | undefined): Promise<StackRow> {
  const first = requireLiveStack(ctx, name, cfnErrors.stackWithIdNotFound);
  await settled(ctx.rt, first.id);
  const stack = requireLiveStack(ctx, name, cfnErrors.stackWithIdNotFound);
  // [INF] AWS documents the statuses, not the error's wording; this follows its update refusal.
  if (!DETECTABLE.has(stack.status)) {
    throw validation(`Stack:${stack.id} is in ${stack.status} state and drift detection can not be performed on it.`);
  }
  return stack;
}

/** The live properties' comparison for one resource row; undefined for types that are not checked. */
async function checkResource(ctx: Ctx, stack: StackRow, row: ResourceRow, ts: number): Promise<ResourceDriftRecord | undefined> {
  const { provider, stored } = loadedProvider(row.type) ?? (await loadProvider(row.type));
  if (stored || !provider.read || row.physical_id === null) return undefined;
  const version = versionOf(row);
  const base = { ts, type: row.type, physicalId: row.physical_id };
  let live: Record<string, unknown> | undefined;
  try {
    live = await provider.read(
      {
        ctx,
        stackName: stack.name,
        stackId: stack.id,
        logicalId: row.logical_id,
        resourceType: row.type,
        strict: ctx.rt.config.strictResources,
        nestedStacks,
      },
      stateOf(version),
    );
  } catch (err) {
    if (isAwsError(err) && GONE.includes(err.code)) live = undefined;
    else return { ...base, status: 'UNKNOWN', reason: `Internal failure: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!live) return { ...base, status: 'DELETED' };
  const tagProp = resourceType(row.type)?.tag?.[0];
  let expected = version.props;
  if (tagProp && (expected[tagProp] !== undefined || version.stackTags?.length)) expected = mergeTags(row.type, expected, version.stackTags);
  // Only properties the schema lets a template set are compared: read-only ones (the spec's
  // attributes) never are, nor write-only ones, which a read handler cannot return.
  const settable = resourceType(row.type)?.p ?? {};
  expected = Object.fromEntries(
    Object.entries(expected).filter(([k, v]) => v !== undefined && Object.hasOwn(settable, k) && !provider.writeOnly?.includes(k)),
  );
  const actual: Record<string, unknown> = {};
  for (const k of Object.keys(expected)) {
    // System tags (aws:…) are CloudFormation's, never part of what a template can expect.
    const v = k === tagProp && Array.isArray(live[k]) ? (live[k] as { Key?: string }[]).filter((t) => !String(t?.Key).startsWith('aws:')) : live[k];
    if (v !== undefined) actual[k] = v;
  }
  const differences = compareProperties(expected, actual, {
    type: row.type,
    unordered: [...(tagProp ? [`/${tagProp}`] : []), ...(provider.unordered ?? [])],
  });
  return {
    ...base,
    status: differences.length ? 'MODIFIED' : 'IN_SYNC',
    expected: JSON.stringify(expected),
    actual: JSON.stringify(actual),
    ...(differences.length ? { differences } : {}),
  };
}

function rollUp(records: ResourceDriftRecord[]): DetectionData {
  const drifted = records.filter((r) => r.status === 'MODIFIED' || r.status === 'DELETED').length;
  const unknown = records.filter((r) => r.status === 'UNKNOWN');
  if (drifted > 0) return { status: unknown.length ? 'DETECTION_FAILED' : 'DETECTION_COMPLETE', stackDriftStatus: 'DRIFTED', drifted, ...(unknown.length ? { reason: reasonOf(unknown) } : {}) };
  if (unknown.length) return { status: 'DETECTION_FAILED', stackDriftStatus: 'UNKNOWN', drifted: 0, reason: reasonOf(unknown) };
  return { status: 'DETECTION_COMPLETE', stackDriftStatus: 'IN_SYNC', drifted: 0 };
}

function reasonOf(unknown: ResourceDriftRecord[]): string {
  return `Failed to detect drift on resource(s): [${unknown.map((r) => r.logicalId).join(', ')}]`;
}

export async function detectStackDrift(ctx: Ctx, input: CFN.DetectStackDriftInput): Promise<CFN.DetectStackDriftOutput> {
  checkInput('DetectStackDrift', input);
  const stack = await detectableStack(ctx, input.StackName);
  const repo = cfnRepo(ctx);
  const rows = repo.listResources(stack.id);
  for (const id of input.LogicalResourceIds ?? []) {
    if (!rows.some((r) => r.logical_id === id)) throw validation(`Resource ${id} does not exist for stack ${stack.name}`);
  }
  if (running.has(stack.id)) throw validation(`Drift detection is already in progress for stack [${stack.name}].`);
  running.add(stack.id);
  try {
    const id = randomUUID();
    const ts = Date.now();
    const wanted = input.LogicalResourceIds?.length ? new Set(input.LogicalResourceIds) : undefined;
    const records: ResourceDriftRecord[] = [];
    for (const row of rows) {
      if (wanted && !wanted.has(row.logical_id)) continue;
      const r = await checkResource(ctx, stack, row, ts);
      if (r) records.push({ ...r, logicalId: row.logical_id, detectionId: id });
    }
    const result = rollUp(records);
    const stackDrift: StackDriftRecord = { status: result.stackDriftStatus!, ts };
    repo.tx(() => {
      for (const r of records) repo.setResourceDrift(stack.id, r.logicalId!, JSON.stringify(r));
      repo.updateStack(stack.id, { drift: JSON.stringify(stackDrift) });
      cfnRecords(ctx).putDriftDetection({ id, stack_id: stack.id, account: ctx.account, region: ctx.region, started_at: ts, data: JSON.stringify(result) });
    });
    return { StackDriftDetectionId: id };
  } finally {
    running.delete(stack.id);
  }
}

export function describeStackDriftDetectionStatus(
  ctx: Ctx,
  input: CFN.DescribeStackDriftDetectionStatusInput,
): CFN.DescribeStackDriftDetectionStatusOutput {
  checkInput('DescribeStackDriftDetectionStatus', input);
  const row = cfnRecords(ctx).getDriftDetection(input.StackDriftDetectionId!);
  if (!row || row.account !== ctx.account || row.region !== ctx.region) {
    // [INF] the wording AWS uses for an unknown id is not documented.
    throw validation(`Drift detection with id ${input.StackDriftDetectionId} does not exist`);
  }
  const d = JSON.parse(row.data) as DetectionData;
  return {
    StackId: row.stack_id,
    StackDriftDetectionId: row.id,
    ...(d.stackDriftStatus ? { StackDriftStatus: d.stackDriftStatus } : {}),
    DetectionStatus: d.status,
    ...(d.reason ? { DetectionStatusReason: d.reason } : {}),
    ...(d.drifted !== undefined ? { DriftedStackResourceCount: d.drifted } : {}),
    Timestamp: new Date(row.started_at),
  };
}

function driftShape(stack: StackRow, logicalId: string, r: ResourceDriftRecord): CFN.StackResourceDrift {
  const gone = r.status === 'DELETED';
  return {
    StackId: stack.id,
    LogicalResourceId: logicalId,
    PhysicalResourceId: r.physicalId,
    ResourceType: r.type,
    ...(!gone && r.expected !== undefined ? { ExpectedProperties: r.expected } : {}),
    ...(!gone && r.actual !== undefined ? { ActualProperties: r.actual } : {}),
    ...(r.differences ? { PropertyDifferences: r.differences } : {}),
    StackResourceDriftStatus: r.status,
    Timestamp: new Date(r.ts),
    ...(r.reason ? { DriftStatusReason: r.reason } : {}),
  };
}

const PAGE = 100;

export function describeStackResourceDrifts(ctx: Ctx, input: CFN.DescribeStackResourceDriftsInput): CFN.DescribeStackResourceDriftsOutput {
  checkInput('DescribeStackResourceDrifts', input);
  const stack = requireLiveStack(ctx, input.StackName, cfnErrors.stackWithIdNotFound);
  const filter = input.StackResourceDriftStatusFilters?.length ? new Set<string>(input.StackResourceDriftStatusFilters) : undefined;
  const limit = input.MaxResults ?? PAGE;
  let after = decodeToken(input.NextToken, isNumberCursor)?.n ?? -1;
  const out: CFN.StackResourceDrift[] = [];
  let more = false;
  // A filter that matches few resources reads further; every batch is one index range.
  for (;;) {
    const rows = cfnRepo(ctx).listDriftedResources(stack.id, after, PAGE);
    for (const row of rows) {
      const r = recordOf<ResourceDriftRecord>(row.drift);
      if (!r || (filter && !filter.has(r.status))) {
        after = row.seq;
        continue;
      }
      if (out.length === limit) {
        more = true;
        break;
      }
      out.push(driftShape(stack, row.logical_id, r));
      after = row.seq;
    }
    if (more || rows.length < PAGE) break;
  }
  return { StackResourceDrifts: out, ...(more ? { NextToken: encodeToken({ n: after }) } : {}) };
}

export async function detectStackResourceDrift(ctx: Ctx, input: CFN.DetectStackResourceDriftInput): Promise<CFN.DetectStackResourceDriftOutput> {
  checkInput('DetectStackResourceDrift', input);
  const stack = await detectableStack(ctx, input.StackName);
  const repo = cfnRepo(ctx);
  const row = repo.getResource(stack.id, input.LogicalResourceId!);
  if (!row) throw validation(`Resource ${input.LogicalResourceId} does not exist for stack ${stack.name}`);
  const ts = Date.now();
  const r = await checkResource(ctx, stack, row, ts);
  if (!r) {
    // [INF] AWS refuses types that do not support drift; its wording is not documented.
    throw validation(`Drift detection is not supported for resource type ${row.type} (resource ${row.logical_id}).`);
  }
  repo.tx(() => {
    repo.setResourceDrift(stack.id, row.logical_id, JSON.stringify({ ...r, logicalId: row.logical_id }));
    // The stack's LastCheckTimestamp counts a check of any one of its resources.
    const prior = recordOf<StackDriftRecord>(stack.drift);
    repo.updateStack(stack.id, { drift: JSON.stringify({ status: prior?.status ?? 'NOT_CHECKED', ts }) });
  });
  return { StackResourceDrift: driftShape(stack, row.logical_id, r) };
}
