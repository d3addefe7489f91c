/**
 * The rest-json protocol (S3 Tables): the operation comes from the method and URI template, members
 * from labels, query, headers and a JSON body (a blob payload, Lambda's Invoke, as raw bytes);
 * responses carry the operation's status code, JSON without absent members, and errors as
 * `x-amzn-ErrorType` plus `{"message": …}` (or the service's own error body).
 */
import type { ServiceModel } from '../model/service-model.js';
import { shapeOf, type Shape } from '../model/service-model.js';
import type { Codec, ParsedRequest } from './codec.js';
import { AwsError } from './errors.js';
import { bodyTooLarge, DEFAULT_BODY_LIMIT, readBody, type WireRequest, type WireResponse } from './http.js';
import { bindRequest, boundOutput } from './rest-binding.js';
import { matchRoute } from './rest-routes.js';
import { fromJson, toJsonText, type JsonCodecOptions } from './shape-json.js';

const EMPTY = Buffer.alloc(0);

const bodyMemberFlags = new WeakMap<object, boolean>();

/** Whether an input shape has members in the body (worked out once per shape, not per request). */
function hasBodyMembers(shape: { members?: Record<string, { location?: string }> }): boolean {
  let flag = bodyMemberFlags.get(shape);
  if (flag === undefined) {
    flag = Object.values(shape.members ?? {}).some((r) => !r.location);
    bodyMemberFlags.set(shape, flag);
  }
  return flag;
}

interface RestJsonOptions {
  /** Error code for malformed input (S3 Tables: BadRequestException). */
  invalidInputCode: string;
  /** Error for a request no operation matches. */
  unknownOperation: (req: WireRequest) => AwsError;
  micros?: boolean;
  /** An error's JSON body (default `{__type, message}`; Lambda sends `{Type, Message}`). */
  errorBody?: (err: AwsError) => Record<string, unknown>;
}

/** The member a blob payload binds to (Lambda's Invoke): its bytes travel raw, not as JSON. */
function blobPayload(m: ServiceModel, shape: Shape | undefined): string | undefined {
  const name = shape?.payload;
  return name && shapeOf(m, shape.members![name]!.shape).type === 'blob' ? name : undefined;
}

export function restJsonCodec(model: () => ServiceModel, options: RestJsonOptions): Codec {
  const jsonOpts: JsonCodecOptions = {
    timestampFormat: 'unixTimestamp',
    micros: options.micros,
    invalidInputCode: options.invalidInputCode,
  };
  return {
    async parse(req: WireRequest): Promise<ParsedRequest> {
      const m = model();
      const match = matchRoute(m, req.method, req.rawPath, req.query, req.headers);
      if (!match) throw options.unknownOperation(req);
      const op = m.operations[match.operation]!;
      if (!op.input) return { operation: match.operation, input: {} };
      const inputShape = shapeOf(m, op.input.shape);
      const input = bindRequest(m, inputShape, req, match.labels, options.invalidInputCode);
      const withBody = hasBodyMembers(inputShape);
      // Operations without body members (every GET) do not wait for a body; Node discards any.
      const body = withBody ? await readBody(req, DEFAULT_BODY_LIMIT, () => bodyTooLarge(options.invalidInputCode, DEFAULT_BODY_LIMIT)) : EMPTY;
      const raw = blobPayload(m, inputShape);
      if (raw) {
        if (body.length > 0) input[raw] = body;
      } else if (withBody && body.length > 0) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          throw new AwsError(options.invalidInputCode, 'The request body is not valid JSON.', 400);
        }
        if (inputShape.payload) {
          const ref = inputShape.members![inputShape.payload]!;
          input[inputShape.payload] = fromJson(m, shapeOf(m, ref.shape), parsed, jsonOpts, inputShape.payload);
        } else {
          Object.assign(input, fromJson(m, inputShape, parsed, jsonOpts) as object);
        }
      }
      return { operation: match.operation, input };
    },

    serialize(operation: string, output: unknown, requestId: string): WireResponse {
      const m = model();
      const { op, outputShape, bound } = boundOutput(m, operation, output as Record<string, unknown> | undefined);
      const status = op.http.responseCode ?? 200;
      const headers: Record<string, string> = { 'x-amzn-requestid': requestId, ...bound.headers };
      if (status === 204 || !outputShape) return { status: bound.status ?? status, headers };
      const raw = blobPayload(m, outputShape);
      if (raw) {
        const bytes = (output as Record<string, unknown> | undefined)?.[raw] as Uint8Array | undefined;
        if (!bytes) return { status: bound.status ?? status, headers };
        headers['content-type'] = 'application/octet-stream';
        return { status: bound.status ?? status, headers, body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
      }
      const body = toJsonText(m, outputShape, output ?? {}, jsonOpts) ?? '{}';
      headers['content-type'] = 'application/json';
      return { status: bound.status ?? status, headers, body };
    },

    error(err: AwsError, requestId: string): WireResponse {
      const code = err.code;
      return {
        status: err.status,
        headers: {
          'x-amzn-requestid': requestId,
          'x-amzn-errortype': code,
          'content-type': 'application/json',
          ...err.headers,
        },
        body: JSON.stringify(options.errorBody ? options.errorBody(err) : { __type: code, message: err.message }),
      };
    },
  };
}
