/**
 * Overcast's programmatic entry point, the package's main export. `startOvercast()` starts an
 * Overcast server inside the calling process (in memory, on an ephemeral 127.0.0.1 port) for IaC
 * unit tests: SDK clients and child processes reach it at `endpoint`, while `deployStack` and
 * `deleteStack` drive the CloudFormation engine in-process — the same provider functions the
 * CloudFormation API calls, never HTTP to itself — and wait for the stack operation to settle.
 * A deploy that fails rejects with a `DeployStackError` carrying the stack's failure events.
 */
import { randomUUID } from 'node:crypto';
import { configFromEnv, parseInterval, type OvercastConfig } from './config.js';
import { deleteStackInProcess, deployStackInProcess, type InProcessEngine } from './deploy/in-process.js';
import { internalCtx, type Ctx } from './runtime/runtime.js';
import { startServer } from './server/server.js';
import { accountFromAccessKey } from './wire/sigv4.js';

// The lower-level pieces behind startOvercast: a server from a full configuration (what `overcast
// start` runs), and the configuration read from OVERCAST_* variables.
export { startServer, type RunningServer } from './server/server.js';
export { configFromEnv, type OvercastConfig } from './config.js';
export * from './api-types.js';
import type { Overcast, StartOvercastOptions } from './api-types.js';

let engine: Promise<InProcessEngine> | undefined;

/**
 * The CloudFormation provider and the engine's settle hook, imported once (a failure is retried).
 * One import at a time, never in parallel: under jest's ESM mode two dynamic imports in flight
 * whose graphs share a module fail with "request for '…' is not in cache" (jestjs/jest#11434,
 * nodejs/node#33216); a `Promise.all` of imports hit it every run. In Node, parallel imports gained
 * nothing measurable (startOvercast stays ~0.12 s).
 */
function loadEngine(): Promise<InProcessEngine> {
  engine ??= (async () => {
    const cfn = await import('./services/cloudformation/provider.js');
    const queue = await import('./services/cloudformation/engine/stack-queue.js');
    const template = await import('./services/cloudformation/template/index.js');
    return { cfn, settled: queue.settled, parse: template.parseTemplate };
  })().catch((err: unknown) => {
    engine = undefined;
    throw err;
  });
  return engine;
}

/** Everything a first deploy and the first SDK requests would otherwise load on demand (in sequence, see loadEngine). */
async function warmUp(): Promise<void> {
  await loadEngine();
  const { loadProviders, realResourceTypes } = await import('./services/cloudformation/resources/registry.js');
  await loadProviders(realResourceTypes());
  const { resourceType } = await import('./services/cloudformation/spec/resource-types.js');
  const { serviceModel } = await import('./model/service-model.js');
  const { SERVICES } = await import('./services/registry.js');
  resourceType('AWS::S3Tables::TableBucket');
  for (const service of SERVICES) {
    await service.load();
    serviceModel(service.id);
  }
}

function maintenanceIntervalOf(value: number | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = typeof value === 'number' ? value : parseInterval(value);
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) throw new TypeError(`startOvercast: invalid maintenanceInterval ${String(value)}`);
  return ms;
}

/**
 * Starts Overcast in this process: in memory, on an ephemeral 127.0.0.1 port, with test
 * credentials. Stop it with `stop()` (e.g. in `afterAll`).
 *
 * @example
 * ```ts
 * const overcast = await startOvercast();
 * const { outputs } = await overcast.deployStack({ stackName: 'Tables', template: Template.fromStack(stack).toJSON() });
 * const s3tables = new S3TablesClient(overcast.clientConfig);
 * await overcast.stop();
 * ```
 */
export async function startOvercast(options: StartOvercastOptions = {}): Promise<Overcast> {
  const config: OvercastConfig = {
    ...configFromEnv({}),
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    dataDir: options.dataDir,
    logLevel: options.logLevel ?? 'warn',
    strictResources: options.strictResources ?? false,
    icebergS3Config: !(options.iceberg?.exact ?? false),
    icebergPermissive: options.iceberg?.permissive ?? false,
    maintenanceIntervalMs: maintenanceIntervalOf(options.maintenanceInterval),
    auth: options.auth ?? 'any',
    credentials: [
      ...(options.credentials
        ? [{ ...options.credentials, accountId: accountFromAccessKey(options.credentials.accessKeyId) }]
        : []),
      ...(options.extraCredentials ?? []),
    ],
  };
  // Warm-up failures are not fatal: whatever failed to load is loaded (and reported) on first use.
  // It runs after the server's start-up, not beside it, for the dynamic imports' sake (loadEngine).
  let warmError: unknown;
  const server = await startServer(config);
  const rt = server.runtime;
  if (options.warm !== false) await warmUp().catch((err) => void (warmError = err));
  if (warmError) rt.log.warn('warming the CloudFormation engine failed', warmError);
  const region = options.region ?? 'us-east-1';
  const credentials = { ...(options.credentials ?? { accessKeyId: 'test', secretAccessKey: 'test' }) };
  const accountId = accountFromAccessKey(credentials.accessKeyId);

  const ctx = (): Ctx => internalCtx(rt, accountId, region, randomUUID());

  let stopped = false;
  const endpoint = server.endpoint;
  return {
    endpoint,
    region,
    accountId,
    credentials,
    clientConfig: { endpoint, region, credentials, forcePathStyle: true },
    env: {
      ...{ AWS_ENDPOINT_URL: endpoint, AWS_REGION: region, AWS_DEFAULT_REGION: region },
      ...{ AWS_ACCESS_KEY_ID: credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey },
    },
    server,
    deployStack: async (o) => deployStackInProcess(rt, await loadEngine(), ctx, o),
    deleteStack: async (stackName, opts = {}) => deleteStackInProcess(rt, await loadEngine(), ctx, stackName, opts.timeoutMs),
    advanceClock: async (duration) => {
      const { advanceClock } = await import('./services/s3tables/maintenance/admin.js');
      const state = advanceClock(rt, duration);
      return { now: new Date(state.now), offsetMs: state.offsetMs };
    },
    runMaintenance: async (opts = {}) => {
      const { maintenanceRun } = await import('./services/s3tables/maintenance/admin.js');
      return maintenanceRun(rt, opts.tableArn);
    },
    reset: () => server.reset(),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.close();
    },
  };
}
