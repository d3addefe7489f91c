/**
 * STS on the wire: the query codec and the table of actions served, each pointing at its provider
 * function; in strict mode only the web-identity and SAML actions may come unsigned.
 */
import { serviceModel } from '../../model/service-model.js';
import { AwsError } from '../../wire/errors.js';
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

/** AWS serves these two unsigned (the token is the credential); in strict mode every other action needs a signature. */
const UNSIGNED_ACTIONS = new Set(['AssumeRoleWithWebIdentity', 'AssumeRoleWithSAML']);

export const routes: ServiceRoutes = {
  codec,
  handlers,
  internalErrorCode: 'InternalFailure',
  authorize: (ctx, operation) => {
    if (ctx.caller?.authType === 'anonymous' && !UNSIGNED_ACTIONS.has(operation)) {
      throw new AwsError('MissingAuthenticationToken', 'Request is missing Authentication Token', 403);
    }
  },
};
