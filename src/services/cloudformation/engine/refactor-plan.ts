/**
 * A stack refactor's plan (cfn-drift-import-refactor.md §3): the moves that take each stack from
 * the resources it has to the StackDefinitions' templates. ResourceMappings are MANUAL moves; a
 * resource that leaves one template and reappears, with the same type and properties, under
 * another logical id or in another stack is an AUTO move. The rules AWS states are checked: a
 * refactor only moves and renames — it creates nothing, deletes nothing and changes no resource's
 * configuration (properties compared with their references to other resources set aside, since a
 * move rewrites those), never gives two resources one logical id, never empties a stack, and
 * involves at most five stacks. A violation of a rule is the refactor's CREATE_FAILED reason; a
 * malformed request (no definitions, a stack that does not exist) is the request's
 * ValidationError. The wording of the reasons is Overcast's: AWS does not document it.
 */
import { createHash } from 'node:crypto';
import type * as CFN from '@aws-sdk/client-cloudformation';
import type { Ctx } from '../../../runtime/runtime.js';
import type { StackRow } from '../../../store/cloudformation-repo.js';
import { cfnErrors, validation } from '../requests/errors.js';
import { findStack } from '../requests/lookup.js';
import { parseTemplate } from '../template/index.js';
import { isArn, stackArn } from './arns.js';
import { sameValue } from './plan.js';
import { cfnRepo, isSettled } from './state.js';
import { templateText } from './template-source.js';

export interface RefactorStack {
  name: string;
  id: string;
  template: string;
  /** Created by the refactor (EnableStackCreation). */
  create?: boolean;
  /** The stack as it was when the refactor was created (a change makes the refactor OBSOLETE). */
  fingerprint?: string;
}

export interface RefactorMove {
  from: { stackId: string; logicalId: string };
  to: { stackId: string; logicalId: string };
  detection: 'AUTO' | 'MANUAL';
  type: string;
  physicalId: string;
}

interface RefactorPlan {
  stacks: RefactorStack[];
  moves: RefactorMove[];
  /** Why the refactor cannot run (its CREATE_FAILED reason). */
  failure?: string;
}

type Decl = { Type?: string; Properties?: unknown };

export function fingerprint(row: StackRow): string {
  return createHash('sha256').update(`${row.status}\u0000${row.updated_at ?? ''}\u0000${row.template ?? ''}`).digest('hex');
}

/** Properties with references to other resources set aside: a move may rewrite those. */
function unreferenced(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(unreferenced);
  if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    if (keys.length === 1 && ['Ref', 'Fn::GetAtt', 'Fn::ImportValue'].includes(keys[0]!)) return '{reference}';
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unreferenced(x)]));
  }
  return v;
}

function sameConfiguration(a: Decl | undefined, b: Decl | undefined): boolean {
  return a?.Type === b?.Type && sameValue(unreferenced(a?.Properties ?? {}), unreferenced(b?.Properties ?? {}));
}

function resourcesOf(text: string | null): Record<string, Decl> {
  if (!text) return {};
  const res = parseTemplate(text).Resources;
  return res && typeof res === 'object' ? (res as Record<string, Decl>) : {};
}

const key = (stack: string, id: string) => `${stack}\u0000${id}`;
const shown = (k: string) => k.replace('\u0000', '.');

/** Reads the definitions and checks the request; the plan's `failure` says why it cannot run. */
export async function planRefactor(ctx: Ctx, input: CFN.CreateStackRefactorInput): Promise<RefactorPlan> {
  const defs = input.StackDefinitions ?? [];
  if (defs.length === 0) throw validation('StackDefinitions must contain at least one stack definition.');
  const byName = new Map<string, { row?: StackRow; text: string; name: string; id: string }>();
  const repo = cfnRepo(ctx);
  for (const def of defs) {
    if (!def.StackName) throw validation('StackName must be specified in every StackDefinition.');
    const text = (await templateText(ctx, def, { allowPrevious: false }))!;
    parseTemplate(text); // a template error is the request's
    const row = findStack(ctx, def.StackName);
    if (row && row.deleted_at !== null) throw cfnErrors.stackNotFound(def.StackName);
    if (!row && (isArn(def.StackName) || !input.EnableStackCreation)) throw cfnErrors.stackNotFound(def.StackName);
    if (row && (!isSettled(row.status) || row.status === 'REVIEW_IN_PROGRESS' || row.status.endsWith('_FAILED'))) {
      throw cfnErrors.cannotUpdate(row.id, row.status);
    }
    const name = row?.name ?? def.StackName;
    if (byName.has(name)) throw validation(`Stack [${name}] has more than one StackDefinition.`);
    byName.set(name, { ...(row ? { row } : {}), text, name, id: row?.id ?? stackArn(ctx, name) });
  }
  const stackOf = (nameOrId: string | undefined) => [...byName.values()].find((s) => s.name === nameOrId || s.id === nameOrId);
  for (const m of input.ResourceMappings ?? []) {
    for (const side of [m.Source, m.Destination]) {
      if (!stackOf(side?.StackName)) throw validation(`Stack [${side?.StackName}] of a ResourceMapping has no StackDefinition.`);
    }
  }
  const stacks: RefactorStack[] = [...byName.values()].map((s) => ({
    name: s.name,
    id: s.id,
    template: s.text,
    ...(s.row ? { fingerprint: fingerprint(s.row) } : { create: true }),
  }));
  const fail = (failure: string): RefactorPlan => ({ stacks, moves: [], failure });
  if (byName.size > 5) return fail('A stack refactor can involve at most 5 stacks.');

  const current = new Map<string, { decl: Decl | undefined; type: string; physicalId: string }>();
  const final = new Map<string, Decl>();
  for (const s of byName.values()) {
    const declared = resourcesOf(s.row?.template ?? null);
    for (const r of s.row ? repo.listResources(s.row.id) : []) {
      if (r.physical_id === null || r.status.startsWith('DELETE_')) continue;
      current.set(key(s.name, r.logical_id), { decl: declared[r.logical_id], type: r.type, physicalId: r.physical_id });
    }
    for (const [id, decl] of Object.entries(resourcesOf(s.text))) final.set(key(s.name, id), decl);
    if (Object.keys(resourcesOf(s.text)).length === 0) return fail(`Stack [${s.name}] would be left without resources: a stack refactor cannot empty a stack.`);
  }
  const moves: RefactorMove[] = [];
  const from = new Set<string>();
  const to = new Set<string>();
  const addMove = (f: string, t: string, detection: 'AUTO' | 'MANUAL') => {
    const c = current.get(f)!;
    const [fs, fl] = f.split('\u0000') as [string, string];
    const [ts, tl] = t.split('\u0000') as [string, string];
    moves.push({
      from: { stackId: byName.get(fs)!.id, logicalId: fl },
      to: { stackId: byName.get(ts)!.id, logicalId: tl },
      detection,
      type: c.type,
      physicalId: c.physicalId,
    });
    from.add(f);
    to.add(t);
  };
  for (const m of input.ResourceMappings ?? []) {
    const f = key(stackOf(m.Source!.StackName)!.name, m.Source!.LogicalResourceId!);
    const t = key(stackOf(m.Destination!.StackName)!.name, m.Destination!.LogicalResourceId!);
    if (!current.has(f)) return fail(`Resource [${shown(f)}] of a ResourceMapping does not exist.`);
    if (!final.has(t)) return fail(`Resource [${shown(t)}] of a ResourceMapping is not in its stack's definition.`);
    if (from.has(f)) return fail(`Resource [${shown(f)}] cannot be refactored into more than one destination.`);
    if (to.has(t)) return fail(duplicate(t));
    addMove(f, t, 'MANUAL');
  }
  const kept = new Set([...current.keys()].filter((k) => !from.has(k) && final.has(k) && !to.has(k)));
  for (const [k, c] of current) {
    if (from.has(k) || kept.has(k)) continue;
    const match = [...final.keys()].find((t) => !to.has(t) && !current.has(t) && sameConfiguration(c.decl, final.get(t)));
    if (match) addMove(k, match, 'AUTO');
  }
  // A destination id some resource still holds (not moved away) would be two resources at once.
  for (const t of to) if (current.has(t) && !from.has(t)) return fail(duplicate(t));
  const deleted = [...current.keys()].filter((k) => !from.has(k) && !kept.has(k));
  if (deleted.length) return fail(`A stack refactor cannot delete resources: [${deleted.map(shown).join(', ')}] are not in the stack definitions.`);
  const created = [...final.keys()].filter((k) => !to.has(k) && !kept.has(k));
  if (created.length) return fail(`A stack refactor cannot create resources: [${created.map(shown).join(', ')}] do not exist.`);
  const changed = [
    ...[...kept].filter((k) => !sameConfiguration(current.get(k)!.decl, final.get(k))),
    ...moves.filter((m) => m.detection === 'MANUAL').map((m) => {
      const f = [...current.keys()].find((k) => byName.get(k.split('\u0000')[0]!)!.id === m.from.stackId && k.endsWith(`\u0000${m.from.logicalId}`))!;
      const t = [...final.keys()].find((k) => byName.get(k.split('\u0000')[0]!)!.id === m.to.stackId && k.endsWith(`\u0000${m.to.logicalId}`))!;
      return sameConfiguration(current.get(f)!.decl, final.get(t)) ? '' : f;
    }),
  ].filter(Boolean);
  if (changed.length) return fail(`A stack refactor cannot change the configuration of resources: [${changed.map(shown).join(', ')}].`);
  return { stacks, moves };
}

function duplicate(t: string): string {
  const [stack, id] = t.split('\u0000');
  return `Stack [${stack}] would contain more than one resource with the logical ID [${id}]: a stack refactor cannot duplicate a logical ID.`;
}
