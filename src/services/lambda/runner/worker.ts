/**
 * One function worker: a child process that runs one version of one function and answers its
 * invocations one at a time — Node.js through node-bootstrap.cjs over an IPC channel, Python
 * through python-bootstrap.py over a pipe. The parent enforces the function's Timeout from the
 * moment the handler is loaded (the process is killed and the invocation ends `Sandbox.Timedout`;
 * a new process's init gets 10 s more, as Lambda's init phase does), turns an exit during an invocation
 * into `Runtime.ExitError`, collects the invocation's log lines (console output and anything the
 * process writes to stdout or stderr) and hands each to `onLog` with the request id.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** Lambda gives a new execution environment's init (loading the handler module) 10 s of its own. */
const INIT_LIMIT_MS = 10_000;

export interface WorkerSpec {
  /** The version of the function's configuration this worker runs (a new one gets new workers). */
  key: string;
  kind: 'node' | 'python';
  /** The program: node-bootstrap.cjs, or python-bootstrap.py. */
  program: string;
  /** The interpreter for Python (`python3`); Node workers run on this Node. */
  interpreter?: string;
  codeDir: string;
  env: Record<string, string>;
}

export interface InvokeRequest {
  requestId: string;
  payload: string;
  /** The ARN the caller invoked (qualified when it named a qualifier). */
  arn: string;
  timeoutMs: number;
  clientContext?: unknown;
}

export interface LambdaErrorPayload {
  errorType: string;
  errorMessage: string;
  trace?: string[];
  stackTrace?: string[];
  requestId?: string;
}

export type Outcome = ({ ok: true; payload: string } | { ok: false; error: LambdaErrorPayload }) & {
  logs: string[];
  ms: number;
};

interface Current {
  req: InvokeRequest;
  started: number;
  logs: string[];
  timer: NodeJS.Timeout;
  resolve(o: Outcome): void;
}

export class Worker {
  readonly key: string;
  busy = false;
  private child: ChildProcess;
  private current: Current | undefined;
  private exited = false;
  /** The handler is loaded (the init phase is over). */
  private initialized = false;
  /** Killed but maybe not yet gone: never handed another invocation. */
  private killed = false;
  private spawnError: Error | undefined;

  constructor(
    readonly spec: WorkerSpec,
    private readonly onLog: (requestId: string | undefined, line: string) => void,
    private readonly onExit: (w: Worker) => void,
  ) {
    this.key = spec.key;
    const options = { cwd: spec.codeDir, env: spec.env, windowsHide: true };
    this.child =
      spec.kind === 'node'
        ? spawn(process.execPath, [spec.program], { ...options, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], serialization: 'json' })
        : spawn(spec.interpreter ?? 'python3', ['-u', spec.program], { ...options, stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
    this.lines(this.child.stdout);
    this.lines(this.child.stderr);
    if (spec.kind === 'node') this.child.on('message', (m) => this.message(m as Record<string, unknown>));
    else createInterface({ input: this.child.stdio[3] as Readable }).on('line', (l) => this.pythonLine(l));
    this.child.stdin?.on('error', () => {});
    this.child.on('error', (err) => {
      this.spawnError = err;
      this.ended(null, null);
    });
    this.child.on('exit', (code, signal) => this.ended(code, signal));
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Alive and not being stopped: can take an invocation. */
  get usable(): boolean {
    return !this.exited && !this.killed;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  run(req: InvokeRequest): Promise<Outcome> {
    this.busy = true;
    return new Promise((resolve) => {
      const started = performance.now();
      // A new process first loads the handler: Lambda's init phase, with its own limit.
      const timer = setTimeout(() => this.timedOut(), req.timeoutMs + (this.initialized ? 0 : INIT_LIMIT_MS));
      this.current = { req, started, logs: [], timer, resolve };
      if (this.exited) {
        this.ended(null, null);
        return;
      }
      const message = { t: 'invoke', id: req.requestId, payload: req.payload, ctx: this.invokeContext(req) };
      if (this.spec.kind === 'node') this.child.send(message, (err) => err && this.ended(null, null));
      else this.child.stdin!.write(`${JSON.stringify(message)}\n`);
    });
  }

  kill(): void {
    this.killed = true;
    if (!this.exited) this.child.kill('SIGKILL');
  }

  private invokeContext(req: InvokeRequest) {
    return { requestId: req.requestId, arn: req.arn, deadline: Date.now() + req.timeoutMs, timeoutMs: req.timeoutMs, clientContext: req.clientContext };
  }

  private lines(stream: Readable | null): void {
    if (!stream) return;
    createInterface({ input: stream }).on('line', (line) => this.log(line));
  }

  private log(line: string): void {
    this.current?.logs.push(line);
    this.onLog(this.current?.req.requestId, line);
  }

  private message(m: Record<string, unknown>): void {
    if (m.t === 'log') this.log(String(m.line));
    else if (m.t === 'init' && this.current && m.id === this.current.req.requestId) {
      this.initialized = true;
      clearTimeout(this.current.timer);
      this.current.timer = setTimeout(() => this.timedOut(), this.current.req.timeoutMs);
    }
    else if (m.t === 'done' && this.current && m.id === this.current.req.requestId) {
      this.finish(m.ok ? { ok: true, payload: String(m.payload) } : { ok: false, error: m.error as LambdaErrorPayload });
    }
  }

  private pythonLine(line: string): void {
    let m: Record<string, unknown>;
    try {
      m = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    this.message(m);
  }

  private finish(result: { ok: true; payload: string } | { ok: false; error: LambdaErrorPayload }): void {
    const c = this.current;
    if (!c) return;
    this.current = undefined;
    clearTimeout(c.timer);
    this.busy = false;
    c.resolve({ ...result, logs: c.logs, ms: performance.now() - c.started });
  }

  private timedOut(): void {
    const c = this.current;
    if (!c) return;
    const seconds = (c.req.timeoutMs / 1000).toFixed(2);
    this.kill();
    this.finish({
      ok: false,
      error: { errorType: 'Sandbox.Timedout', errorMessage: `RequestId: ${c.req.requestId} Error: Task timed out after ${seconds} seconds` },
    });
  }

  private ended(code: number | null, signal: NodeJS.Signals | null): void {
    const first = !this.exited;
    this.exited = true;
    const c = this.current;
    if (c) {
      const why = this.spawnError
        ? `Runtime.Unavailable`
        : 'Runtime.ExitError';
      const detail = this.spawnError
        ? this.spawnError.message
        : `Runtime exited with error: ${signal ? `signal: ${signal.toLowerCase().replace(/^sig/, '')}` : `exit status ${code ?? 0}`}`;
      this.finish({ ok: false, error: { errorType: why, errorMessage: `RequestId: ${c.req.requestId} Error: ${detail}` } });
    }
    if (first) this.onExit(this);
  }
}
