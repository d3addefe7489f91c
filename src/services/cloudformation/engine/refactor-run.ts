/**
 * Executing a stack refactor (cfn-drift-import-refactor.md §3.3): every involved stack goes
 * UPDATE_IN_PROGRESS → UPDATE_COMPLETE; each moved resource's row — physical id, properties,
 * attributes, drift record — goes to its new stack and logical id (through temporary ids, so
 * swaps and chains of renames work), nothing is called on the resource itself but the rewrite of
 * CloudFormation's `aws:cloudformation:*` tags on the types that carry them; the stacks take the
 * definitions' templates, with every resource's declaration, dependencies and policies from them,
 * and their outputs and exports evaluated anew. The destination records IMPORT_IN_PROGRESS /
 * IMPORT_COMPLETE for a moved resource, as AWS's events show (aws-cdk-cli#1804).
 */
import { randomUUID } from 'node:crypto';
import type { Ctx } from '../../../runtime/runtime.js';
import { loadedProvider, loadProvider } from '../resources/registry.js';
import { checkExports, commitExports } from './exports.js';
import { liveScope } from './deploy.js';
import { prepareDeployment, stackOutputs } from './deployment.js';
import { nestedStacks } from './nested.js';
import { loadResources, openOp, resourceEvent, setStackStatus, stateOf, writeResource, type Op } from './operation.js';
import type { RefactorMove, RefactorStack } from './refactor-plan.js';
import { providerProperties } from './stack-tags.js';
import { cfnRepo, emptyStackData, stackData, type ResourceVersion } from './state.js';

const ALL_CAPABILITIES = ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'];

/** Rewrites the `aws:cloudformation:*` tags of a moved resource (types without them: nothing). */
async function retag(ctx: Ctx, move: RefactorMove, names: Map<string, string>): Promise<void> {
  const row = cfnRepo(ctx).getResource(move.from.stackId, move.from.logicalId);
  const { provider, stored } = loadedProvider(move.type) ?? (await loadProvider(move.type));
  if (!row || stored) return;
  const v = JSON.parse(row.data) as ResourceVersion;
  const owner = (stackId: string, logicalId: string) => ({ type: move.type, stackName: names.get(stackId)!, stackId, logicalId });
  const before = providerProperties(owner(move.from.stackId, move.from.logicalId), v.props, v.stackTags);
  const after = providerProperties(owner(move.to.stackId, move.to.logicalId), v.props, v.stackTags);
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  const rc = {
    ctx,
    stackName: names.get(move.to.stackId)!,
    stackId: move.to.stackId,
    logicalId: move.to.logicalId,
    resourceType: move.type,
    strict: false,
    nestedStacks,
  };
  await provider.update(rc, after, { props: before, state: stateOf(v) });
}

/** The stack's template, resources and outputs brought in line with its definition. */
function settle(op: Op, s: RefactorStack, moved: Map<string, string>): void {
  const row = op.repo.getStack(op.stackId)!;
  const data = row.template === null ? emptyStackData() : stackData(row);
  const d = prepareDeployment(op.ctx, {
    stackName: s.name,
    stackId: s.id,
    template: s.template,
    parameters: data.parameters.map((p) => ({ ParameterKey: p.key, UsePreviousValue: true })),
    previousParameters: data.parameters,
    capabilities: ALL_CAPABILITIES,
    viaChangeSet: true,
    settings: data,
  });
  const live = new Map<string, ResourceVersion>();
  for (const [id, r] of loadResources(op)) {
    const decl = d.prepared.resources[id];
    if (!decl) continue;
    const version: ResourceVersion = {
      ...r.version,
      deletionPolicy: decl.deletionPolicy,
      updateReplacePolicy: decl.updateReplacePolicy,
      declaration: decl.declaration as unknown as Record<string, unknown>,
      dependsOn: decl.dependsOn,
      ...(decl.metadata !== undefined ? { metadata: decl.metadata } : {}),
    };
    live.set(id, version);
    const source = moved.get(id);
    if (source !== undefined) {
      writeResource(op, { logicalId: id, type: version.type, status: 'IMPORT_IN_PROGRESS', version, reason: `Moved from ${source} by a stack refactor` });
      writeResource(op, { logicalId: id, type: version.type, status: 'IMPORT_COMPLETE', version });
    } else {
      writeResource(op, { logicalId: id, type: version.type, status: r.row.status, reason: r.row.status_reason, version, silent: true });
    }
  }
  const outputs = stackOutputs(d, liveScope(live));
  checkExports(op, outputs);
  commitExports(op, outputs, d.prepared.imports);
  op.repo.updateStack(op.stackId, {
    template: s.template,
    description: d.description,
    data: JSON.stringify({ ...d.data, outputs, imports: d.prepared.imports }),
    updated_at: Date.now(),
  });
  setStackStatus(op, s.create ? 'CREATE_COMPLETE' : 'UPDATE_COMPLETE', null);
}

/** Runs the refactor; throws when it cannot be carried out (the caller records EXECUTE_FAILED). */
export async function runRefactor(ctx: Ctx, stacks: RefactorStack[], moves: RefactorMove[]): Promise<void> {
  const repo = cfnRepo(ctx);
  const names = new Map(stacks.map((s) => [s.id, s.name]));
  const journalId = randomUUID();
  for (const s of stacks.filter((x) => x.create)) {
    repo.insertStack({
      id: s.id, account: ctx.account, region: ctx.region, name: s.name, status: 'CREATE_IN_PROGRESS', status_reason: 'User Initiated',
      created_at: Date.now(), updated_at: null, deleted_at: null, parent_id: null, root_id: null, description: null,
      data: JSON.stringify(emptyStackData()), op: null, template: null,
    });
  }
  const ops = new Map(stacks.map((s) => [s.id, openOp(ctx.rt, { id: s.id, name: s.name, account: ctx.account, region: ctx.region, op: null }, nestedStacks, { id: journalId, type: 'UPDATE' })]));
  for (const s of stacks) {
    const op = ops.get(s.id)!;
    if (s.create) op.events.stack('CREATE_IN_PROGRESS', 'User Initiated');
    else setStackStatus(op, 'UPDATE_IN_PROGRESS', 'User Initiated');
    op.repo.flush();
  }
  for (const m of moves) await retag(ctx, m, names);
  const moved = new Map<string, Map<string, string>>();
  repo.tx(() => {
    let seq = 0;
    const temp = (i: number) => `\u0000refactor:${journalId}:${i}`;
    moves.forEach((m, i) => repo.moveResource(m.from.stackId, m.from.logicalId, m.to.stackId, temp(i), -1 - seq++));
    moves.forEach((m, i) => {
      repo.moveResource(m.to.stackId, temp(i), m.to.stackId, m.to.logicalId, repo.nextResourceSeq(m.to.stackId));
      const into = moved.get(m.to.stackId) ?? new Map<string, string>();
      into.set(m.to.logicalId, `${names.get(m.from.stackId)}.${m.from.logicalId}`);
      moved.set(m.to.stackId, into);
    });
  });
  for (const m of moves) {
    const op = ops.get(m.from.stackId)!;
    resourceEvent(op, { logicalId: m.from.logicalId, physicalId: m.physicalId, type: m.type, status: 'DELETE_SKIPPED', reason: `Moved to ${names.get(m.to.stackId)}.${m.to.logicalId} by a stack refactor` });
  }
  for (const s of stacks) {
    const op = ops.get(s.id)!;
    settle(op, s, moved.get(s.id) ?? new Map());
    op.repo.flush();
  }
}
