/**
 * Finding a stack the way every action addresses it — by name (the live stack of that name in the
 * caller's account and region) or by stack ARN (any stack ever created, deleted ones included) —
 * and the opaque NextToken pagination cursors of the list actions.
 */
import type { Ctx } from '../../../runtime/runtime.js';
import type { StackRow } from '../../../store/cloudformation-repo.js';
import { validation } from './errors.js';
import { isArn } from '../engine/arns.js';
import { cfnRepo } from '../engine/state.js';

/** The stack `nameOrId` names, or undefined. Deleted stacks are found only by ARN. */
export function findStack(ctx: Ctx, nameOrId: string): StackRow | undefined {
  const repo = cfnRepo(ctx);
  if (isArn(nameOrId)) {
    const row = repo.getStack(nameOrId);
    if (!row || row.account !== ctx.account || row.region !== ctx.region) return undefined;
    return row;
  }
  return repo.getLiveStack(ctx.account, ctx.region, nameOrId);
}

/** The stack, live or deleted, or the given error. */
export function requireStack(ctx: Ctx, nameOrId: string | undefined, notFound: (input: string) => Error): StackRow {
  if (nameOrId === undefined || nameOrId === '') {
    throw validation("1 validation error detected: Value null at 'stackName' failed to satisfy constraint: Member must not be null");
  }
  const row = findStack(ctx, nameOrId);
  if (!row) throw notFound(nameOrId);
  return row;
}

/** A live (not deleted) stack, or the given error. */
export function requireLiveStack(ctx: Ctx, nameOrId: string | undefined, notFound: (input: string) => Error): StackRow {
  const row = requireStack(ctx, nameOrId, notFound);
  if (row.deleted_at !== null) throw notFound(nameOrId!);
  return row;
}

export function encodeToken(cursor: unknown): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

export function decodeToken<T>(token: string | undefined, check: (v: unknown) => v is T): T | undefined {
  if (token === undefined || token === '') return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (check(v)) return v;
  } catch {
    // fall through
  }
  throw validation('Invalid NextToken');
}

export function isNumberCursor(v: unknown): v is { n: number } {
  return typeof v === 'object' && v !== null && typeof (v as { n?: unknown }).n === 'number';
}

export function isStringCursor(v: unknown): v is { s: string } {
  return typeof v === 'object' && v !== null && typeof (v as { s?: unknown }).s === 'string';
}
