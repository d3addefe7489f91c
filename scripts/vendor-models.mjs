#!/usr/bin/env node
// Copies the AWS service models Overcast's codecs and validators are driven by from a botocore
// `data/` folder into `models/`, stripped of documentation. Run it when upgrading the models:
//   node scripts/vendor-models.mjs "$(python3 -c 'import botocore,os;print(os.path.dirname(botocore.__file__))')/data"
// Names after the folder vendor only those services (`… data ecr`).
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';

const SERVICES = ['s3', 's3tables', 'cloudformation', 'sts', 'ssm', 'lambda', 'ecr', 'stepfunctions'];
const DROP = new Set(['documentation', 'documentationUrl', 'examples', 'deprecatedMessage']);

function strip(value) {
  if (Array.isArray(value)) return value.map(strip);
  if (value && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) if (!DROP.has(k)) out[k] = strip(v);
    return out;
  }
  return value;
}

const dataDir = process.argv[2];
if (!dataDir) {
  console.error('usage: node scripts/vendor-models.mjs <botocore data dir>');
  process.exit(2);
}
const only = process.argv.slice(3);
for (const service of only.length ? only : SERVICES) {
  const [version] = readdirSync(join(dataDir, service)).sort().reverse();
  const dir = join(dataDir, service, version);
  const raw = readFileSync(join(dir, 'service-2.json.gz'));
  const model = strip(JSON.parse(gunzipSync(raw).toString('utf8')));
  const out = join(new URL('../models', import.meta.url).pathname, `${service}.json`);
  writeFileSync(out, JSON.stringify(model));
  console.log(`${service} ${version}: ${Object.keys(model.operations).length} operations -> ${out}`);
}
