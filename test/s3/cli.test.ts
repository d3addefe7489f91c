/**
 * The aws CLI v1 against Overcast, as a child process with the test server's environment:
 * `aws s3 mb / cp / ls / sync / rm / rb`, with a 20 MiB file so `cp` goes multipart both ways.
 * Skipped, saying so, only where the `aws` command is not installed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, it } from '../helpers/fixture.js';
import { tempDir, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
const hasAws = spawnSync('aws', ['--version'], { encoding: 'utf8' }).status === 0;
if (!hasAws) console.warn('test/s3/cli.test.ts: skipped — the `aws` CLI is not installed on this machine');

let dir: { path: string; cleanup: () => void };
it.beforeAll(() => {
  dir = tempDir('overcast-cli-');
});
it.afterAll(() => dir.cleanup());

async function aws(t: TestServer, ...args: string[]): Promise<string> {
  const quiet = ['cp', 'sync', 'rm', 'mv'].includes(args[1] ?? '') ? ['--only-show-errors'] : [];
  const { stdout } = await run('aws', [...args, ...quiet], { env: { ...t.env, AWS_CONFIG_FILE: '/dev/null' }, maxBuffer: 1 << 20 });
  return stdout;
}

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

describe.skipIf(!hasAws)('aws CLI v1', () => {
  it('makes a bucket, copies a 20 MiB file up (multipart) and down, lists it', async ({ server: t, s3 }) => {
    const big = randomBytes(20 * 1024 * 1024);
    const file = join(dir.path, 'big.bin');
    writeFileSync(file, big);
    await aws(t, 's3', 'mb', 's3://cli-bucket');
    await aws(t, 's3', 'cp', file, 's3://cli-bucket/data/big.bin');
    const head = await s3.send(new HeadObjectCommand({ Bucket: 'cli-bucket', Key: 'data/big.bin' }));
    expect(head.ContentLength).toBe(big.length);
    expect(head.ETag).toMatch(/-\d+"$/); // multipart
    const back = join(dir.path, 'back.bin');
    await aws(t, 's3', 'cp', 's3://cli-bucket/data/big.bin', back);
    expect(md5(readFileSync(back))).toBe(md5(big));
    const ls = await aws(t, 's3', 'ls', 's3://cli-bucket/data/');
    expect(ls).toMatch(/20971520 big\.bin/);
    const top = await aws(t, 's3', 'ls');
    expect(top).toContain('cli-bucket');
  });

  it('syncs a directory tree, lists it recursively, removes it and the bucket', async ({ server: t, s3 }) => {
    const tree = join(dir.path, 'tree');
    mkdirSync(join(tree, 'sub', 'deeper'), { recursive: true });
    writeFileSync(join(tree, 'a.txt'), 'a');
    writeFileSync(join(tree, 'with space.txt'), 'spaced');
    writeFileSync(join(tree, 'sub', 'b.json'), '{}');
    writeFileSync(join(tree, 'sub', 'deeper', 'c.bin'), randomBytes(300_000));
    await aws(t, 's3', 'sync', tree, 's3://cli-bucket/tree');
    const listed = await aws(t, 's3', 'ls', '--recursive', 's3://cli-bucket/tree/');
    for (const k of ['tree/a.txt', 'tree/with space.txt', 'tree/sub/b.json', 'tree/sub/deeper/c.bin']) expect(listed).toContain(k);
    // A second sync has nothing to do.
    expect((await aws(t, 's3', 'sync', tree, 's3://cli-bucket/tree')).trim()).toBe('');
    const down = join(dir.path, 'down');
    await aws(t, 's3', 'sync', 's3://cli-bucket/tree', down);
    expect(readFileSync(join(down, 'with space.txt'), 'utf8')).toBe('spaced');
    await aws(t, 's3', 'rm', '--recursive', 's3://cli-bucket/');
    const left = await s3.send(new ListObjectsV2Command({ Bucket: 'cli-bucket' }));
    expect(left.KeyCount).toBe(0);
    await aws(t, 's3', 'rb', 's3://cli-bucket');
    expect(await aws(t, 's3', 'ls')).not.toContain('cli-bucket');
  });
});
