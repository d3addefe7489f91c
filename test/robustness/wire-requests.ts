/**
 * Serializes an operation's input — possibly ill-typed on purpose — into the raw HTTP request its
 * protocol defines, from the model alone: rest-json and rest-xml (URI labels, query members,
 * headers, a JSON body or an XML payload), JSON-RPC (`X-Amz-Target` and a JSON body) and the
 * query protocol (form members flattened as `A.member.N.B`, maps as `entry.N.key`). Values of the
 * wrong type are written as they are (a JSON object where a string belongs, text where a number
 * belongs), `RawText` goes on the wire unencoded and `RawJson` verbatim into a JSON body.
 */
import { createHash } from 'node:crypto';
import type { MemberRef, ServiceModel, Shape } from '../../src/model/service-model.js';
import { RawJson, RawText } from './model-inputs.js';
import { authorization, type Protocol, type RawRequest } from './support.js';

const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function text(value: unknown, shape: Shape | undefined): string {
  if (value instanceof RawText) return value.text;
  if (value instanceof Date) return shape?.type === 'timestamp' ? value.toUTCString() : value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (value === null) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Text for a URI label, query key or value: RawText as is, anything else percent-encoded. */
function encoded(value: unknown, shape?: Shape, greedy = false): string {
  if (value instanceof RawText) return value.text.replace(/ /g, '%20');
  const t = text(value, shape);
  return greedy ? t.split('/').map(enc).join('/') : enc(t);
}

// ---------------------------------------------------------------------------------------------- JSON

let rawSeq = 0;

/** JSON of a body value with wire names from the model; RawJson tokens spliced in verbatim. */
export function jsonBody(model: ServiceModel, shape: Shape, value: unknown): string {
  const raws = new Map<string, string>();
  const convert = (s: Shape | undefined, v: unknown): unknown => {
    if (v instanceof RawJson) {
      const key = `\u0000raw${rawSeq++}\u0000`;
      raws.set(JSON.stringify(key), v.text);
      return key;
    }
    if (v instanceof RawText) return v.text;
    if (v instanceof Date) return v.getTime() / 1000;
    if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
    if (v === null || typeof v !== 'object' || !s) return v;
    if (Array.isArray(v)) return v.map((item) => convert(s.type === 'list' ? model.shapes[s.member!.shape] : undefined, item));
    const obj = v as Record<string, unknown>;
    if (s.type === 'structure') {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(obj)) {
        const ref = s.members?.[k];
        if (ref?.location) continue;
        out[ref?.locationName ?? k] = convert(ref ? model.shapes[ref.shape] : undefined, item);
      }
      return out;
    }
    if (s.type === 'map') {
      return Object.fromEntries(Object.entries(obj).map(([k, item]) => [k, convert(model.shapes[s.value!.shape], item)]));
    }
    return Object.fromEntries(Object.entries(obj).map(([k, item]) => [k, convert(undefined, item)]));
  };
  let out = JSON.stringify(convert(shape, value));
  for (const [placeholder, raw] of raws) out = out.split(placeholder).join(raw);
  return out;
}

// ----------------------------------------------------------------------------------------------- XML

const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function xmlValue(model: ServiceModel, shape: Shape | undefined, value: unknown, name: string, ref?: MemberRef): string {
  if (value === undefined) return '';
  if (value === null) return `<${name}/>`;
  if (value instanceof RawText || value instanceof RawJson) return `<${name}>${value.text}</${name}>`;
  if (shape?.type === 'list' && Array.isArray(value)) {
    const itemShape = model.shapes[shape.member!.shape];
    if (shape.flattened || ref?.flattened) return value.map((v) => xmlValue(model, itemShape, v, name)).join('');
    const itemName = shape.member!.locationName ?? 'member';
    return `<${name}>${value.map((v) => xmlValue(model, itemShape, v, itemName)).join('')}</${name}>`;
  }
  if (value !== null && typeof value === 'object' && !(value instanceof Date) && !(value instanceof Uint8Array)) {
    if (Array.isArray(value)) return `<${name}>${value.map((v) => xmlValue(model, undefined, v, 'member')).join('')}</${name}>`;
    let inner = '';
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const memberRef = shape?.type === 'structure' ? shape.members?.[k] : undefined;
      if (memberRef?.location) continue;
      inner += xmlValue(model, memberRef ? model.shapes[memberRef.shape] : undefined, v, memberRef?.locationName ?? k, memberRef);
    }
    return `<${name}>${inner}</${name}>`;
  }
  if (value instanceof Date) return `<${name}>${value.toISOString()}</${name}>`;
  return `<${name}>${escapeXml(text(value, shape))}</${name}>`;
}

// ------------------------------------------------------------------------------------- query (form)

/** Form pairs of a query-protocol input: `A.member.1.B=x`, `M.entry.1.key=k`, `L=` for an empty list. */
export function formPairs(model: ServiceModel, shape: Shape | undefined, value: unknown, prefix: string, out: [string, string][]): void {
  if (value === undefined) return;
  if (value instanceof RawText || value instanceof RawJson) {
    out.push([prefix, value.text]);
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) out.push([prefix, '']);
    const item = shape?.type === 'list' ? model.shapes[shape.member!.shape] : undefined;
    const name = shape?.type === 'list' ? (shape.member!.locationName ?? 'member') : 'member';
    value.forEach((v, i) => formPairs(model, item, v, `${prefix}.${name}.${i + 1}`, out));
    return;
  }
  if (value !== null && typeof value === 'object' && !(value instanceof Date) && !(value instanceof Uint8Array)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (shape?.type === 'map') {
      entries.forEach(([k, v], i) => {
        out.push([`${prefix}.entry.${i + 1}.key`, k]);
        formPairs(model, model.shapes[shape.value!.shape], v, `${prefix}.entry.${i + 1}.value`, out);
      });
      return;
    }
    for (const [k, v] of entries) {
      const ref = shape?.type === 'structure' ? shape.members?.[k] : undefined;
      const name = ref?.locationName ?? k;
      formPairs(model, ref ? model.shapes[ref.shape] : undefined, v, prefix ? `${prefix}.${name}` : name, out);
    }
    return;
  }
  out.push([prefix, value instanceof Date ? value.toISOString() : text(value, shape)]);
}

export function formBody(pairs: [string, string][]): string {
  return pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
}

// ------------------------------------------------------------------------------------------ requests

export interface Service {
  id: string;
  protocol: Protocol;
  model: ServiceModel;
}

/** The raw request of `operation` with `input` (headers may be refused by Node's client: callers catch). */
export function buildRequest(svc: Service, operation: string, input: Record<string, unknown>): RawRequest {
  const model = svc.model;
  const op = model.operations[operation]!;
  const shape = op.input ? model.shapes[op.input.shape]! : ({ type: 'structure', members: {} } as Shape);
  const headers: Record<string, string> = { authorization: authorization(svc.id) };
  if (svc.protocol === 'json') {
    headers['x-amz-target'] = `${model.metadata.targetPrefix}.${operation}`;
    headers['content-type'] = `application/x-amz-json-${model.metadata.jsonVersion ?? '1.1'}`;
    return { method: 'POST', path: '/', headers, body: jsonBody(model, shape, input) };
  }
  if (svc.protocol === 'query') {
    const pairs: [string, string][] = [['Action', operation], ['Version', model.metadata.apiVersion]];
    formPairs(model, shape, input, '', pairs);
    headers['content-type'] = 'application/x-www-form-urlencoded; charset=utf-8';
    return { method: 'POST', path: '/', headers, body: formBody(pairs) };
  }
  // rest-json / rest-xml
  const [template, literalQuery = ''] = op.http.requestUri.split('?') as [string, string?];
  const path = template.replace(/\{([^}+]+)(\+)?\}/g, (_m, label: string, greedy?: string) => {
    for (const [name, ref] of Object.entries(shape.members ?? {})) {
      if (ref.location === 'uri' && (ref.locationName ?? name) === label && input[name] !== undefined) {
        return encoded(input[name], model.shapes[ref.shape], Boolean(greedy));
      }
    }
    return '';
  });
  const query: string[] = literalQuery ? literalQuery.split('&') : [];
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    const ref = shape.members?.[name];
    if (!ref) continue;
    const memberShape = model.shapes[ref.shape];
    const wire = ref.locationName ?? name;
    if (ref.location === 'querystring') {
      if (memberShape?.type === 'map' && value && typeof value === 'object' && !(value instanceof RawText)) {
        for (const [k, v] of Object.entries(value)) query.push(`${enc(k)}=${encoded(v)}`);
      } else if (Array.isArray(value)) {
        for (const v of value) query.push(`${enc(wire)}=${encoded(v, memberShape && model.shapes[memberShape.member?.shape ?? ''])}`);
      } else query.push(`${enc(wire)}=${encoded(value, memberShape)}`);
    } else if (ref.location === 'header') {
      headers[wire.toLowerCase()] = Array.isArray(value) ? value.map((v) => text(v, undefined)).join(',') : text(value, memberShape);
    } else if (ref.location === 'headers') {
      for (const [k, v] of Object.entries((value ?? {}) as Record<string, unknown>)) headers[`${wire}${k}`.toLowerCase()] = text(v, undefined);
    } else if (!ref.location) {
      body[name] = value;
    }
  }
  const target = (path === '' ? '/' : path) + (query.length ? `?${query.join('&')}` : '');
  const req: RawRequest = { method: op.http.method, path: target, headers };
  if (svc.protocol === 'rest-json') {
    const bodyNames = Object.entries(shape.members ?? {}).filter(([, r]) => !r.location);
    if (bodyNames.length > 0) {
      headers['content-type'] = 'application/json';
      req.body = shape.payload
        ? jsonBody(model, model.shapes[shape.members![shape.payload]!.shape]!, body[shape.payload] ?? {})
        : jsonBody(model, shape, body);
    }
    return req;
  }
  if (shape.payload && body[shape.payload] !== undefined) {
    const ref = shape.members![shape.payload]!;
    const payloadShape = model.shapes[ref.shape]!;
    if (payloadShape.type === 'blob' || payloadShape.type === 'string') {
      req.body = text(body[shape.payload], payloadShape);
    } else {
      const name = ref.locationName ?? shape.payload;
      const xml = xmlValue(model, payloadShape, body[shape.payload], name, ref);
      const ns = ref.xmlNamespace?.uri;
      req.body = ns ? xml.replace(`<${name}`, `<${name} xmlns="${ns}"`) : xml;
    }
    headers['content-type'] = 'application/xml';
    // S3 insists on an integrity header for some bodies (DeleteObjects); a correct one never hurts.
    if (headers['content-md5'] === undefined) headers['content-md5'] = createHash('md5').update(req.body).digest('base64');
  }
  return req;
}
