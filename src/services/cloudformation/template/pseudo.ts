/**
 * Pseudo parameter values for a stack: AWS::Partition and AWS::URLSuffix follow from the region
 * (`cn-…` → aws-cn / amazonaws.com.cn, `us-gov-…` → aws-us-gov, the ISO partitions).
 */
import type { PseudoParameters } from './types.js';

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
