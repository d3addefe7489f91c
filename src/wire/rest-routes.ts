/**
 * Matches a REST request (method, raw path, query) to an operation of a rest-json or rest-xml
 * service by the `requestUri` templates of its model, e.g. `/buckets/{tableBucketARN}/encryption`
 * or S3's `/{Bucket}/{Key+}?uploads`. The raw path is split on `/` first and each label decoded
 * afterwards, because S3 Tables ARNs travel with `%2F` inside one segment. Operations sharing a
 * URI are told apart by the query keys and headers their input requires (UploadPart needs
 * `partNumber` and `uploadId`, CopyObject `x-amz-copy-source`); among eligible routes the most
 * specific wins. Deprecated operations are never chosen.
 */
import type { ServiceModel } from '../model/service-model.js';
import { decodeSegment } from './http.js';
import type { IncomingHttpHeaders } from 'node:http';

type Segment = { kind: 'literal'; text: string } | { kind: 'label'; name: string } | { kind: 'greedy'; name: string };

interface Route {
  operation: string;
  method: string;
  segments: Segment[];
  query: { key: string; value?: string }[];
  /** Query keys and headers the input shape requires: a route missing one is not eligible. */
  requiredQuery: string[];
  requiredHeaders: string[];
  score: number;
}

export interface RouteMatch {
  operation: string;
  labels: Record<string, string>;
}

interface MethodRoutes {
  all: Route[];
  /** Routes a request without query parameters can match (no query literal, no required key). */
  plain: Route[];
}

const compiledRoutes = new WeakMap<ServiceModel, Map<string, MethodRoutes>>();

function compile(model: ServiceModel): Map<string, MethodRoutes> {
  const byMethod = new Map<string, Route[]>();
  for (const [name, op] of Object.entries(model.operations)) {
    if ((op as { deprecated?: boolean }).deprecated) continue;
    const [pathPart, queryPart = ''] = op.http.requestUri.split('?') as [string, string?];
    const segments: Segment[] = pathPart
      .split('/')
      .filter((s) => s !== '')
      .map((s): Segment => {
        const m = /^\{([^}+]+)(\+)?\}$/.exec(s);
        if (!m) return { kind: 'literal', text: s };
        return m[2] ? { kind: 'greedy', name: m[1]! } : { kind: 'label', name: m[1]! };
      });
    const query = queryPart
      .split('&')
      .filter(Boolean)
      .map((q) => {
        const eq = q.indexOf('=');
        return eq < 0 ? { key: q } : { key: q.slice(0, eq), value: q.slice(eq + 1) };
      });
    const literals = segments.filter((s) => s.kind === 'literal').length;
    const requiredQuery: string[] = [];
    const requiredHeaders: string[] = [];
    const input = op.input ? model.shapes[op.input.shape] : undefined;
    for (const member of input?.required ?? []) {
      const ref = input!.members![member]!;
      if (ref.location === 'querystring') requiredQuery.push(ref.locationName ?? member);
      if (ref.location === 'header') requiredHeaders.push((ref.locationName ?? member).toLowerCase());
    }
    const route: Route = {
      operation: name,
      method: op.http.method,
      segments,
      query,
      requiredQuery,
      requiredHeaders,
      score:
        query.length * 1000 + (requiredQuery.length + requiredHeaders.length) * 100 + literals * 10 + segments.length,
    };
    const list = byMethod.get(route.method) ?? [];
    list.push(route);
    byMethod.set(route.method, list);
  }
  const compiled = new Map<string, MethodRoutes>();
  for (const [method, list] of byMethod) {
    list.sort((a, b) => b.score - a.score); // stable: ties keep model order
    compiled.set(method, { all: list, plain: list.filter((r) => r.query.length === 0 && r.requiredQuery.length === 0) });
  }
  return compiled;
}

/**
 * Whether `parts` has the route's shape: its literals in place and a non-empty part for every label.
 * Checked before any label is decoded: an S3 Tables ARN would otherwise be decoded once for every
 * `/buckets/{tableBucketARN}/…` route tried before `/buckets/{tableBucketARN}`.
 */
function shapeMatches(route: Route, parts: string[]): boolean {
  const segments = route.segments;
  let i = 0;
  for (; i < segments.length; i++) {
    const seg = segments[i]!;
    if (seg.kind === 'greedy') {
      const rest = parts.length - i;
      return rest > 1 || (rest === 1 && parts[i] !== '');
    }
    const part = parts[i];
    if (part === undefined || part === '') return false;
    if (seg.kind === 'literal' && part !== seg.text) return false;
  }
  // A single trailing slash is tolerated (`/bucket/?list-type=2`).
  return i === parts.length || (i === parts.length - 1 && parts[i] === '');
}

/** The decoded labels of a route whose shape matches `parts`; undefined when one is malformed. */
function decodeLabels(route: Route, parts: string[]): Record<string, string> | undefined {
  const labels: Record<string, string> = {};
  const segments = route.segments;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if (seg.kind === 'literal') continue;
    if (seg.kind === 'greedy') {
      const decoded = parts.slice(i).map(decodeSegment);
      if (decoded.some((d) => d === undefined)) return undefined;
      labels[seg.name] = decoded.join('/');
      return labels;
    }
    const decoded = decodeSegment(parts[i]!);
    if (decoded === undefined) return undefined;
    labels[seg.name] = decoded;
  }
  return labels;
}

function matchSegments(route: Route, parts: string[]): Record<string, string> | undefined {
  return shapeMatches(route, parts) ? decodeLabels(route, parts) : undefined;
}

/** Splits a raw path into its segments: `/a/b%2Fc` → `['a', 'b%2Fc']`; `/` → `[]`. */
export function splitRawPath(rawPath: string): string[] {
  const trimmed = rawPath.startsWith('/') ? rawPath.slice(1) : rawPath;
  return trimmed === '' ? [] : trimmed.split('/');
}

/** The first value of query key `key`, or undefined (queries are a handful of keys: a scan beats a Map). */
function firstValue(query: [string, string][], key: string): string | undefined {
  for (let i = 0; i < query.length; i++) if (query[i]![0] === key) return query[i]![1];
  return undefined;
}

/** Whether `route`'s query literals, required query keys and required headers are all present. */
function eligible(route: Route, query: [string, string][], headers: IncomingHttpHeaders): boolean {
  for (const q of route.query) {
    const v = firstValue(query, q.key);
    if (v === undefined || (q.value !== undefined && v !== q.value)) return false;
  }
  for (const k of route.requiredQuery) if (firstValue(query, k) === undefined) return false;
  for (const h of route.requiredHeaders) if (headers[h] === undefined) return false;
  return true;
}

export function matchRoute(
  model: ServiceModel,
  method: string,
  rawPath: string,
  query: [string, string][],
  headers: IncomingHttpHeaders = {},
): RouteMatch | undefined {
  let byMethod = compiledRoutes.get(model);
  if (!byMethod) {
    byMethod = compile(model);
    compiledRoutes.set(model, byMethod);
  }
  const compiled = byMethod.get(method);
  if (!compiled) return undefined;
  const parts = splitRawPath(rawPath);
  const routes = query.length === 0 ? compiled.plain : compiled.all;
  for (const route of routes) {
    if (!eligible(route, query, headers)) continue;
    const labels = matchSegments(route, parts);
    if (labels) return { operation: route.operation, labels };
  }
  return undefined;
}
