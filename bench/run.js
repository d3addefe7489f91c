#!/usr/bin/env node
// `npm run bench`: runs every benchmark module in bench/ (each exports `run(report)`), prints one
// table of medians with the floor measured in the same run beside each figure, and writes it to
// bench/results.md. Pick modules with `npm run bench -- s3 s3tables`.
import { existsSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { describeSetup, pinSelfToClientCores } from './load-generator.js';

// The SDK's notice about Node 20 support would interleave with the figures.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

pinSelfToClientCores();

const MODULES = ['startup', 'log', 's3', 's3tables', 'iceberg', 'maintenance', 'cloudformation', 'cdk', 'dashboard', 'lambda'];
const only = process.argv.slice(2);
const rows = [];
const ratioText = (r) => {
  if (!r.floor) return '';
  const ratio = r.ratio ?? r.value / r.floor;
  return r.spread ? `${ratio.toFixed(2)}× (${r.spread[0].toFixed(2)}–${r.spread[1].toFixed(2)})` : `${ratio.toFixed(2)}×`;
};
const cpuText = (r) => (r.cpu ? `; server CPU/request ${r.cpu[0].toFixed(1)} µs vs floor ${r.cpu[1].toFixed(1)} µs` : '');
const report = (row) => {
  rows.push(row);
  const ratio = row.floor ? ` (${ratioText(row)} of floor ${fmt(row.floor)})${cpuText(row)}` : '';
  console.error(`  ${row.area} · ${row.metric}: ${fmt(row.value)} ${row.unit}${ratio}`);
};

function fmt(n) {
  if (typeof n !== 'number') return String(n);
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 10 ? 1 : 2);
}

// An area that fails is reported and the others still run: one broken area no longer loses the
// figures of a twenty-minute run.
const failed = [];
for (const name of MODULES) {
  if (only.length && !only.includes(name)) continue;
  const file = new URL(`./${name}.js`, import.meta.url);
  if (!existsSync(file)) continue;
  console.error(`# ${name}`);
  try {
    const mod = await import(file.href);
    await mod.run(report);
  } catch (err) {
    console.error(err);
    failed.push(`${name} (${err?.message ?? err})`);
  }
}

const header =
  '| area | measure | Overcast | floor (same run) | paired ratio (min–max) | server CPU per request: Overcast / floor | target |\n|---|---|---|---|---|---|---|';
const lines = rows.map((r) => {
  const ratio = ratioText(r);
  return `| ${r.area} | ${r.metric} | ${fmt(r.value)} ${r.unit} | ${r.floor ? `${fmt(r.floor)} ${r.unit}` : (r.floorNote ?? '')} | ${ratio} | ${r.cpu ? `${r.cpu[0].toFixed(1)} / ${r.cpu[1].toFixed(1)} µs` : ''} | ${r.target ?? ''} |`;
});
const failures = failed.length ? `\nFailed areas, not measured: ${failed.join('; ')}.\n` : '';
const table = `${header}\n${lines.join('\n')}\n\nMachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. Load: ${describeSetup()}.\n${failures}`;
writeFileSync(new URL('./results.md', import.meta.url), table);
console.log(table);
if (failed.length) process.exitCode = 1;
