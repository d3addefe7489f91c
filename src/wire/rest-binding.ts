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

/**
 * Binds the location-bound members of `inputShape` from the request. Returns the partial input and
 * the set of query keys consumed (for a querystring map member taking the rest).
 */
export function bindRequest(
  model: ServiceModel,
  inputShape: Shape,
  req: WireRequest,
  labels: Record<string, string>,
  invalidCode: string,
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const consumed = new Set<string>();
  let queryMap: [string, MemberRef] | undefined;
  for (const [name, ref] of Object.entries(inputShape.members ?? {})) {
    const shape = shapeOf(model, ref.shape);
    const wire = ref.locationName ?? name;
    switch (ref.location) {
      case 'uri': {
        const v = labels[wire];
        if (v !== undefined) input[name] = scalarFromText(shape, v, wire, invalidCode);
        break;
      }
      case 'querystring': {
        if (shape.type === 'map') {
          queryMap = [name, ref];
          break;
        }
        consumed.add(wire);
        const values = req.query.filter(([k]) => k === wire).map(([, v]) => v);
        if (values.length === 0) break;
        if (shape.type === 'list') {
          const member = shapeOf(model, shape.member!.shape);
          input[name] = values.map((v) => scalarFromText(member, v, wire, invalidCode));
        } else {
          input[name] = scalarFromText(shape, values[0]!, wire, invalidCode);
        }
        break;
      }
      case 'header': {
        const raw = req.headers[wire.toLowerCase()];
        if (raw === undefined) break;
        const text = Array.isArray(raw) ? raw.join(',') : raw;
        if (shape.type === 'list') {
          input[name] = text.split(',').map((s) => s.trim()).filter(Boolean);
        } else if (ref.jsonvalue || (shape as { jsonvalue?: boolean }).jsonvalue) {
          try {
            input[name] = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
          } catch {
            throw new AwsError(invalidCode, `Invalid value for header ${wire}`, 400);
          }
        } else {
          input[name] = scalarFromText(shape, text, wire, invalidCode);
        }
        break;
      }
      case 'headers': {
        const prefix = wire.toLowerCase();
        const map: Record<string, string> = {};
        for (const [h, v] of Object.entries(req.headers)) {
          if (h.startsWith(prefix) && v !== undefined) map[h.slice(prefix.length)] = Array.isArray(v) ? v.join(',') : v;
        }
        if (Object.keys(map).length > 0) input[name] = map;
        break;
      }
      default:
        break;
    }
  }
  if (queryMap) {
    const map: Record<string, string> = {};
    for (const [k, v] of req.query) if (!consumed.has(k) && !(k in map)) map[k] = v;
    if (Object.keys(map).length > 0) input[queryMap[0]] = map;
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

/** Response headers and status code from the output's location-bound members. */
export function bindResponse(
  model: ServiceModel,
  outputShape: Shape | undefined,
  output: Record<string, unknown> | undefined,
): { headers: Record<string, string>; status?: number } {
  const headers: Record<string, string> = {};
  let status: number | undefined;
  if (!outputShape || !output) return { headers };
  for (const [name, ref] of Object.entries(outputShape.members ?? {})) {
    const value = output[name];
    if (value === undefined || value === null) continue;
    const shape = shapeOf(model, ref.shape);
    if (ref.location === 'header') {
      const text = headerText(shape, ref, value);
      if (text !== undefined) headers[(ref.locationName ?? name).toLowerCase()] = text;
    } else if (ref.location === 'headers') {
      const prefix = (ref.locationName ?? name).toLowerCase();
      for (const [k, v] of Object.entries(value as Record<string, string>)) headers[`${prefix}${k.toLowerCase()}`] = v;
    } else if (ref.location === 'statusCode') {
      status = Number(value);
    }
  }
  return { headers, status };
}
