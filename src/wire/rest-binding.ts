/**
 * The HTTP bindings shared by the rest-json and rest-xml protocols: members bound to path labels,
 * query parameters, headers (and S3's `x-amz-meta-` header maps) on the way in, and to headers and
 * the status code on the way out. Body members are left to the protocol's own codec.
 */
import type { MemberRef, ServiceModel, Shape } from '../model/service-model.js';
import { shapeOf } from '../model/service-model.js';
import { AwsError } from './errors.js';
import type { WireRequest } from './http.js';
import { formatTimestamp, parseTimestamp } from './timestamps.js';

function scalarFromText(shape: Shape, text: string, name: string, invalidCode: string): unknown {
  switch (shape.type) {
    case 'integer':
    case 'long': {
      if (!/^-?\d+$/.test(text.trim())) {
        throw new AwsError(invalidCode, `Invalid value '${text}' for ${name}: expected an integer`, 400);
      }
      return Number(text);
    }
    case 'float':
    case 'double': {
      const n = Number(text);
      if (text.trim() === '' || Number.isNaN(n)) {
        throw new AwsError(invalidCode, `Invalid value '${text}' for ${name}: expected a number`, 400);
      }
      return n;
    }
    case 'boolean':
      if (text === 'true' || text === 'false') return text === 'true';
      if (/^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
      throw new AwsError(invalidCode, `Invalid value '${text}' for ${name}: expected a boolean`, 400);
    case 'timestamp': {
      const d = parseTimestamp(text);
      if (!d) throw new AwsError(invalidCode, `Invalid value '${text}' for ${name}: expected a timestamp`, 400);
      return d;
    }
    default:
      return text;
  }
}

interface MemberBinding {
  name: string;
  /** Wire name: label, query key, lower-cased header name or header prefix. */
  wire: string;
  shape: Shape;
  ref: MemberRef;
}

/** The location-bound members of an input shape, grouped by location (computed once per shape). */
interface RequestPlan {
  uri: MemberBinding[];
  /** Query members by query key (a querystring map member is kept apart). */
  query: Map<string, MemberBinding>;
  queryMap?: MemberBinding;
  headers: MemberBinding[];
  prefixes: MemberBinding[];
}

const requestPlans = new WeakMap<Shape, RequestPlan>();

function requestPlan(model: ServiceModel, inputShape: Shape): RequestPlan {
  let plan = requestPlans.get(inputShape);
  if (plan) return plan;
  plan = { uri: [], query: new Map(), headers: [], prefixes: [] };
  for (const [name, ref] of Object.entries(inputShape.members ?? {})) {
    const shape = shapeOf(model, ref.shape);
    const wire = ref.locationName ?? name;
    const b: MemberBinding = { name, wire, shape, ref };
    switch (ref.location) {
      case 'uri':
        plan.uri.push(b);
        break;
      case 'querystring':
        if (shape.type === 'map') plan.queryMap = b;
        else plan.query.set(wire, b);
        break;
      case 'header':
        plan.headers.push({ ...b, wire: wire.toLowerCase() });
        break;
      case 'headers':
        plan.prefixes.push({ ...b, wire: wire.toLowerCase() });
        break;
      default:
        break;
    }
  }
  requestPlans.set(inputShape, plan);
  return plan;
}

/**
 * Binds the location-bound members of `inputShape` from the request: labels, query parameters
 * (a querystring map member takes the keys no other member consumed), headers and header-prefix
 * maps. The per-shape plan is compiled once, so a request costs its own headers and query keys.
 */
export function bindRequest(
  model: ServiceModel,
  inputShape: Shape,
  req: WireRequest,
  labels: Record<string, string>,
  invalidCode: string,
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const plan = requestPlan(model, inputShape);
  for (const b of plan.uri) {
    const v = labels[b.wire];
    if (v !== undefined) input[b.name] = scalarFromText(b.shape, v, b.wire, invalidCode);
  }
  if (req.query.length > 0) {
    let lists: Map<MemberBinding, string[]> | undefined;
    for (const [k, v] of req.query) {
      const b = plan.query.get(k);
      if (!b) continue;
      if (b.shape.type === 'list') {
        lists ??= new Map();
        const values = lists.get(b) ?? [];
        values.push(v);
        lists.set(b, values);
      } else if (!(b.name in input)) {
        input[b.name] = scalarFromText(b.shape, v, b.wire, invalidCode);
      }
    }
    if (lists) {
      for (const [b, values] of lists) {
        const member = shapeOf(model, b.shape.member!.shape);
        input[b.name] = values.map((v) => scalarFromText(member, v, b.wire, invalidCode));
      }
    }
    if (plan.queryMap) {
      const map: Record<string, string> = {};
      for (const [k, v] of req.query) if (!plan.query.has(k) && !(k in map)) map[k] = v;
      if (Object.keys(map).length > 0) input[plan.queryMap.name] = map;
    }
  }
  for (const b of plan.headers) {
    const raw = req.headers[b.wire];
    if (raw === undefined) continue;
    const text = Array.isArray(raw) ? raw.join(',') : raw;
    if (b.shape.type === 'list') {
      input[b.name] = text.split(',').map((s) => s.trim()).filter(Boolean);
    } else if (b.ref.jsonvalue || (b.shape as { jsonvalue?: boolean }).jsonvalue) {
      try {
        input[b.name] = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
      } catch {
        throw new AwsError(invalidCode, `Invalid value for header ${b.ref.locationName ?? b.name}`, 400);
      }
    } else {
      input[b.name] = scalarFromText(b.shape, text, b.ref.locationName ?? b.name, invalidCode);
    }
  }
  for (const b of plan.prefixes) {
    const map: Record<string, string> = {};
    let any = false;
    for (const h in req.headers) {
      if (!h.startsWith(b.wire)) continue;
      const v = req.headers[h];
      if (v === undefined) continue;
      map[h.slice(b.wire.length)] = Array.isArray(v) ? v.join(',') : v;
      any = true;
    }
    if (any) input[b.name] = map;
  }
  return input;
}

function headerText(shape: Shape, ref: MemberRef, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (shape.type === 'timestamp') {
    const d = value instanceof Date ? value : parseTimestamp(value);
    return d ? String(formatTimestamp(d, ref.timestampFormat ?? shape.timestampFormat ?? 'rfc822')) : undefined;
  }
  if (shape.type === 'list') return (value as unknown[]).map(String).join(',');
  if (ref.jsonvalue) return Buffer.from(JSON.stringify(value)).toString('base64');
  return String(value);
}

interface ResponseBinding {
  kind: 'header' | 'headers' | 'statusCode';
  /** Lower-cased header name or prefix. */
  wire: string;
  shape: Shape;
  ref: MemberRef;
}

const responsePlans = new WeakMap<Shape, Map<string, ResponseBinding>>();

function responsePlan(model: ServiceModel, outputShape: Shape): Map<string, ResponseBinding> {
  let plan = responsePlans.get(outputShape);
  if (plan) return plan;
  plan = new Map();
  for (const [name, ref] of Object.entries(outputShape.members ?? {})) {
    if (ref.location !== 'header' && ref.location !== 'headers' && ref.location !== 'statusCode') continue;
    plan.set(name, { kind: ref.location, wire: (ref.locationName ?? name).toLowerCase(), shape: shapeOf(model, ref.shape), ref });
  }
  responsePlans.set(outputShape, plan);
  return plan;
}

/**
 * Response headers and status code from the output's location-bound members. Walks the output's
 * own keys against a per-shape plan, so an answer costs the members it carries.
 */
function bindResponse(
  model: ServiceModel,
  outputShape: Shape | undefined,
  output: Record<string, unknown> | undefined,
): { headers: Record<string, string>; status?: number } {
  const headers: Record<string, string> = {};
  let status: number | undefined;
  if (!outputShape || !output) return { headers };
  const plan = responsePlan(model, outputShape);
  if (plan.size === 0) return { headers };
  for (const name in output) {
    const b = plan.get(name);
    if (!b) continue;
    const value = output[name];
    if (value === undefined || value === null) continue;
    if (b.kind === 'header') {
      const text = headerText(b.shape, b.ref, value);
      if (text !== undefined) headers[b.wire] = text;
    } else if (b.kind === 'headers') {
      for (const [k, v] of Object.entries(value as Record<string, string>)) headers[`${b.wire}${k.toLowerCase()}`] = v;
    } else {
      status = Number(value);
    }
  }
  return { headers, status };
}

/** An operation's output shape and what its output binds to the status and headers. */
export function boundOutput(m: ServiceModel, operation: string, output: Record<string, unknown> | undefined) {
  const op = m.operations[operation]!;
  const outputShape = op.output ? shapeOf(m, op.output.shape) : undefined;
  return { op, outputShape, bound: bindResponse(m, outputShape, output) };
}
