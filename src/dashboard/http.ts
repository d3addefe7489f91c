/**
 * The dashboard's HTTP plumbing, apart from what it serves: the request context (the account and
 * region the page chose, sent as `account`/`region` query parameters so links and EventSource work
 * without headers), JSON answers, AWS errors turned into the dashboard's `{code, message}` shape,
 * page tokens passed through as the providers issue them, and the rule that every request that
 * changes state carries a JSON body — a request a browser cannot send cross-origin without a
 * preflight, which Overcast never answers.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { internalCtx, type Ctx, type Runtime } from '../runtime/runtime.js';
import { isAwsError } from '../wire/errors.js';
import { readCapped } from '../wire/http.js';
import { DEFAULT_ACCOUNT, DEFAULT_REGION } from '../wire/sigv4.js';

export interface DashboardRequest {
  rt: Runtime;
  ctx: Ctx;
  method: string;
  /** Path segments after `/_overcast/ui/api/`, percent-decoded. */
  parts: string[];
  query: URLSearchParams;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The parsed JSON body of a state-changing request ({} for GET). */
  body: Record<string, unknown>;
}

/** An answer the router sends as JSON; a handler that streams answers itself and returns `undefined`. */
export interface JsonAnswer {
  status?: number;
  body: unknown;
}

class DashboardError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new DashboardError(400, 'BadRequest', message);
export const notFound = (message: string) => new DashboardError(404, 'NotFound', message);

const ACCOUNT = /^\d{12}$/;
const REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;

/** The context the page works in: its account and region (default: the test account, us-east-1). */
export function contextOf(rt: Runtime, query: URLSearchParams): Ctx {
  const account = query.get('account') || DEFAULT_ACCOUNT;
  const region = query.get('region') || DEFAULT_REGION;
  if (!ACCOUNT.test(account)) throw badRequest(`The account must be 12 digits, not ${JSON.stringify(account)}.`);
  if (!REGION.test(region)) throw badRequest(`${JSON.stringify(region)} is not a region name such as us-east-1.`);
  return internalCtx(rt, account, region, `dashboard-${randomUUID()}`);
}

/** Reads the JSON body of a state-changing request, refusing any other content type (415). */
export async function jsonBody(request: FastifyRequest): Promise<Record<string, unknown>> {
  const type = String(request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    for await (const _ of request.raw) void _;
    throw new DashboardError(415, 'UnsupportedMediaType', 'Requests that change state must send a JSON body (Content-Type: application/json).');
  }
  const bytes = await readCapped(request.raw, 65_537);
  if (bytes.length > 65_536) throw badRequest('The body is larger than 64 KiB.');
  const text = bytes.toString('utf8');
  try {
    const v = JSON.parse(text || '{}') as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw badRequest('The body must be a JSON object.');
}

/** The status and body an error answers with: AWS errors keep their status, code and message. */
export function errorAnswer(err: unknown, rt: Runtime): JsonAnswer {
  if (err instanceof DashboardError) return { status: err.status, body: { code: err.code, message: err.message } };
  if (isAwsError(err)) return { status: err.status, body: { code: err.code, message: err.message } };
  rt.log.error('dashboard: request failed', err);
  return { status: 500, body: { code: 'InternalError', message: (err as Error)?.message ?? String(err) } };
}

export function sendJson(reply: FastifyReply, answer: JsonAnswer): FastifyReply {
  return reply
    .code(answer.status ?? 200)
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(JSON.stringify(answer.body, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
}

/** A page size from `?limit=` within [1, max] (default `fallback`). */
export function pageSize(query: URLSearchParams, fallback: number, max: number): number {
  const n = Number(query.get('limit') ?? fallback);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback;
}

/** `?next=` as given, or undefined (providers validate their own tokens). */
export function nextToken(query: URLSearchParams): string | undefined {
  return query.get('next') || undefined;
}

export const iso = (d: Date | number | undefined | null): string | undefined =>
  d === undefined || d === null ? undefined : new Date(d).toISOString();
