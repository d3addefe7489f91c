/**
 * `AWS::Lambda::Permission`: a statement of the function's resource policy, added with
 * AddPermission under a generated statement id (the physical id, and GetAtt Id) and removed with
 * RemovePermission. Every property forces replacement (the engine decides that); one already
 * removed outside the stack deletes fine.
 */
import * as lambda from '../../../lambda/provider.js';
import { unlessGone } from '../already-gone.js';
import { generatedName } from '../physical-names.js';
import { createOnlyUpdate, typedProperties } from '../typed-properties.js';
import type { ResourceProvider } from '../types.js';

const TYPE = 'AWS::Lambda::Permission';

export const lambdaPermission: ResourceProvider = {
  type: TYPE,

  async create(rc, resolved) {
    const p = typedProperties(rc, TYPE, resolved);
    const sid = generatedName(rc, { max: 100 });
    lambda.addPermission(rc.ctx, {
      FunctionName: p.FunctionName,
      StatementId: sid,
      Action: p.Action,
      Principal: p.Principal,
      ...(p.SourceArn ? { SourceArn: p.SourceArn } : {}),
      ...(p.SourceAccount ? { SourceAccount: p.SourceAccount } : {}),
      ...(p.PrincipalOrgID ? { PrincipalOrgID: p.PrincipalOrgID } : {}),
      ...(p.EventSourceToken ? { EventSourceToken: p.EventSourceToken } : {}),
      ...(p.FunctionUrlAuthType ? { FunctionUrlAuthType: p.FunctionUrlAuthType as 'NONE' | 'AWS_IAM' } : {}),
    });
    return { physicalId: sid, attributes: { Id: sid } };
  },

  update: createOnlyUpdate(TYPE),

  async delete(rc, props, state) {
    unlessGone(['ResourceNotFoundException'], () =>
      lambda.removePermission(rc.ctx, { FunctionName: String(props.FunctionName), StatementId: state.physicalId }),
    );
  },
};
