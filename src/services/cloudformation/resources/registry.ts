/**
 * The explicit registry of CloudFormation resource providers: one module per resource type.
 * Types Overcast does not run itself are "stored" by the generic provider (validated against the
 * type's schema from the spec index, given AWS-shaped ids and attributes) — `providerFor` returns
 * that provider with `stored: true`, and it refuses to create in strict mode. Types that exist
 * neither here nor in the spec are `unrecognized` (the engine's "Unrecognized resource types").
 */
import { resourceType } from '../spec/resource-types.js';
import type { ResourceProvider } from './types.js';
import { cdkMetadata } from './cdk/metadata.js';
import { cloudformationStack } from './cloudformation/stack.js';
import { s3Bucket, s3BucketPolicy } from './s3/bucket.js';
import { namespace, tableBucket } from './s3tables/table-bucket.js';
import { tableBucketPolicy, tablePolicy } from './s3tables/table-bucket-policy.js';
import { table } from './s3tables/table.js';
import { ssmParameter } from './ssm/parameter.js';
import { storedProvider, storedReason } from './stored.js';
import { waitCondition, waitConditionHandle } from './cloudformation/wait-condition.js';

const PROVIDERS: Record<string, ResourceProvider> = Object.fromEntries(
  [
    cdkMetadata,
    cloudformationStack,
    s3Bucket,
    s3BucketPolicy,
    tableBucket,
    namespace,
    table,
    tableBucketPolicy,
    tablePolicy,
    ssmParameter,
    waitConditionHandle,
    waitCondition,
  ].map((p) => [p.type, p]),
);

export interface ProviderLookup {
  /**
   * The provider to call. Since the generic stored provider exists this is set for every
   * recognized type (stored ones included); undefined only when `unrecognized`.
   */
  provider?: ResourceProvider;
  /** True when the provider only stores the resource (no real behaviour behind it). */
  stored: boolean;
  /** True when the type exists neither in the registry nor in the CloudFormation spec. */
  unrecognized: boolean;
  /** For stored types: the ResourceStatusReason the engine writes on their events. */
  storedReason?: string;
}

export function providerFor(type: string): ProviderLookup {
  const provider = PROVIDERS[type];
  if (provider) return { provider, stored: false, unrecognized: false };
  const known = resourceType(type) !== undefined || type.startsWith('Custom::');
  if (!known) return { stored: false, unrecognized: true };
  return { provider: storedProvider(type), stored: true, unrecognized: false, storedReason: storedReason(type) };
}

/** Every type with a real provider (for the README and GetTemplateSummary-style listings). */
export function realResourceTypes(): string[] {
  return Object.keys(PROVIDERS).sort();
}
