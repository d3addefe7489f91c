/**
 * What the template layer asks of the outside world, answered from Overcast itself: pseudo
 * parameters for the stack (account, region and partition of the caller, URL suffix by partition),
 * current values of SSM parameters for `AWS::SSM::Parameter::Value<…>` types and `{{resolve:ssm:…}}`
 * through the SSM provider in-process, exports of the account and region, and availability zones.
 * Parameters are read synchronously, but the SSM provider (and the STS one it imports) loads only
 * for a template that may read one (loadSsmFor, awaited wherever a template's text is obtained),
 * so a first stack without parameters does not load them.
 */
import type { Ctx } from '../../../runtime/runtime.js';
import type { PrepareEnvironment, PseudoParameters } from '../template/types.js';
import { cfnRepo } from './state.js';

/** AZ letters per region, as AWS exposes them to a typical account (us-east-1 has six). */
const AZ_LETTERS: Record<string, string> = {
  'us-east-1': 'abcdef',
  'us-west-2': 'abcd',
  'ap-northeast-1': 'acd',
  'ap-northeast-2': 'abcd',
  'eu-west-1': 'abc',
  'eu-central-1': 'abc',
};

export function availabilityZones(region: string): string[] {
  return [...(AZ_LETTERS[region] ?? 'abc')].map((l) => `${region}${l}`);
}

export function urlSuffix(partition: string): string {
  return partition === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com';
}

export function pseudoParameters(
  ctx: Pick<Ctx, 'account' | 'region' | 'partition'>,
  stackName: string,
  stackId: string,
  notificationArns: string[],
): PseudoParameters {
  return {
    accountId: ctx.account,
    region: ctx.region,
    partition: ctx.partition,
    urlSuffix: urlSuffix(ctx.partition),
    stackName,
    stackId,
    notificationArns,
  };
}

let ssm: typeof import('../../ssm/provider.js') | undefined;

// What can make a deployment read a parameter: a Parameters section (SSM types, stored values given
// as `{{resolve:…}}`), a reference written in the template, or values from outside it — exports,
// nested stacks, custom resources and macros.
const MAY_READ_SSM = /resolve|Parameters|SSM|ImportValue|Custom|AWS::CloudFormation::Stack|Transform/;

/** Loads the SSM provider if the template (undefined: a stack's previous one) may read a parameter. */
export async function loadSsmFor(template: string | undefined): Promise<void> {
  if (ssm === undefined && (template === undefined || MAY_READ_SSM.test(template))) ssm = await import('../../ssm/provider.js');
}

export function ssmValue(ctx: Ctx, name: string): string | undefined {
  // Not a lookup failure: a template whose text loadSsmFor let through, which is a bug there.
  if (ssm === undefined) throw new Error(`SSM parameter ${name} read from a template that loadSsmFor did not expect to read one`);
  try {
    return ssm.getParameter(ctx, { Name: name, WithDecryption: true }).Parameter?.Value;
  } catch {
    return undefined;
  }
}

export function prepareEnvironment(ctx: Ctx, pseudo: PseudoParameters): PrepareEnvironment {
  const repo = cfnRepo(ctx);
  return {
    pseudo,
    ssmParameter: (name) => ssmValue(ctx, name),
    exportValue: (name) => repo.getExport(ctx.account, ctx.region, name)?.value,
    availabilityZones,
  };
}
