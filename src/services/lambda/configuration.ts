/**
 * A function version's configuration: what is stored (the members of CreateFunction and
 * UpdateFunctionConfiguration that describe the function, with Lambda's defaults filled in — 3 s
 * timeout, 128 MB, x86_64, 512 MB of /tmp, Text logs to `/aws/lambda/<name>`), the checks AWS
 * makes on it (runtimes it no longer accepts, Runtime and Handler required for zip packages,
 * reserved or malformed environment variable names, the 4 KB environment limit, 900 s), and the
 * `FunctionConfiguration` every read answers. Functions are always `Active` with the last update
 * `Successful`: Overcast applies creates and updates synchronously, and the CDK's waiters
 * (FunctionActiveV2, FunctionUpdatedV2) poll for exactly those values.
 */
import type * as L from '@aws-sdk/client-lambda';
import type { Ctx } from '../../runtime/runtime.js';
import type { VersionRow } from '../../store/lambda-repo.js';
import { lambdaErrors } from './errors.js';
import { functionLayers } from './layers.js';
import { functionArn, LATEST, lastModifiedText } from './naming.js';

export interface StoredConfig {
  Runtime?: string;
  Role: string;
  Handler?: string;
  Description: string;
  Timeout: number;
  MemorySize: number;
  Environment?: Record<string, string>;
  Architectures: string[];
  PackageType: string;
  Layers?: string[];
  EphemeralStorage: { Size: number };
  LoggingConfig: L.LoggingConfig;
  TracingConfig: { Mode: string };
  ImageUri?: string;
  KMSKeyArn?: string;
  DeadLetterConfig?: L.DeadLetterConfig;
  VpcConfig?: L.VpcConfig;
}

/** Runtimes Lambda refuses for new functions and updates (deprecated, past their block date). */
const BLOCKED_RUNTIMES = /^(nodejs(4\.3(-edge)?|6\.10|8\.10|10\.x|12\.x|14\.x)?|python(2\.7|3\.6|3\.7)|dotnetcore[0-9.]+|ruby2\.5|java8|go1\.x)$/;

/** Keys the runtime sets itself (Lambda refuses them in Environment). */
const RESERVED = new Set([
  '_HANDLER', '_X_AMZN_TRACE_ID', 'AWS_DEFAULT_REGION', 'AWS_REGION', 'AWS_EXECUTION_ENV', 'AWS_LAMBDA_FUNCTION_NAME',
  'AWS_LAMBDA_FUNCTION_MEMORY_SIZE', 'AWS_LAMBDA_FUNCTION_VERSION', 'AWS_LAMBDA_INITIALIZATION_TYPE', 'AWS_LAMBDA_LOG_GROUP_NAME',
  'AWS_LAMBDA_LOG_STREAM_NAME', 'AWS_ACCESS_KEY', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN',
  'AWS_LAMBDA_RUNTIME_API', 'LAMBDA_TASK_ROOT', 'LAMBDA_RUNTIME_DIR',
]);

export type ConfigInput = Partial<Pick<L.CreateFunctionRequest, 'Runtime' | 'Role' | 'Handler' | 'Description' | 'Timeout' | 'MemorySize' | 'Environment' | 'Layers' | 'EphemeralStorage' | 'LoggingConfig' | 'TracingConfig' | 'KMSKeyArn' | 'DeadLetterConfig' | 'VpcConfig'>>;

/** What Lambda gives a function for each member CreateFunction leaves out. */
export function defaultConfig(name: string): StoredConfig {
  return {
    Role: '',
    Description: '',
    Timeout: 3,
    MemorySize: 128,
    Architectures: ['x86_64'],
    PackageType: 'Zip',
    EphemeralStorage: { Size: 512 },
    LoggingConfig: { LogFormat: 'Text', LogGroup: `/aws/lambda/${name}` },
    TracingConfig: { Mode: 'PassThrough' },
  };
}

/**
 * `base` with the members `input` gives applied (UpdateFunctionConfiguration replaces each member
 * it names). An empty KMSKeyArn or a DeadLetterConfig without TargetArn removes the setting, as
 * on AWS; log levels belong to the JSON log format (INFO unless set) and go with the Text one.
 */
export function applyConfig(name: string, base: StoredConfig | undefined, input: ConfigInput & { PackageType?: string; Architectures?: string[] }): StoredConfig {
  const next: StoredConfig = base ? { ...base } : { ...defaultConfig(name), Role: input.Role ?? '' };
  if (input.Runtime !== undefined) next.Runtime = input.Runtime;
  if (input.Role !== undefined) next.Role = input.Role;
  if (input.Handler !== undefined) next.Handler = input.Handler;
  if (input.Description !== undefined) next.Description = input.Description;
  if (input.Timeout !== undefined) next.Timeout = input.Timeout;
  if (input.MemorySize !== undefined) next.MemorySize = input.MemorySize;
  if (input.Environment !== undefined) {
    const vars = input.Environment.Variables ?? {};
    if (Object.keys(vars).length > 0) next.Environment = { ...vars };
    else delete next.Environment;
  }
  if (input.Layers !== undefined) next.Layers = [...input.Layers];
  if (input.EphemeralStorage?.Size !== undefined) next.EphemeralStorage = { Size: input.EphemeralStorage.Size };
  if (input.LoggingConfig !== undefined) next.LoggingConfig = logging({ ...next.LoggingConfig, ...input.LoggingConfig });
  if (input.TracingConfig?.Mode !== undefined) next.TracingConfig = { Mode: input.TracingConfig.Mode };
  if (input.KMSKeyArn !== undefined) {
    if (input.KMSKeyArn) next.KMSKeyArn = input.KMSKeyArn;
    else delete next.KMSKeyArn;
  }
  if (input.DeadLetterConfig !== undefined) {
    if (input.DeadLetterConfig.TargetArn) next.DeadLetterConfig = { TargetArn: input.DeadLetterConfig.TargetArn };
    else delete next.DeadLetterConfig;
  }
  if (input.VpcConfig !== undefined) next.VpcConfig = input.VpcConfig;
  if (input.PackageType !== undefined) next.PackageType = input.PackageType;
  if (input.Architectures !== undefined && input.Architectures.length > 0) next.Architectures = [...input.Architectures];
  checkConfig(next, input.Runtime !== undefined);
  return next;
}

function logging(c: L.LoggingConfig): L.LoggingConfig {
  if (c.LogFormat !== 'JSON') {
    const { ApplicationLogLevel: _a, SystemLogLevel: _s, ...text } = c;
    return text;
  }
  return { ...c, ApplicationLogLevel: c.ApplicationLogLevel ?? 'INFO', SystemLogLevel: c.SystemLogLevel ?? 'INFO' };
}

function checkConfig(c: StoredConfig, runtimeGiven: boolean): void {
  if (c.Runtime && runtimeGiven && BLOCKED_RUNTIMES.test(c.Runtime)) throw lambdaErrors.unsupportedRuntime(c.Runtime);
  if (c.PackageType === 'Zip' && (!c.Runtime || !c.Handler)) {
    throw lambdaErrors.invalidParameter('Runtime and Handler are mandatory parameters for functions created with deployment packages.');
  }
  if (c.Timeout > 900) {
    throw lambdaErrors.validation(`1 validation error detected: Value '${c.Timeout}' at 'timeout' failed to satisfy constraint: Member must have value less than or equal to 900`);
  }
  const vars = c.Environment ?? {};
  const reserved = Object.keys(vars).filter((k) => RESERVED.has(k));
  if (reserved.length) {
    throw lambdaErrors.invalidParameter(
      'Lambda was unable to configure your environment variables because the environment variables you have provided contains ' +
        `reserved keys that are currently not supported for modification. Reserved keys used in this request: ${reserved.join(', ')}`,
    );
  }
  const bad = Object.keys(vars).find((k) => !/^[a-zA-Z]([a-zA-Z0-9_])+$/.test(k));
  if (bad !== undefined) {
    throw lambdaErrors.validation(
      `1 validation error detected: Value at 'environment.variables' failed to satisfy constraint: Map keys must satisfy constraint: [Member must satisfy regular expression pattern: [a-zA-Z]([a-zA-Z0-9_])+]`,
    );
  }
  const measured = JSON.stringify(vars);
  if (Buffer.byteLength(measured) > 4096) {
    throw lambdaErrors.invalidParameter(
      'Lambda was unable to configure your environment variables because the environment variables you have provided exceeded the 4KB limit. ' +
        `String measured: ${measured}`,
    );
  }
}

export function storedConfig(row: VersionRow): StoredConfig {
  return JSON.parse(row.config) as StoredConfig;
}

export function versionLabel(version: number): string {
  return version === 0 ? LATEST : String(version);
}

/** The FunctionConfiguration of a stored version, as every read answers it. */
export function functionConfiguration(ctx: Ctx, row: VersionRow): L.FunctionConfiguration {
  const c = storedConfig(row);
  const version = versionLabel(row.version);
  return {
    FunctionName: row.name,
    FunctionArn: functionArn(ctx, row.name, row.version === 0 ? undefined : version),
    ...(c.Runtime !== undefined ? { Runtime: c.Runtime as L.Runtime } : {}),
    Role: c.Role,
    ...(c.Handler !== undefined ? { Handler: c.Handler } : {}),
    CodeSize: row.code_size,
    Description: c.Description,
    Timeout: c.Timeout,
    MemorySize: c.MemorySize,
    LastModified: lastModifiedText(row.last_modified),
    CodeSha256: row.code_sha,
    Version: version,
    ...(c.Environment ? { Environment: { Variables: { ...c.Environment } } } : {}),
    ...(c.KMSKeyArn ? { KMSKeyArn: c.KMSKeyArn } : {}),
    ...(c.DeadLetterConfig ? { DeadLetterConfig: c.DeadLetterConfig } : {}),
    ...(c.VpcConfig ? { VpcConfig: { ...c.VpcConfig, VpcId: '' } } : {}),
    TracingConfig: { Mode: c.TracingConfig.Mode as L.TracingMode },
    RevisionId: row.revision_id,
    ...(c.Layers?.length ? { Layers: functionLayers(ctx, c.Layers).map((l) => ({ Arn: l.arn, CodeSize: l.row?.code_size ?? 0 })) } : {}),
    State: 'Active',
    LastUpdateStatus: 'Successful',
    PackageType: c.PackageType as L.PackageType,
    Architectures: c.Architectures as L.Architecture[],
    EphemeralStorage: { Size: c.EphemeralStorage.Size },
    SnapStart: { ApplyOn: 'None', OptimizationStatus: 'Off' },
    ...(c.Runtime ? { RuntimeVersionConfig: { RuntimeVersionArn: `arn:${ctx.partition}:lambda:${ctx.region}::runtime:${Buffer.from(c.Runtime).toString('hex').padEnd(64, '0')}` } } : {}),
    LoggingConfig: c.LoggingConfig,
  };
}
