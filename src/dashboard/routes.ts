/**
 * The dashboard at `/_overcast/ui`: the page and its assets, and its JSON API under
 * `/_overcast/ui/api/` — one route table of method, path pattern (`:name` segments are
 * percent-decoded, so an ARN travels as one segment) and handler. GETs read; every request that
 * changes state is a POST or DELETE with a JSON body (see http.ts). Loaded on the first dashboard
 * request, so the server's start-up never pays for it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Runtime } from '../runtime/runtime.js';
import * as admin from './admin-api.js';
import { streamEvents } from './event-stream.js';
import { contextOf, errorAnswer, jsonBody, notFound, sendJson, type DashboardRequest, type JsonAnswer } from './http.js';
import * as s3 from './s3-api.js';
import * as stacks from './stacks-api.js';
import { sendStatic } from './static-files.js';
import * as tables from './tables-api.js';

const UI_PREFIX = '/_overcast/ui';

type Handler = (r: DashboardRequest, p: string[]) => JsonAnswer | Promise<JsonAnswer> | FastifyReply | void;

interface DashboardHooks {
  reset: () => Promise<void>;
}

function routes(hooks: DashboardHooks): [string, string, Handler][] {
  return [
    ['GET', 'context', (r) => admin.context(r)],
    ['GET', 'stacks', (r) => stacks.listStacks(r)],
    ['GET', 'stacks/:s', (r, [s]) => stacks.getStack(r, s!)],
    ['DELETE', 'stacks/:s', (r, [s]) => stacks.deleteStack(r, s!)],
    ['GET', 'stacks/:s/resources', (r, [s]) => stacks.listResources(r, s!)],
    ['GET', 'stacks/:s/resources/:id', (r, [s, id]) => stacks.getResource(r, s!, id!)],
    ['GET', 'stacks/:s/events', (r, [s]) => stacks.listEvents(r, s!)],
    ['GET', 'stacks/:s/events/stream', (r, [s]) => streamEvents(r, s!)],
    ['GET', 'stacks/:s/template', (r, [s]) => stacks.getTemplate(r, s!)],
    ['GET', 'stacks/:s/graph', (r, [s]) => stacks.getGraph(r, s!)],
    ['GET', 'stacks/:s/change-sets', (r, [s]) => stacks.listChangeSets(r, s!)],
    ['GET', 'stacks/:s/change-sets/:c', (r, [s, c]) => stacks.getChangeSet(r, s!, c!)],
    ['GET', 'stacks/:s/last-update', (r, [s]) => stacks.getLastUpdate(r, s!)],
    ['GET', 'table-buckets', (r) => tables.listTableBuckets(r)],
    ['GET', 'table-buckets/:arn', (r, [a]) => tables.getTableBucket(r, a!)],
    ['GET', 'table-buckets/:arn/namespaces', (r, [a]) => tables.listNamespaces(r, a!)],
    ['GET', 'table-buckets/:arn/tables', (r, [a]) => tables.listTables(r, a!)],
    ['GET', 'tables/:arn', (r, [a]) => tables.getTable(r, a!)],
    ['GET', 'tables/:arn/preview', (r, [a]) => tables.getPreview(r, a!)],
    ['GET', 's3/buckets', (r) => s3.listBuckets(r)],
    ['GET', 's3/buckets/:b', (r, [b]) => s3.getBucket(r, b!)],
    ['GET', 's3/buckets/:b/objects', (r, [b]) => s3.listObjects(r, b!)],
    ['GET', 's3/buckets/:b/object', (r, [b]) => s3.getObject(r, b!)],
    ['DELETE', 's3/buckets/:b/object', (r, [b]) => s3.deleteObject(r, b!)],
    ['GET', 's3/buckets/:b/download', (r, [b]) => s3.download(r, b!)],
    ['GET', 'admin/clock', (r) => admin.getClock(r)],
    ['POST', 'admin/clock', (r) => admin.postClock(r)],
    ['POST', 'admin/maintenance', (r) => admin.runMaintenance(r)],
    ['POST', 'admin/reset', (r) => admin.reset(r, hooks.reset)],
  ];
}

function match(pattern: string, parts: string[]): string[] | undefined {
  const want = pattern.split('/');
  if (want.length !== parts.length) return undefined;
  const params: string[] = [];
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(':')) params.push(parts[i]!);
    else if (want[i] !== parts[i]) return undefined;
  }
  return params;
}

async function api(rt: Runtime, hooks: DashboardHooks, request: FastifyRequest, reply: FastifyReply, path: string, query: URLSearchParams): Promise<FastifyReply> {
  try {
    let parts: string[];
    try {
      parts = path.split('/').map((p) => decodeURIComponent(p));
    } catch {
      throw notFound('The path is not valid percent-encoding.');
    }
    const table = routes(hooks);
    const method = request.method;
    const candidates = table.map(([m, pattern, h]) => ({ m, h, params: match(pattern, parts) })).filter((c) => c.params);
    const found = candidates.find((c) => c.m === method);
    if (!found) {
      if (candidates.length) {
        return sendJson(reply.header('allow', candidates.map((c) => c.m).join(', ')), {
          status: 405,
          body: { code: 'MethodNotAllowed', message: `${method} is not allowed here.` },
        });
      }
      throw notFound(`No dashboard API at ${path}.`);
    }
    const body = method === 'GET' || method === 'HEAD' ? {} : await jsonBody(request);
    const r: DashboardRequest = { rt, ctx: contextOf(rt, query), method, parts, query, request, reply, body };
    const answer = await found.h(r, found.params!);
    if (answer === undefined || reply.sent || (answer as unknown) === reply) return reply;
    return sendJson(reply, answer as JsonAnswer);
  } catch (err) {
    if (reply.sent) return reply;
    return sendJson(reply, errorAnswer(err, rt));
  }
}

/** Answers everything under `/_overcast/ui`. */
export async function handleDashboard(rt: Runtime, hooks: DashboardHooks, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const url = request.raw.url ?? UI_PREFIX;
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q)).slice(UI_PREFIX.length);
  const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  if (path.startsWith('/api/')) return api(rt, hooks, request, reply, path.slice('/api/'.length), query);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return sendJson(reply.header('allow', 'GET, HEAD'), { status: 405, body: { code: 'MethodNotAllowed', message: 'The dashboard only reads here.' } });
  }
  const inm = request.headers['if-none-match'];
  if (path === '' || path === '/') return sendStatic(reply, 'index.html', inm);
  return sendStatic(reply, path.slice(1), inm);
}
