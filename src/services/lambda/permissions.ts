/**
 * Resource-based policies: AddPermission adds a statement (its Sid unique per function and
 * qualifier) in the shape Lambda writes — the principal as a service, an account root or `*`,
 * SourceArn / SourceAccount / PrincipalOrgID as conditions — RemovePermission drops one, GetPolicy
 * answers the policy document. Policies are stored, not enforced: no invocation is refused.
 */
import { randomUUID } from 'node:crypto';
import type * as L from '@aws-sdk/client-lambda';
import type { Ctx } from '../../runtime/runtime.js';
import { check, checkRevision, lambdaErrors } from './errors.js';
import { lambdaRepo, resolveVersion } from './lookup.js';
import { functionArn } from './naming.js';

export interface Statement {
  Sid: string;
  Effect: 'Allow';
  Principal: string | Record<string, string>;
  Action: string;
  Resource: string;
  Condition?: Record<string, Record<string, string>>;
}

export function principal(ctx: Pick<Ctx, 'partition'>, p: string): Statement['Principal'] {
  if (p === '*') return '*';
  if (/^\d{12}$/.test(p)) return { AWS: `arn:${ctx.partition}:iam::${p}:root` };
  if (p.startsWith('arn:')) return { AWS: p };
  return { Service: p };
}

function target(ctx: Ctx, name: string, qualifier: string | undefined) {
  const resolved = resolveVersion(ctx, name, qualifier);
  const q = resolved.ref.qualifier ?? '';
  return { name: resolved.ref.name, qualifier: q, arn: functionArn(ctx, resolved.ref.name, q || undefined) };
}

function statementsOf(ctx: Ctx, name: string, qualifier: string): { statements: Statement[]; revision?: string } {
  const row = lambdaRepo(ctx).getPolicy(ctx.account, ctx.region, name, qualifier);
  return row ? { statements: JSON.parse(row.statements) as Statement[], revision: row.revision_id } : { statements: [] };
}

export function addPermission(ctx: Ctx, input: L.AddPermissionRequest): L.AddPermissionResponse {
  check('AddPermission', input);
  const t = target(ctx, input.FunctionName!, input.Qualifier);
  const { statements, revision } = statementsOf(ctx, t.name, t.qualifier);
  checkRevision(input.RevisionId, revision);
  if (statements.some((s) => s.Sid === input.StatementId)) throw lambdaErrors.statementExists(input.StatementId!);
  const condition: Record<string, Record<string, string>> = {};
  if (input.SourceArn) condition.ArnLike = { 'AWS:SourceArn': input.SourceArn };
  if (input.SourceAccount) condition.StringEquals = { 'AWS:SourceAccount': input.SourceAccount };
  if (input.PrincipalOrgID) condition.StringEquals = { ...condition.StringEquals, 'aws:PrincipalOrgID': input.PrincipalOrgID };
  if (input.FunctionUrlAuthType) condition.StringEquals = { ...condition.StringEquals, 'lambda:FunctionUrlAuthType': input.FunctionUrlAuthType };
  const statement: Statement = {
    Sid: input.StatementId!,
    Effect: 'Allow',
    Principal: principal(ctx, input.Principal!),
    Action: input.Action!,
    Resource: t.arn,
    ...(Object.keys(condition).length ? { Condition: condition } : {}),
  };
  lambdaRepo(ctx).putPolicy(ctx.account, ctx.region, t.name, t.qualifier, [...statements, statement], randomUUID());
  return { Statement: JSON.stringify(statement) };
}

export function removePermission(ctx: Ctx, input: L.RemovePermissionRequest): void {
  check('RemovePermission', input);
  const t = target(ctx, input.FunctionName!, input.Qualifier);
  const { statements, revision } = statementsOf(ctx, t.name, t.qualifier);
  checkRevision(input.RevisionId, revision);
  if (!statements.some((s) => s.Sid === input.StatementId)) throw lambdaErrors.statementNotFound(input.StatementId!, t.arn);
  lambdaRepo(ctx).putPolicy(ctx.account, ctx.region, t.name, t.qualifier, statements.filter((s) => s.Sid !== input.StatementId), randomUUID());
}

export function getPolicy(ctx: Ctx, input: L.GetPolicyRequest): L.GetPolicyResponse {
  check('GetPolicy', input);
  const t = target(ctx, input.FunctionName!, input.Qualifier);
  const row = lambdaRepo(ctx).getPolicy(ctx.account, ctx.region, t.name, t.qualifier);
  if (!row) throw lambdaErrors.resourceNotFound();
  return { Policy: policyDocument(JSON.parse(row.statements) as Statement[]), RevisionId: row.revision_id };
}

/** A resource policy's document as GetPolicy and GetLayerVersionPolicy answer it. */
export function policyDocument(statements: Statement[]): string {
  return JSON.stringify({ Version: '2012-10-17', Id: 'default', Statement: statements });
}
