/**
 * Resource policy grammar for table bucket and table policies: the document must be a JSON object
 * in IAM policy grammar (a known Version, a non-empty Statement list of objects each with an
 * Effect of Allow or Deny, a principal, an action and a resource element). Overcast stores the
 * policy and returns it verbatim (strict mode evaluates it, access.ts). Texts follow S3's
 * MalformedPolicy messages ("Policies must be valid JSON and the first byte must be '{'",
 * "Invalid effect: X"). In strict mode a policy granting the public is refused, as AWS refuses it
 * ("Public access policies are not supported", S3 User Guide, S3 Tables restrictions); the code is
 * undocumented, so it is the service's AccessDeniedException.
 */
import { isPublicPolicy } from '../../auth/policy.js';
import type { Ctx } from '../../runtime/runtime.js';
import { AwsError } from '../../wire/errors.js';
import { s3tErrors } from './errors.js';

/** In strict mode, refuses a (well-formed) policy that grants access to the public. */
export function refusePublicPolicy(ctx: Ctx, text: string): void {
  if (ctx.rt.config.auth !== 'strict' || !isPublicPolicy(text)) return;
  throw new AwsError('AccessDeniedException', 'Public access policies are not supported for S3 Tables; name the principals the policy grants.', 403);
}

const VERSIONS = new Set(['2012-10-17', '2008-10-17']);
const TOP_LEVEL = new Set(['Version', 'Id', 'Statement']);
const STATEMENT_KEYS = new Set([
  'Sid',
  'Effect',
  'Principal',
  'NotPrincipal',
  'Action',
  'NotAction',
  'Resource',
  'NotResource',
  'Condition',
]);

function malformed(message: string) {
  return s3tErrors.badRequest(`Malformed policy: ${message}`);
}

function isStringOrStrings(v: unknown): boolean {
  return typeof v === 'string' || (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string'));
}

function checkPrincipal(p: unknown): void {
  if (p === '*') return;
  if (!p || typeof p !== 'object' || Array.isArray(p)) throw malformed('Invalid principal in policy');
  const entries = Object.entries(p as Record<string, unknown>);
  if (entries.length === 0) throw malformed('Invalid principal in policy');
  for (const [kind, value] of entries) {
    if (!['AWS', 'Service', 'Federated', 'CanonicalUser'].includes(kind) || !isStringOrStrings(value)) {
      throw malformed('Invalid principal in policy');
    }
  }
}

/** Throws BadRequestException unless `text` is a policy document in IAM grammar. */
export function checkPolicyDocument(text: string): void {
  let doc: unknown;
  if (!text.trimStart().startsWith('{')) throw malformed("Policies must be valid JSON and the first byte must be '{'");
  try {
    doc = JSON.parse(text);
  } catch {
    throw malformed("Policies must be valid JSON and the first byte must be '{'");
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    throw malformed("Policies must be valid JSON and the first byte must be '{'");
  }
  const policy = doc as Record<string, unknown>;
  for (const key of Object.keys(policy)) if (!TOP_LEVEL.has(key)) throw malformed(`Unknown field ${key}`);
  if (policy.Version !== undefined && !(typeof policy.Version === 'string' && VERSIONS.has(policy.Version))) {
    throw malformed(`Invalid policy version: ${JSON.stringify(policy.Version)}`);
  }
  if (policy.Statement === undefined) throw malformed('Missing required field Statement');
  const statements = Array.isArray(policy.Statement) ? policy.Statement : [policy.Statement];
  if (statements.length === 0) throw malformed('Could not parse the policy: Statement is empty!');
  for (const st of statements) {
    if (!st || typeof st !== 'object' || Array.isArray(st)) throw malformed('Each statement must be a JSON object');
    const s = st as Record<string, unknown>;
    for (const key of Object.keys(s)) if (!STATEMENT_KEYS.has(key)) throw malformed(`Unknown field ${key}`);
    if (s.Effect === undefined) throw malformed('Missing required field Effect');
    if (s.Effect !== 'Allow' && s.Effect !== 'Deny') throw malformed(`Invalid effect: ${String(s.Effect)}`);
    if (s.Principal === undefined && s.NotPrincipal === undefined) throw malformed('Missing required field Principal');
    if (s.Principal !== undefined && s.NotPrincipal !== undefined) {
      throw malformed('A statement cannot have both Principal and NotPrincipal');
    }
    checkPrincipal(s.Principal ?? s.NotPrincipal);
    if (s.Action === undefined && s.NotAction === undefined) throw malformed('Missing required field Action');
    if (!isStringOrStrings(s.Action ?? s.NotAction)) throw malformed('Policy has invalid action');
    if (s.Resource === undefined && s.NotResource === undefined) throw malformed('Missing required field Resource');
    if (!isStringOrStrings(s.Resource ?? s.NotResource)) throw malformed('Policy has invalid resource');
    if (s.Condition !== undefined && (typeof s.Condition !== 'object' || s.Condition === null || Array.isArray(s.Condition))) {
      throw malformed('Policy has an invalid condition');
    }
  }
}
