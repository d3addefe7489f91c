/**
 * The one policy evaluator of strict mode, scoped to what AWS documents for resource-based
 * policies (IAM User Guide, "Policy evaluation logic" and "IAM JSON policy elements"): statements
 * with Effect, Action / NotAction, Resource / NotResource, Principal / NotPrincipal and Condition
 * (policy-conditions.ts), policy variables (`${aws:PrincipalAccount}`, `${*}`, …), and the
 * decision: an explicit Deny in any policy wins; a caller of the resource's own account is allowed
 * unless denied (Overcast has no IAM: its identity policies allow everything); another account's
 * caller, or an anonymous one, needs a resource policy's Allow naming it. Denials carry AWS's
 * message naming the principal, the action and the resource.
 */
import { wildcardMatch } from '../patterns/wildcard.js';
import { conditionHolds, type ContextKeys } from './policy-conditions.js';

export type { ContextKeys } from './policy-conditions.js';

interface PolicyPrincipal {
  /** The principal policies name: the IAM user, the role of a role session, or `*` (anonymous). */
  principalArn: string;
  /** The identity acting (a role session's ARN). */
  arn: string;
  /** Its account; empty when anonymous. */
  account: string;
}

export interface PolicyRequest {
  principal: PolicyPrincipal;
  /** `service:Action`. */
  action: string;
  /** The resource's ARN. */
  resource: string;
  /** The account that owns the resource. */
  resourceAccount: string;
  /** Condition keys (lower-cased names). */
  keys: ContextKeys;
}

type Decision = 'allow' | 'explicit-deny' | 'implicit-deny';

export interface Evaluation {
  decision: Decision;
  /** Why, in the words of AWS's messages: `no resource-based policy allows the … action`, … */
  reason: string;
}

/** A statement as evaluation reads it: its lists normalized once, when its document is first seen. */
interface Statement {
  effect: unknown;
  action: string[] | undefined;
  notAction: string[] | undefined;
  resource: string[] | undefined;
  notResource: string[] | undefined;
  principal: unknown;
  notPrincipal: unknown;
  condition: unknown;
}

function list(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
}

const listOrNone = (value: unknown): string[] | undefined => (value === undefined ? undefined : list(value));

function compile(doc: unknown): Statement[] {
  const s = (doc as { Statement?: unknown })?.Statement;
  return (Array.isArray(s) ? s : s ? [s] : [])
    .filter((x): x is Record<string, unknown> => !!x && typeof x === 'object')
    .map((st) => ({
      effect: st.Effect,
      action: listOrNone(st.Action),
      notAction: listOrNone(st.NotAction),
      resource: listOrNone(st.Resource),
      notResource: listOrNone(st.NotResource),
      principal: st.Principal,
      notPrincipal: st.NotPrincipal,
      condition: st.Condition,
    }));
}

/**
 * Policy texts already parsed, by their text: every request of strict mode evaluates the stored
 * documents of its resource, and a changed policy is another text. Bounded; the least recently
 * used goes first.
 */
const parsed = new Map<string, readonly Statement[]>();
const PARSED_MAX = 256;

/** A policy document's statements; text that is no policy contributes none (documents were checked when stored). */
function statementsOf(policy: string | object | undefined): readonly Statement[] {
  if (policy === undefined) return [];
  // Documents handed over as objects (in process) are cheap to walk and may be changed by their owner: not kept.
  if (typeof policy !== 'string') return compile(policy);
  const known = parsed.get(policy);
  if (known) {
    parsed.delete(policy);
    parsed.set(policy, known);
    return known;
  }
  let statements: Statement[];
  try {
    statements = compile(JSON.parse(policy));
  } catch {
    statements = [];
  }
  if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value!);
  parsed.set(policy, statements);
  return statements;
}

/** `${aws:PrincipalAccount}` and friends from the request's keys; `${*}`, `${?}`, `${$}` are the literal characters. */
function substituter(keys: ContextKeys): (text: string) => string {
  return (text) =>
    text.includes('${')
      ? text.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
          if (name === '*' || name === '?' || name === '$') return name;
          const v = keys[name.toLowerCase()];
          return typeof v === 'string' ? v : whole;
        })
      : text;
}

function actionMatches(patterns: string[], action: string): boolean {
  return patterns.some((p) => wildcardMatch(p, action, { questionMark: true, caseInsensitive: true }));
}

function resourceMatches(patterns: string[], resource: string, substitute: (t: string) => string): boolean {
  return patterns.some((p) => wildcardMatch(substitute(p), resource, { questionMark: true }));
}

const ACCOUNT_ROOT = /^arn:[^:]+:iam::(\d{12}):root$/;

/** Whether one `Principal` entry names the caller (IAM User Guide, "AWS JSON policy elements: Principal"). */
function principalNamed(entry: unknown, who: PolicyPrincipal): boolean {
  if (entry === '*') return true;
  if (!entry || typeof entry !== 'object') return false;
  for (const [kind, values] of Object.entries(entry as Record<string, unknown>)) {
    if (kind !== 'AWS') continue;
    for (const v of list(values)) {
      if (v === '*') return true;
      if (!who.account) continue;
      const account = /^\d{12}$/.test(v) ? v : ACCOUNT_ROOT.exec(v)?.[1];
      if (account !== undefined ? account === who.account : v === who.principalArn || v === who.arn) return true;
    }
  }
  return false;
}

function statementApplies(st: Statement, req: PolicyRequest, substitute: (t: string) => string): boolean {
  if (st.principal !== undefined && !principalNamed(st.principal, req.principal)) return false;
  if (st.notPrincipal !== undefined && principalNamed(st.notPrincipal, req.principal)) return false;
  if (st.principal === undefined && st.notPrincipal === undefined) return false;
  if (st.action !== undefined ? !actionMatches(st.action, req.action) : !(st.notAction !== undefined && !actionMatches(st.notAction, req.action))) {
    return false;
  }
  if (st.resource !== undefined) {
    if (!resourceMatches(st.resource, req.resource, substitute)) return false;
  } else if (st.notResource !== undefined) {
    if (resourceMatches(st.notResource, req.resource, substitute)) return false;
  }
  return conditionHolds(st.condition, req.keys, substitute);
}

/**
 * The decision for `req` under the resource-based `policies` (a table bucket's and a table's are
 * evaluated together, as AWS concatenates them). Identity-based policies allow everything.
 */
export function evaluate(policies: readonly (string | object | undefined)[], req: PolicyRequest): Evaluation {
  const substitute = substituter(req.keys);
  let allowed = false;
  for (const policy of policies) {
    for (const st of statementsOf(policy)) {
      if (!statementApplies(st, req, substitute)) continue;
      if (st.effect === 'Deny') return { decision: 'explicit-deny', reason: `with an explicit deny in a resource-based policy` };
      if (st.effect === 'Allow') allowed = true;
    }
  }
  if (allowed) return { decision: 'allow', reason: '' };
  if (req.principal.account !== '' && req.principal.account === req.resourceAccount) return { decision: 'allow', reason: '' };
  return { decision: 'implicit-deny', reason: `because no resource-based policy allows the ${req.action} action` };
}

/** AWS's denial text: `User: <arn> is not authorized to perform: <action> on resource: "<arn>" <reason>`. */
export function denialMessage(req: PolicyRequest, evaluation: Evaluation): string {
  const who = req.principal.account ? req.principal.arn : 'anonymous';
  return `User: ${who} is not authorized to perform: ${req.action} on resource: "${req.resource}" ${evaluation.reason}`;
}

/** The global condition keys every request has (aws:PrincipalArn, aws:SecureTransport, …). */
export function globalKeys(p: PolicyPrincipal & { userId?: string; sourceIp?: string; secureTransport?: boolean }, now = Date.now()): Record<string, string | undefined> {
  const anonymous = p.account === '';
  return {
    'aws:principalarn': anonymous ? undefined : p.principalArn,
    'aws:principalaccount': anonymous ? undefined : p.account,
    'aws:principaltype': anonymous ? 'Anonymous' : /:assumed-role\//.test(p.arn) ? 'AssumedRole' : /:root$/.test(p.arn) ? 'Account' : 'User',
    'aws:userid': anonymous ? 'anonymous' : p.userId,
    'aws:sourceip': p.sourceIp,
    'aws:securetransport': p.secureTransport ? 'true' : 'false',
    'aws:currenttime': new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    'aws:epochtime': String(Math.floor(now / 1000)),
    'aws:username': /:user\/(?:.*\/)?([^/]+)$/.exec(p.principalArn)?.[1],
  };
}

/**
 * Whether a policy grants access to the public: an Allow whose principal is `*` (or `{"AWS": "*"}`)
 * not pinned by a fixed-value condition on one of the keys S3 documents for "The meaning of
 * public" (aws:PrincipalAccount, aws:PrincipalArn, aws:SourceVpc…, aws:SourceIp, …).
 */
export function isPublicPolicy(policy: string | object): boolean {
  return statementsOf(policy).some((st) => {
    if (st.effect !== 'Allow' || st.principal === undefined) return false;
    const p = st.principal;
    const wildcard = p === '*' || (!!p && typeof p === 'object' && list((p as Record<string, unknown>).AWS).includes('*'));
    if (!wildcard) return false;
    return !pinned(st.condition);
  });
}

const PINNING_KEYS = new Set([
  'aws:principalaccount', 'aws:principalarn', 'aws:principalorgid', 'aws:principalorgpaths', 'aws:sourcearn',
  'aws:sourceaccount', 'aws:sourceowner', 'aws:sourcevpc', 'aws:sourcevpce', 'aws:userid', 'aws:sourceip',
  's3:dataaccesspointarn', 's3:dataaccesspointaccount',
]);

function pinned(condition: unknown): boolean {
  if (!condition || typeof condition !== 'object') return false;
  for (const [operator, block] of Object.entries(condition as Record<string, unknown>)) {
    const op = operator.toLowerCase();
    const fixed = /^(stringequals|stringequalsignorecase|arnequals|ipaddress)$/.test(op) || ((op === 'stringlike' || op === 'arnlike'));
    if (!fixed || !block || typeof block !== 'object') continue;
    for (const [key, values] of Object.entries(block as Record<string, unknown>)) {
      if (!PINNING_KEYS.has(key.toLowerCase())) continue;
      const vals = list(values);
      if (op === 'ipaddress') {
        if (vals.every((v) => !/\/(0|[1-7])$/.test(v))) return true;
      } else if (vals.length > 0 && vals.every((v) => v !== '*' && !(op.endsWith('like') && /^[*?]+$/.test(v)))) return true;
    }
  }
  return false;
}
