/**
 * The folder of Overcast's package (where package.json and models/ are), found from this module's
 * own location: `dist/package-root.js` in the ES module build. The CommonJS build
 * (`dist/cjs/`, see scripts/build-cjs.mjs) replaces this module with one that reads `__dirname`,
 * since `import.meta` is a syntax error in a CommonJS module, and the command line's bundle
 * (`dist/bundle/`, see scripts/build-bundle.mjs) with one whose module root is `dist/`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// @ts-ignore -- TS1343 in the CommonJS compilation, whose output for this file is replaced.
const here: string = fileURLToPath(import.meta.url);

export const PACKAGE_ROOT: string = join(dirname(here), '..');

/** The folder of the running build's modules: `dist/`, `dist/cjs/`, or `src/` when run from sources. */
export const MODULE_ROOT: string = dirname(here);

/** A path inside the package, e.g. `packagePath('models', 's3.json')`. */
export function packagePath(...segments: string[]): string {
  return join(PACKAGE_ROOT, ...segments);
}
