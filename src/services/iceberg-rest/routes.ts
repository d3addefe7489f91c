/**
 * The Iceberg REST catalog on the wire (apache/iceberg `open-api/rest-catalog-open-api.yaml`), as
 * S3 Tables serves it under `/iceberg`: routing on the raw path — the `{prefix}` is the
 * percent-encoded table bucket ARN, `%2F` included, so the path is split first and each segment
 * decoded after — JSON bodies parsed losslessly (64-bit snapshot ids), results written with their
 * status (200, or 204 without a body) and headers, and every error as Iceberg's
 * `{"error": {message, type, code}}`, which pyiceberg, the Java client and DuckDB parse.
 */
import { parseIcebergJson, stringifyIcebergJson } from '../../iceberg/json.js';
import type { Codec, ParsedRequest } from '../../wire/codec.js';
import type { AwsError } from '../../wire/errors.js';
import { decodeSegment, header, readBody, type WireRequest, type WireResponse } from '../../wire/http.js';
import type { Handler, ServiceRoutes } from '../service-routes.js';
import { authorizeCatalog } from './access.js';
import { iceErrors } from './errors.js';
import * as provider from './provider.js';
import type { RestInput, RestResult } from './provider.js';

/** The path prefix of the catalog: `/iceberg/v1/…` (the client's `uri` ends in `/iceberg`). */
const ICEBERG_BASE = '/iceberg';

type Method = 'GET' | 'POST' | 'DELETE' | 'HEAD';

interface Route {
  /** Segments after `/v1/`; `{prefix}`, `{namespace}`, `{table}`, `{view}`, `{id}` are labels. */
  path: string[];
  methods: Partial<Record<Method, keyof typeof provider | string>>;
}

const P = '{prefix}';
const NS = '{namespace}';
const T = '{table}';

// Operations outside what S3 Tables serves name themselves here and answer UnknownOperation
// (or, in the permissive mode, what the spec says) from the provider.
const ROUTES: Route[] = [
  { path: ['config'], methods: { GET: 'getConfig' } },
  { path: ['oauth', 'tokens'], methods: { POST: 'getToken' } },
  { path: [P, 'namespaces'], methods: { GET: 'listNamespaces', POST: 'createNamespace' } },
  { path: [P, 'namespaces', NS], methods: { GET: 'loadNamespace', HEAD: 'namespaceExists', DELETE: 'dropNamespace' } },
  { path: [P, 'namespaces', NS, 'properties'], methods: { POST: 'updateNamespaceProperties' } },
  { path: [P, 'namespaces', NS, 'tables'], methods: { GET: 'listTables', POST: 'createTable' } },
  { path: [P, 'namespaces', NS, 'register'], methods: { POST: 'registerTable' } },
  {
    path: [P, 'namespaces', NS, 'tables', T],
    methods: { GET: 'loadTable', HEAD: 'tableExists', POST: 'updateTable', DELETE: 'dropTable' },
  },
  { path: [P, 'namespaces', NS, 'tables', T, 'metrics'], methods: { POST: 'reportMetrics' } },
  { path: [P, 'namespaces', NS, 'tables', T, 'credentials'], methods: { GET: 'loadCredentials' } },
  { path: [P, 'namespaces', NS, 'tables', T, 'unregister'], methods: { POST: 'unregisterTable' } },
  { path: [P, 'namespaces', NS, 'tables', T, 'sign'], methods: { POST: 'signRequest' } },
  { path: [P, 'namespaces', NS, 'tables', T, 'plan'], methods: { POST: 'planTableScan' } },
  { path: [P, 'namespaces', NS, 'tables', T, 'plan', '{id}'], methods: { GET: 'fetchPlanningResult', DELETE: 'cancelPlanning' } },
  { path: [P, 'namespaces', NS, 'tables', T, 'tasks'], methods: { POST: 'fetchScanTasks' } },
  { path: [P, 'tables', 'rename'], methods: { POST: 'renameTable' } },
  { path: [P, 'transactions', 'commit'], methods: { POST: 'commitTransaction' } },
  { path: [P, 'namespaces', NS, 'views'], methods: { GET: 'listViews', POST: 'createView' } },
  { path: [P, 'namespaces', NS, 'register-view'], methods: { POST: 'registerView' } },
  {
    path: [P, 'namespaces', NS, 'views', '{view}'],
    methods: { GET: 'loadView', HEAD: 'viewExists', POST: 'replaceView', DELETE: 'dropView' },
  },
  { path: [P, 'views', 'rename'], methods: { POST: 'renameView' } },
  { path: [P, 'namespaces', NS, 'functions'], methods: { GET: 'listFunctions' } },
  { path: [P, 'namespaces', NS, 'functions', '{function}'], methods: { GET: 'loadFunction' } },
];

/** Top-level words of the spec's paths: a path starting with one has no `{prefix}`. */
const UNPREFIXED = new Set(['namespaces', 'tables', 'transactions', 'views']);

function match(segments: string[], method: string): { operation: string; labels: Record<string, string> } {
  for (const route of ROUTES) {
    if (route.path.length !== segments.length) continue;
    const labels: Record<string, string> = {};
    const ok = route.path.every((seg, i) => {
      if (seg.startsWith('{')) {
        labels[seg.slice(1, -1)] = segments[i]!;
        return true;
      }
      return seg === segments[i];
    });
    if (!ok) continue;
    const operation = route.methods[method as Method];
    if (operation) return { operation, labels };
    throw iceErrors.unknownOperation(`${method} /v1/${route.path.join('/')}`);
  }
  if (UNPREFIXED.has(segments[0] ?? '')) {
    throw iceErrors.badRequest(
      'The request has no warehouse prefix: S3 Tables catalog paths are /v1/{prefix}/…, where the prefix is the ' +
        'percent-encoded table bucket ARN that GET /v1/config?warehouse=<ARN> returns.',
    );
  }
  throw iceErrors.unknownOperation(`${method} /v1/${segments.join('/')}`);
}

/** AWS's Iceberg endpoint accepts the usual body size; metadata bodies beyond 50 MB are refused later. */
const BODY_LIMIT = 64 * 1024 * 1024;

async function parse(req: WireRequest): Promise<ParsedRequest> {
  const base = `${ICEBERG_BASE}/v1/`;
  if (!req.rawPath.startsWith(base)) throw iceErrors.unknownOperation(`${req.method} ${req.rawPath}`);
  const segments = req.rawPath.slice(base.length).split('/').map((s) => {
    const decoded = decodeSegment(s);
    if (decoded === undefined) throw iceErrors.badRequest(`Malformed percent-encoding in the request path: ${s}`);
    return decoded;
  });
  const { operation, labels } = match(segments, req.method);
  const query: Record<string, string> = {};
  for (const [k, v] of req.query) query[k] ??= v;
  let body: unknown;
  // An operation the catalog does not serve answers UnknownOperation whatever its body holds.
  if (req.method === 'POST' && operation in provider) {
    const bytes = await readBody(req, BODY_LIMIT, () => iceErrors.badRequest(`The request body exceeds ${BODY_LIMIT} bytes.`));
    if (bytes.length > 0) {
      try {
        body = parseIcebergJson(bytes.toString('utf8'));
      } catch (err) {
        throw iceErrors.badRequest(`Malformed JSON request body: ${(err as Error).message}`);
      }
    }
  }
  const input: RestInput = {
    prefix: labels.prefix,
    namespace: labels.namespace,
    table: labels.table,
    query,
    body,
    host: header(req, 'host'),
    ifNoneMatch: header(req, 'if-none-match'),
  };
  return { operation, input: input as unknown as Record<string, unknown> };
}

function serialize(_operation: string, output: unknown, requestId: string): WireResponse {
  const res = output as RestResult;
  const headers: Record<string, string> = { 'x-amzn-requestid': requestId, ...res.headers };
  if (res.body === undefined) return { status: res.status, headers };
  headers['content-type'] = 'application/json';
  return { status: res.status, headers, body: stringifyIcebergJson(res.body) };
}

function error(err: AwsError, requestId: string): WireResponse {
  const type = err.status >= 500 && err.code !== 'CommitStateUnknownException' ? 'InternalServerError' : err.code;
  return {
    status: err.status,
    headers: { 'x-amzn-requestid': requestId, 'content-type': 'application/json', ...err.headers },
    body: JSON.stringify({ error: { message: err.message, type, code: err.status } }),
  };
}

const codec: Codec = { parse, serialize, error };

const handlers: Record<string, Handler> = {};
for (const [name, fn] of Object.entries(provider)) if (typeof fn === 'function') handlers[name] = fn as Handler;
// Operations of the spec the provider does not serve: what S3 Tables answers for them.
for (const route of ROUTES) {
  for (const [method, name] of Object.entries(route.methods)) {
    handlers[name] ??= () => {
      throw iceErrors.unknownOperation(`${method} /v1/${route.path.join('/')}`);
    };
  }
}

export const routes: ServiceRoutes = { codec, handlers, internalErrorCode: 'InternalServerError', authorize: authorizeCatalog };
