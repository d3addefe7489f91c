#!/usr/bin/env node
// Builds the dashboard into dist/web/: compiles the browser modules of web/src/ with the
// project's TypeScript (web/tsconfig.json: ES modules, no bundler; the browser loads them as
// they are) and copies the page and the stylesheet beside them. Run by `npm run build`.
import { copyFileSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const root = new URL('../', import.meta.url);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = spawnSync(process.execPath, [tsc, '-p', new URL('web/tsconfig.json', root).pathname], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
const out = new URL('dist/web/', root);
mkdirSync(out, { recursive: true });
for (const file of ['index.html', 'style.css']) copyFileSync(new URL(`web/${file}`, root), new URL(file, out));
