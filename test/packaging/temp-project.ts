/**
 * A throwaway user project with Overcast installed from its packed tarball, set up the way npm
 * would for a user but without the network and without resolving anything: the project's
 * package-lock.json is cut from Overcast's own (the same versions `npm ci` has just put in npm's
 * cache, so `npm ci --offline` only unpacks), with an entry for the tarball. Install scripts are
 * skipped — the one that matters, better-sqlite3's, would download a prebuilt binary (or compile
 * for a minute without one), so the binary `npm ci` built for this Node is copied in its place.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export const REPO = join(import.meta.dirname, '..', '..');

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  [key: string]: unknown;
}

interface Manifest {
  version: string;
  license: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  bin: Record<string, string>;
  engines: Record<string, string>;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a user's shell: none of vitest's or npm's per-run variables leak in. */
export function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(VITEST|TINYPOOL|NODE_OPTIONS$|npm_(package|lifecycle|command)|NODE_ENV$|TEST$)/.test(k)) continue;
    env[k] = v;
  }
  env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  return { ...env, ...extra };
}

/** Runs a command to its end; never rejects (the caller asserts on code and output). */
export function run(cmd: string, args: string[], cwd: string, env = userEnv(), timeout = 180_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const e = err as (Error & { code?: number | string }) | null;
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : -1) : 0, stdout, stderr: e && typeof e.code !== 'number' ? `${stderr}\n${e.message}` : stderr });
    });
  });
}

/** The lockfile entries that `roots` (path → its dependencies) need, by Node's resolution rules. */
function closure(packages: Record<string, LockEntry>, roots: string[]): Map<string, LockEntry> {
  const kept = new Map<string, LockEntry>();
  const locate = (from: string, name: string): string | undefined => {
    for (let base = from; ; ) {
      const path = `${base ? `${base}/` : ''}node_modules/${name}`;
      if (packages[path]) return path;
      if (!base) return undefined;
      const i = base.lastIndexOf('/node_modules/');
      base = i < 0 ? '' : base.slice(0, i);
    }
  };
  const visit = (path: string, entry: LockEntry) => {
    if (kept.has(path)) return;
    kept.set(path, entry);
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies })) {
      const found = locate(path, name);
      if (found) visit(found, packages[found]!);
    }
  };
  for (const path of roots) visit(path, packages[path]!);
  return kept;
}

export interface ProjectSpec {
  /** The project's own package.json, without `dependencies`/`devDependencies` (given below). */
  manifest: Record<string, unknown>;
  /** Names of packages the project depends on, at the versions Overcast's own package.json names. */
  dependencies: string[];
  devDependencies: string[];
  /** The packed overcast tarball; installed as a devDependency. */
  tarball: string;
  /** Folder whose files are copied into the project first. */
  files: string;
}

/** Creates the project in `dir` and installs it offline; returns npm's run. */
export async function installProject(dir: string, spec: ProjectSpec): Promise<Run> {
  const ours = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Manifest;
  const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const range = (name: string) => ours.devDependencies[name] ?? ours.dependencies[name] ?? `missing ${name}`;
  cpSync(spec.files, dir, { recursive: true });
  const tarballName = basename(spec.tarball);
  copyFileSync(spec.tarball, join(dir, tarballName));

  const dependencies = Object.fromEntries(spec.dependencies.map((n) => [n, range(n)]));
  const devDependencies = { ...Object.fromEntries(spec.devDependencies.map((n) => [n, range(n)])), overcast: `file:${tarballName}` };
  const manifest = { name: 'project', version: '0.1.0', ...spec.manifest, dependencies, devDependencies };

  const packages = { ...lock.packages };
  packages['node_modules/overcast'] = {
    version: ours.version,
    resolved: `file:${tarballName}`,
    integrity: `sha512-${createHash('sha512').update(readFileSync(spec.tarball)).digest('base64')}`,
    dev: true,
    license: ours.license,
    dependencies: ours.dependencies,
    bin: ours.bin,
    engines: ours.engines,
  };
  const roots = [...Object.keys(dependencies), ...Object.keys(devDependencies)].map((n) => `node_modules/${n}`);
  const root = { name: manifest.name, version: manifest.version, dependencies, devDependencies };
  const projectLock = { name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages: { '': root } as Record<string, unknown> };
  // Each entry gets the tarball URL npm would have recorded (the lockfile here omits them): with it
  // and the integrity, npm takes the tarball from its cache and asks the registry nothing.
  const registry = (await run('npm', ['config', 'get', 'registry'], dir)).stdout.trim().replace(/\/*$/, '/');
  for (const [path, entry] of [...closure(packages, roots)].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const resolved = entry.resolved ?? (entry.integrity && entry.version ? `${registry}${name}/-/${name.split('/').pop()}-${entry.version}.tgz` : undefined);
    projectLock.packages[path] = { ...entry, ...(resolved ? { resolved } : {}) };
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify(projectLock, null, 2)}\n`);

  const npm = await run('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], dir);
  if (npm.code === 0) {
    const binding = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    mkdirSync(join(dir, binding, '..'), { recursive: true });
    copyFileSync(join(REPO, binding), join(dir, binding));
  }
  return npm;
}
