/**
 * The HTTP front: AWS requests go straight from Node's server to api-requests.ts; fastify, with a
 * single catch-all route answered in its onRequest hook and bodies left unparsed, serves
 * Overcast's own endpoints under `/_overcast/` (health, reset, metrics, the clock and table
 * maintenance, custom resource responses and Lambda code downloads, the unsigned Iceberg catalog,
 * the dashboard under `/_overcast/ui`, to which a browser's `GET /` is redirected) and the AWS
 * requests whose target its router treats specially. First the defences of guard.ts (the Host
 * allow-list; no cross-site calls of Overcast's own endpoints, the dashboard included) and the
 * watch on a stalling body. Errors outside the codecs (a malformed URL, a header section too
 * large, an uncaught failure) are answered in the shape of the service the request names
 * (early-errors.ts).
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { apiRequests, fromBrowser, type RequestMetrics } from './api-requests.js';
import { Dispatcher, type RequestAuthenticator } from './dispatch.js';
import { answerClientError, earlyError } from './early-errors.js';
import { adminRefusal } from './guard.js';
import type { Runtime } from '../runtime/runtime.js';
import { readCapped, type WireResponse } from '../wire/http.js';
import { scopeFromAuthorization } from '../wire/sigv4.js';
import { ICEBERG_CATALOG, SERVICES } from '../services/registry.js';
import { VERSION } from '../version.js';
import { closeStreams } from '../dashboard/open-streams.js';

interface AppHooks {
  /** POST /_overcast/reset */
  reset: () => Promise<void>;
  /** Strict mode's verifier (none: any credentials work). */
  authenticator?: RequestAuthenticator;
}

function send(reply: FastifyReply, res: WireResponse): FastifyReply {
  // A request cut off for a stalled body was answered already.
  if (reply.raw.headersSent) return reply;
  reply.code(res.status);
  for (const [k, v] of Object.entries(res.headers)) reply.header(k, v);
  return res.body === undefined ? reply.send() : reply.send(res.body);
}

export function health(rt: Runtime): object {
  return {
    status: 'running',
    version: VERSION,
    store: rt.meta.inMemory ? 'memory' : 'disk',
    dataDir: rt.config.dataDir,
    uptimeSeconds: Math.round((Date.now() - rt.startedAt.getTime()) / 1000),
    services: Object.fromEntries(SERVICES.map((s) => [s.id, 'available'])),
  };
}

const KEEP_ALIVE_MS = 65_000;

function noSchemas(): never {
  throw new Error('Overcast routes declare no schemas');
}

export function buildApp(rt: Runtime, hooks: AppHooks): FastifyInstance {
  let apiHandler: ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined;
  const app = Fastify({
    // AWS requests are answered before fastify sees them (api-requests.ts); it serves the rest.
    serverFactory: (handler, opts) => {
      const server = createServer(opts.http ?? {}, (req, res) => {
        if (!apiHandler?.(req, res)) handler(req, res);
      });
      // What fastify sets on a server it creates itself.
      server.keepAliveTimeout = KEEP_ALIVE_MS;
      server.requestTimeout = 0;
      server.setTimeout(0);
      return server;
    },
    logger: false,
    exposeHeadRoutes: false,
    // A body is cut off when it stalls (watchBody), never for taking long: uploads may be large.
    requestTimeout: 0,
    keepAliveTimeout: KEEP_ALIVE_MS,
    // Headers must arrive within the body timeout too; Node checks every few seconds.
    http: { headersTimeout: rt.config.bodyTimeoutMs, connectionsCheckingInterval: Math.min(5_000, Math.max(250, rt.config.bodyTimeoutMs / 4)) },
    return503OnClosing: false,
    routerOptions: { ignoreDuplicateSlashes: false, maxParamLength: 65_535 },
    frameworkErrors: (_error, req, reply) => {
      // Only a request line fastify cannot parse (bad percent-encoding) ends here.
      const service = scopeFromAuthorization(req.headers.authorization)?.service ?? 's3';
      void earlyError(service, 'uri', req.url ?? '').then((res) => {
        reply.raw.writeHead(res.status, res.headers);
        reply.raw.end(res.body);
      });
    },
    // A message Node's parser rejects (header section too large, broken framing): AWS's shape.
    clientErrorHandler: answerClientError,
    // No route declares a schema, so fastify's default compilers (ajv, fast-json-stringify) would
    // only be loaded, never used: a tenth of start-up's CPU.
    schemaController: { compilersFactory: { buildValidator: noSchemas, buildSerializer: noSchemas } },
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null));

  const dispatcher = new Dispatcher(rt, hooks.authenticator);
  const json = (reply: FastifyReply, status: number, body: unknown) =>
    reply.code(status).header('content-type', 'application/json').send(JSON.stringify(body));
  // Time spent answering AWS requests, so benchmarks can set the server's share against a client's.
  const metrics: RequestMetrics = { requests: 0, requestMs: 0 };
  const api = apiRequests(rt, dispatcher, metrics);
  apiHandler = (req, res) => api.tryServe(req, res);

  const answer = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> => {
    const url = request.raw.url ?? '/';
    const browser = url === '/' && request.method === 'GET' && fromBrowser(request.raw);
    if (!url.startsWith('/_overcast/') && !browser) {
      // An AWS request whose target the fast path left to fastify's router (absolute-form, …).
      reply.hijack();
      return api.serve(request.raw, reply.raw);
    }
    const hostRefusal = await api.admit(request.raw, reply.raw, () => reply.hijack());
    if (hostRefusal) return send(reply, hostRefusal);
    if (browser) return reply.code(302).header('location', '/_overcast/ui/').send();
    const refusal = adminRefusal(request.method, request.headers);
    if (refusal && (!url.startsWith('/_overcast/iceberg/') || refusal.status === 403)) {
      request.raw.resume();
      return json(reply, refusal.status, { code: refusal.code, message: refusal.message });
    }
    if (url.startsWith('/_overcast/iceberg/')) {
      // The Iceberg catalog for engines configured without SigV4: the same service, unsigned.
      reply.hijack();
      return api.dispatch(request.raw, reply.raw, ICEBERG_CATALOG);
    }
    if (url === '/_overcast/ui' || url.startsWith('/_overcast/ui/') || url.startsWith('/_overcast/ui?')) {
      const { handleDashboard } = await import('../dashboard/routes.js');
      return handleDashboard(rt, hooks, request, reply);
    }
    const path = url.split('?')[0];
    if (path === '/_overcast/health' && (request.method === 'GET' || request.method === 'HEAD')) {
      return json(reply, 200, health(rt));
    }
    if (path === '/_overcast/reset' && request.method === 'POST') {
      await hooks.reset();
      return json(reply, 200, { reset: true });
    }
    if (path === '/_overcast/metrics' && request.method === 'GET') {
      const body = { ...metrics, backgroundMs: rt.background.busyMs };
      return json(reply, 200, body);
    }
    if (path?.startsWith('/_overcast/cfn-response/') || path?.startsWith('/_overcast/lambda/')) {
      // Lambda's callbacks: custom resource responses (ResponseURL) and code downloads (Code.Location).
      const { lambdaCallback } = await import('../services/cloudformation/lambda-callbacks.js');
      const res = await lambdaCallback(rt, request.method, path, request.raw);
      return reply.code(res.status).header('content-type', res.contentType).send(res.body);
    }
    if (path === '/_overcast/clock' || path?.startsWith('/_overcast/maintenance/')) {
      const { handleAdmin } = await import('../services/s3tables/maintenance/admin.js');
      const res = await handleAdmin(rt, request.method, path, (await readCapped(request.raw, 65_536)).toString('utf8'));
      if (res) return json(reply, res.status, res.body);
    }
    return json(reply, 404, { message: 'not found' });
  };

  app.route({
    // Every method fastify routes (TRACE and QUERY too, whose content-type rule would otherwise
    // answer 500): the services answer those they do not serve, in their own shape.
    method: app.supportedMethods,
    url: '*',
    // Answered in onRequest, before fastify's body handling: it would refuse a Content-Type it
    // cannot parse (empty, `garbage`), which AWS accepts (S3 stores it as the object's type).
    onRequest: (request, reply) => answer(request, reply),
    handler: async (_request, reply) => reply,
  });

  // Methods fastify does not route (PROPFIND, SEARCH, …) reach the services too, not fastify's 404 page.
  app.setNotFoundHandler((request, reply) => answer(request, reply));

  // Open dashboard event streams never end by themselves; the server's close would wait for them.
  app.addHook('preClose', (done) => {
    closeStreams(rt);
    done();
  });

  // Overcast's own endpoints (the AWS requests fastify routes have their own in api-requests.ts).
  app.setErrorHandler(async (error, request, reply) => {
    rt.log.error('unhandled error', error);
    const service = scopeFromAuthorization(request.headers.authorization)?.service ?? 's3';
    return send(reply, await earlyError(service, 'internal', request.url));
  });
  return app;
}
