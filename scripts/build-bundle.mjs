#!/usr/bin/env node
// Bundles the command line (dist/cli/main.js and everything it imports, dynamic imports kept as
// separate chunks) into dist/bundle/, which bin/overcast.js runs: a server started from the bundle
// resolves, reads and compiles a few dozen chunks on its first stack where the tsc output has it
// load some 120 modules one file at a time, and that loading was most of the first stack's time.
// Packages stay external (loaded from node_modules as before); whitespace and comments are
// stripped but names are kept, so stack traces stay readable. package-root.js is replaced: its
// chunk sits in dist/bundle/, two folders below the package's root, and the files loaded by path
// at run time (worker modules, the Lambda bootstrap) are the tsc output in dist/. Run by
// `npm run build` after tsc.
import { rmSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const out = `${dist}bundle`;
const PACKAGE_ROOT = `${dist}package-root.js`;

const packageRoot = {
  name: 'overcast-package-root',
  load(id) {
    if (id !== PACKAGE_ROOT) return null;
    return `import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const MODULE_ROOT = join(PACKAGE_ROOT, 'dist');
export function packagePath(...segments) {
  return join(PACKAGE_ROOT, ...segments);
}
`;
  },
};

rmSync(out, { recursive: true, force: true });
await build({
  input: { main: `${dist}cli/main.js` },
  platform: 'node',
  // Bare specifiers (packages, node: built-ins) are left to Node; only our own modules are bundled.
  external: (id) => !id.startsWith('.') && !isAbsolute(id),
  plugins: [packageRoot],
  logLevel: 'warn',
  output: {
    dir: out,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    minify: { mangle: false, compress: true, codegen: { removeWhitespace: true } },
    minifyInternalExports: false,
    comments: false,
  },
});
