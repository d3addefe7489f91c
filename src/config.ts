/**
 * Overcast's configuration: defaults, the environment variables that override them and the
 * resolved shape every layer receives. The CLI flags and the in-process API both end here.
 */
import { isLogFormat, isLogLevel, type LogFormat, type LogLevel } from './log-levels.js';
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
  /** `text` (compact columns) or `json` (one JSON object a line). */
  logFormat: LogFormat;
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
  /**
   * Milliseconds between scheduled table maintenance passes (which also replicate commits as they
   * happen); 0 turns the schedule off. Undefined: every 5 minutes with a data directory, off in
   * memory, so in-memory test servers run maintenance only when asked (`POST
   * /_overcast/maintenance/run`).
   */
  maintenanceIntervalMs?: number;
}

export const DEFAULT_PORT = 4566;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_DATA_DIR = './.overcast';
export const DEFAULT_MAINTENANCE_INTERVAL_MS = 5 * 60_000;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Milliseconds of a duration text (`72h`, `10d`, `1d12h`, `90m`, `30s`, `500ms`, `2w`), or undefined. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d|w))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const m of trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)) total += Number(m[1]) * UNIT_MS[m[2]!]!;
  return Math.round(total);
}

/** `off` / `0` → 0, a duration → its milliseconds, anything else undefined. */
export function parseInterval(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  if (/^(off|0|false|no)$/i.test(text.trim())) return 0;
  return parseDuration(text);
}

/** The effective maintenance interval (see OvercastConfig.maintenanceIntervalMs); 0 = off. */
export function maintenanceInterval(config: OvercastConfig): number {
  if (config.maintenanceIntervalMs !== undefined) return Math.max(0, config.maintenanceIntervalMs);
  return config.dataDir ? DEFAULT_MAINTENANCE_INTERVAL_MS : 0;
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value);
}

/** Configuration from the environment (OVERCAST_*), before command-line flags are applied. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): OvercastConfig {
  const level = env.OVERCAST_LOG_LEVEL ?? 'info';
  const format = env.OVERCAST_LOG_FORMAT ?? 'text';
  return {
    host: env.OVERCAST_HOST || DEFAULT_HOST,
    port: env.OVERCAST_PORT ? Number(env.OVERCAST_PORT) : DEFAULT_PORT,
    dataDir: truthy(env.OVERCAST_IN_MEMORY) ? undefined : env.OVERCAST_DATA_DIR || DEFAULT_DATA_DIR,
    logLevel: isLogLevel(level) ? level : 'info',
    logFormat: isLogFormat(format) ? format : 'text',
    strictResources: truthy(env.OVERCAST_STRICT_RESOURCES),
    durability: env.OVERCAST_DURABILITY === 'full' ? 'full' : 'process',
    icebergS3Config: !truthy(env.OVERCAST_ICEBERG_EXACT),
    icebergPermissive: truthy(env.OVERCAST_ICEBERG_PERMISSIVE),
    maintenanceIntervalMs: parseInterval(env.OVERCAST_MAINTENANCE_INTERVAL),
  };
}
