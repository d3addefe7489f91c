/**
 * `AWS::StepFunctions::StateMachine` through the Step Functions provider: the definition from
 * `Definition` (an object), `DefinitionString` or `DefinitionS3Location` (an object of Overcast's
 * S3), with each `${key}` of `DefinitionSubstitutions` replaced. Named StateMachineName or
 * `<logicalId>-<random>`, as CloudFormation names state machines; a new definition or role is an
 * update in place. Ref and GetAtt Arn give the ARN; GetAtt Name and StateMachineRevisionId too.
 */
import type { Ctx } from '../../../../runtime/runtime.js';
import { getObjectBytes } from '../../../s3/provider.js';
import * as sfn from '../../../stepfunctions/provider.js';
import type { StateMachineProperties } from '../../spec/property-types.js';
import { unlessGone } from '../already-gone.js';
import { randomToken } from '../physical-names.js';
import { typedChange, typedProperties } from '../typed-properties.js';
import { ResourceFailure, type ResourceProvider, type ResourceState } from '../types.js';

const TYPE = 'AWS::StepFunctions::StateMachine';

async function definition(ctx: Ctx, p: StateMachineProperties): Promise<string> {
  let out: string;
  if (p.Definition !== undefined) out = JSON.stringify(p.Definition);
  else if (p.DefinitionString !== undefined) out = p.DefinitionString;
  else if (p.DefinitionS3Location) {
    const loc = p.DefinitionS3Location;
    out = (await getObjectBytes(ctx, { Bucket: loc.Bucket, Key: loc.Key, ...(loc.Version ? { VersionId: loc.Version } : {}) })).toString('utf8');
  } else throw new ResourceFailure('Either Definition, DefinitionString or DefinitionS3Location must be specified');
  for (const [key, value] of Object.entries(p.DefinitionSubstitutions ?? {})) out = out.split('${' + key + '}').join(String(value));
  return out;
}

function state(ctx: Ctx, arn: string): ResourceState {
  const d = sfn.describeStateMachine(ctx, { stateMachineArn: arn });
  return { physicalId: arn, attributes: { Arn: arn, Name: d.name, StateMachineRevisionId: d.revisionId } };
}

export const stateMachine: ResourceProvider = {
  type: TYPE,

  async create(rc, resolved) {
    const p = typedProperties(rc, TYPE, resolved);
    const out = sfn.createStateMachine(rc.ctx, {
      name: p.StateMachineName ?? `${rc.logicalId.slice(0, 66)}-${randomToken(12, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`,
      definition: await definition(rc.ctx, p),
      roleArn: p.RoleArn,
      ...(p.StateMachineType ? { type: p.StateMachineType } : {}),
      ...(p.Tags?.length ? { tags: p.Tags.map((t) => ({ key: t.Key, value: t.Value })) } : {}),
    });
    return state(rc.ctx, out.stateMachineArn!);
  },

  async update(rc, resolved, previous) {
    const { props: p } = typedChange(rc, TYPE, resolved, previous);
    sfn.updateStateMachine(rc.ctx, { stateMachineArn: previous.state.physicalId, definition: await definition(rc.ctx, p), roleArn: p.RoleArn });
    return state(rc.ctx, previous.state.physicalId);
  },

  async delete(rc, _props, resource) {
    unlessGone(['StateMachineDoesNotExist'], () => sfn.deleteStateMachine(rc.ctx, { stateMachineArn: resource.physicalId }));
  },
};
