/**
 * Stack policies, enforced during updates as CloudFormation does: once a stack has a policy,
 * every update action on a resource (`Update:Modify` in place, `Update:Replace`, `Update:Delete`
 * when it leaves the template) must be allowed by a statement and denied by none; `Update:*`
 * covers all three. Resources match `LogicalResourceId/<id>` patterns (`*` and `?` wildcards) or
 * NotResource; a `ResourceType` condition (StringEquals / StringLike) narrows a statement.
 * StackPolicyDuringUpdateBody replaces the policy for one update.
 */

import { wildcardMatch } from '../../../patterns/wildcard.js';

type UpdateAction = 'Update:Modify' | 'Update:Replace' | 'Update:Delete';

interface Statement {
  Effect?: string;
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** `*` and `?` wildcards, matched linearly: the policy is the client's, and a backtracking regex of `*a*a*…` takes minutes. */
function wildcard(pattern: string, value: string): boolean {
  return wildcardMatch(pattern, value, { questionMark: true });
}

function actionMatches(s: Statement, action: UpdateAction): boolean {
  if (s.Action !== undefined) return list(s.Action).some((a) => wildcard(a, action));
  if (s.NotAction !== undefined) return !list(s.NotAction).some((a) => wildcard(a, action));
  return false;
}

function resourceMatches(s: Statement, resource: string): boolean {
  if (s.Resource !== undefined) return list(s.Resource).some((r) => wildcard(r, resource));
  if (s.NotResource !== undefined) return !list(s.NotResource).some((r) => wildcard(r, resource));
  return false;
}

function conditionHolds(s: Statement, type: string): boolean {
  for (const [op, entries] of Object.entries(s.Condition ?? {})) {
    for (const [key, values] of Object.entries(entries)) {
      if (key !== 'ResourceType') continue;
      const ok = list(values).some((v) => (op === 'StringLike' ? wildcard(v, type) : v === type));
      if (op.startsWith('StringNot') ? ok : !ok) return false;
    }
  }
  return true;
}

/** Why `policy` refuses `action` on the resource, or undefined when it allows it. */
export function policyRefusal(policy: string | undefined, action: UpdateAction, logicalId: string, type: string): string | undefined {
  if (policy === undefined) return undefined;
  let statements: Statement[];
  try {
    const doc = JSON.parse(policy) as { Statement?: Statement | Statement[] };
    statements = Array.isArray(doc.Statement) ? doc.Statement : doc.Statement ? [doc.Statement] : [];
  } catch {
    return undefined;
  }
  const resource = `LogicalResourceId/${logicalId}`;
  let allowed = false;
  for (const [i, s] of statements.entries()) {
    if (!actionMatches(s, action) || !resourceMatches(s, resource) || !conditionHolds(s, type)) continue;
    if (s.Effect === 'Deny') return `Action denied by stack policy: Statement [#${i + 1}] does not allow [${action}] for resource [${resource}]`;
    if (s.Effect === 'Allow') allowed = true;
  }
  return allowed ? undefined : `Action not allowed by stack policy: no statement allows [${action}] for resource [${resource}]`;
}
