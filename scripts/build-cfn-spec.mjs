#!/usr/bin/env node
// Builds models/cfn-spec.json, the compact index of CloudFormation resource types Overcast's
// engine reads (properties with their types, required and replacement flags, attributes,
// identifiers, ARN templates, tag information), from @aws-cdk/aws-service-spec. Run by
// `npm run build`, so the index always matches the installed spec; loading the full database
// (≈0.5 s, ≈170 MB RSS) never happens in the server. An index already built from the installed
// spec version by this same script is left as it is (`--force` rebuilds it), so a build after
// `npm ci` costs nothing here. The package ships the index, so the spec is a build-time
// dependency only. Beside it, models/cfn-spec.offsets gives where each type and each type
// definition sits in the index (byte offset and length), so a lookup reads only its entry.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const specVersion = JSON.parse(
  readFileSync(require.resolve('@aws-cdk/aws-service-spec/package.json'), 'utf8'),
).version;
const out = new URL('../models/cfn-spec.json', import.meta.url);
const offsetsOut = new URL('../models/cfn-spec.offsets', import.meta.url);

function upToDate() {
  if (process.argv.includes('--force')) return false;
  try {
    const script = statSync(new URL(import.meta.url)).mtimeMs;
    if (statSync(out).mtimeMs < script || statSync(offsetsOut).mtimeMs < script) return false;
    // The version is the index's first member: no need to parse 2 MB to read it.
    const head = readFileSync(out, 'utf8').slice(0, 200);
    const offsets = readFileSync(offsetsOut, 'latin1');
    return head.startsWith(`{"specVersion":${JSON.stringify(specVersion)},`) && offsets.startsWith(`${specVersion}\n`);
  } catch {
    return false;
  }
}

if (upToDate()) process.exit(0);

const { loadAwsServiceSpecSync } = await import('@aws-cdk/aws-service-spec');
const db = loadAwsServiceSpecSync();

function sig(type) {
  switch (type.type) {
    case 'string':
      return type.allowedValues?.length ? { s: type.allowedValues } : 's';
    case 'number':
      return 'n';
    case 'integer':
      return type.allowedValues?.length ? { i: type.allowedValues } : 'i';
    case 'boolean':
      return 'b';
    case 'json':
      return 'j';
    case 'date-time':
      return 'dt';
    case 'null':
      return 'null';
    case 'tag':
      return 'tag';
    case 'ref':
      return { ref: type.reference.$ref };
    case 'array':
      return { arr: sig(type.element) };
    case 'map':
      return { map: sig(type.element) };
    case 'union':
      return { u: type.types.map(sig) };
    default:
      return 'j';
  }
}

function props(record) {
  const out = {};
  for (const [name, p] of Object.entries(record ?? {})) {
    const info = { t: sig(p.type) };
    if (p.required) info.r = 1;
    if (p.causesReplacement === 'yes' || p.causesReplacement === 'maybe') info.c = p.causesReplacement;
    if (p.defaultValue !== undefined) info.d = p.defaultValue;
    out[name] = info;
  }
  return out;
}

const types = {};
const defs = {};
for (const r of db.all('resource')) {
  const entry = { p: props(r.properties), a: Object.keys(r.attributes ?? {}) };
  if (r.primaryIdentifier?.length) entry.id = r.primaryIdentifier;
  if (r.cfnRefIdentifier?.length) entry.ref = r.cfnRefIdentifier;
  if (r.arnTemplate) entry.arn = r.arnTemplate;
  if (r.tagInformation) entry.tag = [r.tagInformation.tagPropertyName, r.tagInformation.variant];
  if (r.cloudFormationTransform) entry.tr = r.cloudFormationTransform;
  types[r.cloudFormationType] = entry;
  for (const link of db.follow('usesType', r)) {
    const def = link.entity;
    if (!defs[def.$id]) defs[def.$id] = { n: def.name, p: props(def.properties) };
  }
}
// CloudFormation accepts the CDK's analytics resource though no registry schema describes it.
types['AWS::CDK::Metadata'] ??= { p: { Analytics: { t: 's' } }, a: [] };

// The index is written piece by piece to note each entry's byte range. The offsets file is text,
// read without parsing: the spec version; one line of fixed-width records, definition id N at
// 9 × N (offset in 5 base-36 digits, length in 4, blank when there is no such id); then a line
// per type, `name<TAB>offset<TAB>length`, found by searching for the name.
const pieces = [];
let at = 0;
const put = (text) => {
  pieces.push(text);
  const start = at;
  at += Buffer.byteLength(text);
  return [start, at - start];
};
const typeLines = [];
const defRecords = [];
const base36 = (n, width) => {
  const digits = n.toString(36);
  if (digits.length > width) throw new Error(`cfn-spec.json: ${n} does not fit ${width} base-36 digits`);
  return digits.padStart(width, '0');
};
put(`{"specVersion":${JSON.stringify(specVersion)},"types":{`);
Object.entries(types).forEach(([name, entry], i) => {
  put(`${i ? ',' : ''}${JSON.stringify(name)}:`);
  const [start, length] = put(JSON.stringify(entry));
  if (/[\t\n]/.test(name)) throw new Error(`resource type ${JSON.stringify(name)}`);
  typeLines.push(`${name}\t${start}\t${length}`);
});
put('},"defs":{');
Object.entries(defs).forEach(([id, def], i) => {
  if (!/^\d+$/.test(id)) throw new Error(`type definition id ${id} is not a number`);
  put(`${i ? ',' : ''}${JSON.stringify(id)}:`);
  const [start, length] = put(JSON.stringify(def));
  defRecords[Number(id)] = base36(start, 5) + base36(length, 4);
});
put('}}');
const text = pieces.join('');
if (text !== JSON.stringify({ specVersion, types, defs })) throw new Error('cfn-spec.json: the pieces do not make the index');
writeFileSync(out, text);
writeFileSync(offsetsOut, `${specVersion}\n${Array.from(defRecords, (r) => r ?? ' '.repeat(9)).join('')}\n${typeLines.join('\n')}\n`);
console.log(`cfn-spec.json: ${Object.keys(types).length} resource types, ${Object.keys(defs).length} type definitions (aws-service-spec ${specVersion})`);
