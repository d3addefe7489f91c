/**
 * The generic provider for every resource type Overcast does not run: its properties are
 * validated against the type's schema (so a template that CloudFormation would reject fails here
 * too), and it gets a physical id and GetAtt attributes shaped like AWS's (stored-values.ts), but
 * nothing behind it exists — the registry marks it `stored` so the engine's events say so. In
 * `--strict-resources` mode (config `strictResources`, `OVERCAST_STRICT_RESOURCES=1`) creating or
 * updating one fails instead; deleting one always succeeds, so stacks stored earlier can be
 * removed.
 */
import { storedState, updatedState } from './stored-values.js';
import { ResourceFailure, type ResourceContext, type ResourceProvider } from './types.js';
import { validateProperties } from './property-schema.js';

/** The event reason the engine writes for a stored resource. */
export function storedReason(type: string): string {
  return `Resource type ${type} is not emulated by Overcast: stored, not run (properties validated, attributes generated)`;
}

export function strictRefusal(type: string): string {
  return (
    `Resource type ${type} is not emulated by Overcast and --strict-resources (OVERCAST_STRICT_RESOURCES=1) is on: ` +
    'it would only be stored, not run'
  );
}

function refuseInStrictMode(rc: ResourceContext): void {
  if (rc.strict) throw new ResourceFailure(strictRefusal(rc.resourceType));
}

const cache = new Map<string, ResourceProvider>();

export function storedProvider(type: string): ResourceProvider {
  let provider = cache.get(type);
  if (!provider) {
    provider = {
      type,
      async create(rc, props) {
        refuseInStrictMode(rc);
        validateProperties(rc.logicalId, rc.resourceType, props);
        return storedState(rc, props);
      },
      async update(rc, props, previous) {
        refuseInStrictMode(rc);
        validateProperties(rc.logicalId, rc.resourceType, props);
        return updatedState(rc, props, previous.state);
      },
      async delete() {},
    };
    cache.set(type, provider);
  }
  return provider;
}
