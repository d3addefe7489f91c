/**
 * `AWS::Lambda::Version`: PublishVersion of the function's `$LATEST` (every property forces
 * replacement, so a changed function gets a new Version resource, as the CDK's `currentVersion`
 * relies on). Ref is the version's ARN; GetAtt gives Version and FunctionArn. Deleting deletes
 * that version only; one already gone deletes fine.
 */
import * as lambda from '../../../lambda/provider.js';
import { unlessGone } from '../already-gone.js';
import { createOnlyUpdate, typedProperties } from '../typed-properties.js';
import type { ResourceProvider } from '../types.js';

const TYPE = 'AWS::Lambda::Version';

export const lambdaVersion: ResourceProvider = {
  type: TYPE,

  async create(rc, resolved) {
    const p = typedProperties(rc, TYPE, resolved);
    const out = lambda.publishVersion(rc.ctx, {
      FunctionName: p.FunctionName,
      ...(p.Description !== undefined ? { Description: p.Description } : {}),
      ...(p.CodeSha256 !== undefined ? { CodeSha256: p.CodeSha256 } : {}),
    });
    const base = lambda.functionArn(rc.ctx, out.FunctionName!);
    return { physicalId: out.FunctionArn!, attributes: { Version: out.Version, FunctionArn: base } };
  },

  update: createOnlyUpdate(TYPE),

  async delete(rc, _props, state) {
    const arn = lambda.splitVersionArn(state.physicalId);
    if (arn) unlessGone(['ResourceNotFoundException'], () => lambda.deleteFunction(rc.ctx, { FunctionName: arn.base, Qualifier: String(arn.version) }));
  },
};
