/**
 * `AWS::Lambda::Alias`: CreateAlias, UpdateAlias (FunctionVersion, Description, RoutingConfig in
 * place; FunctionName and Name force replacement) and DeleteAlias. Ref and GetAtt AliasArn are the
 * alias's ARN.
 */
import type * as L from '@aws-sdk/client-lambda';
import * as lambda from '../../../lambda/provider.js';
import type { AliasProperties } from '../../spec/property-types.js';
import { unlessGone } from '../already-gone.js';
import { typedChange, typedProperties } from '../typed-properties.js';
import type { ResourceProvider } from '../types.js';

const TYPE = 'AWS::Lambda::Alias';

function routing(p: AliasProperties): L.AliasRoutingConfiguration | undefined {
  const weights = p.RoutingConfig?.AdditionalVersionWeights;
  if (!weights) return undefined;
  return { AdditionalVersionWeights: Object.fromEntries(weights.map((w) => [w.FunctionVersion, w.FunctionWeight])) };
}

export const lambdaAlias: ResourceProvider = {
  type: TYPE,

  async create(rc, resolved) {
    const p = typedProperties(rc, TYPE, resolved);
    const out = lambda.createAlias(rc.ctx, {
      FunctionName: p.FunctionName,
      Name: p.Name,
      FunctionVersion: p.FunctionVersion,
      ...(p.Description !== undefined ? { Description: p.Description } : {}),
      ...(routing(p) ? { RoutingConfig: routing(p) } : {}),
    });
    return { physicalId: out.AliasArn!, attributes: { AliasArn: out.AliasArn } };
  },

  async update(rc, resolved, previous) {
    const { props: p } = typedChange(rc, TYPE, resolved, previous);
    lambda.updateAlias(rc.ctx, {
      FunctionName: p.FunctionName,
      Name: p.Name,
      FunctionVersion: p.FunctionVersion,
      Description: p.Description ?? '',
      RoutingConfig: routing(p) ?? {},
    });
    return previous.state;
  },

  async delete(rc, props, _state) {
    unlessGone(['ResourceNotFoundException'], () =>
      lambda.deleteAlias(rc.ctx, { FunctionName: String(props.FunctionName), Name: String(props.Name) }),
    );
  },
};
