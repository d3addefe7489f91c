/**
 * Step Functions' names and ARNs: `arn:<partition>:states:<region>:<account>:stateMachine:<name>`
 * and `…:execution:<state machine name>:<execution name>`, and the rule AWS applies to both names
 * (1–80 characters, none of whitespace, brackets, wildcards, `"#%\^|~`$&,;:/` or control characters).
 */
import type { Ctx } from '../../runtime/runtime.js';
import { sfnErrors } from './errors.js';

const FORBIDDEN = /[\s<>{}[\]?*"#%\\^|~`$&,;:/\u0000-\u001f\u007f-\u009f]/;
const ARN = /^arn:[a-z-]+:states:([a-z0-9-]+):(\d{12}):(stateMachine|execution):([^:]+)(?::([^:]+))?$/;

export function stateMachineArn(ctx: Pick<Ctx, 'partition' | 'region' | 'account'>, name: string): string {
  return `arn:${ctx.partition}:states:${ctx.region}:${ctx.account}:stateMachine:${name}`;
}

export function executionArn(ctx: Pick<Ctx, 'partition' | 'region' | 'account'>, machine: string, name: string): string {
  return `arn:${ctx.partition}:states:${ctx.region}:${ctx.account}:execution:${machine}:${name}`;
}

/** Refuses a state machine or execution name AWS would refuse. */
export function checkName(name: string): void {
  if (name.length < 1 || name.length > 80 || FORBIDDEN.test(name)) throw sfnErrors.invalidName(name);
}

/** The parts of a state machine or execution ARN of this caller's account and region; InvalidArn otherwise. */
export function parseArn(ctx: Pick<Ctx, 'account' | 'region'>, arn: string, kind: 'stateMachine' | 'execution'): { machine: string; execution?: string } {
  const m = ARN.exec(arn);
  if (!m || m[3] !== kind || (kind === 'execution') !== (m[5] !== undefined)) throw sfnErrors.invalidArn(arn);
  if (m[1] !== ctx.region || m[2] !== ctx.account) {
    throw kind === 'stateMachine' ? sfnErrors.stateMachineNotFound(arn) : sfnErrors.executionNotFound(arn);
  }
  return { machine: m[4]!, ...(m[5] !== undefined ? { execution: m[5] } : {}) };
}
