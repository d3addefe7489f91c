/**
 * What the template layer asks of the outside world, answered from Overcast itself: pseudo
 * parameters for the stack (account, region and partition of the caller, URL suffix by partition),
 * current values of SSM parameters for `AWS::SSM::Parameter::Value<…>` types through the SSM
 * provider in-process, exports of the account and region, and availability zones.
 */
import type { Ctx } from '../../../runtime/runtime.js';
import { getParameter } from '../../ssm/provider.js';
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

export function ssmValue(ctx: Ctx, name: string): string | undefined {
  try {
    return getParameter(ctx, { Name: name, WithDecryption: true }).Parameter?.Value;
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
