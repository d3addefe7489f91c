/**
 * STS on the wire: the query codec and the table of actions served, each pointing at its provider
 * function.
 */
import { serviceModel } from '../../model/service-model.js';
import { queryCodec } from '../../wire/query.js';
import type { StsOperations } from '../../model/operations/sts.js';
import { notImplemented, type OperationHandlers, type ServiceRoutes } from '../service-routes.js';
import * as sts from './provider.js';

const codec = queryCodec(() => serviceModel('sts'));

const handlers = {
  GetCallerIdentity: sts.getCallerIdentity,
  GetAccessKeyInfo: sts.getAccessKeyInfo,
  AssumeRole: sts.assumeRole,
  AssumeRoleWithWebIdentity: sts.assumeRoleWithWebIdentity,
  GetSessionToken: sts.getSessionToken,
  ...notImplemented<StsOperations>()(
    'AssumeRoleWithSAML', 'AssumeRoot', 'DecodeAuthorizationMessage', 'GetDelegatedAccessToken',
    'GetFederationToken', 'GetWebIdentityToken',
  ),
} satisfies OperationHandlers<StsOperations>;

export const routes: ServiceRoutes = { codec, handlers, internalErrorCode: 'InternalFailure' };
