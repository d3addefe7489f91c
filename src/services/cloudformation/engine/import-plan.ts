/**
 * Resource import at change-set creation (cfn-drift-import-refactor.md §2.1, §2.4): the checks an
 * IMPORT change set gets, in AWS's words where they are known — each resource to import is
 * declared in the template with that type, has a DeletionPolicy, is named by its type's primary
 * identifier, exists, and belongs to no stack; the template changes nothing else (no other
 * resource added, changed or removed, no output added or changed) — and the plan of each: action
 * Import. And `ImportExistingResources` on CREATE/UPDATE change sets: a resource to add whose
 * primary identifier is a name written literally in the template, and which already exists
 * outside any stack, is imported instead — if its DeletionPolicy is Retain or
 * RetainExceptOnCreate; otherwise the change set fails with AWS's exact reason (the CDK parses
 * it). Primary identifiers that are read-only properties (the S3 Tables ARNs) never qualify.
 */
import type * as CFN from '@aws-sdk/client-cloudformation';
import type { Ctx } from '../../../runtime/runtime.js';
import type { StackRow } from '../../../store/cloudformation-repo.js';
import { validation } from '../requests/errors.js';
import { loadedProvider, loadProvider } from '../resources/registry.js';
import { resourceType } from '../spec/resource-types.js';
import type { Deployment } from './deployment.js';
import { findExisting, notFound } from './import.js';
import { nestedStacks } from './nested.js';
import type { ResourcePlan } from './plan.js';
import { cfnRepo } from './state.js';

interface Where {
  stackName: string;
  stackId: string;
}

function target(ctx: Ctx, w: Where, logicalId: string, type: string) {
  return { ctx, stackName: w.stackName, stackId: w.stackId, logicalId, type, strict: ctx.rt.config.strictResources, nestedStacks };
}

/** The live stack (other than `self`) a physical resource belongs to, if any. */
function owner(ctx: Ctx, physicalId: string, type: string, self?: string): string | undefined {
  const repo = cfnRepo(ctx);
  for (const r of repo.findResourceByPhysicalId(physicalId)) {
    if (r.type !== type || r.stack_id === self || r.status.startsWith('DELETE_')) continue;
    const s = repo.getStack(r.stack_id);
    if (s && s.deleted_at === null && s.account === ctx.account && s.region === ctx.region) return s.id;
  }
  return undefined;
}

function deletionPolicy(d: Deployment, id: string): unknown {
  return (d.prepared.resources[id]?.declaration as unknown as Record<string, unknown> | undefined)?.DeletionPolicy;
}

/**
 * The plans of an IMPORT change set, `changes` being the template's changes against the stack
 * (computeChanges). Throws the ValidationError AWS answers CreateChangeSet with.
 */
export async function planImport(
  ctx: Ctx,
  w: Where,
  stack: StackRow | undefined,
  d: Deployment,
  toImport: CFN.ResourceToImport[] | undefined,
  changes: { resources: ResourcePlan[]; outputsChanged: boolean },
): Promise<ResourcePlan[]> {
  // [INF] the wording of the checks AWS documents without quoting them.
  if (!toImport?.length) throw validation('ResourcesToImport must be specified for a change set of type IMPORT.');
  const ids = new Set<string>();
  for (const r of toImport) {
    const id = r.LogicalResourceId!;
    const decl = d.prepared.resources[id];
    if (!decl) throw validation(`Resource [${id}] to import is not declared in the template.`);
    if (decl.type !== r.ResourceType) {
      throw validation(`The ResourceType [${r.ResourceType}] of resource [${id}] to import does not match the template's [${decl.type}].`);
    }
    if (ids.has(id)) throw validation(`Resource [${id}] is listed more than once in ResourcesToImport.`);
    ids.add(id);
  }
  const noPolicy = toImport.map((r) => r.LogicalResourceId!).filter((id) => deletionPolicy(d, id) === undefined);
  if (noPolicy.length) {
    throw validation(`The following resources to import [${noPolicy.join(', ')}] must have DeletionPolicy attribute specified in the template.`);
  }
  for (const r of toImport) {
    const keys = resourceType(r.ResourceType!)?.id ?? [];
    const given = Object.keys(r.ResourceIdentifier ?? {});
    if (keys.length !== given.length || !keys.every((k) => given.includes(k))) {
      throw validation(
        `Invalid ResourceIdentifier for resource [${r.LogicalResourceId}] of type ${r.ResourceType}: it takes [${keys.join(', ')}], got [${given.join(', ')}].`,
      );
    }
  }
  const others = changes.resources.filter((p) => !(ids.has(p.logicalId) && p.action === 'Add'));
  const inStack = others.filter((p) => ids.has(p.logicalId));
  if (inStack.length) throw validation(`${inStack[0]!.physicalId} already exists in stack ${stack?.id}`);
  if (others.length) {
    throw validation(
      `You have modified resources [${others.map((p) => p.logicalId).join(', ')}] in your template that are not being imported. ` +
        'Update, create or delete operations cannot be executed during import operations.',
    );
  }
  if (stack && changes.outputsChanged) throw validation('As part of the import operation, you cannot modify or add [Outputs]');
  const plans: ResourcePlan[] = [];
  for (const r of toImport) {
    const id = r.LogicalResourceId!;
    const identifier = r.ResourceIdentifier as Record<string, string>;
    const found = await findExisting(target(ctx, w, id, r.ResourceType!), {}, identifier);
    if (!found) throw validation(notFound(r.ResourceType!, identifier));
    const taken = owner(ctx, found.state.physicalId, r.ResourceType!);
    if (taken) throw validation(`${found.state.physicalId} already exists in stack ${taken}`);
    const plan = changes.resources.find((p) => p.logicalId === id)!;
    plans.push({ ...plan, action: 'Import', physicalId: found.state.physicalId, identifier });
  }
  return plans;
}

/**
 * ImportExistingResources: turns the qualifying additions of `plans` into imports. Returns the
 * change set's failure reason when a matching resource lacks a retaining DeletionPolicy.
 */
export async function autoImport(ctx: Ctx, w: Where, d: Deployment, plans: ResourcePlan[]): Promise<string | undefined> {
  const needRetain: string[] = [];
  for (const plan of plans) {
    if (plan.action !== 'Add') continue;
    const info = resourceType(plan.type);
    const key = info?.id?.length === 1 ? info.id[0]! : undefined;
    const { provider, stored } = loadedProvider(plan.type) ?? (await loadProvider(plan.type));
    if (!key || !info?.p[key] || stored || !provider.adopt) continue;
    // Only a static custom name qualifies: not a Ref or any other function.
    const raw = d.prepared.resources[plan.logicalId]?.properties?.[key];
    if (typeof raw !== 'string' || raw === '') continue;
    const identifier = { [key]: raw };
    const found = await findExisting(target(ctx, w, plan.logicalId, plan.type), {}, identifier);
    if (!found || owner(ctx, found.state.physicalId, plan.type)) continue;
    const policy = deletionPolicy(d, plan.logicalId);
    if (policy !== 'Retain' && policy !== 'RetainExceptOnCreate') {
      needRetain.push(`${plan.logicalId} ({${key}=${raw}})`);
      continue;
    }
    plan.action = 'Import';
    plan.physicalId = found.state.physicalId;
    plan.identifier = identifier;
  }
  if (!needRetain.length) return undefined;
  return (
    'CloudFormation is attempting to import some resources because they already exist in your account. The resources must have ' +
    "the DeletionPolicy attribute set to 'Retain' or 'RetainExceptOnCreate' in the template for successful import. " +
    `The affected resources are ${needRetain.join(', ')}`
  );
}
