/**
 * S3 Tables on the wire: the rest-json codec (operations from the model's URI templates, errors as
 * `x-amzn-ErrorType` + `{"message"}`, timestamps with microseconds) and the table of operations
 * served, each pointing at its provider function.
 */
import { serviceModel } from '../../model/service-model.js';
import { AwsError } from '../../wire/errors.js';
import { restJsonCodec } from '../../wire/rest-json.js';
import type { Handler, ServiceRoutes } from '../registry.js';

const codec = restJsonCodec(() => serviceModel('s3tables'), {
  invalidInputCode: 'BadRequestException',
  micros: true,
  unknownOperation: (req) =>
    new AwsError('NotFoundException', `No S3 Tables operation matches ${req.method} ${req.rawPath}`, 404),
});

const handlers: Partial<Record<string, Handler>> = {};

export const routes: ServiceRoutes = { codec, handlers, internalErrorCode: 'InternalServerErrorException' };
