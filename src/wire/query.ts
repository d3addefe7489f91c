/**
 * The query protocol (CloudFormation, STS): form-encoded `Action=…&Version=…` requests whose members
 * arrive flattened (`Parameters.member.1.ParameterKey`, `Tags.member.N`, maps as `entry.N.key`, an
 * empty list as a bare `Parameters=`); XML responses wrapped in `<XResponse><XResult>` with the
 * request id in `<ResponseMetadata>`, and errors as `<ErrorResponse><Error>` with Type, Code and
 * Message. Unknown members are ignored, as AWS does.
 */
import type { MemberRef, ServiceModel, Shape } from '../model/service-model.js';
import { shapeOf } from '../model/service-model.js';
import type { Codec, ParsedRequest } from './codec.js';
import { AwsError } from './errors.js';
import { bodyTooLarge, DEFAULT_BODY_LIMIT, header, parseQuery, readBody, type WireRequest, type WireResponse } from './http.js';
import { writeMembers } from './shape-xml.js';
import { parseTimestamp } from './timestamps.js';
import { escapeXml } from './xml.js';

/** A tree of the dotted form keys: `A.member.1.B=x` → {A: {member: {1: {B: 'x'}}}}. */
interface FormTree {
  value?: string;
  children: Map<string, FormTree>;
}

function buildTree(params: [string, string][]): FormTree {
  const root: FormTree = { children: new Map() };
  for (const [key, value] of params) {
    let node = root;
    for (const part of key.split('.')) {
      let next = node.children.get(part);
      if (!next) {
        next = { children: new Map() };
        node.children.set(part, next);
      }
      node = next;
    }
    node.value = value;
  }
  return root;
}

function indexed(node: FormTree): FormTree[] {
  return [...node.children.entries()]
    .filter(([k]) => /^\d+$/.test(k))
    .sort((a, b) => Number(a[0]) - Number(b[0]))
    .map(([, v]) => v);
}

function readForm(model: ServiceModel, shape: Shape, node: FormTree, path: string, ref?: MemberRef): unknown {
  switch (shape.type) {
    case 'structure': {
      const out: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(shape.members ?? {})) {
        const childNode = node.children.get(member.locationName ?? name);
        if (!childNode) continue;
        const v = readForm(model, shapeOf(model, member.shape), childNode, `${path}${name}.`, member);
        if (v !== undefined) out[name] = v;
      }
      return out;
    }
    case 'list': {
      if (node.value === '' && node.children.size === 0) return [];
      const memberShape = shapeOf(model, shape.member!.shape);
      const flattened = shape.flattened || ref?.flattened;
      const container = flattened ? node : node.children.get(shape.member!.locationName ?? 'member');
      if (!container) return node.value === '' ? [] : undefined;
      return indexed(container).map((item) => readForm(model, memberShape, item, path, shape.member));
    }
    case 'map': {
      if (node.value === '' && node.children.size === 0) return {};
      const flattened = shape.flattened || ref?.flattened;
      const container = flattened ? node : node.children.get('entry');
      if (!container) return undefined;
      const keyName = shape.key!.locationName ?? 'key';
      const valueName = shape.value!.locationName ?? 'value';
      const valueShape = shapeOf(model, shape.value!.shape);
      const out: Record<string, unknown> = {};
      for (const entry of indexed(container)) {
        const k = entry.children.get(keyName)?.value;
        const v = entry.children.get(valueName);
        if (k !== undefined && v) out[k] = readForm(model, valueShape, v, path, shape.value);
      }
      return out;
    }
    default: {
      const text = node.value;
      if (text === undefined) return undefined;
      return scalar(shape, text, path.slice(0, -1));
    }
  }
}

function scalar(shape: Shape, text: string, path: string): unknown {
  switch (shape.type) {
    case 'integer':
    case 'long':
    case 'float':
    case 'double': {
      const n = Number(text);
      if (text.trim() === '' || Number.isNaN(n)) {
        throw new AwsError('ValidationError', `Value '${text}' at '${path}' failed to satisfy constraint: Member must be a number`, 400);
      }
      if ((shape.type === 'integer' || shape.type === 'long') && !Number.isInteger(n)) {
        throw new AwsError('ValidationError', `Value '${text}' at '${path}' failed to satisfy constraint: Member must be an integer`, 400);
      }
      return n;
    }
    case 'boolean':
      return text.toLowerCase() === 'true';
    case 'timestamp': {
      const d = parseTimestamp(text);
      if (!d) throw new AwsError('ValidationError', `Value '${text}' at '${path}' is not a valid timestamp`, 400);
      return d;
    }
    case 'blob':
      return Buffer.from(text, 'base64');
    default:
      return text;
  }
}

interface QueryOptions {
  /** Code used when the form names an unknown action. */
  invalidActionCode?: string;
}

export function queryCodec(model: () => ServiceModel, _options: QueryOptions = {}): Codec {
  return {
    async parse(req: WireRequest): Promise<ParsedRequest> {
      const m = model();
      let params = req.query;
      const contentType = header(req, 'content-type') ?? '';
      if (req.method === 'POST') {
        const body = (await readBody(req, DEFAULT_BODY_LIMIT, () => bodyTooLarge('ValidationError', DEFAULT_BODY_LIMIT))).toString('utf8');
        if (body && (contentType === '' || contentType.includes('x-www-form-urlencoded') || !body.startsWith('{'))) {
          params = [...params, ...parseQuery(body)];
        }
      }
      const action = params.find(([k]) => k === 'Action')?.[1];
      if (!action) throw new AwsError('MissingAction', 'Missing Action', 400);
      const op = m.operations[action];
      if (!op) {
        const version = params.find(([k]) => k === 'Version')?.[1] ?? m.metadata.apiVersion;
        throw new AwsError('InvalidAction', `Could not find operation ${action} for version ${version}`, 400);
      }
      if (!op.input) return { operation: action, input: {} };
      const tree = buildTree(params.filter(([k]) => k !== 'Action' && k !== 'Version'));
      const input = readForm(m, shapeOf(m, op.input.shape), tree, '') as Record<string, unknown>;
      return { operation: action, input };
    },

    serialize(operation: string, output: unknown, requestId: string): WireResponse {
      const m = model();
      const op = m.operations[operation]!;
      const ns = m.metadata.xmlNamespace ?? '';
      let result = '';
      if (op.output) {
        const inner = writeMembers(m, shapeOf(m, op.output.shape), (output ?? {}) as Record<string, unknown>);
        const wrapper = op.output.resultWrapper ?? `${operation}Result`;
        result = inner === '' ? `<${wrapper}/>` : `<${wrapper}>${inner}</${wrapper}>`;
      }
      const body =
        `<${operation}Response xmlns="${ns}">${result}` +
        `<ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></${operation}Response>`;
      return {
        status: 200,
        headers: { 'x-amzn-requestid': requestId, 'content-type': 'text/xml' },
        body,
      };
    },

    error(err: AwsError, requestId: string): WireResponse {
      const ns = model().metadata.xmlNamespace ?? '';
      const type = err.fault === 'server' ? 'Receiver' : 'Sender';
      const body =
        `<ErrorResponse xmlns="${ns}"><Error><Type>${type}</Type><Code>${escapeXml(err.code)}</Code>` +
        `<Message>${escapeXml(err.message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`;
      return {
        status: err.status,
        headers: { 'x-amzn-requestid': requestId, 'content-type': 'text/xml', ...err.headers },
        body,
      };
    },
  };
}
