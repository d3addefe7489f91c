/**
 * CloudFormation's identifiers: stack and change-set ARNs (`…:stack/<name>/<uuid>`), and telling
 * an ARN from a name.
 */
import { randomUUID } from 'node:crypto';
import type { Ctx } from '../../../runtime/runtime.js';

export function stackArn(ctx: Pick<Ctx, 'partition' | 'region' | 'account'>, name: string): string {
  return `arn:${ctx.partition}:cloudformation:${ctx.region}:${ctx.account}:stack/${name}/${randomUUID()}`;
}

export function changeSetArn(ctx: Pick<Ctx, 'partition' | 'region' | 'account'>, name: string): string {
  return `arn:${ctx.partition}:cloudformation:${ctx.region}:${ctx.account}:changeSet/${name}/${randomUUID()}`;
}

export function isArn(value: string): boolean {
  return value.startsWith('arn:');
}
