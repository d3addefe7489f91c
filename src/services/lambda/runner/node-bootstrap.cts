/**
 * The program every Node.js function's worker process runs (compiled to `node-bootstrap.cjs`):
 * it loads the handler as Lambda's runtime interface client does (`file.export`, `.js` by the
 * nearest package.json's type, `.mjs`, `.cjs`, then Node's resolution), and answers each invoke the
 * parent sends over IPC with the handler's result or Lambda's error shape. Both handler styles
 * work: a promise answers when it settles; a callback (or a plain return) waits for the event loop
 * to drain unless `context.callbackWaitsForEmptyEventLoop` is false, which is why the IPC channel
 * is unreferenced while an invocation runs. `console.*` becomes Lambda's log lines, sent to the
 * parent with the request id. HTTPS requests to Overcast's own host are sent over plain HTTP to
 * its port, because the CDK's response senders ignore the ResponseURL's scheme and port (they call
 * `https.request({hostname, path})`). A watchdog thread kills the process when the parent is gone,
 * even while the handler is stuck in a loop. It imports nothing of Overcast: it runs on its own.
 */
import { existsSync, readFileSync } from 'node:fs';
import http = require('node:http');
import https = require('node:https');
import path = require('node:path');
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { Worker } from 'node:worker_threads';

interface InvokeMessage {
  t: 'invoke';
  id: string;
  payload: string;
  ctx: { requestId: string; arn: string; deadline: number; timeoutMs: number; clientContext?: unknown; identity?: unknown };
}

interface ErrorPayload {
  errorType: string;
  errorMessage: string;
  trace: string[];
}

type Handler = (event: unknown, context: object, callback: (err?: unknown, result?: unknown) => void) => unknown;

const send = (message: object): void => {
  if (process.connected) process.send!(message);
};

// A `import()` TypeScript leaves alone in both builds (the CommonJS one would turn it into require).
const dynamicImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<Record<string, unknown>>;

function watchParent(): void {
  const source = `
    const { workerData } = require('node:worker_threads');
    setInterval(() => { if (process.ppid !== workerData.ppid) process.kill(workerData.pid, 'SIGKILL'); }, 500);`;
  const watchdog = new Worker(source, { eval: true, workerData: { ppid: process.ppid, pid: process.pid } });
  watchdog.unref();
}

function redirectOwnHttps(): void {
  const host = process.env.OVERCAST_LAMBDA_CALLBACK_HOST;
  const port = Number(process.env.OVERCAST_LAMBDA_CALLBACK_PORT);
  if (!host || !port) return;
  const wrap = (original: typeof https.request, plain: typeof http.request) =>
    function (this: unknown, ...args: unknown[]) {
      let options: Record<string, unknown> = {};
      let rest = args;
      if (typeof args[0] === 'string' || args[0] instanceof URL) {
        const url = new URL(String(args[0]));
        options = { hostname: url.hostname, port: url.port || undefined, path: `${url.pathname}${url.search}` };
        rest = args.slice(1);
        if (rest[0] && typeof rest[0] === 'object') {
          options = { ...options, ...(rest[0] as object) };
          rest = rest.slice(1);
        }
      } else if (args[0] && typeof args[0] === 'object') {
        options = { ...(args[0] as object) };
        rest = args.slice(1);
      }
      const hostname = String(options.hostname ?? options.host ?? '').replace(/:\d+$/, '');
      const givenPort = options.port === undefined || options.port === null || options.port === '' ? 443 : Number(options.port);
      if (hostname !== host || givenPort !== 443) return (original as (...a: unknown[]) => unknown).apply(this, args);
      const { agent: _agent, host: _host, ...kept } = options;
      return (plain as (...a: unknown[]) => unknown)({ ...kept, protocol: 'http:', hostname: host, port }, ...rest);
    };
  https.request = wrap(https.request, http.request) as typeof https.request;
  https.get = wrap(https.get, http.get) as typeof https.get;
}

const LEVELS: Record<string, number> = { TRACE: 0, DEBUG: 1, INFO: 2, WARN: 3, ERROR: 4, FATAL: 5 };
let currentRequestId: string | undefined;

function patchConsole(): void {
  const json = process.env.AWS_LAMBDA_LOG_FORMAT === 'JSON';
  const min = LEVELS[(process.env.AWS_LAMBDA_LOG_LEVEL ?? '').toUpperCase()] ?? 0;
  const emit = (level: string, args: unknown[]) => {
    if ((LEVELS[level] ?? 2) < min) return;
    const message = format(...args);
    const timestamp = new Date().toISOString();
    const line = json
      ? JSON.stringify({ timestamp, level, requestId: currentRequestId, message })
      : `${timestamp}\t${currentRequestId ?? 'undefined'}\t${level}\t${message.replace(/\n/g, '\r')}`;
    send({ t: 'log', line });
  };
  console.log = (...a: unknown[]) => emit('INFO', a);
  console.info = (...a: unknown[]) => emit('INFO', a);
  console.warn = (...a: unknown[]) => emit('WARN', a);
  console.error = (...a: unknown[]) => emit('ERROR', a);
  console.debug = (...a: unknown[]) => emit('DEBUG', a);
  console.trace = (...a: unknown[]) => emit('TRACE', a);
}

function errorPayload(err: unknown, type?: string): ErrorPayload {
  if (err instanceof Error) {
    return { errorType: type ?? err.name, errorMessage: err.message, trace: (err.stack ?? '').split('\n') };
  }
  return { errorType: type ?? typeof err, errorMessage: String(err), trace: [] };
}

class RuntimeError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/** The nearest package.json's `type`, looking up from `dir` and stopping at node_modules or the root. */
function packageType(dir: string): string | undefined {
  let current = dir;
  for (;;) {
    const file = path.join(current, 'package.json');
    if (existsSync(file)) {
      try {
        return (JSON.parse(readFileSync(file, 'utf8')) as { type?: string }).type;
      } catch {
        return undefined;
      }
    }
    const parent = path.dirname(current);
    if (parent === current || path.basename(current) === 'node_modules') return undefined;
    current = parent;
  }
}

async function loadModule(appRoot: string, moduleRoot: string, moduleName: string): Promise<Record<string, unknown>> {
  const base = path.resolve(appRoot, moduleRoot, moduleName);
  if (existsSync(base) && !base.endsWith(path.sep)) return require(base) as Record<string, unknown>;
  const isModule = packageType(path.dirname(base)) === 'module';
  if (existsSync(`${base}.js`)) return isModule ? dynamicImport(pathToFileURL(`${base}.js`).href) : (require(`${base}.js`) as Record<string, unknown>);
  if (existsSync(`${base}.mjs`)) return dynamicImport(pathToFileURL(`${base}.mjs`).href);
  if (existsSync(`${base}.cjs`)) return require(`${base}.cjs`) as Record<string, unknown>;
  const resolved = require.resolve(moduleName, { paths: [appRoot, path.resolve(appRoot, moduleRoot)] });
  return require(resolved) as Record<string, unknown>;
}

async function loadHandler(appRoot: string, handlerString: string): Promise<Handler> {
  if (handlerString.includes('..')) {
    throw new RuntimeError(
      'Runtime.MalformedHandlerName',
      `'${handlerString}' is not a valid handler name. Use absolute paths when specifying root directories in handler names.`,
    );
  }
  const slash = handlerString.lastIndexOf('/');
  const moduleRoot = handlerString.slice(0, slash + 1);
  const match = /^([^.]*)\.(.*)$/.exec(handlerString.slice(slash + 1));
  if (!match) throw new RuntimeError('Runtime.MalformedHandlerName', 'Bad handler');
  const [, moduleName, exportPath] = match as unknown as [string, string, string];
  let loaded: Record<string, unknown>;
  try {
    loaded = await loadModule(appRoot, moduleRoot, moduleName);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e instanceof SyntaxError) throw new RuntimeError('Runtime.UserCodeSyntaxError', `${e.name}: ${e.message}`);
    if (e?.code === 'MODULE_NOT_FOUND' || e?.code === 'ERR_MODULE_NOT_FOUND') {
      throw new RuntimeError('Runtime.ImportModuleError', `Error: ${e.message}`);
    }
    throw err;
  }
  let target: unknown = loaded;
  for (const part of exportPath.split('.')) {
    target = target === undefined || target === null ? undefined : (target as Record<string, unknown>)[part];
  }
  if (target === undefined) throw new RuntimeError('Runtime.HandlerNotFound', `${handlerString} is undefined or not exported`);
  if (typeof target !== 'function') throw new RuntimeError('Runtime.HandlerNotFound', `${handlerString} is not a function`);
  return target as Handler;
}

/** The invocation running now: how it ends once the event loop drains. */
interface Running {
  id: string;
  done: boolean;
  returnedPromise: boolean;
  callbackResult?: { err: unknown; result: unknown };
  finish(err: unknown, result: unknown, type?: string): void;
}

let running: Running | undefined;
let handlerPromise: Promise<Handler> | undefined;

function answer(id: string, err: unknown, result: unknown, type?: string): void {
  if (err !== undefined && err !== null) {
    send({ t: 'done', id, ok: false, error: errorPayload(err, type) });
    return;
  }
  let payload: string;
  try {
    payload = JSON.stringify(result === undefined ? null : result);
  } catch (e) {
    send({ t: 'done', id, ok: false, error: errorPayload(e, 'Runtime.SerializationError') });
    return;
  }
  send({ t: 'done', id, ok: true, payload });
}

function makeContext(msg: InvokeMessage, r: Running, callback: (err?: unknown, result?: unknown) => void): object {
  const env = process.env;
  let waits = true;
  return {
    awsRequestId: msg.ctx.requestId,
    invokedFunctionArn: msg.ctx.arn,
    functionName: env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: env.AWS_LAMBDA_FUNCTION_VERSION,
    memoryLimitInMB: env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    logGroupName: env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: env.AWS_LAMBDA_LOG_STREAM_NAME,
    clientContext: msg.ctx.clientContext,
    identity: msg.ctx.identity,
    getRemainingTimeInMillis: () => Math.max(0, msg.ctx.deadline - Date.now()),
    get callbackWaitsForEmptyEventLoop() {
      return waits;
    },
    set callbackWaitsForEmptyEventLoop(value: boolean) {
      waits = value;
    },
    succeed: (result: unknown) => r.finish(null, result),
    fail: (err: unknown) => r.finish(err ?? 'handled', undefined),
    done: (err: unknown, result: unknown) => r.finish(err, result),
    callback,
    get _waits() {
      return waits;
    },
  };
}

async function invoke(msg: InvokeMessage): Promise<void> {
  currentRequestId = msg.ctx.requestId;
  process.env._X_AMZN_TRACE_ID = `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${msg.ctx.requestId.replace(/-/g, '').slice(0, 24)}`;
  const r: Running = {
    id: msg.id,
    done: false,
    returnedPromise: false,
    finish(err, result, type) {
      if (r.done) return;
      r.done = true;
      running = undefined;
      process.channel?.ref();
      answer(msg.id, err, result, type);
    },
  };
  running = r;
  let handler: Handler;
  try {
    const cold = !handlerPromise;
    handlerPromise ??= loadHandler(process.cwd(), process.env._HANDLER ?? '');
    handler = await handlerPromise;
    if (cold) {
      // Init is its own phase, as in Lambda: the function's timeout counts from here.
      msg.ctx.deadline = Date.now() + msg.ctx.timeoutMs;
      send({ t: 'init', id: msg.id });
    }
  } catch (err) {
    // An init error: reported for this invoke, then the process goes (the next invoke starts anew).
    r.finish(err, undefined);
    send({ t: 'exit' });
    setImmediate(() => process.exit(129));
    return;
  }
  let event: unknown;
  try {
    event = JSON.parse(msg.payload || 'null');
  } catch {
    event = msg.payload;
  }
  const callback = (err?: unknown, result?: unknown) => {
    if (r.done || r.callbackResult) return;
    if ((context as { _waits: boolean })._waits) r.callbackResult = { err, result };
    else r.finish(err, result);
  };
  const context = makeContext(msg, r, callback);
  // The loop must be able to drain while the handler runs (see the module header).
  process.channel?.unref();
  try {
    const result = handler(event, context, callback) as { then?: unknown } | undefined;
    if (result && typeof result.then === 'function') {
      r.returnedPromise = true;
      (result as Promise<unknown>).then(
        (value) => r.finish(null, value),
        (err: unknown) => r.finish(err ?? new Error('handled'), undefined),
      );
    }
  } catch (err) {
    r.finish(err, undefined);
  }
}

process.on('beforeExit', () => {
  const r = running;
  if (!r) return;
  if (r.callbackResult) r.finish(r.callbackResult.err, r.callbackResult.result);
  else if (r.returnedPromise) {
    r.finish(
      new Error(
        'The Lambda runtime client detected an unexpected Node.js exit code. This is most commonly caused by a Promise that was never settled.',
      ),
      undefined,
      'Runtime.NodeJsExit',
    );
  } else r.finish(null, null);
});

function fatal(type: string) {
  return (err: unknown) => {
    if (running) running.finish(err, undefined, type === 'Runtime.UnhandledPromiseRejection' && !(err instanceof Error) ? type : undefined);
    else console.error(format('%s', err));
    send({ t: 'exit' });
    setImmediate(() => process.exit(type === 'Runtime.UnhandledPromiseRejection' ? 128 : 129));
  };
}

process.on('uncaughtException', fatal('Runtime.UncaughtException'));
process.on('unhandledRejection', fatal('Runtime.UnhandledPromiseRejection'));
process.on('disconnect', () => process.exit(0));
process.on('message', (msg: InvokeMessage) => {
  if (msg?.t === 'invoke') void invoke(msg);
});

watchParent();
redirectOwnHttps();
patchConsole();
(globalThis as Record<string, unknown>).awslambda = {
  streamifyResponse: (fn: unknown) => fn,
  HttpResponseStream: { from: (stream: unknown) => stream },
};
send({ t: 'ready' });
