/**
 * Modules loaded synchronously on first use rather than imported up front: a CommonJS require
 * rooted at the package (so it works the same from the ES module and the CommonJS build) for a
 * dependency or Node built-in that only some requests need, so a server's first requests do not
 * pay for loading it.
 */
import { createRequire } from 'node:module';
import { packagePath } from './package-root.js';

let requireFromPackage: NodeJS.Require | undefined;

/** `require(id)` from the package's root, loading the module on the first call only. */
export function requireOnDemand<T>(id: string): T {
  requireFromPackage ??= createRequire(packagePath('package.json'));
  return requireFromPackage(id) as T;
}

let zlibModule: typeof import('node:zlib') | undefined;

/** node:zlib, which nothing on the way to a first table needs (CRC32 checksums, gzipped metadata). */
export function zlib(): typeof import('node:zlib') {
  return (zlibModule ??= requireOnDemand<typeof import('node:zlib')>('node:zlib'));
}
