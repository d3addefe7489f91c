/**
 * The rest-xml protocol (S3): operations from method, URI template and query keys; members from
 * labels, query and headers; the payload either streamed (object bodies) or an XML document read
 * into its shape; responses with header-bound members, a streamed or XML payload, and S3's error
 * document (`<Error><Code>…<RequestId>…</Error>`, no body for HEAD). S3-specific choices (which
 * operation a copy header implies, root element names, body decoding) come in as hooks.
 *
 * restXmlCodec is long because it is the codec: a closure over the model and the hooks whose
 * methods parse, serialize and render errors.
 */
import type { Readable } from 'node:stream';
import type { ServiceModel, Shape } from '../model/service-model.js';
import { shapeOf } from '../model/service-model.js';
import type { Codec, ParsedRequest } from './codec.js';
import { AwsError } from './errors.js';
import { readBody, type WireRequest, type WireResponse } from './http.js';
import { bindRequest, boundOutput } from './rest-binding.js';
import { matchRoute, type RouteMatch } from './rest-routes.js';
import { readXml, writeMembers, writeXml } from './shape-xml.js';
import { escapeXml, parseXml, XML_DECLARATION } from './xml.js';

interface RestXmlOptions {
  /** Rewrites the request before routing (virtual-hosted style → path style). */
  normalize?: (req: WireRequest) => WireRequest;
  /** Picks among operations sharing a URI (PutObject vs CopyObject). */
  refine?: (req: WireRequest, match: RouteMatch) => RouteMatch;
  /** The body stream handed to a streaming payload member (aws-chunked decoding). */
  streamBody?: (req: WireRequest) => Readable;
  /** Root element of an output without a payload member. */
  rootElement?: (operation: string) => string | undefined;
  unknownOperation: (req: WireRequest) => AwsError;
  xmlNamespace?: string;
  /** Largest XML request body accepted. */
  maxXmlBody?: number;
  /** The error for an XML body over that size. */
  tooLarge?: () => AwsError;
}

interface RestXmlCodec extends Codec {
  /** The request after `normalize`, as the operation saw it. */
  normalize(req: WireRequest): WireRequest;
}

export function restXmlCodec(model: () => ServiceModel, options: RestXmlOptions): RestXmlCodec {
  const ns = options.xmlNamespace;
  const nsAttr = ns ? ` xmlns="${ns}"` : '';
  const normalize = options.normalize ?? ((req: WireRequest) => req);

  async function readPayload(m: ServiceModel, shape: Shape, req: WireRequest): Promise<unknown> {
    const body = await readBody(req, options.maxXmlBody ?? 2 * 1024 * 1024, options.tooLarge);
    if (body.length === 0) return undefined;
    if (shape.type === 'blob' || shape.type === 'string') return shape.type === 'string' ? body.toString('utf8') : body;
    const root = parseXml(body.toString('utf8'));
    if (!root) {
      throw new AwsError(
        'MalformedXML',
        'The XML you provided was not well-formed or did not validate against our published schema',
        400,
      );
    }
    return readXml(m, shape, root, 'MalformedXML');
  }

  return {
    normalize,

    async parse(original: WireRequest): Promise<ParsedRequest> {
      const m = model();
      const req = normalize(original);
      let match = matchRoute(m, req.method, req.rawPath, req.query, req.headers);
      if (!match) throw options.unknownOperation(req);
      if (options.refine) match = options.refine(req, match);
      const op = m.operations[match.operation]!;
      if (!op.input) return { operation: match.operation, input: {} };
      const inputShape = shapeOf(m, op.input.shape);
      const input = bindRequest(m, inputShape, req, match.labels, 'InvalidArgument');
      if (inputShape.payload) {
        const ref = inputShape.members![inputShape.payload]!;
        const payloadShape = shapeOf(m, ref.shape);
        if (payloadShape.type === 'blob' && (payloadShape.streaming || ref.streaming)) {
          input[inputShape.payload] = options.streamBody ? options.streamBody(req) : req.body;
        } else {
          const v = await readPayload(m, payloadShape, req);
          if (v !== undefined) input[inputShape.payload] = v;
        }
      }
      return { operation: match.operation, input };
    },

    serialize(operation: string, output: unknown, requestId: string): WireResponse {
      const m = model();
      const out = (output ?? {}) as Record<string, unknown>;
      const { op, outputShape, bound } = boundOutput(m, operation, out);
      const headers: Record<string, string> = { 'x-amz-request-id': requestId, 'x-amz-id-2': requestId, ...bound.headers };
      const status = bound.status ?? op.http.responseCode ?? 200;
      if (!outputShape) return { status, headers };
      if (outputShape.payload) {
        const ref = outputShape.members![outputShape.payload]!;
        const payloadShape = shapeOf(m, ref.shape);
        const value = out[outputShape.payload];
        if (value === undefined || value === null) return { status, headers };
        if (payloadShape.type === 'blob' || payloadShape.type === 'string') {
          return { status, headers, body: value as Readable | Buffer | string };
        }
        const name = ref.locationName ?? payloadShape.locationName ?? outputShape.payload;
        const xml = writeXml(m, payloadShape, value, name, ref).replace(`<${name}>`, `<${name}${nsAttr}>`);
        headers['content-type'] = 'application/xml';
        return { status, headers, body: XML_DECLARATION + xml };
      }
      const root = options.rootElement?.(operation);
      if (!root) return { status, headers };
      const inner = writeMembers(m, outputShape, out);
      headers['content-type'] = 'application/xml';
      return { status, headers, body: `${XML_DECLARATION}<${root}${nsAttr}>${inner}</${root}>` };
    },

    error(err: AwsError, requestId: string, req?: WireRequest): WireResponse {
      const headers: Record<string, string> = {
        'x-amz-request-id': requestId,
        'x-amz-id-2': requestId,
        ...err.headers,
      };
      if (req?.method === 'HEAD') return { status: err.status, headers };
      let extra = '';
      for (const [k, v] of Object.entries(err.fields)) {
        if (v !== undefined) extra += `<${k}>${escapeXml(String(v))}</${k}>`;
      }
      headers['content-type'] = 'application/xml';
      const body =
        `${XML_DECLARATION}<Error><Code>${escapeXml(err.code)}</Code><Message>${escapeXml(err.message)}</Message>` +
        `${extra}<RequestId>${requestId}</RequestId><HostId>${requestId}</HostId></Error>`;
      return { status: err.status, headers, body };
    },
  };
}
