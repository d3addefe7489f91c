#!/usr/bin/env node
// Bundles the command line (dist/cli/main.js and everything it imports, dynamic imports kept as
// separate chunks) into dist/bundle/, which bin/overcast.js runs: the tsc output has a server's
// first stack load some 120 modules one file at a time, and that loading was most of the first
// stack's time. What a stack operation needs beyond start-up is grouped into two chunks, so the
// first stack of S3 Tables resources reads a dozen files rather than thirty (see `groups`).
// Packages stay external (loaded from node_modules as before); whitespace and comments are
// stripped but names are kept, so stack traces stay readable. package-root.js is replaced: its
// chunk sits in dist/bundle/, two folders below the package's root, and the files loaded by path
// at run time (worker modules, the Lambda bootstrap) are the tsc output in dist/. Run by
// `npm run build` after tsc.
import { rmSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const out = join(dist, 'bundle');
const PACKAGE_ROOT = join(dist, 'package-root.js');

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

// Where a start-up begins (every service's on-start hook runs at each start, and the maintenance
// scheduler at each start with a data directory): whatever these import statically stays out of
// the groups, so start-up never loads a group's chunk.
const STARTUP = ['cli/main.js', 'cli/start.js', 'services/s3tables/maintenance/scheduler.js'];
const ON_START = /[\\/]services[\\/][^\\/]+[\\/]on-start\.js$/;
// A stack operation: the CloudFormation API and the engine, and the S3 Tables resource providers.
const CLOUDFORMATION = ['services/cloudformation/routes.js', 'services/cloudformation/engine/changes.js'];
const S3TABLES_RESOURCES = ['table-bucket', 'namespace', 'table'].map((n) => `services/cloudformation/resources/s3tables/${n}.js`);
// The S3 Tables, S3, Iceberg and policy code those providers call, which the S3 Tables and S3 APIs
// share; modules used across services (codecs, validation, repositories) stay in chunks of their own.
const TABLE_STORAGE = /[\\/]dist[\\/](services[\\/](s3tables|s3)|iceberg|auth)[\\/]/;

const cloudformation = new Set();
const tableStorage = new Set();

/** Fills the two groups from the module graph, once it is complete. */
const groups = {
  name: 'overcast-groups',
  buildEnd() {
    const staticClosure = (roots, outside) => {
      const seen = new Set();
      const todo = [...roots];
      while (todo.length > 0) {
        const id = todo.pop();
        if (seen.has(id) || outside.has(id)) continue;
        const info = this.getModuleInfo(id);
        if (!info || info.isExternal) continue;
        seen.add(id);
        todo.push(...info.importedIds);
      }
      return seen;
    };
    const all = [...this.getModuleIds()];
    const startup = staticClosure([...STARTUP.map((p) => join(dist, p)), ...all.filter((id) => ON_START.test(id))], new Set());
    const resources = S3TABLES_RESOURCES.map((p) => join(dist, p));
    for (const id of staticClosure([...CLOUDFORMATION.map((p) => join(dist, p)), ...resources], startup)) {
      if (id.startsWith(join(dist, 'services', 'cloudformation') + sep)) cloudformation.add(id);
    }
    for (const id of staticClosure(resources, startup)) {
      if (!cloudformation.has(id) && TABLE_STORAGE.test(id)) tableStorage.add(id);
    }
    if (cloudformation.size === 0 || tableStorage.size === 0) this.error('the bundle groups came out empty: check the paths in scripts/build-bundle.mjs');
  },
};

rmSync(out, { recursive: true, force: true });
await build({
  input: { main: join(dist, 'cli', 'main.js') },
  platform: 'node',
  // Bare specifiers (packages, node: built-ins) are left to Node; only our own modules are bundled.
  external: (id) => !id.startsWith('.') && !isAbsolute(id),
  plugins: [packageRoot, groups],
  // Required by groups that leave out their modules' dependencies; our entry exports only main().
  preserveEntrySignatures: 'allow-extension',
  logLevel: 'warn',
  // The groups merge modules that are also imported dynamically elsewhere, on purpose.
  onLog: (level, log, handle) => (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' ? undefined : handle(level, log)),
  output: {
    dir: out,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    minify: { mangle: false, compress: true, codegen: { removeWhitespace: true } },
    minifyInternalExports: false,
    comments: false,
    codeSplitting: {
      // A group holds its own modules only; what they import from start-up stays where it is.
      includeDependenciesRecursively: false,
      groups: [
        { name: 'cloudformation-engine', test: (id) => cloudformation.has(id) },
        { name: 'table-storage', test: (id) => tableStorage.has(id) },
      ],
    },
  },
});
