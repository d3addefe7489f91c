/**
 * `AWS::ECR::Repository` through Overcast's ECR provider: created with its name (or one generated
 * as CloudFormation does, lower-cased), tag mutability, scanning, encryption, lifecycle policy,
 * repository policy and tags; updates put what changed (encryption and the name are create-only:
 * the engine replaces); delete refuses a repository that still holds images unless EmptyOnDelete
 * says otherwise, with ECR's RepositoryNotEmptyException, as the real handler does. Ref is the
 * name; GetAtt gives Arn and RepositoryUri. The read handler (drift) and import go by the name.
 * The CDK bootstrap's container-assets repository is one of these, so `cdk gc` finds it.
 */
import type * as ECR from '@aws-sdk/client-ecr';
import * as ecr from '../../../ecr/provider.js';
import type { RepositoryProperties } from '../../spec/property-types.js';
import { unlessGone } from '../already-gone.js';
import { generatedName } from '../physical-names.js';
import { policyText, same } from '../property-values.js';
import { typedChange, typedProperties } from '../typed-properties.js';
import type { ResourceContext, ResourceProvider, ResourceState } from '../types.js';

const TYPE = 'AWS::ECR::Repository';

function state(rc: ResourceContext, name: string): ResourceState {
  const r = ecr.describeRepositories(rc.ctx, { repositoryNames: [name] }).repositories![0]!;
  return { physicalId: name, attributes: { Arn: r.repositoryArn, RepositoryUri: r.repositoryUri } };
}

function applyLifecycle(rc: ResourceContext, name: string, p: RepositoryProperties): void {
  const text = p.LifecyclePolicy?.LifecyclePolicyText;
  if (text !== undefined) ecr.putLifecyclePolicy(rc.ctx, { repositoryName: name, lifecyclePolicyText: text });
  else unlessGone(['LifecyclePolicyNotFoundException'], () => ecr.deleteLifecyclePolicy(rc.ctx, { repositoryName: name }));
}

function applyPolicy(rc: ResourceContext, name: string, p: RepositoryProperties): void {
  if (p.RepositoryPolicyText !== undefined) ecr.setRepositoryPolicy(rc.ctx, { repositoryName: name, policyText: policyText(p.RepositoryPolicyText) });
  else unlessGone(['RepositoryPolicyNotFoundException'], () => ecr.deleteRepositoryPolicy(rc.ctx, { repositoryName: name }));
}

function optional<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (err) {
    if (/PolicyNotFoundException$/.test((err as { code?: string }).code ?? '')) return undefined;
    throw err;
  }
}

export const ecrRepository: ResourceProvider = {
  type: TYPE,
  writeOnly: ['EmptyOnDelete'],

  async create(rc, props) {
    const p = typedProperties(rc, TYPE, props);
    const name = p.RepositoryName ?? generatedName(rc, { max: 256, lower: true, suffix: 12 });
    ecr.createRepository(rc.ctx, {
      repositoryName: name,
      imageTagMutability: p.ImageTagMutability as ECR.ImageTagMutability | undefined,
      imageTagMutabilityExclusionFilters: p.ImageTagMutabilityExclusionFilters?.map((f) => ({
        filterType: f.ImageTagMutabilityExclusionFilterType as ECR.ImageTagMutabilityExclusionFilterType,
        filter: f.ImageTagMutabilityExclusionFilterValue,
      })),
      imageScanningConfiguration: p.ImageScanningConfiguration ? { scanOnPush: p.ImageScanningConfiguration.ScanOnPush ?? false } : undefined,
      encryptionConfiguration: p.EncryptionConfiguration
        ? { encryptionType: p.EncryptionConfiguration.EncryptionType as ECR.EncryptionType, kmsKey: p.EncryptionConfiguration.KmsKey }
        : undefined,
      tags: p.Tags?.length ? p.Tags.map((t) => ({ Key: t.Key, Value: t.Value })) : undefined,
    });
    try {
      if (p.LifecyclePolicy?.LifecyclePolicyText !== undefined) applyLifecycle(rc, name, p);
      if (p.RepositoryPolicyText !== undefined) applyPolicy(rc, name, p);
    } catch (err) {
      unlessGone(['RepositoryNotFoundException'], () => ecr.deleteRepository(rc.ctx, { repositoryName: name, force: true }));
      throw err;
    }
    return state(rc, name);
  },

  async update(rc, props, previous) {
    const { ctx } = rc;
    const name = previous.state.physicalId;
    const { props: p, old } = typedChange(rc, TYPE, props, previous);
    if (!same(old.ImageTagMutability, p.ImageTagMutability) || !same(old.ImageTagMutabilityExclusionFilters, p.ImageTagMutabilityExclusionFilters)) {
      ecr.putImageTagMutability(ctx, { repositoryName: name, imageTagMutability: (p.ImageTagMutability ?? 'MUTABLE') as ECR.ImageTagMutability });
    }
    if (!same(old.ImageScanningConfiguration, p.ImageScanningConfiguration)) {
      ecr.putImageScanningConfiguration(ctx, { repositoryName: name, imageScanningConfiguration: { scanOnPush: p.ImageScanningConfiguration?.ScanOnPush ?? false } });
    }
    if (!same(old.LifecyclePolicy, p.LifecyclePolicy)) applyLifecycle(rc, name, p);
    if (!same(old.RepositoryPolicyText, p.RepositoryPolicyText)) applyPolicy(rc, name, p);
    const arn = ecr.repositoryArn(ctx, name);
    const before = new Map((old.Tags ?? []).map((t) => [t.Key, t.Value]));
    const after = new Map((p.Tags ?? []).map((t) => [t.Key, t.Value]));
    const removed = [...before.keys()].filter((k) => !after.has(k));
    const changed = [...after].filter(([k, v]) => before.get(k) !== v).map(([Key, Value]) => ({ Key, Value }));
    if (removed.length) ecr.untagResource(ctx, { resourceArn: arn, tagKeys: removed });
    if (changed.length) ecr.tagResource(ctx, { resourceArn: arn, tags: changed });
    return state(rc, name);
  },

  async delete(rc, props, st) {
    const force = props.EmptyOnDelete === true || props.EmptyOnDelete === 'true';
    unlessGone(['RepositoryNotFoundException'], () => ecr.deleteRepository(rc.ctx, { repositoryName: st.physicalId, force }));
  },

  async read(rc, st) {
    const name = st.physicalId;
    const r = ecr.describeRepositories(rc.ctx, { repositoryNames: [name] }).repositories![0]!;
    const lifecycle = optional(() => ecr.getLifecyclePolicy(rc.ctx, { repositoryName: name }));
    const policy = optional(() => ecr.getRepositoryPolicy(rc.ctx, { repositoryName: name }).policyText);
    const tags = ecr.listTagsForResource(rc.ctx, { resourceArn: r.repositoryArn }).tags ?? [];
    return {
      RepositoryName: name,
      ImageTagMutability: r.imageTagMutability,
      ImageScanningConfiguration: { ScanOnPush: r.imageScanningConfiguration?.scanOnPush ?? false },
      EncryptionConfiguration: {
        EncryptionType: r.encryptionConfiguration?.encryptionType,
        ...(r.encryptionConfiguration?.kmsKey ? { KmsKey: r.encryptionConfiguration.kmsKey } : {}),
      },
      ...(lifecycle ? { LifecyclePolicy: { LifecyclePolicyText: lifecycle.lifecyclePolicyText, RegistryId: lifecycle.registryId } } : {}),
      ...(policy !== undefined ? { RepositoryPolicyText: JSON.parse(policy) as unknown } : {}),
      Tags: tags.map((t) => ({ Key: t.Key, Value: t.Value })),
    };
  },

  async adopt(rc, identifier) {
    const name = identifier.RepositoryName!;
    try {
      return state(rc, name);
    } catch (err) {
      if ((err as { code?: string }).code === 'RepositoryNotFoundException') return undefined;
      throw err;
    }
  },
};
