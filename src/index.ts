/**
 * Overcast's programmatic entry point, the package's main export. `startOvercast()` starts an
 * Overcast server inside the calling process (in memory, on an ephemeral 127.0.0.1 port) for IaC
 * unit tests: SDK clients and child processes reach it at `endpoint`, while `deployStack` and
 * `deleteStack` drive the CloudFormation engine in-process — the same provider functions the
 * CloudFormation API calls, never HTTP to itself — and wait for the stack operation to settle.
 * A deploy that fails rejects with a `DeployStackError` carrying the stack's failure events.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type * as CFN from '@aws-sdk/client-cloudformation';
import { configFromEnv, parseInterval, type OvercastConfig } from './config.js';
import { internalCtx, type Ctx } from './server/runtime.js';
import { startServer, type RunningServer } from './server/server.js';
import { isAwsError } from './wire/errors.js';
import { accountFromAccessKey } from './wire/sigv4.js';

// The lower-level pieces behind startOvercast: a server from a full configuration (what `overcast
// start` runs), and the configuration read from OVERCAST_* variables.
export { startServer, type RunningServer } from './server/server.js';
export { configFromEnv, type OvercastConfig } from './config.js';
export * from './api-types.js';
import {
  DeployStackError,
  type DeployedResource,
  type DeployStackOptions,
  type DeployStackResult,
  type Overcast,
  type ParameterValue,
  type StackFailure,
  type StartOvercastOptions,
} from './api-types.js';

const ALL_CAPABILITIES = ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'];
const TEMPLATE_BODY_MAX_BYTES = 51_200;
const DEFAULT_TIMEOUT_MS = 300_000;
/** The version `cdk bootstrap` (aws-cdk 2.1148) writes to `/cdk-bootstrap/<qualifier>/version`. */
const CDK_BOOTSTRAP_VERSION = '33';
const CDK_BOOTSTRAP_PARAMETER = /^\/cdk-bootstrap\/[A-Za-z0-9_-]+\/version$/;

type CfnProvider = typeof import('./services/cloudformation/provider.js');
type StackQueue = typeof import('./services/cloudformation/engine/stack-queue.js');
type TemplateLayer = typeof import('./services/cloudformation/template/index.js');

interface Engine {
  cfn: CfnProvider;
  settled: StackQueue['settled'];
  parse: TemplateLayer['parseTemplate'];
}

let engine: Promise<Engine> | undefined;

/**
 * The CloudFormation provider and the engine's settle hook, imported once (a failure is retried).
 * One import at a time, never in parallel: under jest's ESM mode two dynamic imports in flight
 * whose graphs share a module fail with "request for '…' is not in cache" (jestjs/jest#11434,
 * nodejs/node#33216); a `Promise.all` of imports hit it every run. In Node, parallel imports gained
 * nothing measurable (startOvercast stays ~0.12 s).
 */
function loadEngine(): Promise<Engine> {
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

function isNoUpdates(err: unknown): boolean {
  return isAwsError(err) && err.code === 'ValidationError' && err.message === 'No updates are to be performed.';
}

function isMissingStack(err: unknown): boolean {
  return isAwsError(err) && err.code === 'ValidationError' && / does not exist$/.test(err.message);
}

function parameterList(values: Record<string, ParameterValue> | undefined): CFN.Parameter[] {
  return Object.entries(values ?? {}).map(([key, value]) => ({
    ParameterKey: key,
    ParameterValue: Array.isArray(value) ? value.join(',') : String(value),
  }));
}

async function templateTextOf(o: DeployStackOptions): Promise<string> {
  const given = [o.template !== undefined, o.templateFile !== undefined, o.templateBody !== undefined].filter(Boolean).length;
  if (given !== 1) throw new TypeError('deployStack: give exactly one of template, templateFile or templateBody');
  if (o.template !== undefined) return JSON.stringify(o.template);
  if (o.templateFile !== undefined) return readFile(o.templateFile, 'utf8');
  return o.templateBody!;
}

function failuresOf(events: CFN.StackEvent[]): StackFailure[] {
  return events
    .filter((e) => e.ResourceStatus?.endsWith('_FAILED') && e.ResourceStatusReason)
    .map((e) => ({ logicalId: e.LogicalResourceId!, type: e.ResourceType!, status: e.ResourceStatus!, reason: e.ResourceStatusReason! }));
}

/** The rejection of an operation that ended `stack`'s way: its failed resources, with reasons, in the message. */
function failure(verb: string, stack: CFN.Stack, events: CFN.StackEvent[]): DeployStackError {
  const failures = failuresOf(events);
  const lines = [`Stack ${stack.StackName} failed to ${verb}: ${stack.StackStatus}`];
  const resourceFailures = failures.filter((f) => f.type !== 'AWS::CloudFormation::Stack');
  for (const f of resourceFailures.length ? resourceFailures : failures) {
    lines.push(`  ${f.logicalId} (${f.type}) ${f.status}: ${f.reason}`);
  }
  if (!failures.length && stack.StackStatusReason) lines.push(`  ${stack.StackStatusReason}`);
  return new DeployStackError(lines.join('\n'), stack.StackName!, stack.StackId!, stack.StackStatus!, failures, events);
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

  const ready = loadEngine;

  /** Waits until no operation of the stack runs, then reads it (by ARN, so deleted stacks too). */
  async function settle(e: Engine, stackId: string, timeoutMs: number): Promise<CFN.Stack> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await e.settled(rt, stackId, Math.max(1, deadline - Date.now()));
      const stack = (await e.cfn.describeStacks(ctx(), { StackName: stackId })).Stacks![0]!;
      const status = stack.StackStatus ?? '';
      if (!status.endsWith('_IN_PROGRESS') || status === 'REVIEW_IN_PROGRESS') return stack;
      if (Date.now() >= deadline) throw new Error(`Stack ${stack.StackName} still ${status} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async function describe(e: Engine, name: string): Promise<CFN.Stack | undefined> {
    const out = await e.cfn.describeStacks(ctx(), { StackName: name }).catch((err: unknown) => {
      if (isMissingStack(err)) return undefined;
      throw err;
    });
    return out?.Stacks?.[0];
  }

  async function eventsOf(e: Engine, stackId: string, operationId: string | undefined, since: number): Promise<CFN.StackEvent[]> {
    const out: CFN.StackEvent[] = [];
    let token: string | undefined;
    // Newest first: stop at the first event older than the operation.
    pages: do {
      const page = e.cfn.describeStackEvents(ctx(), { StackName: stackId, ...(token ? { NextToken: token } : {}) });
      for (const ev of page.StackEvents ?? []) {
        const ours = operationId ? ev.OperationId === operationId : (ev.Timestamp?.getTime() ?? 0) >= since;
        if (!ours && (ev.Timestamp?.getTime() ?? 0) < since) break pages;
        if (ours) out.push(ev);
      }
      token = page.NextToken;
    } while (token);
    return out.reverse();
  }

  function resourcesOf(e: Engine, stackId: string): DeployedResource[] {
    const out: DeployedResource[] = [];
    let token: string | undefined;
    do {
      const page = e.cfn.listStackResources(ctx(), { StackName: stackId, ...(token ? { NextToken: token } : {}) });
      for (const r of page.StackResourceSummaries ?? []) {
        const [logicalId, physicalId] = [r.LogicalResourceId ?? '', r.PhysicalResourceId ?? ''];
        out.push({ logicalId, physicalId, type: r.ResourceType ?? '', status: r.ResourceStatus ?? '' });
      }
      token = page.NextToken;
    } while (token);
    return out;
  }

  function resultOf(e: Engine, stack: CFN.Stack, changed: boolean, events: CFN.StackEvent[]): DeployStackResult {
    const resources = resourcesOf(e, stack.StackId!);
    return {
      stackName: stack.StackName!,
      stackId: stack.StackId!,
      status: stack.StackStatus!,
      changed,
      outputs: Object.fromEntries((stack.Outputs ?? []).map((o) => [o.OutputKey!, o.OutputValue ?? ''])),
      physicalResourceIds: Object.fromEntries(resources.map((r) => [r.logicalId, r.physicalId])),
      resources,
      events,
    };
  }

  /** TemplateBody when it fits the API's limit, else a TemplateURL to a staging object in Overcast's S3. */
  async function templateSource(text: string): Promise<{ TemplateBody: string } | { TemplateURL: string }> {
    if (Buffer.byteLength(text, 'utf8') <= TEMPLATE_BODY_MAX_BYTES) return { TemplateBody: text };
    const s3 = await import('./services/s3/provider.js');
    const c = ctx();
    const bucket = `overcast-templates-${accountId}-${region}`;
    try {
      s3.createBucket(c, { Bucket: bucket }, { internal: true });
    } catch (err) {
      if (!isAwsError(err) || err.code !== 'BucketAlreadyOwnedByYou') throw err;
    }
    const key = `${randomUUID()}.template`;
    await s3.putObject(c, { Bucket: bucket, Key: key, Body: Readable.from([Buffer.from(text, 'utf8')]) });
    return { TemplateURL: `s3://${bucket}/${key}` };
  }

  /** Creates the CDK bootstrap-version SSM parameters a template reads by default, when missing. */
  async function ensureCdkBootstrapVersion(e: Engine, o: DeployStackOptions, text: string): Promise<void> {
    let doc: { Parameters?: Record<string, { Type?: unknown; Default?: unknown }> };
    try {
      doc = (o.template as typeof doc | undefined) ?? (e.parse(text) as typeof doc);
    } catch {
      return; // the deploy itself reports the template's error
    }
    const wanted = Object.entries(doc.Parameters ?? {}).filter(
      ([key, p]) =>
        typeof p?.Type === 'string' &&
        p.Type.startsWith('AWS::SSM::Parameter::Value<') &&
        typeof p.Default === 'string' &&
        CDK_BOOTSTRAP_PARAMETER.test(p.Default) &&
        o.parameters?.[key] === undefined,
    );
    if (!wanted.length) return;
    const ssm = await import('./services/ssm/provider.js');
    for (const [, p] of wanted) {
      const name = p.Default as string;
      try {
        ssm.getParameter(ctx(), { Name: name });
      } catch (err) {
        if (!isAwsError(err) || err.code !== 'ParameterNotFound') throw err;
        ssm.putParameter(ctx(), { Name: name, Type: 'String', Value: CDK_BOOTSTRAP_VERSION });
      }
    }
  }

  async function deleteAndWait(e: Engine, stack: CFN.Stack, timeoutMs: number): Promise<void> {
    const since = Date.now();
    await e.cfn.deleteStack(ctx(), { StackName: stack.StackId! });
    const after = await settle(e, stack.StackId!, timeoutMs);
    if (after.StackStatus === 'DELETE_COMPLETE') return;
    throw failure('delete', after, await eventsOf(e, stack.StackId!, undefined, since));
  }

  async function deployStack(o: DeployStackOptions): Promise<DeployStackResult> {
    if (!o || typeof o.stackName !== 'string') throw new TypeError('deployStack: stackName is required');
    const e = await ready();
    const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const text = await templateTextOf(o);
    if (o.cdkBootstrapVersion !== false) await ensureCdkBootstrapVersion(e, o, text);
    const source = await templateSource(text);
    const common = {
      StackName: o.stackName,
      ...source,
      Parameters: parameterList(o.parameters),
      Capabilities: (o.capabilities ?? ALL_CAPABILITIES) as CFN.Capability[],
      ...(o.tags ? { Tags: Object.entries(o.tags).map(([Key, Value]) => ({ Key, Value })) } : {}),
      ...(o.disableRollback ? { DisableRollback: true } : {}),
    };
    let existing = await describe(e, o.stackName);
    // As the CDK does: a stack that never got created (or a change set's empty stack) is deleted first.
    if (existing && ['ROLLBACK_COMPLETE', 'ROLLBACK_FAILED', 'REVIEW_IN_PROGRESS'].includes(existing.StackStatus ?? '')) {
      await deleteAndWait(e, existing, timeoutMs);
      existing = undefined;
    }
    const since = Date.now();
    let started: { StackId?: string; OperationId?: string };
    if (!existing) {
      started = await e.cfn.createStack(ctx(), common);
    } else {
      try {
        started = await e.cfn.updateStack(ctx(), common);
      } catch (err) {
        if (!isNoUpdates(err)) throw err;
        const current = await settle(e, existing.StackId!, timeoutMs);
        return resultOf(e, current, false, []);
      }
    }
    const stack = await settle(e, started.StackId!, timeoutMs);
    const events = await eventsOf(e, stack.StackId!, started.OperationId, since);
    if (stack.StackStatus === 'CREATE_COMPLETE' || stack.StackStatus === 'UPDATE_COMPLETE') {
      return resultOf(e, stack, true, events);
    }
    throw failure('deploy', stack, events);
  }

  async function deleteStack(stackName: string, opts: { timeoutMs?: number } = {}): Promise<void> {
    const e = await ready();
    const stack = await describe(e, stackName);
    if (!stack || stack.StackStatus === 'DELETE_COMPLETE') return;
    await deleteAndWait(e, stack, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  }

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
    deployStack,
    deleteStack,
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
