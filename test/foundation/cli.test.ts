/**
 * The `overcast` command line, run as users run it: version, help (each command's own), `env`
 * (and `eval` of its output in a real shell, keeping credentials already set), `start` printing
 * its endpoint and a ready line whose command a shell can run as printed, honouring flags and
 * OVERCAST_* variables, stopping on SIGTERM, and refusing bad flags and a locked data directory
 * in one line (start-up.test.ts has the other start-up failures).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/server.js';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'overcast.js');
const children: ChildProcess[] = [];

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
  return env;
}

function startCli(args: string[], env: NodeJS.ProcessEnv = cleanEnv()): Promise<{ child: ChildProcess; out: string }> {
  const child = spawn(process.execPath, [BIN, 'start', ...args], { env, cwd: join(import.meta.dirname, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no ready line: ${out}`)), 15_000);
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('Ready.')) {
        clearTimeout(timer);
        resolve({ child, out });
      }
    });
    child.stderr!.on('data', (d) => (out += d));
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

describe('overcast CLI', () => {
  it('prints its version and help', async () => {
    const { stdout: version } = await run(process.execPath, [BIN, '--version']);
    expect(version.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const { stdout: help } = await run(process.execPath, [BIN, '--help']);
    for (const word of ['start', 'env', 'deploy', 'destroy', 'stacks', 'reset', '--port', '--data-dir', '--in-memory', 'overcast <command> --help']) {
      expect(help).toContain(word);
    }
  });

  it('fails on an unknown command with exit code 2 and one line naming the commands', async () => {
    await expect(run(process.execPath, [BIN, 'frobnicate'])).rejects.toMatchObject({
      code: 2,
      stderr: "overcast: unknown command 'frobnicate'. Commands: start, env, deploy, diff, destroy, stacks, reset, clock, maintenance. See: overcast --help\n",
    });
  });

  it('prints each command\'s own help with --help, -h and `overcast help <command>`', async () => {
    const pages: Record<string, string[]> = {
      start: ['Usage: overcast start', '--port PORT', 'OVERCAST_PORT', '--data-dir DIR', '--log-format', '--in-memory'],
      env: ['Usage: eval "$(overcast env', '--port PORT', '--force'],
      deploy: ['Usage: overcast deploy TEMPLATE --stack-name NAME', '--parameter', '--no-rollback'],
      diff: ['Usage: overcast diff TEMPLATE --stack-name NAME', 'cdk.out', 'Exit code'],
      destroy: ['Usage: overcast destroy NAME'],
      stacks: ['Usage: overcast stacks [--all]'],
      reset: ['Usage: overcast reset'],
      clock: ['Usage: overcast clock [advance DURATION]'],
      maintenance: ['Usage: overcast maintenance run', '--table'],
    };
    for (const [command, words] of Object.entries(pages)) {
      const flag = command === 'deploy' ? '-h' : '--help';
      const { stdout } = await run(process.execPath, [BIN, command, flag]);
      for (const word of words) expect(stdout, `${command} ${flag}`).toContain(word);
    }
    const { stdout: viaHelp } = await run(process.execPath, [BIN, 'help', 'stacks']);
    expect(viaHelp).toContain('Usage: overcast stacks [--all]');
  });

  it('env prints export lines a shell can eval', async () => {
    const { stdout } = await run(
      'bash',
      ['-c', `eval "$("${process.execPath}" "${BIN}" env)" && echo "$AWS_ENDPOINT_URL|$AWS_ACCESS_KEY_ID|$AWS_REGION"`],
      { env: cleanEnv() },
    );
    expect(stdout.trim()).toBe('http://127.0.0.1:4566|test|us-east-1');
  });

  it('env keeps credentials and region already set unless --force', async () => {
    const env = cleanEnv({ AWS_ACCESS_KEY_ID: 'AKIAREAL', AWS_SECRET_ACCESS_KEY: 'secret', AWS_REGION: 'eu-west-1' });
    const script = (flag: string) =>
      `eval "$("${process.execPath}" "${BIN}" env ${flag})" && echo "$AWS_ENDPOINT_URL|$AWS_ACCESS_KEY_ID|$AWS_REGION"`;
    const kept = await run('bash', ['-c', script('')], { env });
    expect(kept.stdout.trim()).toBe('http://127.0.0.1:4566|AKIAREAL|eu-west-1');
    const forced = await run('bash', ['-c', script('--force')], { env });
    expect(forced.stdout.trim()).toBe('http://127.0.0.1:4566|test|us-east-1');
  });

  it('env follows OVERCAST_PORT and --port', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'env'], { env: cleanEnv({ OVERCAST_PORT: '4700' }) });
    expect(stdout).toContain('export AWS_ENDPOINT_URL=http://127.0.0.1:4700');
    const { stdout: flagged } = await run(process.execPath, [BIN, 'env', '--port', '4800'], { env: cleanEnv({ OVERCAST_PORT: '4700' }) });
    expect(flagged).toContain('export AWS_ENDPOINT_URL=http://127.0.0.1:4800');
  });

  it('start prints the endpoint and a ready line whose command points a shell at it, serves health, and stops on SIGTERM', async () => {
    const { child, out } = await startCli(['--port', '0', '--in-memory', '--log-level', 'warn']);
    const endpoint = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
    expect(endpoint).toBeDefined();
    // Started as `node bin/overcast.js` (as `npm start` does in a checkout), it says so, with the port.
    const command = /^Ready\. .* in your shell: (eval .*)$/m.exec(out)?.[1];
    expect(command).toBe(`eval "$(node bin/overcast.js env --port ${new URL(endpoint!).port})"`);
    const { stdout: pointed } = await run('bash', ['-c', `${command} && echo "$AWS_ENDPOINT_URL|$AWS_ACCESS_KEY_ID|$AWS_REGION"`], {
      env: cleanEnv(),
      cwd: join(import.meta.dirname, '..', '..'),
    });
    expect(pointed.trim()).toBe(`${endpoint}|test|us-east-1`);
    const health = (await (await fetch(`${endpoint}/_overcast/health`)).json()) as { store: string };
    expect(health.store).toBe('memory');
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('start takes its data directory and port from OVERCAST_* variables', async () => {
    const dir = tempDir();
    try {
      const { child, out } = await startCli(
        ['--log-level', 'warn'],
        cleanEnv({ OVERCAST_PORT: '0', OVERCAST_DATA_DIR: dir.path }),
      );
      expect(out).toContain(`data in ${dir.path}`);
      expect(existsSync(join(dir.path, 'overcast.db'))).toBe(true);
      const endpoint = /listening on (http:\/\/[^\s]+)/.exec(out)![1];
      const health = (await (await fetch(`${endpoint}/_overcast/health`)).json()) as { store: string };
      expect(health.store).toBe('disk');
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    } finally {
      dir.cleanup();
    }
  });

  it('refuses a second server on the same data directory', async () => {
    const dir = tempDir();
    try {
      const { child } = await startCli(['--port', '0', '--data-dir', dir.path, '--log-level', 'warn']);
      await expect(run(process.execPath, [BIN, 'start', '--port', '0', '--data-dir', dir.path])).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/^overcast start: the data directory .* is in use by another Overcast \(pid \d+\): stop that one, or choose another with --data-dir DIR \(or OVERCAST_DATA_DIR=DIR\), or keep state in memory with --in-memory\n$/),
      });
      child.kill('SIGTERM');
    } finally {
      dir.cleanup();
    }
  });

  it('rejects invalid flags with one line and exit code 2', async () => {
    await expect(run(process.execPath, [BIN, 'start', '--port', 'abc'])).rejects.toMatchObject({
      code: 2,
      stderr: "overcast start: invalid --port 'abc': a number from 0 to 65535 (0 picks a free port). See: overcast start --help\n",
    });
    await expect(run(process.execPath, [BIN, 'start', '--log-level', 'loud'])).rejects.toMatchObject({
      code: 2,
      stderr: "overcast start: invalid --log-level 'loud': one of debug, info, warn, error, silent. See: overcast start --help\n",
    });
    await expect(run(process.execPath, [BIN, 'start', '--prot', '4567'])).rejects.toMatchObject({
      code: 2,
      stderr: 'overcast start: unknown option --prot (did you mean --port?). See: overcast start --help\n',
    });
    await expect(run(process.execPath, [BIN, 'deploy', 'x.yaml', '--stack', 'x'])).rejects.toMatchObject({
      code: 2,
      stderr: 'overcast deploy: unknown option --stack (did you mean --stack-name?). See: overcast deploy --help\n',
    });
    await expect(run(process.execPath, [BIN, 'start'], { env: cleanEnv({ OVERCAST_PORT: 'x' }) })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("invalid OVERCAST_PORT 'x'"),
    });
  });
});
