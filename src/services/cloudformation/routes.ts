/**
 * CloudFormation on the wire: the query codec (form-encoded actions, XML responses in the
 * CloudFormation namespace) and the table of actions served.
 */
import { serviceModel } from '../../model/service-model.js';
import { queryCodec } from '../../wire/query.js';
import type { Handler, ServiceRoutes } from '../registry.js';

const codec = queryCodec(() => serviceModel('cloudformation'));

const handlers: Partial<Record<string, Handler>> = {};

export const routes: ServiceRoutes = { codec, handlers, internalErrorCode: 'InternalFailure' };
