/**
 * The explicit registry of CloudFormation resource providers: one module per resource type, at
 * `resources/<service>/<type>.ts` (`Custom::*` types are custom resources). Every other type the
 * template layer accepts is "stored" by the generic provider (stored.ts): validated against the
 * type's schema, given AWS-shaped ids and attributes, with nothing behind it.
 */
import { cdkMetadata } from './cdk/metadata.js';
import { ecrRepository } from './ecr/repository.js';
import { cloudformationStack } from './cloudformation/stack.js';
import { customResource } from './cloudformation/custom-resource.js';
import { waitCondition } from './cloudformation/wait-condition.js';
import { waitConditionHandle } from './cloudformation/wait-condition-handle.js';
import { lambdaAlias } from './lambda/alias.js';
import { lambdaFunction } from './lambda/function.js';
import { lambdaPermission } from './lambda/permission.js';
import { lambdaVersion } from './lambda/version.js';
import { s3Bucket } from './s3/bucket.js';
import { s3BucketPolicy } from './s3/bucket-policy.js';
import { namespace } from './s3tables/namespace.js';
import { table } from './s3tables/table.js';
import { tableBucket } from './s3tables/table-bucket.js';
import { tableBucketPolicy } from './s3tables/table-bucket-policy.js';
import { tablePolicy } from './s3tables/table-policy.js';
import { ssmParameter } from './ssm/parameter.js';
import { storedProvider } from './stored.js';
import type { ResourceProvider } from './types.js';

const PROVIDERS: ReadonlyMap<string, ResourceProvider> = new Map(
  [
    cdkMetadata,
    cloudformationStack,
    customResource,
    waitConditionHandle,
    waitCondition,
    lambdaFunction,
    lambdaPermission,
    lambdaVersion,
    lambdaAlias,
    ecrRepository,
    s3Bucket,
    s3BucketPolicy,
    tableBucket,
    namespace,
    table,
    tableBucketPolicy,
    tablePolicy,
    ssmParameter,
  ].map((p) => [p.type, p]),
);

export interface ProviderLookup {
  provider: ResourceProvider;
  /** True when the provider only stores the resource (no real behaviour behind it). */
  stored: boolean;
}

export function providerFor(type: string): ProviderLookup {
  // Every `Custom::<Name>` is a custom resource under another name.
  const provider = PROVIDERS.get(type.startsWith('Custom::') ? customResource.type : type);
  return provider ? { provider, stored: false } : { provider: storedProvider(type), stored: true };
}

/** Every type with a real provider (for the README and GetTemplateSummary-style listings). */
export function realResourceTypes(): string[] {
  return [...PROVIDERS.keys()].sort();
}
