#!/usr/bin/env node
// Builds the dashboard into dist/web/: compiles the browser modules of web/src/ with the
// project's TypeScript (web/tsconfig.json: ES modules, no bundler; the browser loads them as
// they are) and copies the page (with a modulepreload link per module) and the stylesheet
// beside them. Run by `npm run build`.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const root = new URL('../', import.meta.url);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = spawnSync(process.execPath, [tsc, '-p', new URL('web/tsconfig.json', root).pathname], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
const out = new URL('dist/web/', root);
mkdirSync(out, { recursive: true });
copyFileSync(new URL('web/style.css', root), new URL('style.css', out));
// Every module is announced in the page, so the browser fetches them at once rather than one
// import level after another.
const modules = readdirSync(new URL('app/', out)).filter((f) => f.endsWith('.js')).sort();
const preload = modules.map((f) => `<link rel="modulepreload" href="/_overcast/ui/app/${f}">`).join('\n');
const page = readFileSync(new URL('web/index.html', root), 'utf8').replace('<!-- modulepreload -->', preload);
writeFileSync(new URL('index.html', out), page);
