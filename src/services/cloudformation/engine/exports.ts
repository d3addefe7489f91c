/**
 * Exports and imports between stacks of one account and region: an export name belongs to one
 * stack; an export another stack imports can be neither changed, removed, nor deleted with its
 * stack. Messages are AWS's (reference §3.5): `Export with name X is already exported by stack Y`,
 * `Export X cannot be updated as it is in use by Y`, `Export X cannot be deleted as it is in use
 * by A and B`.
 */
import type { StoredOutput } from './state.js';
import { type Op } from './operation.js';
import { ResourceFailure } from '../resources/types.js';

/** `A`, `A and B`, `A, B and C` — how AWS lists importing stacks. */
function andList(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

function importers(op: Op, name: string): string[] {
  return op.repo
    .importersOf(op.ctx.account, op.ctx.region, name)
    .filter((r) => r.stack_id !== op.stackId)
    .map((r) => r.stack_name);
}

/** Throws (with the stack-level reason) when the new outputs would break the export rules. */
export function checkExports(op: Op, outputs: StoredOutput[]): void {
  const seen = new Set<string>();
  for (const o of outputs) {
    if (o.exportName === undefined) continue;
    if (seen.has(o.exportName)) {
      throw new ResourceFailure(`Template format error: duplicate Export names: ${o.exportName}`);
    }
    seen.add(o.exportName);
    const existing = op.repo.getExport(op.ctx.account, op.ctx.region, o.exportName);
    if (existing && existing.stack_id !== op.stackId) {
      const owner = op.repo.getStack(existing.stack_id)?.name ?? existing.stack_id;
      throw new ResourceFailure(`Export with name ${o.exportName} is already exported by stack ${owner}`);
    }
  }
  for (const old of op.repo.exportsOfStack(op.stackId)) {
    const now = outputs.find((o) => o.exportName === old.name);
    if (now && now.value === old.value) continue;
    const users = importers(op, old.name);
    if (users.length === 0) continue;
    throw new ResourceFailure(
      now
        ? `Export ${old.name} cannot be updated as it is in use by ${andList(users)}`
        : `Export ${old.name} cannot be deleted as it is in use by ${andList(users)}`,
    );
  }
}

/** Writes the stack's exports and imports (inside the commit transaction). */
export function commitExports(op: Op, outputs: StoredOutput[], imports: readonly string[]): void {
  const keep = new Set<string>();
  for (const o of outputs) {
    if (o.exportName === undefined) continue;
    keep.add(o.exportName);
    op.repo.putExport({ account: op.ctx.account, region: op.ctx.region, name: o.exportName, stack_id: op.stackId, value: o.value });
  }
  for (const old of op.repo.exportsOfStack(op.stackId)) {
    if (!keep.has(old.name)) op.repo.deleteExport(op.ctx.account, op.ctx.region, old.name);
  }
  op.repo.setImports(op.ctx.account, op.ctx.region, op.stackId, op.stackName, imports);
}

/** The reason a stack cannot be deleted because of its exports, or undefined. */
export function exportsBlockingDelete(op: Op): string | undefined {
  for (const e of op.repo.exportsOfStack(op.stackId)) {
    const users = importers(op, e.name);
    if (users.length) return `Export ${e.name} cannot be deleted as it is in use by ${andList(users)}`;
  }
  return undefined;
}

/** Drops the stack's exports and imports (inside the deletion's final transaction). */
export function dropExports(op: Op): void {
  for (const e of op.repo.exportsOfStack(op.stackId)) op.repo.deleteExport(op.ctx.account, op.ctx.region, e.name);
  op.repo.setImports(op.ctx.account, op.ctx.region, op.stackId, op.stackName, []);
}
