/**
 * `overcast start`: resolves configuration (flags over OVERCAST_* environment over defaults),
 * starts the server, prints the endpoint and a ready line, and stops cleanly on SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { configFromEnv, parseInterval, type OvercastConfig } from '../config.js';
import { isLogLevel } from '../log.js';
import { startServer } from '../server/server.js';
import { VERSION } from '../version.js';

export function parseStartArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): OvercastConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'in-memory': { type: 'boolean' },
      'log-level': { type: 'string' },
      durability: { type: 'string' },
      'strict-resources': { type: 'boolean' },
      'iceberg-exact': { type: 'boolean' },
      'iceberg-permissive': { type: 'boolean' },
      'maintenance-interval': { type: 'string' },
    },
    strict: true,
  });
  const config = configFromEnv(env);
  if (values.host) config.host = values.host;
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port ${values.port}`);
    config.port = port;
  }
  if (values['data-dir']) config.dataDir = values['data-dir'];
  if (values['in-memory']) config.dataDir = undefined;
  if (values['log-level']) {
    if (!isLogLevel(values['log-level'])) throw new Error(`invalid --log-level ${values['log-level']}`);
    config.logLevel = values['log-level'];
  }
  if (values.durability) {
    if (values.durability !== 'process' && values.durability !== 'full') {
      throw new Error(`invalid --durability ${values.durability}`);
    }
    config.durability = values.durability;
  }
  if (values['strict-resources']) config.strictResources = true;
  if (values['iceberg-exact']) config.icebergS3Config = false;
  if (values['iceberg-permissive']) config.icebergPermissive = true;
  if (values['maintenance-interval'] !== undefined) {
    const ms = parseInterval(values['maintenance-interval']);
    if (ms === undefined) throw new Error(`invalid --maintenance-interval ${values['maintenance-interval']} (a duration such as 10m, or off)`);
    config.maintenanceIntervalMs = ms;
  }
  return config;
}

export async function start(argv: string[]): Promise<void> {
  const config = parseStartArgs(argv);
  const server = await startServer(config);
  const store = config.dataDir ? `data in ${config.dataDir}` : 'in memory';
  process.stdout.write(`Overcast ${VERSION} listening on ${server.endpoint} (${store})\n`);
  process.stdout.write(`Ready. Point clients at it: export AWS_ENDPOINT_URL=${server.endpoint}\n`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.runtime.log.info(`${signal} received, stopping`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
