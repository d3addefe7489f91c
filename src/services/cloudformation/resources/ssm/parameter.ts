/**
 * `AWS::SSM::Parameter` through the SSM Parameter Store provider the API serves. Ref is the name
 * (generated as `CFN-<logicalId>-<random>` when Name is absent, as CloudFormation does); GetAtt
 * gives Type, Value and Arn. Changing Name replaces the parameter (the engine decides that);
 * everything else is a new version written with Overwrite, and tag changes (alone: no new
 * version) go through Add/RemoveTagsToResource. A parameter that already exists outside the stack
 * fails the create with SSM's ParameterAlreadyExists message, as on AWS. The read handler (drift)
 * and import go by the name.
 */
import type * as SSM from '@aws-sdk/client-ssm';
import { parameterArn } from '../../../ssm/naming.js';
import { addTagsToResource, deleteParameter, getParameter, listTagsForResource, putParameter, removeTagsFromResource } from '../../../ssm/provider.js';
import { describeParameters } from '../../../ssm/listing.js';
import type { ParameterProperties } from '../../spec/property-types.js';
import { unlessGone } from '../already-gone.js';
import { same } from '../property-values.js';
import { randomToken } from '../physical-names.js';
import { typedChange, typedProperties } from '../typed-properties.js';
import type { ResourceContext, ResourceProvider, ResourceState } from '../types.js';

const TYPE = 'AWS::SSM::Parameter';
const MIXED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function request(p: ParameterProperties): Omit<SSM.PutParameterRequest, 'Name'> {
  return {
    Value: p.Value,
    Type: p.Type,
    Description: p.Description,
    AllowedPattern: p.AllowedPattern,
    Tier: p.Tier,
    Policies: p.Policies,
    DataType: p.DataType,
  };
}

/** The parameter's state, read back, or from `put` (what a create just wrote). */
function state(rc: ResourceContext, name: string, put?: { Type?: string; Value?: string }): ResourceState {
  const current = put ?? getParameter(rc.ctx, { Name: name }).Parameter!;
  return {
    physicalId: name,
    attributes: { Type: current.Type, Value: current.Value, Arn: parameterArn(rc.ctx, name) },
  };
}

export const ssmParameter: ResourceProvider = {
  type: TYPE,

  async create(rc, props) {
    const p = typedProperties(rc, TYPE, props);
    const name = p.Name ?? `CFN-${rc.logicalId}-${randomToken(12, MIXED)}`;
    const tags = Object.entries(p.Tags ?? {}).map(([Key, Value]) => ({ Key, Value }));
    putParameter(rc.ctx, { ...request(p), Name: name, Tags: tags.length ? tags : undefined });
    // A new parameter holds what was put (String or StringList: the schema refuses SecureString),
    // so reading it back cost a second validation and lookup per parameter.
    return state(rc, name, p);
  },

  async update(rc, props, previous) {
    const { props: p, old } = typedChange(rc, TYPE, props, previous);
    const name = previous.state.physicalId;
    const req = request(p);
    // A description removed from the template is cleared, as CloudFormation's update does.
    if (req.Description === undefined && old.Description !== undefined) req.Description = '';
    // A change of tags alone (stack tags, a refactor's system tags) writes no new version.
    if (!same(request(old), request(p))) putParameter(rc.ctx, { ...req, Name: name, Overwrite: true });
    const before = old.Tags ?? {};
    const after = p.Tags ?? {};
    const removed = Object.keys(before).filter((k) => !(k in after));
    const changed = Object.entries(after).filter(([k, v]) => before[k] !== v);
    if (removed.length) removeTagsFromResource(rc.ctx, { ResourceType: 'Parameter', ResourceId: name, TagKeys: removed });
    if (changed.length) {
      addTagsToResource(rc.ctx, { ResourceType: 'Parameter', ResourceId: name, Tags: changed.map(([Key, Value]) => ({ Key, Value })) });
    }
    return state(rc, name);
  },

  async delete(rc, _props, resource) {
    // Already gone (deleted outside the stack): deleting succeeds, as CloudFormation's does.
    unlessGone(['ParameterNotFound'], () => deleteParameter(rc.ctx, { Name: resource.physicalId }));
  },

  // Policies are not returned by the read handler (DescribeParameters gives them another shape).
  writeOnly: ['Policies'],

  async read(rc, resource) {
    const name = resource.physicalId;
    const p = getParameter(rc.ctx, { Name: name, WithDecryption: true }).Parameter!;
    const meta = describeParameters(rc.ctx, { ParameterFilters: [{ Key: 'Name', Values: [name] }] }).Parameters?.[0];
    const tags = listTagsForResource(rc.ctx, { ResourceType: 'Parameter', ResourceId: name }).TagList ?? [];
    return {
      Name: name,
      Type: p.Type,
      Value: p.Value,
      DataType: p.DataType,
      ...(meta?.Description !== undefined ? { Description: meta.Description } : {}),
      ...(meta?.AllowedPattern !== undefined ? { AllowedPattern: meta.AllowedPattern } : {}),
      ...(meta?.Tier !== undefined ? { Tier: meta.Tier } : {}),
      Tags: Object.fromEntries(tags.filter((t) => !t.Key!.startsWith('aws:')).map((t) => [t.Key, t.Value])),
    };
  },

  async adopt(rc, identifier) {
    const name = identifier.Name!;
    try {
      return state(rc, name);
    } catch (err) {
      if ((err as { code?: string }).code === 'ParameterNotFound') return undefined;
      throw err;
    }
  },
};
