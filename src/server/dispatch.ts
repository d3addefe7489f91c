/**
 * Routes one request to a service by the SigV4 signing name of its credential scope (header or
 * presigned query), derives the caller's account and region, lets the service's codec name the
 * operation and build its input, calls the provider, and renders the output or error in that
 * service's protocol. Unsigned requests go to S3. Anything a provider throws that is not an
 * AwsError is logged and answered as the protocol's internal error (500), never a crash. Every
 * answer makes one line of the request log (see log.ts); a request for a service Overcast does not
 * emulate also a warning naming the service, the action and the caller.
 */
import { randomUUID } from 'node:crypto';
import { AwsError, isAwsError, operationNotImplemented, serviceNotEmulated } from '../wire/errors.js';
import { header, readBody, type WireRequest, type WireResponse } from '../wire/http.js';
import { escapeXml } from '../wire/xml.js';
import {
  accessKeyFromV2,
  accountFromAccessKey,
  DEFAULT_REGION,
  scopeFromAuthorization,
  scopeFromCredentialParam,
} from '../wire/sigv4.js';
import { ICEBERG_CATALOG, SERVICES, serviceForRequest, type ServiceDefinition } from '../services/registry.js';
import { NOT_IMPLEMENTED, type ServiceRoutes } from '../services/service-routes.js';
import { partitionOf, type Caller, type Ctx, type Runtime } from '../runtime/runtime.js';
import { authError, type AuthProtocol } from '../auth/errors.js';
import { serviceModel, type ServiceId } from '../model/service-model.js';

export interface Identity {
  service: string;
  accessKeyId: string;
  account: string;
  region: string;
}

export function identify(req: WireRequest): Identity {
  const scope =
    scopeFromAuthorization(req.headers.authorization) ??
    scopeFromCredentialParam(req.query.find(([k]) => k === 'X-Amz-Credential')?.[1]);
  if (scope) {
    return {
      service: scope.service,
      accessKeyId: scope.accessKeyId,
      account: accountFromAccessKey(scope.accessKeyId),
      region: scope.region || DEFAULT_REGION,
    };
  }
  const v2 = accessKeyFromV2(req.headers.authorization) ??
    req.query.find(([k]) => k === 'AWSAccessKeyId')?.[1];
  // STS's AssumeRoleWithWebIdentity/WithSAML are sent unsigned as a form POST to `/`, which no S3
  // request is (browser uploads are multipart POSTs to a bucket).
  if (!v2 && req.method === 'POST' && req.rawPath === '/' && /x-www-form-urlencoded/i.test(String(req.headers['content-type'] ?? ''))) {
    return { service: 'sts', accessKeyId: '', account: accountFromAccessKey(undefined), region: DEFAULT_REGION };
  }
  return { service: 's3', accessKeyId: v2 ?? '', account: accountFromAccessKey(v2), region: DEFAULT_REGION };
}

/**
 * The action a request for a service Overcast does not emulate asks for, for the log: the JSON
 * protocols' X-Amz-Target, the query protocol's Action (query string or form body), else the
 * method and path of a REST call.
 */
async function requestedAction(req: WireRequest): Promise<string> {
  const target = header(req, 'x-amz-target');
  if (target) return target.slice(target.lastIndexOf('.') + 1);
  const inQuery = req.query.find(([k]) => k === 'Action')?.[1];
  if (inQuery) return inQuery;
  if (/x-www-form-urlencoded/i.test(header(req, 'content-type') ?? '')) {
    try {
      const form = new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8'));
      if (form.get('Action')) return form.get('Action')!;
    } catch {
      // an unreadable body: the method and path say enough
    }
  }
  return `${req.method} ${req.rawPath}`;
}

/** An error for a request that reached no service, in a shape both JSON and XML clients read. */
function unroutable(err: AwsError, requestId: string, req: WireRequest): WireResponse {
  const contentType = String(req.headers['content-type'] ?? '');
  if (contentType.includes('x-www-form-urlencoded')) {
    return {
      status: err.status,
      headers: { 'x-amzn-requestid': requestId, 'content-type': 'text/xml' },
      body:
        `<ErrorResponse><Error><Type>Sender</Type><Code>${escapeXml(err.code)}</Code><Message>${escapeXml(err.message)}</Message>` +
        `</Error><RequestId>${requestId}</RequestId></ErrorResponse>`,
    };
  }
  return {
    status: err.status,
    headers: { 'x-amzn-requestid': requestId, 'x-amzn-errortype': err.code, 'content-type': 'application/json' },
    body: JSON.stringify({ __type: err.code, message: err.message }),
  };
}

/** Strict mode's verifier as the dispatcher uses it (src/auth/authenticate.ts, loaded only in strict mode). */
export interface RequestAuthenticator {
  authenticate(req: WireRequest, protocol: AuthProtocol, anonymous: boolean): Promise<{ caller: Caller; req: WireRequest }>;
}

/** The protocol whose errors a service's clients read (the Iceberg catalog answers in its own shape, its codes rest-json's). */
function protocolOf(service: ServiceDefinition<string>): AuthProtocol {
  if (service === ICEBERG_CATALOG) return 'rest-json';
  return serviceModel(service.id as ServiceId).metadata.protocol as AuthProtocol;
}

export class Dispatcher {
  private readonly loaded = new Map<string, ServiceRoutes>();

  /** `auth`: strict mode's verifier; without it any credentials work (the default). */
  constructor(
    private readonly rt: Runtime,
    private readonly auth?: RequestAuthenticator,
  ) {}

  private async routesOf(service: ServiceDefinition<string>): Promise<ServiceRoutes> {
    let routes = this.loaded.get(service.id);
    if (!routes) {
      routes = await service.load();
      this.loaded.set(service.id, routes);
    }
    return routes;
  }

  /**
   * Answers one request; `direct` names the service for requests that reach it other than by their
   * signature (the unsigned Iceberg catalog under `/_overcast/iceberg`).
   */
  async handle(request: WireRequest, direct?: ServiceDefinition<string>): Promise<WireResponse> {
    let req = request;
    const started = performance.now();
    const requestId = randomUUID();
    const who = direct ? { service: direct.signingName, accessKeyId: '', account: accountFromAccessKey(undefined), region: DEFAULT_REGION } : identify(req);
    const service = direct ?? serviceForRequest(who.service, req.rawPath);
    if (!service) {
      const err = serviceNotEmulated(who.service, SERVICES.map((s) => s.signingName));
      const action = await requestedAction(req);
      const caller = `${who.account}${who.accessKeyId ? ` (access key ${who.accessKeyId})` : ''}`;
      this.rt.log.warn(`request for ${who.service}, which Overcast does not emulate: ${action} from ${caller}`, {
        service: who.service,
        action,
        account: who.account,
        accessKeyId: who.accessKeyId,
      });
      this.logRequest(who.service, action, err.status, started, requestId, err);
      return unroutable(err, requestId, req);
    }
    const routes = await this.routesOf(service);
    let ctx: Ctx = {
      rt: this.rt,
      account: who.account,
      region: who.region,
      partition: partitionOf(who.region),
      requestId,
      accessKeyId: who.accessKeyId,
    };
    let operation = '';
    try {
      if (this.auth) {
        // Strict mode: the raw request is verified before any codec reads it; the unsigned catalog does not exist.
        const protocol = protocolOf(service);
        if (direct) throw authError(protocol, 'missing-auth');
        const verified = await this.auth.authenticate(req, protocol, service.id === 's3' || service.id === 'sts');
        req = verified.req;
        ctx = { ...ctx, account: verified.caller.account || ctx.account, caller: verified.caller };
      }
      const parsed = await routes.codec.parse(req);
      operation = parsed.operation;
      const handler = routes.handlers[operation];
      if (!handler || handler === NOT_IMPLEMENTED) throw operationNotImplemented(service.id, operation);
      if (ctx.caller && routes.authorize) ctx = routes.authorize(ctx, operation, parsed.input, req) ?? ctx;
      // The codec built the input from the same model the handler's table is typed against.
      const output = await (handler as (ctx: Ctx, input: unknown) => unknown)(ctx, parsed.input);
      const res = routes.codec.serialize(operation, output, requestId);
      this.logRequest(service.id, operation, res.status, started, requestId);
      return res;
    } catch (err) {
      let awsErr: AwsError;
      if (isAwsError(err)) {
        awsErr = err;
        // 501 NotImplemented answers a feature request, not a fault of Overcast.
        if (awsErr.status >= 500 && awsErr.status !== 501) {
          this.rt.log.error(`${service.id}.${operation || '?'} failed: ${awsErr.message}`);
        } else if (awsErr.status === 501) {
          this.rt.log.warn(`${service.id}.${operation || '?'}: ${awsErr.message}`);
        }
      } else {
        this.rt.log.error(`${service.id}.${operation || '?'} internal error`, err);
        awsErr = new AwsError(routes.internalErrorCode, 'We encountered an internal error. Please try again.', 500);
      }
      this.logRequest(service.id, operation || '?', awsErr.status, started, requestId, awsErr);
      // Drain what the client still sends so the connection stays usable.
      if (!req.body.readableEnded) req.body.resume();
      return routes.codec.error(awsErr, requestId, req);
    }
  }

  /** The request log's line (info): until the response starts, so a streamed body's transfer is not counted. */
  private logRequest(service: string, operation: string, status: number, started: number, requestId: string, err?: AwsError): void {
    if (!this.rt.log.enabled('info')) return;
    const ms = performance.now() - started;
    this.rt.log.request({ service, operation, status, ms, requestId, ...(err ? { code: err.code, message: err.message } : {}) });
  }
}
