/**
 * The whole-stack change computation behind change sets and UpdateStack's "No updates are to be
 * performed.": every resource of the new template planned against the stack's resource rows in
 * dependency order (a resource being added or replaced makes its dependents' values Dynamic),
 * removed resources with their policy action, and whether the outputs would change. The stack's new
 * tags count: a taggable resource whose merged tags differ is modified (Scope Tags).
 */
import type { StackRow } from '../../../store/cloudformation-repo.js';
import type { Ctx } from '../../../runtime/runtime.js';
import { cfnRepo, stackData, versionOf, type ResourceVersion } from './state.js';
import { stackOutputs, type Deployment } from './deployment.js';
import { dynamicCauses, planningScope, planResource, type ResourcePlan } from './plan.js';
import { stackTagsFor } from './stack-tags.js';
import { resolveValue } from '../template/index.js';

interface StackChanges {
  resources: ResourcePlan[];
  outputsChanged: boolean;
}

function removalPolicy(v: ResourceVersion): string {
  if (v.deletionPolicy === 'Retain' || v.deletionPolicy === 'RetainExceptOnCreate') return 'Retain';
  if (v.deletionPolicy === 'Snapshot') return 'Snapshot';
  return 'Delete';
}

export function computeChanges(ctx: Ctx, stack: StackRow | undefined, d: Deployment): StackChanges {
  const current = new Map<string, ResourceVersion>();
  if (stack) {
    for (const row of cfnRepo(ctx).listResources(stack.id)) {
      if (row.physical_id === null || row.status.startsWith('DELETE_')) continue;
      current.set(row.logical_id, versionOf(row));
    }
  }
  const oldParameters = stack ? stackData(stack).parameters : [];
  const identityChanges = new Set<string>();
  const scope = planningScope(
    (id) => current.get(id),
    (id) => identityChanges.has(id),
  );
  const plans: ResourcePlan[] = [];
  for (const id of d.prepared.order) {
    const decl = d.prepared.resources[id];
    if (!decl) continue;
    const props = (resolveValue(decl.properties ?? {}, scope, d.rctx) ?? {}) as Record<string, unknown>;
    const plan = planResource({
      resource: decl,
      props,
      current: current.get(id),
      stackTags: stackTagsFor(decl.type, d.data.tags),
      oldParameters,
      newParameters: d.data.parameters,
    });
    if (plan.action === 'Add' || (plan.action === 'Modify' && plan.replacement !== 'False')) identityChanges.add(id);
    if (plan.action !== 'None') plans.push(plan);
  }
  for (const [id, v] of current) {
    if (d.prepared.resources[id]) continue;
    plans.push({
      logicalId: id,
      type: v.type,
      action: 'Remove',
      ...(v.physicalId !== undefined ? { physicalId: v.physicalId } : {}),
      changes: [],
      before: v.props,
      policyAction: removalPolicy(v),
    });
  }
  let outputsChanged = true;
  if (stack) {
    try {
      const now = stackOutputs(d, scope);
      const before = stackData(stack).outputs ?? [];
      outputsChanged =
        now.length !== before.length ||
        now.some((o) => {
          const b = before.find((x) => x.key === o.key);
          return (
            !b ||
            b.value !== o.value ||
            b.description !== o.description ||
            b.exportName !== o.exportName ||
            dynamicCauses(o.value).size > 0
          );
        });
    } catch {
      outputsChanged = true;
    }
  }
  return { resources: plans, outputsChanged };
}

/** Whether applying `d` to the stack would change anything a user can see. */
export function hasChanges(ctx: Ctx, stack: StackRow, d: Deployment): boolean {
  const c = computeChanges(ctx, stack, d);
  return c.resources.length > 0 || c.outputsChanged;
}
