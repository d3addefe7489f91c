/**
 * The explicit registry of CloudFormation resource providers: one module per resource type, at
 * `resources/<service>/<type>.ts` (`Custom::*` types are custom resources). Every other type the
 * template layer accepts is "stored" by the generic provider (stored.ts): validated against the
 * type's schema, given AWS-shaped ids and attributes, with nothing behind it. A provider module is
 * imported the first time its type is needed, not with the engine: together they pull in the
 * services behind them (Lambda's runner, S3, ECR, SSM …), which made a server's first stack pay
 * for every one of them. The engine loads a template's types before it runs the operation
 * (`loadProviders`), so resources still start in the order they always did; `loadProvider` also
 * loads on demand for the paths that touch a type on their own (drift, refactors, imports).
 */
import { storedProvider } from './stored.js';
import type { ResourceProvider } from './types.js';

const CUSTOM = 'AWS::CloudFormation::CustomResource';

const LOADERS: Readonly<Record<string, () => Promise<ResourceProvider>>> = {
  'AWS::CDK::Metadata': async () => (await import('./cdk/metadata.js')).cdkMetadata,
  'AWS::CloudFormation::Stack': async () => (await import('./cloudformation/stack.js')).cloudformationStack,
  [CUSTOM]: async () => (await import('./cloudformation/custom-resource.js')).customResource,
  'AWS::CloudFormation::WaitConditionHandle': async () =>
    (await import('./cloudformation/wait-condition-handle.js')).waitConditionHandle,
  'AWS::CloudFormation::WaitCondition': async () => (await import('./cloudformation/wait-condition.js')).waitCondition,
  'AWS::Lambda::Function': async () => (await import('./lambda/function.js')).lambdaFunction,
  'AWS::Lambda::Permission': async () => (await import('./lambda/permission.js')).lambdaPermission,
  'AWS::Lambda::LayerVersion': async () => (await import('./lambda/layer-version.js')).lambdaLayerVersion,
  'AWS::Lambda::Version': async () => (await import('./lambda/version.js')).lambdaVersion,
  'AWS::Lambda::Alias': async () => (await import('./lambda/alias.js')).lambdaAlias,
  'AWS::ECR::Repository': async () => (await import('./ecr/repository.js')).ecrRepository,
  'AWS::S3::Bucket': async () => (await import('./s3/bucket.js')).s3Bucket,
  'AWS::S3::BucketPolicy': async () => (await import('./s3/bucket-policy.js')).s3BucketPolicy,
  'AWS::S3Tables::TableBucket': async () => (await import('./s3tables/table-bucket.js')).tableBucket,
  'AWS::S3Tables::Namespace': async () => (await import('./s3tables/namespace.js')).namespace,
  'AWS::S3Tables::Table': async () => (await import('./s3tables/table.js')).table,
  'AWS::S3Tables::TableBucketPolicy': async () => (await import('./s3tables/table-bucket-policy.js')).tableBucketPolicy,
  'AWS::S3Tables::TablePolicy': async () => (await import('./s3tables/table-policy.js')).tablePolicy,
  'AWS::StepFunctions::StateMachine': async () => (await import('./stepfunctions/state-machine.js')).stateMachine,
  'AWS::SSM::Parameter': async () => (await import('./ssm/parameter.js')).ssmParameter,
};

interface ProviderLookup {
  provider: ResourceProvider;
  /** True when the provider only stores the resource (no real behaviour behind it). */
  stored: boolean;
}

const loaded = new Map<string, ProviderLookup>();
const loading = new Map<string, Promise<ProviderLookup>>();

/** Every `Custom::<Name>` is a custom resource under another name. */
function registryKey(type: string): string {
  return type.startsWith('Custom::') ? CUSTOM : type;
}

function load(type: string): Promise<ProviderLookup> {
  const key = registryKey(type);
  let pending = loading.get(key);
  if (!pending) {
    pending = LOADERS[key]!().then((provider) => {
      const lookup = { provider, stored: false };
      loaded.set(key, lookup);
      return lookup;
    });
    // A failed import is retried by the next caller rather than remembered.
    pending.catch(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

/** The provider of `type` when no import is needed (already loaded, or a stored type); else undefined. */
export function loadedProvider(type: string): ProviderLookup | undefined {
  const key = registryKey(type);
  if (!Object.hasOwn(LOADERS, key)) return { provider: storedProvider(type), stored: true };
  return loaded.get(key);
}

/**
 * The provider of `type`, importing its module the first time. Callers write
 * `loadedProvider(type) ?? (await loadProvider(type))`: a loaded provider is then used without
 * the extra turn an `await` would take, so calls keep the timing they had with eager imports.
 */
export function loadProvider(type: string): Promise<ProviderLookup> {
  const known = loadedProvider(type);
  return known ? Promise.resolve(known) : load(type);
}

/**
 * Imports the providers of `types` not loaded yet; undefined when there is nothing to wait for, so
 * an operation whose types are all loaded goes on without yielding.
 */
export function loadProviders(types: Iterable<string>): Promise<unknown> | undefined {
  const pending: Promise<ProviderLookup>[] = [];
  for (const type of types) if (!loadedProvider(type)) pending.push(load(type));
  return pending.length ? Promise.all(pending) : undefined;
}

/** Every type with a real provider (for the README and GetTemplateSummary-style listings). */
export function realResourceTypes(): string[] {
  return Object.keys(LOADERS).sort();
}
