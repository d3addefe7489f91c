/**
 * `overcast start` as users run it: the built bin/overcast.js in a child process, its endpoint read
 * from the greeting once the ready line is out. For the tests that need a real process — the
 * command line itself, signals, kill -9 and restarts on a data directory, the bundle; everything
 * else starts its server in-process (server.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'overcast.js');

export interface CliServer {
  child: ChildProcess;
  endpoint: string;
  /** Everything the process wrote so far, stdout and stderr. */
  output(): string;
  /** SIGTERM (unless it has ended already) and its exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

interface StartOptions {
  /** The child's environment; PATH and HOME alone by default, so the machine's AWS_* stay out. */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Run it on these cores only (`taskset -c`), as a container limited to them would. */
  cores?: string;
}

/** Runs `overcast start <args>` (give it `--port 0`); resolves once it said it is ready. */
export function startCliServer(args: readonly string[], options: StartOptions = {}): Promise<CliServer> {
  const argv = [BIN, 'start', ...args];
  const [command, commandArgs] = options.cores ? ['taskset', ['-c', options.cores, process.execPath, ...argv]] : [process.execPath, argv];
  const child = spawn(command, commandArgs, {
    env: options.env ?? { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    child.kill('SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line: ${out}`)), options.timeoutMs ?? 20_000);
    child.stderr!.on('data', (d) => (out += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/[^\s"]+)/.exec(out);
      if (m && out.includes('Ready.')) {
        clearTimeout(timer);
        resolve({ child, endpoint: m[1]!, output: () => out, stop });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${out}`));
    });
  });
}
