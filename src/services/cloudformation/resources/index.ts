/**
 * The explicit registry of CloudFormation resource providers: one module per resource type.
 * Types Overcast does not run itself are "stored" by the generic provider (validated against the
 * type's schema from the spec index) unless strict mode refuses them.
 */
import { resourceType } from '../spec.js';
import type { ResourceProvider } from './types.js';
import { cdkMetadata } from './cdk-metadata.js';

const PROVIDERS: Record<string, ResourceProvider> = {
  [cdkMetadata.type]: cdkMetadata,
};

export interface ProviderLookup {
  provider?: ResourceProvider;
  /** True when the provider only stores the resource (no real behaviour behind it). */
  stored: boolean;
  /** True when the type exists neither in the registry nor in the CloudFormation spec. */
  unrecognized: boolean;
}

export function providerFor(type: string): ProviderLookup {
  const provider = PROVIDERS[type];
  if (provider) return { provider, stored: false, unrecognized: false };
  const known = resourceType(type) !== undefined || type.startsWith('Custom::');
  return { stored: known, unrecognized: !known };
}
