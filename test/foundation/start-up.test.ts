/**
 * Start-up failures as a user meets them, provoked for real through the `overcast` binary: a port
 * already taken, a data directory the user may not write, one whose path runs through a file.
 * Each is one line on stderr saying what to do, exit code 1, no server, and nothing created.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/server.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'overcast.js');
/** An unprivileged user, for the permission test when the suite runs as root (root may write anywhere). */
const NOBODY = 65534;

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function start(args: string[], options: { uid?: number; gid?: number } = {}): Promise<Exit> {
  return new Promise((resolve) => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME };
    const child = execFile(process.execPath, [BIN, 'start', ...args], { env, timeout: 15_000, ...options }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
    // A start that wrongly succeeds would run until the timeout; its ready line ends it at once.
    child.stdout!.on('data', (d: Buffer) => {
      if (String(d).includes('Ready.')) child.kill('SIGTERM');
    });
  });
}

/** `overcast --version`'s exit code. */
function version(options: { uid?: number; gid?: number }): Promise<number | null> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, '--version'], { timeout: 15_000, ...options }, (err) => {
      resolve(err ? ((err as { code?: number }).code ?? null) : 0);
    });
  });
}

async function listening(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port };
}

describe('start-up failures', () => {
  it('a port in use: one line naming --port and OVERCAST_PORT, exit 1, no data directory created', async () => {
    const { server, port } = await listening();
    const dir = tempDir();
    try {
      const dataDir = join(dir.path, 'state');
      const result = await start(['--port', String(port), '--data-dir', dataDir]);

      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr:
          `overcast start: port ${port} on 127.0.0.1 is already in use (another Overcast, or LocalStack?): stop it, ` +
          `or start on another port with --port ${port + 1} (or OVERCAST_PORT=${port + 1}); --port 0 picks a free one\n`,
      });
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      server.close();
      dir.cleanup();
    }
  });

  it('a data directory the user may not create: one line naming --data-dir and --in-memory, exit 1', async (ctx) => {
    const asRoot = process.getuid?.() === 0;
    // As root the server runs as an unprivileged user, who must be able to read the checkout.
    if (asRoot && (await version({ uid: NOBODY, gid: NOBODY })) !== 0) ctx.skip();
    const dir = tempDir();
    try {
      const parent = join(dir.path, 'locked');
      mkdirSync(parent, { mode: 0o755 });
      if (!asRoot) chmodSync(parent, 0o555);
      else chmodSync(dir.path, 0o755); // mkdtemp's 0700 would stop the unprivileged user before `locked`
      const dataDir = join(parent, 'state');

      const result = await start(['--port', '0', '--data-dir', dataDir], asRoot ? { uid: NOBODY, gid: NOBODY } : {});

      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr:
          `overcast start: cannot write the data directory ${dataDir} (permission denied): choose another with ` +
          '--data-dir DIR (or OVERCAST_DATA_DIR=DIR), or keep state in memory with --in-memory\n',
      });
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      dir.cleanup();
    }
  });

  it('a data directory whose path runs through a file: one line naming the file, exit 1', async () => {
    const dir = tempDir();
    try {
      const file = join(dir.path, 'notes.txt');
      writeFileSync(file, 'not a folder');
      const result = await start(['--port', '0', '--data-dir', join(file, 'state')]);

      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `overcast start: cannot use ${join(file, 'state')} as the data directory: ${file} is a file, not a directory; ` +
          'choose another with --data-dir DIR (or OVERCAST_DATA_DIR=DIR), or keep state in memory with --in-memory\n',
      );
    } finally {
      dir.cleanup();
    }
  });
});
