/**
 * `AWS::SSM::Parameter` through the SSM Parameter Store provider the API serves. Ref is the name
 * (generated as `CFN-<logicalId>-<random>` when Name is absent, as CloudFormation does); GetAtt
 * gives Type, Value and Arn. Changing Name replaces the parameter (the engine decides that);
 * everything else is a new version written with Overwrite, and tag changes go through
 * Add/RemoveTagsToResource. A parameter that already exists outside the stack fails the create
 * with SSM's ParameterAlreadyExists message, as on AWS.
 */
import type * as SSM from '@aws-sdk/client-ssm';
import {
  addTagsToResource,
  deleteParameter,
  getParameter,
  putParameter,
  removeTagsFromResource,
} from '../../../ssm/provider.js';
import { parameterArn } from '../../../ssm/naming.js';
import { randomToken } from '../physical-names.js';
import type { ResolvedProperties, ResourceContext, ResourceProvider, ResourceState } from '../types.js';
import { str, tagMap, validateProperties } from '../property-schema.js';

const MIXED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function request(props: ResolvedProperties): Omit<SSM.PutParameterRequest, 'Name'> {
  return {
    Value: str(props.Value),
    Type: str(props.Type) as SSM.ParameterType,
    Description: str(props.Description),
    AllowedPattern: str(props.AllowedPattern),
    Tier: str(props.Tier) as SSM.ParameterTier | undefined,
    Policies: str(props.Policies),
    DataType: str(props.DataType),
  };
}

function state(rc: ResourceContext, name: string): ResourceState {
  const current = getParameter(rc.ctx, { Name: name }).Parameter!;
  return {
    physicalId: name,
    attributes: { Type: current.Type, Value: current.Value, Arn: parameterArn(rc.ctx, name) },
  };
}

export const ssmParameter: ResourceProvider = {
  type: 'AWS::SSM::Parameter',

  async create(rc, props) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    const name = str(props.Name) ?? `CFN-${rc.logicalId}-${randomToken(12, MIXED)}`;
    const tags = Object.entries(tagMap(props.Tags)).map(([Key, Value]) => ({ Key, Value }));
    putParameter(rc.ctx, { ...request(props), Name: name, Tags: tags.length ? tags : undefined });
    return state(rc, name);
  },

  async update(rc, props, previous) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    const name = previous.state.physicalId;
    const req = request(props);
    // A description removed from the template is cleared, as CloudFormation's update does.
    if (req.Description === undefined && previous.props.Description !== undefined) req.Description = '';
    putParameter(rc.ctx, { ...req, Name: name, Overwrite: true });
    const before = tagMap(previous.props.Tags);
    const after = tagMap(props.Tags);
    const removed = Object.keys(before).filter((k) => !(k in after));
    const changed = Object.entries(after).filter(([k, v]) => before[k] !== v);
    if (removed.length) removeTagsFromResource(rc.ctx, { ResourceType: 'Parameter', ResourceId: name, TagKeys: removed });
    if (changed.length) {
      addTagsToResource(rc.ctx, {
        ResourceType: 'Parameter',
        ResourceId: name,
        Tags: changed.map(([Key, Value]) => ({ Key, Value })),
      });
    }
    return state(rc, name);
  },

  async delete(rc, _props, resource) {
    try {
      deleteParameter(rc.ctx, { Name: resource.physicalId });
    } catch (err) {
      // Already gone (deleted outside the stack): deleting succeeds, as CloudFormation's does.
      if ((err as { code?: string }).code !== 'ParameterNotFound') throw err;
    }
  },
};
