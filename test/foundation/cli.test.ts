/**
 * The `overcast` command line, run as users run it: version, help, `env` (and `eval` of its
 * output in a real shell, keeping credentials already set), and `start` printing its endpoint
 * and a ready line, honouring flags and OVERCAST_* variables, and stopping on SIGTERM.
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
  const child = spawn(process.execPath, [BIN, 'start', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
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
    for (const word of ['start', 'env', '--host', '--port', '--data-dir', '--in-memory', '--log-level']) {
      expect(help).toContain(word);
    }
  });

  it('fails on an unknown command with exit code 2', async () => {
    await expect(run(process.execPath, [BIN, 'frobnicate'])).rejects.toMatchObject({ code: 2 });
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

  it('env follows OVERCAST_PORT', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'env'], { env: cleanEnv({ OVERCAST_PORT: '4700' }) });
    expect(stdout).toContain('export AWS_ENDPOINT_URL=http://127.0.0.1:4700');
  });

  it('start prints the endpoint and a ready line, serves health, and stops on SIGTERM', async () => {
    const { child, out } = await startCli(['--port', '0', '--in-memory', '--log-level', 'warn']);
    const endpoint = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
    expect(endpoint).toBeDefined();
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
        stderr: expect.stringContaining('in use by another Overcast process'),
      });
      child.kill('SIGTERM');
    } finally {
      dir.cleanup();
    }
  });

  it('rejects invalid flags', async () => {
    await expect(run(process.execPath, [BIN, 'start', '--port', 'abc'])).rejects.toMatchObject({
      stderr: expect.stringContaining('invalid --port'),
    });
    await expect(run(process.execPath, [BIN, 'start', '--log-level', 'loud'])).rejects.toMatchObject({
      stderr: expect.stringContaining('invalid --log-level'),
    });
  });
});
