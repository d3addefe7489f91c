/**
 * Pseudo parameters: their values for a stack — AWS::Partition and AWS::URLSuffix follow from the
 * region (`cn-…` → aws-cn / amazonaws.com.cn, `us-gov-…` → aws-us-gov, the ISO partitions) — and
 * the value a `Ref` to one resolves to (`AWS::NoValue` removes what holds it).
 */
import type { PseudoParameters, ResolveContext } from './types.js';
import { NO_VALUE } from './values.js';

export function pseudoParametersFor(input: {
  accountId: string;
  region: string;
  stackName: string;
  stackId: string;
  notificationArns?: string[];
}): PseudoParameters {
  const r = input.region;
  let partition = 'aws';
  let urlSuffix = 'amazonaws.com';
  if (r.startsWith('cn-')) {
    partition = 'aws-cn';
    urlSuffix = 'amazonaws.com.cn';
  } else if (r.startsWith('us-gov-')) partition = 'aws-us-gov';
  else if (r.startsWith('us-isob-')) {
    partition = 'aws-iso-b';
    urlSuffix = 'sc2s.sgov.gov';
  } else if (r.startsWith('us-iso-')) {
    partition = 'aws-iso';
    urlSuffix = 'c2s.ic.gov';
  }
  return {
    accountId: input.accountId,
    region: r,
    partition,
    urlSuffix,
    stackName: input.stackName,
    stackId: input.stackId,
    notificationArns: input.notificationArns ?? [],
  };
}

/** The value of `Ref: <pseudo parameter>`, or undefined for a name that is none. */
export function pseudoValue(name: string, ctx: ResolveContext): unknown {
  const p = ctx.pseudo;
  switch (name) {
    case 'AWS::AccountId':
      return p.accountId;
    case 'AWS::Region':
      return p.region;
    case 'AWS::Partition':
      return p.partition;
    case 'AWS::URLSuffix':
      return p.urlSuffix;
    case 'AWS::StackName':
      return p.stackName;
    case 'AWS::StackId':
      return p.stackId;
    case 'AWS::NotificationARNs':
      return [...p.notificationArns];
    case 'AWS::NoValue':
      return NO_VALUE;
    default:
      return undefined;
  }
}
