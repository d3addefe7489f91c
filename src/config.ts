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
  /**
   * `any` (the default): any credentials work and the access key names the account. `strict`:
   * every request's SigV4 signature is verified against known credentials and resource policies
   * are evaluated (see the README's "Strict mode").
   */
  auth: AuthMode;
  /** Strict mode's long-term credentials besides the file's (OVERCAST_CREDENTIALS, the in-process API). */
  credentials: CredentialEntry[];
  /** A JSON file of long-term credentials for strict mode (see the README's "Strict mode"). */
  credentialsFile?: string;
  /** Strict mode accepts `test`/`test` for account 000000000000 unless this is false. */
  testCredentials: boolean;
  /** Host names answered besides localhost, `*.localhost` and loopback addresses (a leading `.` matches subdomains). */
  allowedHosts: string[];
  /** Milliseconds a request body may go without a byte before it is refused with RequestTimeout. */
  bodyTimeoutMs: number;
}

type AuthMode = 'any' | 'strict';

/** One long-term access key strict mode accepts: its secret, its account and, optionally, its principal. */
export interface CredentialEntry {
  accessKeyId: string;
  secretAccessKey: string;
  accountId: string;
  /** The IAM principal the key acts as; default `arn:aws:iam::<account>:user/overcast`. */
  arn?: string;
}

export const DEFAULT_PORT = 4566;
export const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_DATA_DIR = './.overcast';
const DEFAULT_MAINTENANCE_INTERVAL_MS = 5 * 60_000;
/** AWS answers RequestTimeout after about 20 s without a byte of a request body. */
const DEFAULT_BODY_TIMEOUT_MS = 20_000;

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

/**
 * `AKID:SECRET:ACCOUNT[:ARN]` entries separated by commas or whitespace (OVERCAST_CREDENTIALS);
 * throws on a malformed one.
 */
function parseCredentialList(text: string | undefined): CredentialEntry[] {
  if (!text?.trim()) return [];
  return text
    .trim()
    .split(/[\s,]+/)
    .map((entry) => {
      const [accessKeyId, secretAccessKey, accountId, ...arn] = entry.split(':');
      if (!accessKeyId || !secretAccessKey || !accountId || !/^\d{12}$/.test(accountId)) {
        throw new Error(`invalid credentials entry '${accessKeyId ?? ''}:…': expected ACCESS_KEY_ID:SECRET:ACCOUNT (12 digits)[:PRINCIPAL_ARN]`);
      }
      return { accessKeyId, secretAccessKey, accountId, ...(arn.length ? { arn: arn.join(':') } : {}) };
    });
}

/** A comma-separated list (OVERCAST_ALLOWED_HOSTS, --allowed-hosts), lower-cased, empty entries dropped. */
export function parseList(text: string | undefined): string[] {
  return (text ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
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
    auth: env.OVERCAST_AUTH === 'strict' ? 'strict' : 'any',
    credentials: parseCredentialList(env.OVERCAST_CREDENTIALS),
    credentialsFile: env.OVERCAST_CREDENTIALS_FILE || undefined,
    testCredentials: !/^(0|false|no|off)$/i.test(env.OVERCAST_TEST_CREDENTIALS ?? ''),
    allowedHosts: parseList(env.OVERCAST_ALLOWED_HOSTS),
    bodyTimeoutMs: parseDuration(env.OVERCAST_BODY_TIMEOUT ?? '') ?? DEFAULT_BODY_TIMEOUT_MS,
  };
}
