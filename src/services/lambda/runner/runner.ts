/**
 * Running a function version: the per-server runner (its code root and worker pool, stopped by
 * the server's close hook) picks the worker program for the runtime — Node.js runtimes on the
 * Node.js running Overcast, Python runtimes on the machine's `python3` — builds the environment
 * Lambda gives a function (its own variables, the reserved ones, credentials for its account and
 * `AWS_ENDPOINT_URL` pointing back at Overcast, so SDK calls in the handler reach this server) and
 * runs the invocation on a warm worker. A function with layers finds them as Lambda's runtimes do:
 * their `nodejs/node_modules` on NODE_PATH, `python` on the module path, `bin` on PATH, and paths
 * under `/opt` in the Python runtime's subprocesses mapped to their directory. Each log line goes to Overcast's log with the function's
 * name and the request id.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Ctx, Runtime } from '../../../runtime/runtime.js';
import { MODULE_ROOT, packagePath } from '../../../package-root.js';
import type { VersionRow } from '../../../store/lambda-repo.js';
import { storedConfig, versionLabel, type StoredConfig } from '../configuration.js';
import { CodeRoot, sdkNodeModules, type CodePackageSource } from './code-dir.js';
import { WorkerPool } from './pool.js';
import { PYTHON_BOOTSTRAP } from './python-bootstrap.js';
import type { InvokeRequest, Outcome, WorkerSpec } from './worker.js';

const NODE_BOOTSTRAP = join('services', 'lambda', 'runner', 'node-bootstrap.cjs');

/** The compiled Node.js bootstrap: beside this module in a build, from dist/ when run from sources. */
let bootstrapPath: string | undefined;

/** The Node.js bootstrap's path, looked up once (every invocation names it). */
function nodeBootstrap(): string {
  bootstrapPath ??= findNodeBootstrap();
  return bootstrapPath;
}

function findNodeBootstrap(): string {
  const beside = join(MODULE_ROOT, NODE_BOOTSTRAP);
  if (existsSync(beside)) return beside;
  const built = packagePath('dist', NODE_BOOTSTRAP);
  if (existsSync(built)) return built;
  throw new Error(`${NODE_BOOTSTRAP} is missing: run npm run build`);
}

class LambdaRunner {
  private codeRoot: CodeRoot | undefined;
  private pythonProgram: string | undefined;
  readonly pool: WorkerPool;

  constructor(private readonly rt: Runtime) {
    this.pool = new WorkerPool((requestId, line) => this.log(requestId, line));
  }

  private current = new Map<string, string>();

  private log(requestId: string | undefined, line: string): void {
    const fn = requestId ? this.current.get(requestId) : undefined;
    this.rt.log.event('lambda', `${fn ?? 'function'} ${line}`, { function: fn, requestId });
  }

  private root(): CodeRoot {
    this.codeRoot ??= new CodeRoot(this.rt.config.dataDir);
    return this.codeRoot;
  }

  /** Runs one invocation of `row` (a function version, with its code and layers' packages) and returns its outcome. */
  async invoke(
    ctx: Ctx,
    row: VersionRow,
    packages: { code: CodePackageSource; layers: CodePackageSource[] },
    req: Omit<InvokeRequest, 'timeoutMs'>,
  ): Promise<Outcome & { cold: boolean }> {
    const config = storedConfig(row);
    const unavailable = this.unavailable(config);
    if (unavailable) return { ok: false, error: { errorType: 'Runtime.Unavailable', errorMessage: unavailable }, logs: [], ms: 0, cold: false };
    const root = this.root();
    const codeDir = await root.codeDir(packages.code.sha, packages.code.zip);
    const optDir = await root.optDir(packages.layers);
    const python = config.Runtime!.startsWith('python');
    const spec: WorkerSpec = {
      key: `${familyOf(ctx, row.name)}#${row.version}:${row.revision_id}`,
      kind: python ? 'python' : 'node',
      program: python ? (this.pythonProgram ??= root.runtimeFile('python-bootstrap.py', PYTHON_BOOTSTRAP)) : nodeBootstrap(),
      interpreter: 'python3',
      codeDir,
      env: this.environment(ctx, row, config, codeDir, optDir),
    };
    this.current.set(req.requestId, row.name);
    try {
      return await this.pool.run(spec, { ...req, timeoutMs: config.Timeout * 1000 });
    } finally {
      this.current.delete(req.requestId);
    }
  }

  /** Stops workers of the function that do not run `keepRevision` of `version` (all when undefined). */
  retire(ctx: Ctx, name: string, keep?: { version: number; revision: string }): void {
    const family = familyOf(ctx, name);
    this.pool.retire(family, keep ? `${family}#${keep.version}:${keep.revision}` : undefined);
  }

  async close(): Promise<void> {
    await this.pool.close();
    this.codeRoot?.remove();
  }

  private unavailable(config: StoredConfig): string | undefined {
    if (config.PackageType === 'Image') return 'Overcast does not run container image functions (PackageType Image)';
    const runtime = config.Runtime ?? '';
    if (runtime.startsWith('nodejs') || runtime.startsWith('python')) return undefined;
    return `Overcast runs Node.js and Python functions only, not runtime ${runtime}`;
  }

  private environment(ctx: Ctx, row: VersionRow, c: StoredConfig, codeDir: string, optDir: string | undefined): Record<string, string> {
    const endpoint = this.rt.endpoint ?? '';
    const url = endpoint ? new URL(endpoint) : undefined;
    const day = new Date().toISOString().slice(0, 10).replace(/-/g, '/');
    const version = versionLabel(row.version);
    const modules = sdkNodeModules();
    const major = /^nodejs(\d+)/.exec(c.Runtime ?? '')?.[1];
    // Lambda's NODE_PATH: the layers' Node.js folders, the runtime's SDK, then the code.
    const nodePath = [
      ...(optDir ? [...(major ? [join(optDir, 'nodejs', `node${major}`, 'node_modules')] : []), join(optDir, 'nodejs', 'node_modules')] : []),
      ...(modules ? [modules] : []),
      codeDir,
    ];
    const env: Record<string, string> = {
      ...(c.Environment ?? {}),
      PATH: [...(optDir ? [join(optDir, 'bin')] : []), this.root().binDir, process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'].join(delimiter),
      TMPDIR: this.root().tmpDir,
      LANG: 'en_US.UTF-8',
      TZ: ':UTC',
      ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
      ...(process.env.SYSTEMROOT ? { SYSTEMROOT: process.env.SYSTEMROOT } : {}),
      // As Lambda's NODE_PATH ends in /var/task: a bare require('cfn-response') finds the file beside index.js.
      NODE_PATH: nodePath.join(delimiter),
      _HANDLER: c.Handler ?? '',
      AWS_REGION: ctx.region,
      AWS_DEFAULT_REGION: ctx.region,
      AWS_EXECUTION_ENV: `AWS_Lambda_${c.Runtime}`,
      AWS_LAMBDA_FUNCTION_NAME: row.name,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(c.MemorySize),
      AWS_LAMBDA_FUNCTION_VERSION: version,
      AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
      AWS_LAMBDA_LOG_GROUP_NAME: c.LoggingConfig.LogGroup ?? `/aws/lambda/${row.name}`,
      AWS_LAMBDA_LOG_STREAM_NAME: `${day}/[${version}]${randomBytes(16).toString('hex')}`,
      // The function acts in its own account: a 12-digit access key is that account to Overcast.
      AWS_ACCESS_KEY_ID: ctx.account,
      AWS_SECRET_ACCESS_KEY: 'overcast-lambda',
      LAMBDA_TASK_ROOT: codeDir,
      LAMBDA_RUNTIME_DIR: this.root().path,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...(endpoint ? { AWS_ENDPOINT_URL: endpoint } : {}),
      ...(optDir ? { OVERCAST_LAMBDA_OPT: optDir, LD_LIBRARY_PATH: join(optDir, 'lib') } : {}),
      ...(url ? { OVERCAST_LAMBDA_CALLBACK_HOST: url.hostname, OVERCAST_LAMBDA_CALLBACK_PORT: url.port || '80' } : {}),
    };
    if (c.LoggingConfig.LogFormat === 'JSON') {
      env.AWS_LAMBDA_LOG_FORMAT = 'JSON';
      if (c.LoggingConfig.ApplicationLogLevel) env.AWS_LAMBDA_LOG_LEVEL = c.LoggingConfig.ApplicationLogLevel;
    }
    return env;
  }
}

function familyOf(ctx: Ctx, name: string): string {
  return `${ctx.account}/${ctx.region}/${name}`;
}

const runners = new WeakMap<Runtime, LambdaRunner>();

/** The server's runner, made on first use; the server's close stops its processes. */
export function runnerOf(rt: Runtime): LambdaRunner {
  let runner = runners.get(rt);
  if (!runner) {
    const made = new LambdaRunner(rt);
    runner = made;
    runners.set(rt, made);
    rt.closeHooks.push(() => made.close());
    rt.resetHooks.push(() => made.pool.killAll());
  }
  return runner;
}
