/**
 * The AWS JSON 1.0/1.1 protocol (SSM): `POST /` with `X-Amz-Target: <prefix>.<Operation>` and a
 * JSON body; responses in `application/x-amz-json-1.1`; errors as `{"__type": code, "message"}`
 * with the code also in `x-amzn-ErrorType`.
 */
import type { ServiceModel } from '../model/service-model.js';
import { shapeOf } from '../model/service-model.js';
import type { Codec, ParsedRequest } from './codec.js';
import { AwsError } from './errors.js';
import { header, readBody, type WireRequest, type WireResponse } from './http.js';
import { fromJson, toJsonText, type JsonCodecOptions } from './shape-json.js';

export function jsonRpcCodec(model: () => ServiceModel, invalidInputCode = 'SerializationException'): Codec {
  const opts: JsonCodecOptions = { timestampFormat: 'unixTimestamp', invalidInputCode };
  const contentType = () => `application/x-amz-json-${model().metadata.jsonVersion ?? '1.1'}`;
  return {
    async parse(req: WireRequest): Promise<ParsedRequest> {
      const m = model();
      const target = header(req, 'x-amz-target') ?? '';
      const operation = target.slice(target.indexOf('.') + 1);
      const op = m.operations[operation];
      if (!target || !op || !target.startsWith(`${m.metadata.targetPrefix}.`)) {
        throw new AwsError('UnknownOperationException', `Unknown operation ${target || '(no X-Amz-Target)'}`, 400);
      }
      const body = await readBody(req);
      let parsed: unknown = {};
      if (body.length > 0) {
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          throw new AwsError(invalidInputCode, 'The request body is not valid JSON.', 400);
        }
      }
      const input = op.input ? (fromJson(m, shapeOf(m, op.input.shape), parsed, opts) as Record<string, unknown>) : {};
      return { operation, input: input ?? {} };
    },

    serialize(operation: string, output: unknown, requestId: string): WireResponse {
      const m = model();
      const op = m.operations[operation]!;
      const body = op.output ? toJsonText(m, shapeOf(m, op.output.shape), output ?? {}, opts) : undefined;
      return {
        status: 200,
        headers: { 'x-amzn-requestid': requestId, 'content-type': contentType() },
        body: body ?? '{}',
      };
    },

    error(err: AwsError, requestId: string): WireResponse {
      return {
        status: err.status,
        headers: {
          'x-amzn-requestid': requestId,
          'x-amzn-errortype': err.code,
          'content-type': contentType(),
          ...err.headers,
        },
        body: JSON.stringify({ __type: err.code, message: err.message }),
      };
    },
  };
}
