#!/usr/bin/env node
// `npm run bench`: runs every benchmark module in bench/ (each exports `run(report)`), prints one
// table of medians with the floor measured in the same run beside each figure, and writes it to
// bench/results.md. Pick modules with `npm run bench -- s3 s3tables`.
import { existsSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';

// The SDK's notice about Node 20 support would interleave with the figures.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const MODULES = ['startup', 'log', 's3', 's3tables', 'iceberg', 'maintenance', 'cloudformation', 'cdk', 'dashboard'];
const only = process.argv.slice(2);
const rows = [];
const report = (row) => {
  rows.push(row);
  const ratio = row.floor ? ` (${((row.value / row.floor) * 100).toFixed(0)}% of floor ${fmt(row.floor)})` : '';
  console.error(`  ${row.area} · ${row.metric}: ${fmt(row.value)} ${row.unit}${ratio}`);
};

function fmt(n) {
  if (typeof n !== 'number') return String(n);
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 10 ? 1 : 2);
}

for (const name of MODULES) {
  if (only.length && !only.includes(name)) continue;
  const file = new URL(`./${name}.js`, import.meta.url);
  if (!existsSync(file)) continue;
  console.error(`# ${name}`);
  const mod = await import(file.href);
  await mod.run(report);
}

const header = '| area | measure | Overcast | floor (same run) | ratio | target |\n|---|---|---|---|---|---|';
const lines = rows.map((r) => {
  const ratio = r.floor ? `${(r.value / r.floor).toFixed(2)}×` : '';
  return `| ${r.area} | ${r.metric} | ${fmt(r.value)} ${r.unit} | ${r.floor ? `${fmt(r.floor)} ${r.unit}` : (r.floorNote ?? '')} | ${ratio} | ${r.target ?? ''} |`;
});
const table = `${header}\n${lines.join('\n')}\n\nMachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}.\n`;
writeFileSync(new URL('./results.md', import.meta.url), table);
console.log(table);
