/**
 * The STS provider: who the caller is (GetCallerIdentity, also used by other services for
 * `LastModifiedUser`-style fields), and temporary credentials (AssumeRole, GetSessionToken,
 * AssumeRoleWithWebIdentity). Any role ARN can be assumed — there is no IAM behind it, as the CDK
 * needs for its bootstrap roles. Issued access key ids carry the target account
 * (`temporaryAccessKeyId`), so requests signed with them act in that account everywhere; the
 * sessions are stored so GetCallerIdentity answers with the assumed-role ARN and refuses expired
 * ones. Their secret and a hash of their token are kept too: strict mode verifies requests signed
 * with them until they expire (src/auth/credentials.ts).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type * as STS from '@aws-sdk/client-sts';
import { serviceModel } from '../../model/service-model.js';
import { validationMessage } from '../../model/validate.js';
import { perStore, type Ctx } from '../../runtime/runtime.js';
import { StsRepo, type SessionRow } from '../../store/sts-repo.js';
import { AwsError } from '../../wire/errors.js';
import { uniqueId } from './unique-id.js';
import { accountFromAccessKey, temporaryAccessKeyId } from '../../wire/sigv4.js';

const repo = perStore((meta) => new StsRepo(meta));

/** The IAM user long-term keys act as (no IAM here: one user per account). */
const DEFAULT_USER = 'overcast';
const ROLE_ARN = /^arn:(aws[a-z-]*):iam::(\d{12}):role\/(?:[\x21-\x7e]*\/)?([\w+=,.@-]{1,64})$/;
/** Sessions are kept a day past expiry so late callers get ExpiredToken rather than a stranger's identity. */
const EXPIRED_GRACE_MS = 24 * 3600 * 1000;

function validation(message: string): AwsError {
  return new AwsError('ValidationError', message, 400);
}

function validate(operation: string, input: object): void {
  const message = validationMessage(serviceModel('sts'), operation, input);
  if (message) throw validation(message);
}

interface CallerIdentity {
  Account: string;
  Arn: string;
  UserId: string;
}

function sessionOf(ctx: Ctx): SessionRow | undefined {
  return ctx.accessKeyId ? repo(ctx).get(ctx.accessKeyId) : undefined;
}

/** Who signed the request: the assumed role for issued temporary keys, else the account's user. */
export function callerIdentity(ctx: Ctx): CallerIdentity {
  const session = sessionOf(ctx);
  if (session) return { Account: session.account, Arn: session.arn, UserId: session.user_id };
  // Strict mode knows the key's principal (a credentials file may name one).
  if (ctx.caller && ctx.caller.authType !== 'anonymous') return { Account: ctx.caller.account, Arn: ctx.caller.arn, UserId: ctx.caller.userId };
  return {
    Account: ctx.account,
    Arn: `arn:${ctx.partition}:iam::${ctx.account}:user/${DEFAULT_USER}`,
    UserId: uniqueId('AIDA', `${ctx.account}/${DEFAULT_USER}`),
  };
}

export function getCallerIdentity(ctx: Ctx, _input: STS.GetCallerIdentityRequest = {}): STS.GetCallerIdentityResponse {
  const session = sessionOf(ctx);
  if (session && session.expires_at < Date.now()) {
    throw new AwsError('ExpiredToken', 'The security token included in the request is expired', 403);
  }
  return callerIdentity(ctx);
}

export function getAccessKeyInfo(ctx: Ctx, input: STS.GetAccessKeyInfoRequest): STS.GetAccessKeyInfoResponse {
  validate('GetAccessKeyInfo', input);
  const session = repo(ctx).get(input.AccessKeyId!);
  return { Account: session?.account ?? accountFromAccessKey(input.AccessKeyId) };
}

interface Issue {
  account: string;
  arn: string;
  /** The principal policies name (the role of an assumed-role session); default `arn`. */
  principalArn?: string;
  userId: string;
  kind: string;
  durationSeconds: number;
}

/** Mints credentials for `issue.account`, records the session and returns the Credentials shape. */
function issue(ctx: Ctx, spec: Issue): STS.Credentials {
  const r = repo(ctx);
  const now = Date.now();
  const expiresAt = now + spec.durationSeconds * 1000;
  r.deleteExpiredBefore(now - EXPIRED_GRACE_MS);
  for (let attempt = 0; attempt < 100; attempt++) {
    const accessKeyId = temporaryAccessKeyId(spec.account, randomBytes(4).toString('base64url'));
    const secret = randomBytes(30).toString('base64').replace(/[+/]/g, 'x');
    const token = `FwoGZXIvYXdzE${randomBytes(180).toString('base64')}`;
    const stored = r.insert({
      access_key_id: accessKeyId,
      account: spec.account,
      arn: spec.arn,
      user_id: spec.userId,
      kind: spec.kind,
      issued_at: now,
      expires_at: expiresAt,
      secret_access_key: secret,
      session_token_sha256: createHash('sha256').update(token).digest('hex'),
      principal_arn: spec.principalArn ?? spec.arn,
    });
    if (!stored) continue;
    return {
      AccessKeyId: accessKeyId,
      SecretAccessKey: secret,
      SessionToken: token,
      Expiration: new Date(Math.floor(expiresAt / 1000) * 1000),
    };
  }
  throw new AwsError('InternalFailure', 'Could not allocate a temporary access key id.', 500);
}

interface RoleRef {
  partition: string;
  account: string;
  name: string;
}

function parseRoleArn(arn: string): RoleRef {
  const m = ROLE_ARN.exec(arn);
  if (!m) throw validation('Request ARN is invalid');
  return { partition: m[1]!, account: m[2]!, name: m[3]! };
}

function checkPolicy(policy: string | undefined): number | undefined {
  if (policy === undefined) return undefined;
  try {
    const doc = JSON.parse(policy) as unknown;
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('not an object');
  } catch {
    throw new AwsError('MalformedPolicyDocument', 'Syntax errors in policy.', 400);
  }
  // AWS reports the packed size as a percentage of the allowed maximum.
  return Math.max(1, Math.ceil((policy.replace(/\s+/g, '').length * 100) / 2048));
}

function assumedRole(ctx: Ctx, role: RoleRef, roleArn: string, sessionName: string, kind: string, duration: number) {
  const roleId = uniqueId('AROA', roleArn);
  const arn = `arn:${role.partition}:sts::${role.account}:assumed-role/${role.name}/${sessionName}`;
  const credentials = issue(ctx, { account: role.account, arn, principalArn: roleArn, userId: `${roleId}:${sessionName}`, kind, durationSeconds: duration });
  return { credentials, user: { AssumedRoleId: `${roleId}:${sessionName}`, Arn: arn } };
}

export function assumeRole(ctx: Ctx, input: STS.AssumeRoleRequest): STS.AssumeRoleResponse {
  validate('AssumeRole', input);
  const role = parseRoleArn(input.RoleArn!);
  const duration = input.DurationSeconds ?? 3600;
  // Role chaining (assuming a role with role credentials) is capped at one hour by AWS.
  if (sessionOf(ctx)?.kind === 'assumed-role' && duration > 3600) {
    throw validation('The requested DurationSeconds exceeds the 1 hour session limit for roles assumed by role chaining.');
  }
  const packed = checkPolicy(input.Policy);
  const { credentials, user } = assumedRole(ctx, role, input.RoleArn!, input.RoleSessionName!, 'assumed-role', duration);
  return {
    Credentials: credentials,
    AssumedRoleUser: user,
    PackedPolicySize: packed ?? (input.Tags?.length ? 1 : undefined),
    SourceIdentity: input.SourceIdentity,
  };
}

function jwtClaims(token: string): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length !== 3) return {};
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function assumeRoleWithWebIdentity(
  ctx: Ctx,
  input: STS.AssumeRoleWithWebIdentityRequest,
): STS.AssumeRoleWithWebIdentityResponse {
  validate('AssumeRoleWithWebIdentity', input);
  const role = parseRoleArn(input.RoleArn!);
  const claims = jwtClaims(input.WebIdentityToken!);
  const exp = typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  if (exp !== undefined && exp < Date.now()) {
    throw new AwsError('ExpiredTokenException', 'Token expired: current date/time is after the token expiry.', 400);
  }
  const packed = checkPolicy(input.Policy);
  const duration = input.DurationSeconds ?? 3600;
  const { credentials, user } = assumedRole(ctx, role, input.RoleArn!, input.RoleSessionName!, 'web-identity', duration);
  const aud = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
  return {
    Credentials: credentials,
    AssumedRoleUser: user,
    SubjectFromWebIdentityToken: typeof claims.sub === 'string' ? claims.sub : randomUUID(),
    Audience: typeof aud === 'string' ? aud : 'sts.amazonaws.com',
    Provider: input.ProviderId ?? (typeof claims.iss === 'string' ? claims.iss.replace(/^https:\/\//, '') : undefined),
    PackedPolicySize: packed,
  };
}

export function getSessionToken(ctx: Ctx, input: STS.GetSessionTokenRequest = {}): STS.GetSessionTokenResponse {
  validate('GetSessionToken', input);
  if (sessionOf(ctx)) {
    throw new AwsError('AccessDenied', 'Cannot call GetSessionToken with session credentials', 403);
  }
  const me = callerIdentity(ctx);
  const credentials = issue(ctx, {
    account: me.Account,
    arn: me.Arn,
    userId: me.UserId,
    kind: 'session-token',
    durationSeconds: input.DurationSeconds ?? 43200,
  });
  return { Credentials: credentials };
}
