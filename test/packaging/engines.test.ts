/**
 * The Node versions package.json declares (`engines.node`) are ones every package Overcast installs
 * for its users supports: each production entry of package-lock.json that declares engines must
 * accept every version ours accepts, so no user on a declared version meets an EBADENGINE warning
 * or a dependency that refuses to run. (fastify's light-my-request, used only by fastify's
 * inject, moved to cookie 2, which wants Node 22: the direct dependency on light-my-request ~6.6
 * keeps the tree on cookie 1.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

interface LockEntry {
  dev?: boolean;
  engines?: Record<string, string> | string[];
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };

describe('engines', () => {
  it('declares a valid range that includes the Node running this suite', () => {
    expect(semver.validRange(manifest.engines.node)).not.toBeNull();
    expect(semver.satisfies(process.version, manifest.engines.node)).toBe(true);
  });

  it('asks for no Node version a production dependency does not support', () => {
    const narrower = Object.entries(lock.packages)
      .filter(([path, e]) => path && !e.dev && e.engines && !Array.isArray(e.engines) && e.engines.node)
      .map(([path, e]) => [path, (e.engines as Record<string, string>).node!] as const)
      .filter(([, range]) => !semver.subset(manifest.engines.node, range));
    expect(narrower).toEqual([]);
  });
});
