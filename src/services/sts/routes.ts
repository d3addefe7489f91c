/**
 * STS on the wire: the query codec and the table of actions served.
 */
import { serviceModel } from '../../model/service-model.js';
import { queryCodec } from '../../wire/query.js';
import type { Handler, ServiceRoutes } from '../registry.js';

const codec = queryCodec(() => serviceModel('sts'));

const handlers: Partial<Record<string, Handler>> = {};

export const routes: ServiceRoutes = { codec, handlers, internalErrorCode: 'InternalFailure' };
