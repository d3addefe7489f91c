/**
 * Overcast's configuration: defaults, the environment variables that override them and the
 * resolved shape every layer receives. The CLI flags and the in-process API both end here.
 */
import { isLogLevel, type LogLevel } from './log.js';
import type { Durability } from './store/database.js';

/** Overcast's resolved configuration (flags over OVERCAST_* variables over defaults). */
export interface OvercastConfig {
  /** Address to listen on. */
  host: string;
  /** 0 = an ephemeral port. */
  port: number;
  /** Directory for the database and object files; undefined = everything in memory. */
  dataDir?: string;
  /** Server log level. */
  logLevel: LogLevel;
  /** Fail resource types Overcast only stores instead of accepting them. */
  strictResources: boolean;
  /** `process`: acknowledged writes survive a crash of the process; `full`: also a power loss. */
  durability: Durability;
  /**
   * The Iceberg REST catalog adds `s3.endpoint`, `s3.path-style-access` and the region to each
   * table's client config, so engines write into Overcast's S3; false answers exactly as AWS does.
   */
  icebergS3Config: boolean;
  /** Serve what the S3 Tables catalog refuses: stage-create, multi-table transactions, metrics reports. */
  icebergPermissive: boolean;
}

export const DEFAULT_PORT = 4566;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_DATA_DIR = './.overcast';

function truthy(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value);
}

/** Configuration from the environment (OVERCAST_*), before command-line flags are applied. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): OvercastConfig {
  const level = env.OVERCAST_LOG_LEVEL ?? 'info';
  return {
    host: env.OVERCAST_HOST || DEFAULT_HOST,
    port: env.OVERCAST_PORT ? Number(env.OVERCAST_PORT) : DEFAULT_PORT,
    dataDir: truthy(env.OVERCAST_IN_MEMORY) ? undefined : env.OVERCAST_DATA_DIR || DEFAULT_DATA_DIR,
    logLevel: isLogLevel(level) ? level : 'info',
    strictResources: truthy(env.OVERCAST_STRICT_RESOURCES),
    durability: env.OVERCAST_DURABILITY === 'full' ? 'full' : 'process',
    icebergS3Config: !truthy(env.OVERCAST_ICEBERG_EXACT),
    icebergPermissive: truthy(env.OVERCAST_ICEBERG_PERMISSIVE),
  };
}
