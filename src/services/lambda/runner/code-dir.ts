/**
 * Where functions' code lives on disk: `<root>/code/<sha256 hex>/`, one directory per code
 * package (so versions sharing code share it), unpacked once — into a temporary directory renamed
 * into place, so a crash or two concurrent unpacks never leave half a tree. The root is
 * `<data dir>/lambda`, or a temporary directory for an in-memory server (removed on close). Beside
 * the code sit what the runtimes expect around it: `node_modules` pointing at the AWS SDK for
 * JavaScript v3 that Overcast itself installs (Node.js looks for packages in every directory above
 * the code, so `require` and `import` of `@aws-sdk/client-*` both work, as in Lambda's runtime),
 * and `bin/npm`, which fails at once — the CDK's AwsCustomResource tries `npm install` of the
 * latest SDK and falls back to the bundled one, and that attempt must neither take a minute nor
 * write into the machine's /tmp. A function's layers are unpacked, in the order the function lists
 * them (a later layer's file wins), into one directory per distinct list, `<root>/opt/<hash>/`:
 * what Lambda mounts at /opt. Functions get `<root>/tmp` as their TMPDIR.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, readlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, normalize, sep } from 'node:path';
import { unzipSync } from 'fflate';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { MODULE_ROOT, packagePath } from '../../../package-root.js';

/** The clients a handler can import without bundling them (every service Overcast emulates, and what the CDK's handlers load). */
const BUNDLED_SDK = [
  '@aws-sdk/client-s3',
  '@aws-sdk/client-s3tables',
  '@aws-sdk/client-cloudformation',
  '@aws-sdk/client-sts',
  '@aws-sdk/client-ssm',
  '@aws-sdk/client-lambda',
  '@aws-sdk/client-sfn',
];

/** A stored code package: its SHA-256 (base64) and a way to read its zip. */
export interface CodePackageSource {
  sha: string;
  zip: () => Buffer | undefined;
}

export class CodeRoot {
  readonly path: string;
  private readonly temporary: boolean;

  constructor(dataDir: string | undefined) {
    this.temporary = !dataDir;
    this.path = dataDir ? join(dataDir, 'lambda') : mkdtempSync(join(tmpdir(), 'overcast-lambda-'));
    mkdirSync(join(this.path, 'code'), { recursive: true });
    mkdirSync(this.tmpDir, { recursive: true });
    this.linkSdk();
    this.writeNpmStub();
  }

  /** The directory of a code package, unpacked from `zip()` the first time it is asked for. */
  codeDir(shaBase64: string, zip: () => Buffer | undefined): Promise<string> {
    const hex = Buffer.from(shaBase64, 'base64').toString('hex');
    return this.unpackOnce(join(this.path, 'code', hex), [{ sha: shaBase64, zip }]);
  }

  /** The `/opt` of a function whose layers are `packages`, in its order; undefined when it has none. */
  async optDir(packages: readonly CodePackageSource[]): Promise<string | undefined> {
    if (packages.length === 0) return undefined;
    const key = createHash('sha256').update(packages.map((p) => p.sha).join(' ')).digest('hex');
    mkdirSync(join(this.path, 'opt'), { recursive: true });
    return this.unpackOnce(join(this.path, 'opt', key), packages);
  }

  /** `dir`, made from the packages unpacked in order unless it exists; built aside and renamed into place. */
  private async unpackOnce(dir: string, packages: readonly CodePackageSource[]): Promise<string> {
    if (existsSync(dir)) return dir;
    const staging = await mkdtemp(join(dirname(dir), `.${basename(dir)}-`));
    try {
      for (const p of packages) {
        const bytes = p.zip();
        if (!bytes) throw new Error(`code package ${p.sha} is missing from the store`);
        await unpack(bytes, staging);
      }
      await rename(staging, dir);
    } catch (err) {
      await rm(staging, { recursive: true, force: true });
      if (existsSync(dir)) return dir; // another invocation unpacked it first
      throw err;
    }
    return dir;
  }

  /** A directory for a runtime's own files (the Python bootstrap). */
  runtimeFile(name: string, text: string): string {
    const dir = join(this.path, 'runtime');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  }

  get tmpDir(): string {
    return join(this.path, 'tmp');
  }

  get binDir(): string {
    return join(this.path, 'bin');
  }

  remove(): void {
    if (this.temporary) rmSync(this.path, { recursive: true, force: true });
  }

  private linkSdk(): void {
    const modules = sdkNodeModules();
    if (!modules) return;
    const link = join(this.path, 'code', 'node_modules');
    try {
      if (readlinkSync(link) === modules) return;
      rmSync(link, { force: true });
    } catch {
      // no link yet
    }
    symlinkSync(modules, link, 'dir');
  }

  private writeNpmStub(): void {
    mkdirSync(this.binDir, { recursive: true });
    const npm = join(this.binDir, 'npm');
    writeFileSync(npm, '#!/bin/sh\necho "npm is not available to functions run by Overcast (no network): use the bundled AWS SDK" >&2\nexit 1\n');
    chmodSync(npm, 0o755);
  }
}

let sdkModules: { dir: string | undefined } | undefined;

/**
 * The node_modules folder that holds Overcast's AWS SDK clients, or undefined when none resolves;
 * resolved once (every invocation's environment names it).
 */
export function sdkNodeModules(): string | undefined {
  sdkModules ??= { dir: resolveSdkNodeModules() };
  return sdkModules.dir;
}

function resolveSdkNodeModules(): string | undefined {
  const require = createRequire(packagePath('package.json'));
  for (const name of BUNDLED_SDK) {
    try {
      // <node_modules>/@aws-sdk/client-x/package.json → <node_modules>
      return dirname(dirname(dirname(require.resolve(`${name}/package.json`))));
    } catch {
      // try the next
    }
  }
  return undefined;
}

/**
 * Writes every entry of a zip under `dir`; entries that would land outside it are refused. Exported
 * for the unpacking worker thread, which loads this module.
 */
export function unpackSync(zip: Uint8Array, dir: string): void {
  const files = unzipSync(zip);
  for (const [name, data] of Object.entries(files)) {
    const target = normalize(join(dir, name));
    if (target !== dir && !target.startsWith(dir + sep)) throw new Error(`zip entry ${name} points outside the code directory`);
    if (name.endsWith('/')) {
      mkdirSync(target, { recursive: true });
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, data);
    // fflate does not give the entries' Unix modes: scripts (a `#!` line) are made executable.
    if (data[0] === 0x23 && data[1] === 0x21) chmodSync(target, 0o755);
  }
}

/** Packages up to this size unpack on the main thread; a worker costs more than they do. */
const INLINE_UNPACK = 1024 * 1024;

/**
 * `unpackSync` run in a worker thread for a large package: the AWS CLI layer (22 MB, 4,300 files)
 * held the event loop for one to two seconds when it unpacked on the main thread.
 */
function unpack(zip: Buffer, dir: string): Promise<void> {
  const module = compiledSelf();
  if (zip.length <= INLINE_UNPACK || !module) return Promise.resolve(unpackSync(zip, dir));
  return new Promise((resolve, reject) => {
    const worker = new Worker(UNPACK_WORKER, { eval: true, workerData: { zip, dir, module } });
    worker.once('message', (m: { error?: string }) => (m.error ? reject(new Error(m.error)) : resolve()));
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the unpacking worker exited with code ${code}`))));
  });
}

const SELF = join('services', 'lambda', 'runner', 'code-dir.js');
let self: { path: string | undefined } | undefined;

/** This module as compiled JavaScript (beside it in a build, in dist/ when run from sources), for the worker to load. */
function compiledSelf(): string | undefined {
  self ??= { path: [join(MODULE_ROOT, SELF), packagePath('dist', SELF)].find((p) => existsSync(p)) };
  return self.path;
}

const UNPACK_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
import(require('node:url').pathToFileURL(workerData.module).href)
  .then((m) => m.unpackSync(workerData.zip, workerData.dir))
  .then(() => parentPort.postMessage({}), (err) => parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) }));
`;

/** Whether a zip can be opened (its central directory read), without unpacking it. */
export function zipProblem(zip: Uint8Array): string | undefined {
  try {
    let entries = 0;
    unzipSync(zip, {
      filter: () => {
        entries++;
        return false;
      },
    });
    return entries === 0 ? 'the archive holds no files' : undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
