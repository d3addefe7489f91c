/**
 * `AWS::Lambda::Function` through the Lambda provider the API serves. The function is named
 * FunctionName or, like CloudFormation, `<stack>-<logicalId>-<random>` within 64 characters; its
 * code comes from Overcast's S3 (the CDK's asset zips in the bootstrap bucket), from inline
 * `ZipFile` source (inline-code.ts) or an ImageUri. Updates change code and configuration in place
 * (the engine replaces on FunctionName and PackageType); the next invocation runs the new ones. A
 * setting dropped from the template returns to Lambda's default, and an update that leaves the
 * configuration as it was does not touch it (which would stop the function's warm workers).
 * Ref is the name; GetAtt gives Arn and the SnapStart attributes. A function already deleted
 * outside the stack deletes fine.
 */
import type * as L from '@aws-sdk/client-lambda';
import * as lambda from '../../../lambda/provider.js';
import type { FunctionProperties } from '../../spec/property-types.js';
import { unlessGone } from '../already-gone.js';
import { generatedName } from '../physical-names.js';
import { same } from '../property-values.js';
import { typedChange, typedProperties } from '../typed-properties.js';
import type { ResourceContext, ResourceProvider, ResourceState } from '../types.js';
import { inlineZip } from './inline-code.js';

const TYPE = 'AWS::Lambda::Function';

function code(p: FunctionProperties): L.FunctionCode {
  const c = p.Code;
  if (c.ZipFile !== undefined) return { ZipFile: inlineZip(p.Runtime, c.ZipFile) };
  if (c.ImageUri !== undefined) return { ImageUri: c.ImageUri };
  return { S3Bucket: c.S3Bucket, S3Key: c.S3Key, ...(c.S3ObjectVersion ? { S3ObjectVersion: c.S3ObjectVersion } : {}) };
}

/**
 * The configuration the properties describe, complete: a property the template leaves out (or
 * drops in an update) means Lambda's default for it, so an update puts that default back.
 */
function configuration(name: string, p: FunctionProperties): Omit<L.UpdateFunctionConfigurationRequest, 'FunctionName'> {
  const d = lambda.defaultConfig(name);
  return {
    Role: p.Role,
    Runtime: p.Runtime as L.Runtime | undefined,
    Handler: p.Handler,
    Description: p.Description ?? d.Description,
    Timeout: p.Timeout ?? d.Timeout,
    MemorySize: p.MemorySize ?? d.MemorySize,
    Environment: { Variables: p.Environment?.Variables ?? {} },
    Layers: p.Layers ?? [],
    EphemeralStorage: p.EphemeralStorage ?? d.EphemeralStorage,
    LoggingConfig: { ...d.LoggingConfig, ...(p.LoggingConfig as L.LoggingConfig | undefined) },
    TracingConfig: { Mode: (p.TracingConfig?.Mode ?? d.TracingConfig.Mode) as L.TracingMode },
    KMSKeyArn: p.KmsKeyArn ?? '',
    DeadLetterConfig: p.DeadLetterConfig ?? {},
  };
}

function state(rc: ResourceContext, name: string): ResourceState {
  return {
    physicalId: name,
    attributes: {
      Arn: lambda.functionArn(rc.ctx, name),
      'SnapStartResponse.ApplyOn': 'None',
      'SnapStartResponse.OptimizationStatus': 'Off',
    },
  };
}

export const lambdaFunction: ResourceProvider = {
  type: TYPE,

  async create(rc, resolved) {
    const p = typedProperties(rc, TYPE, resolved);
    const name = p.FunctionName ?? generatedName(rc, { max: 64 });
    await lambda.createFunction(rc.ctx, {
      ...configuration(name, p),
      FunctionName: name,
      Role: p.Role,
      Code: code(p),
      ...(p.PackageType ? { PackageType: p.PackageType as L.PackageType } : {}),
      ...(p.Architectures?.length ? { Architectures: p.Architectures as L.Architecture[] } : {}),
      Tags: Object.fromEntries((p.Tags ?? []).map((t) => [t.Key, t.Value])),
    });
    return state(rc, name);
  },

  async update(rc, resolved, previous) {
    const { props: p, old } = typedChange(rc, TYPE, resolved, previous);
    const name = previous.state.physicalId;
    const ctx = rc.ctx;
    if (!same(old.Code, p.Code) || !same(old.Architectures, p.Architectures) || (p.Code.ZipFile !== undefined && old.Runtime !== p.Runtime)) {
      await lambda.updateFunctionCode(ctx, { FunctionName: name, ...code(p), ...(p.Architectures?.length ? { Architectures: p.Architectures as L.Architecture[] } : {}) });
    }
    // Only a changed configuration is applied: each update stops the function's warm workers.
    const next = configuration(name, p);
    if (!same(configuration(name, old), next)) lambda.updateFunctionConfiguration(ctx, { FunctionName: name, ...next });
    const arn = lambda.functionArn(ctx, name);
    const before = Object.fromEntries((old.Tags ?? []).map((t) => [t.Key, t.Value]));
    const after = Object.fromEntries((p.Tags ?? []).map((t) => [t.Key, t.Value]));
    const removed = Object.keys(before).filter((k) => !(k in after));
    if (removed.length) lambda.untagResource(ctx, { Resource: arn, TagKeys: removed });
    if (!same(before, after) && Object.keys(after).length) lambda.tagResource(ctx, { Resource: arn, Tags: after });
    return state(rc, name);
  },

  async delete(rc, _props, resource) {
    unlessGone(['ResourceNotFoundException'], () => lambda.deleteFunction(rc.ctx, { FunctionName: resource.physicalId }));
  },
};
