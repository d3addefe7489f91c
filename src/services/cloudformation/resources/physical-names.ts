/**
 * Physical names and ids the way CloudFormation and the services shape them: generated names
 * `<stack>-<logicalId>-<random>` trimmed to the type's length limit (stack and logical id
 * shortened first, the random suffix kept whole), EC2-style ids (`vpc-0abc…`, 17 hex digits),
 * and random tokens.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ResourceContext } from './types.js';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function randomToken(length: number, alphabet = UPPER): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i]! % alphabet.length];
  return out;
}

export interface NameOptions {
  /** Longest name the service accepts (64 when unsure: every service takes at least that). */
  max?: number;
  /** S3-style names are lower case. */
  lower?: boolean;
  /** Length of the random suffix (CloudFormation uses 12–13 characters). */
  suffix?: number;
  /** Characters the service refuses, replaced by `-`. */
  invalid?: RegExp;
}

/** A CloudFormation-generated physical name: `<stack>-<logicalId>-<SUFFIX>`, within `max`. */
export function generatedName(rc: Pick<ResourceContext, 'stackName' | 'logicalId'>, opts: NameOptions = {}): string {
  const max = opts.max ?? 64;
  const suffixLength = opts.suffix ?? 13;
  let stack = rc.stackName;
  let logical = rc.logicalId;
  const budget = Math.max(2, max - suffixLength - 2);
  while (stack.length + logical.length > budget) {
    if (stack.length >= logical.length) stack = stack.slice(0, -1);
    else logical = logical.slice(0, -1);
  }
  let name = `${stack}-${logical}-${randomToken(suffixLength)}`;
  if (opts.invalid) name = name.replace(opts.invalid, '-');
  return opts.lower ? name.toLowerCase() : name;
}

/** An EC2-style id: `<prefix>-` and 17 hex digits. */
export function ec2Id(prefix: string): string {
  return `${prefix}-0${randomBytes(8).toString('hex').slice(0, 16)}`;
}

export function uuid(): string {
  return randomUUID();
}
