/**
 * Starting and stopping one Overcast server: open the store (disk or memory), apply migrations,
 * recover from a crash, listen, and on stop finish background work and close everything. `reset`
 * wipes all state while the server keeps running.
 */
import type { FastifyInstance } from 'fastify';
import type { OvercastConfig } from '../config.js';
import { createLogger, type Logger } from '../log.js';
import { FileBlobStore, MemoryBlobStore } from '../store/blobs.js';
import { MetadataStore } from '../store/database.js';
import { MIGRATIONS } from '../store/schema/index.js';
import { SERVICES } from '../services/registry.js';
import { buildApp } from './app.js';
import { BackgroundTasks, type Runtime } from '../runtime/runtime.js';

/** A listening Overcast server, as `startServer` returns it. */
export interface RunningServer {
  readonly endpoint: string;
  readonly host: string;
  readonly port: number;
  readonly runtime: Runtime;
  reset(): Promise<void>;
  close(): Promise<void>;
}

export function createRuntime(config: OvercastConfig, log: Logger = createLogger(config.logLevel, { format: config.logFormat })): Runtime {
  const meta = new MetadataStore({ dataDir: config.dataDir, durability: config.durability });
  try {
    meta.migrate(MIGRATIONS);
    const blobs = config.dataDir ? new FileBlobStore(meta, config.dataDir) : new MemoryBlobStore();
    blobs.recover();
    return {
      config,
      meta,
      blobs,
      log,
      background: new BackgroundTasks(log),
      resetHooks: [],
      closeHooks: [],
      startedAt: new Date(),
    };
  } catch (err) {
    meta.close();
    throw err;
  }
}

/** Deletes every row of every table (the schema stays) and every blob. */
async function resetRuntime(rt: Runtime): Promise<void> {
  await rt.background.drain();
  const tables = rt.meta.db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_migrations'")
    .all() as { name: string }[];
  rt.meta.db.pragma('foreign_keys = OFF');
  try {
    rt.meta.tx(() => {
      for (const { name } of tables) rt.meta.db.exec(`DELETE FROM "${name}"`);
    });
  } finally {
    rt.meta.db.pragma('foreign_keys = ON');
  }
  rt.blobs.clear();
  for (const hook of rt.resetHooks) hook();
  rt.log.event('reset', 'reset: all state wiped');
}

/** Each service's start-up recovery (see ServiceDefinition.onStart); a failure is logged, not fatal. */
async function runStartHooks(rt: Runtime): Promise<void> {
  for (const service of SERVICES) {
    if (!service.onStart) continue;
    try {
      await service.onStart(rt);
    } catch (err) {
      rt.log.error(`${service.id}: start-up recovery failed`, err);
    }
  }
}

/**
 * Starts a server from a full configuration: opens the store, applies migrations, listens, and
 * runs each service's start-up recovery. `close()` stops it after background work has finished.
 */
export async function startServer(config: OvercastConfig, log?: Logger): Promise<RunningServer> {
  const rt = createRuntime(config, log);
  let app: FastifyInstance;
  try {
    // Strict mode's verifier (and its credentials file) is loaded only when asked for.
    const authenticator = config.auth === 'strict' ? new (await import('../auth/authenticate.js')).Authenticator(rt) : undefined;
    app = buildApp(rt, { reset: () => resetRuntime(rt), authenticator });
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    rt.blobs.close();
    rt.meta.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const endpoint = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
  rt.endpoint = endpoint;
  await runStartHooks(rt);
  let closed = false;
  return {
    endpoint,
    host: config.host,
    port,
    runtime: rt,
    reset: () => resetRuntime(rt),
    async close() {
      if (closed) return;
      closed = true;
      rt.background.stopping = true;
      // Lambda workers go first: an invocation waiting on one would hold its request open.
      for (const hook of rt.closeHooks) await hook().catch((err: unknown) => rt.log.error('close hook failed', err));
      await app.close();
      await rt.background.drain();
      rt.blobs.close();
      rt.meta.close();
    },
  };
}
