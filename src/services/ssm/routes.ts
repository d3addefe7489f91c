/**
 * SSM Parameter Store on the wire: the json-1.1 codec (`X-Amz-Target: AmazonSSM.<Operation>`) and
 * the table of operations served.
 */
import { serviceModel } from '../../model/service-model.js';
import { jsonRpcCodec } from '../../wire/json-rpc.js';
import type { Handler, ServiceRoutes } from '../registry.js';

const codec = jsonRpcCodec(() => serviceModel('ssm'), 'ValidationException');

const handlers: Partial<Record<string, Handler>> = {};

export const routes: ServiceRoutes = { codec, handlers, internalErrorCode: 'InternalServerError' };
