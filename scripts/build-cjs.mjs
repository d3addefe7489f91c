#!/usr/bin/env node
// Finishes the CommonJS build that `tsc -b tsconfig.cjs.json` emits into dist/cjs/ (the package's
// `require` entry, for jest's default mode under ts-jest or @swc/jest): marks the folder as
// CommonJS, so Node and TypeScript read its .js and .d.ts files as such, and replaces
// package-root.js, whose ES module form reads `import.meta`, a syntax error in CommonJS. Run by
// `npm run build` after tsc; cheap and idempotent.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const dir = new URL('../dist/cjs/', import.meta.url);
mkdirSync(dir, { recursive: true });

function writeIfChanged(name, text) {
  const url = new URL(name, dir);
  let old;
  try {
    old = readFileSync(url, 'utf8');
  } catch {
    old = undefined;
  }
  if (old !== text) writeFileSync(url, text);
}

writeIfChanged('package.json', `${JSON.stringify({ type: 'commonjs' })}\n`);
writeIfChanged(
  'package-root.js',
  `"use strict";
// The CommonJS form of src/package-root.ts (written by scripts/build-cjs.mjs): dist/cjs/ is two
// folders below the package's root.
Object.defineProperty(exports, "__esModule", { value: true });
exports.MODULE_ROOT = exports.PACKAGE_ROOT = void 0;
exports.packagePath = packagePath;
const node_path_1 = require("node:path");
exports.PACKAGE_ROOT = (0, node_path_1.join)(__dirname, '..', '..');
exports.MODULE_ROOT = __dirname;
function packagePath(...segments) {
    return (0, node_path_1.join)(exports.PACKAGE_ROOT, ...segments);
}
`,
);
