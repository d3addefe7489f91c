/**
 * CORS as S3 applies a bucket's rules: the preflight `OPTIONS` answer (200 with the matching
 * rule's Access-Control-* headers, or 400/403 with AWS's CORSResponse errors) and the headers
 * added to an actual request that carries `Origin`. A rule matches when the origin matches one
 * AllowedOrigin (one `*` wildcard allowed), the method is allowed and, on preflight, every
 * requested header matches an AllowedHeader.
 */
import type * as S3 from '@aws-sdk/client-s3';
import type { Ctx } from '../../runtime/runtime.js';
import { AwsError } from '../../wire/errors.js';
import { corsRules } from './bucket-config.js';
import { repo } from './common.js';
import { wildcardMatch } from '../../patterns/wildcard.js';

interface PreflightInput {
  Bucket?: string;
  Origin?: string;
  RequestMethod?: string;
  RequestHeaders?: string;
}

/** S3's CORS wildcards, case-insensitive; matched linearly (a regex of `*a*a*…` backtracks for minutes). */
function glob(pattern: string, value: string): boolean {
  return pattern === '*' || wildcardMatch(pattern, value, { caseInsensitive: true });
}

function matchRule(rules: S3.CORSRule[], origin: string, method: string, requestHeaders?: string): S3.CORSRule | undefined {
  const wanted = requestHeaders
    ? requestHeaders
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean)
    : [];
  return rules.find((rule) => {
    if (!rule.AllowedMethods?.includes(method)) return false;
    if (!rule.AllowedOrigins?.some((o) => glob(o, origin))) return false;
    return wanted.every((h) => rule.AllowedHeaders?.some((a) => glob(a, h)));
  });
}

function ruleHeaders(rule: S3.CORSRule, origin: string): Record<string, string> {
  const wildcard = rule.AllowedOrigins?.includes('*') ?? false;
  const headers: Record<string, string> = {
    'access-control-allow-origin': wildcard ? '*' : origin,
    'access-control-allow-methods': (rule.AllowedMethods ?? []).join(', '),
    vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
  };
  if (!wildcard) headers['access-control-allow-credentials'] = 'true';
  if (rule.ExposeHeaders?.length) headers['access-control-expose-headers'] = rule.ExposeHeaders.join(', ');
  if (rule.MaxAgeSeconds !== undefined) headers['access-control-max-age'] = String(rule.MaxAgeSeconds);
  return headers;
}

function forbidden(message: string, method: string | undefined, resource: string): AwsError {
  return new AwsError('AccessForbidden', `CORSResponse: ${message}`, 403, {
    fields: { Method: method ?? 'OPTIONS', ResourceType: resource },
  });
}

/** The answer to a preflight OPTIONS request: its headers, or AWS's error. */
export function preflightCors(ctx: Ctx, input: PreflightInput): { headers: Record<string, string> } {
  if (!input.Origin) throw new AwsError('BadRequest', 'Insufficient information. Origin request header needed.', 400);
  if (!input.RequestMethod) {
    throw new AwsError('BadRequest', 'Invalid Access-Control-Request-Method: null', 400);
  }
  if (!input.Bucket || !repo(ctx).getBucket(input.Bucket)) throw forbidden('Bucket not found', input.RequestMethod, 'BUCKET');
  const rules = corsRules(ctx, input.Bucket);
  if (!rules) throw forbidden('CORS is not enabled for this bucket.', input.RequestMethod, 'BUCKET');
  const rule = matchRule(rules, input.Origin, input.RequestMethod, input.RequestHeaders);
  if (!rule) {
    throw forbidden(
      "This CORS request is not allowed. This is usually because the evalution of Origin, request method / Access-Control-Request-Method or Access-Control-Request-Headers are not whitelisted by the resource's CORS spec.",
      input.RequestMethod,
      'OBJECT',
    );
  }
  const headers = ruleHeaders(rule, input.Origin);
  if (input.RequestHeaders) {
    headers['access-control-allow-headers'] = input.RequestHeaders.split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean)
      .join(', ');
  }
  return { headers };
}

/** CORS headers for an actual request from `origin` to `bucket`, if a rule allows it. */
export function corsResponseHeaders(ctx: Ctx, bucket: string, origin: string, method: string): Record<string, string> | undefined {
  const rules = corsRules(ctx, bucket);
  if (!rules) return undefined;
  const rule = matchRule(rules, origin, method);
  return rule ? ruleHeaders(rule, origin) : undefined;
}
