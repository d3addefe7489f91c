/**
 * The public types of the in-process API (`startOvercast`): its options, the `Overcast` handle it
 * returns, what `deployStack` takes and resolves with, and `DeployStackError`, its rejection when
 * a stack rolls back.
 */
import type * as CFN from '@aws-sdk/client-cloudformation';
import type { LogLevel } from './log.js';
import type { RunningServer } from './server/server.js';
import type { MaintenanceRunReport } from './services/s3tables/maintenance/reports.js';

export type {
  MaintenanceJobReport,
  MaintenanceRunReport,
  MaintenanceTableReport,
  ReplicationDestinationReport,
} from './services/s3tables/maintenance/reports.js';

/** Options of {@link startOvercast}. Everything is optional. */
export interface StartOvercastOptions {
  /** Address to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port to listen on; `0` (the default) picks a free one. */
  port?: number;
  /** Keep state in this directory instead of in memory (the default). */
  dataDir?: string;
  /** Region of the returned client settings and of `deployStack`. Default `us-east-1`. */
  region?: string;
  /**
   * Credentials of the returned client settings. The account Overcast derives from the access key
   * (a 12-digit key is that account, anything else `000000000000`) is the one `deployStack` uses.
   * Default `test` / `test`.
   */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Server log level (to stderr). Default `warn`. */
  logLevel?: LogLevel;
  /** Fail resource types Overcast only stores instead of accepting them. Default false. */
  strictResources?: boolean;
  /** The Iceberg REST catalog's departures from AWS (see the README's "Iceberg engines"). */
  iceberg?: {
    /** Answer LoadTable without Overcast's `s3.*` client settings, exactly as AWS. Default false. */
    exact?: boolean;
    /** Serve stage-create, multi-table transactions and metrics reports, which S3 Tables refuses. Default false. */
    permissive?: boolean;
  };
  /**
   * Load the CloudFormation engine, the resource-type index and the service models while the
   * server starts (concurrently with it), so that the first `deployStack` and the first SDK
   * requests cost what every later one does. `false` loads them on first use instead, for the
   * lightest start. Default true.
   */
  warm?: boolean;
  /**
   * Table maintenance schedule: milliseconds or a duration (`10m`) between background passes, `0`
   * or `'off'` for none. Default: off in memory (run it with `runMaintenance()`), every 5 minutes
   * with a `dataDir`.
   */
  maintenanceInterval?: number | string;
  /**
   * `strict`: every request's SigV4 signature is verified against known credentials and resource
   * policies are evaluated (the README's "Strict mode"); `credentials` and `extraCredentials` are
   * the keys it accepts, besides `test`/`test`. Default `any`: any credentials work.
   */
  auth?: 'any' | 'strict';
  /**
   * More access keys strict mode accepts, each acting in its account — e.g. a second account that
   * a table bucket policy grants or denies.
   */
  extraCredentials?: { accessKeyId: string; secretAccessKey: string; accountId: string; arn?: string }[];
}

/** Settings for any `@aws-sdk/*` client constructor: `new S3TablesClient(overcast.clientConfig)`. */
export interface ClientConfig {
  /** The server's base URL. */
  endpoint: string;
  /** The region deployStack uses. */
  region: string;
  /** Any keys work (in strict mode, the ones Overcast was given); the access key decides the account. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** S3 must use path-style addressing against a loopback endpoint. */
  forcePathStyle: true;
}

/** A parameter value; lists are joined with commas (CommaDelimitedList, List<…>). */
export type ParameterValue = string | number | boolean | readonly string[];

/** What {@link Overcast.deployStack} deploys. Give exactly one of `template`, `templateFile`, `templateBody`. */
export interface DeployStackOptions {
  /** The stack's name; an existing stack of that name is updated. */
  stackName: string;
  /** The template as an object, e.g. `Template.fromStack(stack).toJSON()` from aws-cdk-lib/assertions. */
  template?: object;
  /** Path of a JSON or YAML template file. */
  templateFile?: string;
  /** The template text, JSON or YAML. */
  templateBody?: string;
  /** Parameter values by name; parameters left out take their defaults (or, on update, their previous values). */
  parameters?: Record<string, ParameterValue>;
  /** Capabilities to acknowledge. Default: CAPABILITY_IAM, CAPABILITY_NAMED_IAM and CAPABILITY_AUTO_EXPAND. */
  capabilities?: string[];
  /** Stack tags. */
  tags?: Record<string, string>;
  /** Leave a failed stack as it is (`CREATE_FAILED` / `UPDATE_FAILED`) instead of rolling back. */
  disableRollback?: boolean;
  /** Give up waiting after this many milliseconds. Default 300,000. */
  timeoutMs?: number;
  /**
   * A CDK-synthesized template reads the bootstrap version from SSM (`BootstrapVersion`, default
   * `/cdk-bootstrap/hnb659fds/version`) and fails without `cdk bootstrap`. When this is true (the
   * default) and that SSM parameter is missing, `deployStack` creates it with the version the
   * current bootstrap template writes, so a stack from `Template.fromStack()` deploys as is.
   */
  cdkBootstrapVersion?: boolean;
}

/** One resource of a deployed stack. */
export interface DeployedResource {
  /** The resource's name in the template. */
  logicalId: string;
  /** What CloudFormation's `Ref` gives for most types: a name, an ARN or a generated id. */
  physicalId: string;
  /** The resource type, e.g. `AWS::S3Tables::Table`. */
  type: string;
  /** Its latest status, e.g. `CREATE_COMPLETE`. */
  status: string;
}

/** What {@link Overcast.deployStack} resolves with. */
export interface DeployStackResult {
  /** The stack's name. */
  stackName: string;
  /** The stack's ARN. */
  stackId: string;
  /** `CREATE_COMPLETE` or `UPDATE_COMPLETE` (or the unchanged status when there was nothing to do). */
  status: string;
  /** False when the template and parameters matched the deployed stack ("No updates are to be performed."). */
  changed: boolean;
  /** Output values by OutputKey. */
  outputs: Record<string, string>;
  /** Physical resource ids by logical id. */
  physicalResourceIds: Record<string, string>;
  /** Every resource of the stack, in creation order. */
  resources: DeployedResource[];
  /** The stack's events of this operation, oldest first. */
  events: CFN.StackEvent[];
}

/** One failure CloudFormation recorded: a resource (or the stack) that ended `*_FAILED`, and why. */
export interface StackFailure {
  /** The resource's name in the template (the stack's name for the stack itself). */
  logicalId: string;
  /** The resource type (`AWS::CloudFormation::Stack` for the stack itself). */
  type: string;
  /** The failed status, e.g. `CREATE_FAILED`. */
  status: string;
  /** CloudFormation's ResourceStatusReason, e.g. the resource handler's message. */
  reason: string;
}

/**
 * The rejection of a stack operation that did not succeed: a deploy that rolled back (or failed
 * with rollback disabled), or a delete that ended `DELETE_FAILED`. `failures` holds the
 * `*_FAILED` events with their reasons, `events` every event of the operation, oldest first.
 */
export class DeployStackError extends Error {
  override readonly name = 'DeployStackError';
  constructor(
    message: string,
    /** The stack's name. */
    readonly stackName: string,
    /** The stack's ARN. */
    readonly stackId: string,
    /** The status the operation ended in, e.g. `ROLLBACK_COMPLETE`, `UPDATE_ROLLBACK_COMPLETE`. */
    readonly status: string,
    /** The `*_FAILED` events of the operation, oldest first. */
    readonly failures: StackFailure[],
    /** Every event of the operation, oldest first. */
    readonly events: CFN.StackEvent[],
  ) {
    super(message);
  }
}

/** A running in-process Overcast, returned by {@link startOvercast}. */
export interface Overcast {
  /** Base URL of the server, e.g. `http://127.0.0.1:39123`. */
  readonly endpoint: string;
  /** The region `deployStack` deploys to and `clientConfig` names. */
  readonly region: string;
  /** The account resources are created in (derived from the access key). */
  readonly accountId: string;
  /** The credentials of `clientConfig` and `env`. */
  readonly credentials: { accessKeyId: string; secretAccessKey: string };
  /** Settings for any `@aws-sdk/*` client: `new S3Client(overcast.clientConfig)`. */
  readonly clientConfig: ClientConfig;
  /** Environment variables pointing AWS CLIs and SDKs in child processes at this server. */
  readonly env: Record<string, string>;
  /** The underlying server (runtime, reset, close). */
  readonly server: RunningServer;
  /**
   * Creates the stack, or updates it if it exists, and resolves once it is `CREATE_COMPLETE` or
   * `UPDATE_COMPLETE`. Rejects with a {@link DeployStackError} when the stack rolls back, and
   * with the CloudFormation API's own error (`name` `ValidationError`,
   * `InsufficientCapabilitiesException`, …) when the request itself is refused.
   */
  deployStack(options: DeployStackOptions): Promise<DeployStackResult>;
  /**
   * Deletes a stack and resolves once it is `DELETE_COMPLETE` (at once if there is no such stack).
   * Rejects with a {@link DeployStackError} when it ends `DELETE_FAILED`.
   */
  deleteStack(stackName: string, options?: { timeoutMs?: number }): Promise<void>;
  /**
   * Moves Overcast's clock forward (a duration such as `'72h'`, `'10d'`, `'1d12h'`, or
   * milliseconds) for every age-based maintenance rule: snapshot age, unreferenced and noncurrent
   * days. Resolves with the clock's new time and its offset from the wall clock.
   */
  advanceClock(duration: string | number): Promise<{ now: Date; offsetMs: number }>;
  /**
   * Runs every enabled table maintenance job now — compaction, snapshot management, unreferenced
   * file removal, then replication — for every table, or for `tableArn` only, and resolves with
   * what each did.
   */
  runMaintenance(options?: { tableArn?: string }): Promise<MaintenanceRunReport>;
  /** Wipes all state (stacks, buckets, tables, parameters) while the server keeps running. */
  reset(): Promise<void>;
  /** Stops the server after finishing background work. Idempotent. */
  stop(): Promise<void>;
}
