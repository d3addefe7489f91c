/**
 * The stack engine's persisted state, typed: what a stack row's JSON document holds (parameters,
 * outputs, tags, settings), what a resource row holds (the current physical resource with its
 * resolved properties and attributes, its policies and dependencies), the per-resource journal of
 * the running operation (`pending`: the prior version to restore or clean up), and the stack's
 * operation journal (`op`: what to restore if an update rolls back). The rows are the truth: a
 * rollback, a cleanup or the recovery after a restart reads them, never in-memory state.
 */
import type { Tag } from '@aws-sdk/client-cloudformation';
import { perStore } from '../../../runtime/runtime.js';
import { CloudFormationRepo, type ResourceRow, type StackRow } from '../../../store/cloudformation-repo.js';

export interface StoredParameter {
  key: string;
  /** ParameterValue as DescribeStacks shows it (the SSM name for SSM-typed parameters). */
  value: string;
  resolvedValue?: string;
  noEcho?: boolean;
  type?: string;
}

export interface StoredOutput {
  key: string;
  value: string;
  description?: string;
  exportName?: string;
}

export interface StackData {
  parameters: StoredParameter[];
  outputs?: StoredOutput[];
  tags: Tag[];
  capabilities: string[];
  notificationArns: string[];
  disableRollback: boolean;
  timeoutInMinutes?: number;
  roleArn?: string;
  terminationProtection: boolean;
  changeSetId?: string;
  stackPolicy?: string;
  retainExceptOnCreate?: boolean;
  /** Transforms the template declares; when present GetTemplate's Processed stage is `processed`. */
  transforms?: string[];
  processed?: string;
  /** Export names the template imports. */
  imports?: string[];
  /** The last operation started on the stack, with the ClientRequestToken it carried. */
  lastOperation?: { id: string; type: string; token?: string };
}

export type DeletionPolicy = 'Delete' | 'Retain' | 'RetainExceptOnCreate' | 'Snapshot';
export type UpdateReplacePolicy = 'Delete' | 'Retain' | 'Snapshot';

/** One physical resource as the engine knows it. */
export interface ResourceVersion {
  type: string;
  physicalId?: string;
  ref?: string;
  /** The template's resolved properties (without the stack's tags). */
  props: Record<string, unknown>;
  /** The stack-level tags applied to it, for types with a tag property (engine/stack-tags.ts). */
  stackTags?: Tag[];
  attributes: Record<string, unknown>;
  /** The attributes are secret (a custom resource's NoEcho): outputs show them as asterisks. */
  masked?: boolean;
  deletionPolicy: DeletionPolicy;
  updateReplacePolicy: UpdateReplacePolicy;
  metadata?: unknown;
  /** The declaration (minus Properties) as last applied, to notice Metadata/policy changes. */
  declaration?: Record<string, unknown>;
  /** Logical ids this resource depended on when last applied (delete order). */
  dependsOn: string[];
  /** Stored, not run: Overcast keeps the resource but no service backs it. */
  stored?: boolean;
}

/**
 * The running operation's journal for one resource:
 * - `created`: made by this operation (rollback deletes it);
 * - `updated`: changed in place (rollback updates it back to `prior`);
 * - `replaced`: `prior` is the old physical resource, deleted in cleanup or restored by rollback;
 * - `remove`: no longer in the template, deleted in cleanup;
 * - `discard`: rollback's leftovers (`discard` holds physical resources to delete);
 * - `imported`: adopted by this operation (rollback forgets it, never deletes it).
 */
export interface PendingChange {
  action: 'created' | 'updated' | 'replaced' | 'remove' | 'discard' | 'imported';
  prior?: ResourceVersion;
  discard?: ResourceVersion[];
}

/** The stack's operation journal while an operation runs (or sits failed, for RollbackStack). */
export interface OperationJournal {
  id: string;
  type: 'CREATE' | 'UPDATE' | 'DELETE' | 'ROLLBACK' | 'IMPORT';
  token?: string;
  /** For updates: the stack as it was, restored by a rollback. */
  previous?: { template: string | null; description: string | null; data: StackData };
  retainExceptOnCreate?: boolean;
  /** DisableRollback / OnFailure=DO_NOTHING: a failure leaves the stack *_FAILED. */
  disableRollback?: boolean;
  /** The stack policy in force for this update (StackPolicyDuringUpdateBody, else the stack's). */
  policy?: string;
  /** OnFailure=DELETE: delete the stack after rolling back a failed create. */
  deleteOnFailure?: boolean;
}

export const cfnRepo = perStore((meta) => new CloudFormationRepo(meta));

export function stackData(row: Pick<StackRow, 'data'>): StackData {
  return JSON.parse(row.data) as StackData;
}

export function journalOf(row: Pick<StackRow, 'op'>): OperationJournal | undefined {
  return row.op ? (JSON.parse(row.op) as OperationJournal) : undefined;
}

export function versionOf(row: Pick<ResourceRow, 'data'>): ResourceVersion {
  return JSON.parse(row.data) as ResourceVersion;
}

export function pendingOf(row: Pick<ResourceRow, 'pending'>): PendingChange | undefined {
  return row.pending ? (JSON.parse(row.pending) as PendingChange) : undefined;
}

export function emptyStackData(): StackData {
  return {
    parameters: [],
    tags: [],
    capabilities: [],
    notificationArns: [],
    disableRollback: false,
    terminationProtection: false,
  };
}

/** Statuses in which the stack has no operation running. */
export function isSettled(status: string): boolean {
  return !status.endsWith('_IN_PROGRESS') || status === 'REVIEW_IN_PROGRESS';
}

/** Statuses from which UpdateStack / an UPDATE change set may start. */
export const UPDATABLE = new Set([
  'CREATE_COMPLETE',
  'UPDATE_COMPLETE',
  'UPDATE_ROLLBACK_COMPLETE',
  'IMPORT_COMPLETE',
  'IMPORT_ROLLBACK_COMPLETE',
  'CREATE_FAILED',
  'UPDATE_FAILED',
]);

function sameList<T>(a: T[] | undefined, b: T[] | undefined, key: (t: T) => string): boolean {
  const ka = (a ?? []).map(key).sort();
  const kb = (b ?? []).map(key).sort();
  return ka.length === kb.length && ka.every((x, i) => x === kb[i]);
}

/**
 * Whether the stack-level settings an update carries equal the stack's (tags, topics,
 * parameters): an update that changes only tags or notification topics is still an update.
 */
export function sameSettings(before: StackData, after: StackData): boolean {
  return (
    sameList(before.tags, after.tags, (t) => `${t.Key}=${t.Value}`) &&
    sameList(before.notificationArns, after.notificationArns, (s) => s) &&
    sameList(before.parameters, after.parameters, (p) => `${p.key}=${p.value}`)
  );
}
