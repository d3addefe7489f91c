/**
 * Resource import at execution time (cfn-drift-import-refactor.md §2): a resource the change set
 * imports is adopted — its type's `adopt` finds the existing resource by its identifier and gives
 * its physical id and attributes; nothing is created or changed — and an IMPORT change set runs
 * as IMPORT_IN_PROGRESS → IMPORT_COMPLETE. A failed import rolls back to the previous template
 * (IMPORT_ROLLBACK_IN_PROGRESS → IMPORT_ROLLBACK_COMPLETE) and forgets the resources it adopted,
 * which stay where they are, as AWS's rollback "goes back to the previous template, not to the
 * resources' actual configuration" (start.ts starts it). Types Overcast only stores are adopted
 * as stored (nothing to find), except in `--strict-resources` mode.
 */
import type { Tag } from '@aws-sdk/client-cloudformation';
import { loadedProvider, loadProvider } from '../resources/registry.js';
import { storedState } from '../resources/stored-values.js';
import { strictRefusal } from '../resources/stored.js';
import { ResourceFailure, type ResourceContext, type ResourceState } from '../resources/types.js';
import { dropResource, loadResources, resourceEvent, setPending, setStackStatus, type Op } from './operation.js';
import type { CallTarget } from './resource-calls.js';
import { providerProperties } from './stack-tags.js';

export function notFound(type: string, identifier: Record<string, string>): string {
  const shown = Object.values(identifier).join('|');
  return `Resource of type '${type}' with identifier '${shown}' was not found.`;
}

function context(t: CallTarget): ResourceContext {
  return { ctx: t.ctx, stackName: t.stackName, stackId: t.stackId, logicalId: t.logicalId, resourceType: t.type, strict: t.strict, nestedStacks: t.nestedStacks };
}

/**
 * The existing resource `identifier` names, as a resource state; undefined when none exists.
 * Types Overcast only stores have nothing to find: their resource is recorded as stored.
 */
export async function findExisting(
  t: CallTarget,
  props: Record<string, unknown>,
  identifier: Record<string, string>,
): Promise<{ state: ResourceState; stored: boolean } | undefined> {
  const { provider, stored } = loadedProvider(t.type) ?? (await loadProvider(t.type));
  const rc = context(t);
  if (stored) {
    if (t.strict) throw new ResourceFailure(strictRefusal(t.type));
    const state = storedState(rc, { ...props, ...identifier });
    return { state: { ...state, physicalId: Object.values(identifier).join('|') }, stored: true };
  }
  if (!provider.adopt) throw new ResourceFailure(`Resource type ${t.type} does not support import.`);
  const state = await provider.adopt(rc, identifier, props);
  return state ? { state, stored: false } : undefined;
}

/** The engine's adoption of one resource during a deploy (deploy.ts calls it instead of create). */
export async function adoptResource(
  t: CallTarget,
  props: Record<string, unknown>,
  identifier: Record<string, string>,
  stackTags?: Tag[],
): Promise<{ state: ResourceState; stored: boolean }> {
  const found = await findExisting(t, providerProperties(t, props, stackTags), identifier);
  if (!found) throw new ResourceFailure(notFound(t.type, identifier));
  return found;
}

/** A failed import: the adopted resources forgotten (left as they are), the previous template back. */
export async function rollbackImport(op: Op, reason: string | null): Promise<void> {
  setStackStatus(op, 'IMPORT_ROLLBACK_IN_PROGRESS', reason);
  op.repo.tx(() => {
    for (const [id, r] of loadResources(op)) {
      if (r.pending?.action === 'imported' || r.row.status === 'IMPORT_FAILED') {
        const v = r.version;
        resourceEvent(op, { logicalId: id, physicalId: v.physicalId ?? null, type: v.type, status: 'IMPORT_ROLLBACK_COMPLETE' });
        dropResource(op, id);
      } else if (r.pending) setPending(op, id, null);
    }
    const prev = op.journal.previous;
    if (prev) op.repo.updateStack(op.stackId, { template: prev.template, description: prev.description, data: JSON.stringify(prev.data) });
    setStackStatus(op, 'IMPORT_ROLLBACK_COMPLETE', null, { op: null });
  });
}
