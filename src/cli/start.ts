/**
 * `overcast start`: resolves configuration (flags over OVERCAST_* environment over defaults),
 * checks that the port is free before anything is created, starts the server, prints the endpoint
 * and the one command that points a shell at it, logs to stdout (see log.ts), and stops cleanly
 * on SIGINT/SIGTERM. A start that cannot happen — a bad flag, a port in use, a data directory it
 * cannot write or that another Overcast holds — is one line on stderr saying what to do, a
 * non-zero exit code, and nothing left behind.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { configFromEnv, DEFAULT_HOST, DEFAULT_PORT, parseDuration, parseInterval, parseList, type OvercastConfig } from '../config.js';
import { createLogger, isLogFormat, isLogLevel } from '../log.js';
import { startServer } from '../server/server.js';
import { VERSION } from '../version.js';
import { usageLine } from './help.js';
import { selfCommand } from './invocation.js';

const OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  'in-memory': { type: 'boolean' },
  'log-level': { type: 'string' },
  'log-format': { type: 'string' },
  durability: { type: 'string' },
  'strict-resources': { type: 'boolean' },
  'iceberg-exact': { type: 'boolean' },
  'iceberg-permissive': { type: 'boolean' },
  'maintenance-interval': { type: 'string' },
  auth: { type: 'string' },
  'credentials-file': { type: 'string' },
  'no-test-credentials': { type: 'boolean' },
  'allowed-hosts': { type: 'string' },
  'body-timeout': { type: 'string' },
} as const;

function parseStartArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): OvercastConfig {
  const { values } = parseArgs({ args: argv, options: OPTIONS, strict: true });
  const config = configFromEnv(env);
  if (env.OVERCAST_PORT !== undefined && values.port === undefined) checkPort(env.OVERCAST_PORT, 'OVERCAST_PORT');
  if (values.host) config.host = values.host;
  if (values.port !== undefined) config.port = checkPort(values.port, '--port');
  if (values['data-dir']) config.dataDir = values['data-dir'];
  if (values['in-memory']) config.dataDir = undefined;
  const level = values['log-level'];
  if (level !== undefined) {
    if (!isLogLevel(level)) throw new Error(`invalid --log-level '${level}': one of debug, info, warn, error, silent`);
    config.logLevel = level;
  }
  const format = values['log-format'];
  if (format !== undefined) {
    if (!isLogFormat(format)) throw new Error(`invalid --log-format '${format}': text or json`);
    config.logFormat = format;
  }
  if (values.durability) {
    if (values.durability !== 'process' && values.durability !== 'full') {
      throw new Error(`invalid --durability '${values.durability}': process or full`);
    }
    config.durability = values.durability;
  }
  if (values['strict-resources']) config.strictResources = true;
  if (values['iceberg-exact']) config.icebergS3Config = false;
  if (values['iceberg-permissive']) config.icebergPermissive = true;
  if (values['maintenance-interval'] !== undefined) {
    const ms = parseInterval(values['maintenance-interval']);
    if (ms === undefined) throw new Error(`invalid --maintenance-interval '${values['maintenance-interval']}': a duration such as 10m, or off`);
    config.maintenanceIntervalMs = ms;
  }
  const auth = values.auth ?? env.OVERCAST_AUTH;
  if (auth !== undefined) {
    if (auth !== 'any' && auth !== 'strict') throw new Error(`invalid ${values.auth !== undefined ? '--auth' : 'OVERCAST_AUTH'} '${auth}': any or strict`);
    config.auth = auth;
  }
  if (values['credentials-file']) config.credentialsFile = values['credentials-file'];
  if (values['no-test-credentials']) config.testCredentials = false;
  if (values['allowed-hosts'] !== undefined) config.allowedHosts = parseList(values['allowed-hosts']);
  const bodyTimeout = values['body-timeout'] ?? env.OVERCAST_BODY_TIMEOUT;
  if (bodyTimeout !== undefined) {
    const ms = parseDuration(bodyTimeout);
    if (ms === undefined || ms <= 0) throw new Error(`invalid --body-timeout '${bodyTimeout}': a duration such as 20s`);
    config.bodyTimeoutMs = ms;
  }
  return config;
}

function checkPort(value: string, name: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new Error(`invalid ${name} '${value}': a number from 0 to 65535 (0 picks a free port)`);
  return port;
}

/** Resolves once nothing listens on host:port any more than it did, or rejects with the listen error. */
function probePort(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** The one line that says why the server could not start and what to do about it. */
function startFailure(err: unknown, config: OvercastConfig): string {
  const e = err as NodeJS.ErrnoException & { pid?: number };
  const other = config.port === DEFAULT_PORT ? DEFAULT_PORT + 1 : config.port + 1;
  const dir = config.dataDir ?? '';
  const elsewhere = `choose another with --data-dir DIR (or OVERCAST_DATA_DIR=DIR), or keep state in memory with --in-memory`;
  switch (e.code) {
    case 'EADDRINUSE':
      return `port ${config.port} on ${config.host} is already in use (another Overcast, or LocalStack?): stop it, or start on another port with --port ${other} (or OVERCAST_PORT=${other}); --port 0 picks a free one`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `cannot listen on ${config.host}: no such address on this machine; use --host ${DEFAULT_HOST} (or OVERCAST_HOST), or 0.0.0.0 for every interface`;
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      if (e.syscall === 'listen' || e.syscall === 'bind') {
        return `not allowed to listen on port ${config.port}: choose a port above 1023 with --port (or OVERCAST_PORT)`;
      }
      return `cannot write the data directory ${dir} (${e.code === 'EROFS' ? 'read-only file system' : 'permission denied'}${e.path && e.path !== dir ? `: ${e.path}` : ''}): ${elsewhere}`;
    case 'ENOTDIR':
    case 'EEXIST':
      return `cannot use ${dir} as the data directory: ${existingFile(dir) ?? e.path ?? dir} is a file, not a directory; ${elsewhere}`;
    case 'ENOSPC':
      return `no space left for the data directory ${dir}: free some, or ${elsewhere}`;
    case 'EOVERCASTLOCKED':
      return `the data directory ${dir} is in use by another Overcast (pid ${e.pid}): stop that one, or ${elsewhere}`;
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_READONLY':
    case 'SQLITE_PERM':
      return `cannot open the database in ${dir} for writing (${e.message}): ${elsewhere}`;
    case 'SQLITE_NOTADB':
    case 'SQLITE_CORRUPT':
      return `${dir}/overcast.db is not an Overcast database (${e.message}): move it away, or ${elsewhere}`;
    default:
      return e.message ?? String(err);
  }
}

/** The outermost folder of `dir` that does not exist yet (what starting would create), if any. */
function firstMissing(dir: string): string | undefined {
  let missing: string | undefined;
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) {
    missing = d;
    if (dirname(d) === d) break;
  }
  return missing;
}

/** The file that stands where `dir` or one of its folders should be. */
function existingFile(dir: string): string | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(d)) return statSync(d).isDirectory() ? undefined : d;
    if (dirname(d) === d) return undefined;
  }
}

function removeQuietly(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // it was never made (a parent is a file, or not writable)
  }
}

/** The command a user types in another shell to point it at this server. */
function envCommand(config: OvercastConfig, port: number, endpoint: string): string {
  const defaultHost = config.host === DEFAULT_HOST || config.host === '0.0.0.0' || config.host === 'localhost';
  const args = !defaultHost ? ` --endpoint ${endpoint}` : port !== DEFAULT_PORT ? ` --port ${port}` : '';
  return `eval "$(${selfCommand()} env${args})"`;
}

export async function start(argv: string[]): Promise<void> {
  let config: OvercastConfig;
  try {
    config = parseStartArgs(argv);
  } catch (err) {
    process.stderr.write(`${usageLine('start', err, [...Object.keys(OPTIONS).map((o) => `--${o}`), '--help'])}\n`);
    process.exitCode = 2;
    return;
  }
  const created = config.dataDir === undefined ? undefined : firstMissing(config.dataDir);
  let server: Awaited<ReturnType<typeof startServer>>;
  const log = createLogger(config.logLevel, { format: config.logFormat, destination: 1, async: true });
  try {
    await probePort(config.host, config.port);
    server = await startServer(config, log);
  } catch (err) {
    if (created) removeQuietly(created);
    process.stderr.write(`overcast start: ${startFailure(err, config)}\n`);
    process.exitCode = 1;
    return;
  }
  const store = config.dataDir ? `data in ${config.dataDir}` : 'in memory';
  const greeting = `Overcast ${VERSION} listening on ${server.endpoint} (${store})`;
  const command = envCommand(config, server.port, server.endpoint);
  if (config.logFormat === 'json') {
    log.event('ready', greeting, { version: VERSION, endpoint: server.endpoint, dataDir: config.dataDir ?? null, env: command });
  } else {
    log.line(greeting);
    log.line(`Ready. Point the aws CLI, the CDK and the SDKs at it — in your shell: ${command}`);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.event('stop', `${signal}: stopping`, { signal });
    await server.close();
    log.event('stop', 'stopped');
    log.flush();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
