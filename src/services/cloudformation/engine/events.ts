/**
 * Stack events as AWS records them (reference §3.6): stack events carry the stack name as logical
 * id, the stack id as physical id and `AWS::CloudFormation::Stack` as type, with a UUID EventId;
 * resource events get `<LogicalId>-<Status>-<ISO timestamp>`. Timestamps are strictly increasing
 * per stack at millisecond resolution — the CDK sorts by them and an emulator that finishes a
 * hundred resources in a few milliseconds must still keep them apart — so a stack's clock runs
 * ahead of the wall clock when events come faster than one per millisecond.
 */
import { randomUUID } from 'node:crypto';
import type { CloudFormationRepo, EventRow } from '../../../store/cloudformation-repo.js';
import { stackEventRecorded } from './event-feed.js';

export interface EventInput {
  logicalId: string;
  physicalId?: string | null;
  type: string;
  status: string;
  reason?: string | null;
  properties?: unknown;
}

/** Last event time per stack id (ids are unique UUID ARNs, so one map serves every server). */
const clocks = new Map<string, number>();
const MAX_CLOCKS = 10_000;

/** The next timestamp for a stack: now, or one millisecond after its last event. */
function nextTimestamp(repo: CloudFormationRepo, stackId: string): number {
  let last = clocks.get(stackId);
  if (last === undefined) {
    if (clocks.size >= MAX_CLOCKS) clocks.clear(); // forgotten clocks are read back from the store
    last = repo.lastEventTs(stackId);
  }
  const ts = Math.max(Date.now(), last + 1);
  clocks.set(stackId, ts);
  return ts;
}

export class EventLog {
  constructor(
    private readonly repo: CloudFormationRepo,
    readonly stackId: string,
    readonly stackName: string,
    readonly token?: string,
    readonly operationId?: string,
  ) {}

  /** Records one event; returns its timestamp. */
  record(e: EventInput): number {
    const ts = nextTimestamp(this.repo, this.stackId);
    const isStack = e.type === 'AWS::CloudFormation::Stack' && e.logicalId === this.stackName;
    const row: Omit<EventRow, 'seq'> = {
      stack_id: this.stackId,
      event_id: isStack ? randomUUID() : `${e.logicalId}-${e.status}-${new Date(ts).toISOString()}`,
      ts,
      logical_id: e.logicalId,
      physical_id: e.physicalId ?? null,
      type: e.type,
      status: e.status,
      reason: e.reason ?? null,
      token: this.token ?? null,
      operation_id: this.operationId ?? null,
      properties: e.properties === undefined ? null : JSON.stringify(e.properties),
    };
    this.repo.insertEvent(row);
    stackEventRecorded(this.stackId);
    return ts;
  }

  /** An event of the stack itself. */
  stack(status: string, reason?: string | null): number {
    return this.record({
      logicalId: this.stackName,
      physicalId: this.stackId,
      type: 'AWS::CloudFormation::Stack',
      status,
      reason: reason ?? null,
    });
  }
}
