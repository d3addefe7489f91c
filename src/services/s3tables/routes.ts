/**
 * S3 Tables on the wire: the rest-json codec (operations from the model's URI templates, errors as
 * `x-amzn-ErrorType` + `{"message"}`, timestamps with microseconds) and the table of operations
 * served, each pointing at its provider function (operation name = provider name in PascalCase).
 */
import { serviceModel } from '../../model/service-model.js';
import { validationMessage } from '../../model/validate.js';
import { AwsError } from '../../wire/errors.js';
import type { WireRequest } from '../../wire/http.js';
import { restJsonCodec } from '../../wire/rest-json.js';
import type { Handler, ServiceRoutes } from '../registry.js';
import * as provider from './provider.js';

/**
 * A request the URI templates cannot place. Operations addressed by query members only
 * (`/table-replication?tableArn&versionToken`) do not match while a required member is missing;
 * AWS answers those with its validation error, so find the operation by method and path and say
 * which member is missing.
 */
function unknownOperation(req: WireRequest): AwsError {
  const model = serviceModel('s3tables');
  const path = req.rawPath.length > 1 ? req.rawPath.replace(/\/$/, '') : req.rawPath;
  for (const [name, op] of Object.entries(model.operations)) {
    const uri = op.http.requestUri.split('?')[0];
    if (op.http.method !== req.method || uri !== path || uri.includes('{') || !op.input) continue;
    const members = model.shapes[op.input.shape]?.members ?? {};
    const input: Record<string, unknown> = {};
    for (const [member, ref] of Object.entries(members)) {
      if (ref.location !== 'querystring') continue;
      const value = req.query.find(([k]) => k === (ref.locationName ?? member))?.[1];
      if (value !== undefined) input[member] = value;
    }
    const message = validationMessage(model, name, input);
    if (message) return new AwsError('BadRequestException', message, 400);
  }
  return new AwsError('NotFoundException', `No S3 Tables operation matches ${req.method} ${req.rawPath}`, 404);
}

const codec = restJsonCodec(() => serviceModel('s3tables'), {
  invalidInputCode: 'BadRequestException',
  micros: true,
  unknownOperation,
});

const handlers: Partial<Record<string, Handler>> = {};
for (const [name, fn] of Object.entries(provider)) {
  handlers[name.charAt(0).toUpperCase() + name.slice(1)] = fn as Handler;
}

export const routes: ServiceRoutes = { codec, handlers, internalErrorCode: 'InternalServerErrorException' };
