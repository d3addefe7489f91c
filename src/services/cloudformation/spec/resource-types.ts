/**
 * What the engine knows about every CloudFormation resource type, from the compact index that
 * `npm run build` derives from @aws-cdk/aws-service-spec (scripts/build-cfn-spec.mjs): properties
 * with their type, required and replacement (`causesReplacement`) flags, attributes for GetAtt,
 * identifiers for Ref, ARN templates and tag information. Read lazily, on first use — and only
 * the entries asked for are parsed: the file is compact JSON (2.4 MB; parsing all of it costs some
 * 50 ms and tens of MB), so a lookup reads and parses only its entry: where each one sits comes
 * from `models/cfn-spec.offsets.json`, written with the index (without it, a lookup finds the
 * entry's key in the index's bytes).
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { packagePath } from '../../../package-root.js';

/** A property type: 's' string, 'n' number, 'i' integer, 'b' boolean, 'j' json, 'dt' date-time, … */
export type TypeSig =
  | 's'
  | 'n'
  | 'i'
  | 'b'
  | 'j'
  | 'dt'
  | 'null'
  | 'tag'
  | { s: string[] }
  | { i: number[] }
  | { ref: string }
  | { arr: TypeSig }
  | { map: TypeSig }
  | { u: TypeSig[] };

export interface PropertyInfo {
  t: TypeSig;
  /** Required. */
  r?: 1;
  /** Changing it replaces the resource ('yes') or may ('maybe'). */
  c?: 'yes' | 'maybe';
  /** Default value, as the spec writes it. */
  d?: string;
}

export interface ResourceTypeInfo {
  p: Record<string, PropertyInfo>;
  /** Attributes available to Fn::GetAtt (nested ones dotted). */
  a: string[];
  /** Primary identifier properties. */
  id?: string[];
  /** What Ref returns when it differs from the primary identifier. */
  ref?: string[];
  /** ARN template, e.g. `arn:${Partition}:s3tables:${Region}:${Account}:bucket/${TableBucketName}`. */
  arn?: string;
  /** [tag property name, variant ('standard' | 'asg' | 'map')]. */
  tag?: [string, string];
  /** Transform that must be declared to use the type (SAM). */
  tr?: string;
}

interface TypeDefinitionInfo {
  n: string;
  p: Record<string, PropertyInfo>;
}

let bytes: Buffer | undefined;
let defsAt = 0;
const types = new Map<string, ResourceTypeInfo | undefined>();
const defs = new Map<string, TypeDefinitionInfo | undefined>();

// models/cfn-spec.offsets (scripts/build-cfn-spec.mjs): the spec version; a line of 9-character
// definition records (offset in 5 base-36 digits, length in 4, at 9 × id); a line per type,
// `name<TAB>offset<TAB>length`. Searched as bytes, never parsed as a whole: kept as one string, its
// 184 KB sat on the V8 heap and brought a first stack closer to the process's first full GC.
let offsets: { bytes: Buffer; defsAt: number; typesAt: number } | null | undefined;
const NEWLINE = 0x0a;

const indexPath = () => packagePath('models', 'cfn-spec.json');

/** `length` bytes of the index from `start`, without reading the rest of its 2.4 MB. */
function readRange(start: number, length: number): Buffer {
  if (bytes) return bytes.subarray(start, start + length);
  const out = Buffer.allocUnsafe(length);
  const fd = openSync(indexPath(), 'r');
  try {
    if (readSync(fd, out, 0, length, start) !== length) throw new Error('cfn-spec.json is truncated');
  } finally {
    closeSync(fd);
  }
  return out;
}

// Offsets of another spec version than the index's (a partial rebuild) are not used.
function entryOffsets(): typeof offsets {
  if (offsets === undefined) {
    offsets = null;
    try {
      const file = readFileSync(packagePath('models', 'cfn-spec.offsets'));
      const defsAt = file.indexOf(NEWLINE) + 1;
      const version = file.toString('latin1', 0, defsAt - 1);
      if (readRange(0, 200).toString('latin1').startsWith(`{"specVersion":${JSON.stringify(version)},`)) {
        offsets = { bytes: file, defsAt, typesAt: file.indexOf(NEWLINE, defsAt) };
      }
    } catch {
      // no offsets: lookups search the index
    }
  }
  return offsets;
}

function entryAt<T>(start: number, length: number): T | undefined {
  if (!(start > 0 && length > 0)) return undefined;
  return JSON.parse(readRange(start, length).toString('utf8')) as T;
}

function typeAt<T>(o: NonNullable<typeof offsets>, type: string): T | undefined {
  if (/[\t\n]/.test(type)) return undefined;
  const needle = Buffer.from(`\n${type}\t`);
  const at = o.bytes.indexOf(needle, o.typesAt);
  if (at < 0) return undefined;
  const [start, length] = o.bytes.toString('latin1', at + needle.length, o.bytes.indexOf(NEWLINE, at + 1)).split('\t');
  return entryAt<T>(Number(start), Number(length));
}

function defAt<T>(o: NonNullable<typeof offsets>, id: string): T | undefined {
  if (!/^\d{1,7}$/.test(id)) return undefined;
  const at = o.defsAt + 9 * Number(id);
  if (at + 9 > o.typesAt) return undefined;
  return entryAt<T>(parseInt(o.bytes.toString('latin1', at, at + 5), 36), parseInt(o.bytes.toString('latin1', at + 5, at + 9), 36));
}

// Without offsets the index is kept as bytes, never as one string: decoding all of it costs more
// than all the lookups a stack makes, and a lookup decodes only the entry it found.
function source(): Buffer {
  if (bytes === undefined) {
    bytes = readFileSync(indexPath());
    defsAt = bytes.indexOf('"defs":{');
  }
  return bytes;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const COMMA = 0x2c;

/** The end (exclusive) of the JSON object starting at `start` (a `{`), skipping braces inside strings. */
function objectEnd(s: Buffer, start: number): number {
  let depth = 0;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (c === QUOTE) {
      // a string: jump to its closing quote
      for (i++; i < s.length; i++) {
        const d = s[i];
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
    } else if (c === OPEN) depth++;
    else if (c === CLOSE && --depth === 0) return i + 1;
  }
  throw new Error('cfn-spec.json is truncated');
}

/** The object under key `key` in the section [from, to) of the index, parsed; undefined if absent. */
function entry<T>(key: string, from: number, to: number): T | undefined {
  const s = source();
  const needle = Buffer.from(`${JSON.stringify(key)}:{`);
  let at = s.indexOf(needle, from);
  // Keys are unique per section; a match must sit right after `{` or `,` to be a key at all.
  while (at >= 0 && at < to && s[at - 1] !== OPEN && s[at - 1] !== COMMA) at = s.indexOf(needle, at + 1);
  if (at < 0 || at >= to) return undefined;
  const open = at + needle.length - 1;
  return JSON.parse(s.toString('utf8', open, objectEnd(s, open))) as T;
}

export function resourceType(type: string): ResourceTypeInfo | undefined {
  if (!types.has(type)) {
    const o = entryOffsets();
    types.set(type, o ? typeAt<ResourceTypeInfo>(o, type) : entry<ResourceTypeInfo>(type, 0, (source(), defsAt)));
  }
  return types.get(type);
}

/**
 * Whether CloudFormation knows `type`: a type of the index, or a custom resource (`Custom::*`).
 * Anything else is a template's "Unrecognized resource types" error.
 */
export function isKnownType(type: string): boolean {
  return type.startsWith('Custom::') || resourceType(type) !== undefined;
}

export function typeDefinition(id: string): TypeDefinitionInfo | undefined {
  if (!defs.has(id)) {
    const o = entryOffsets();
    defs.set(id, o ? defAt<TypeDefinitionInfo>(o, id) : entry<TypeDefinitionInfo>(id, (source(), defsAt), Number.MAX_SAFE_INTEGER));
  }
  return defs.get(id);
}

export function specVersion(): string {
  return /"specVersion":"([^"]*)"/.exec(readRange(0, 200).toString('utf8'))?.[1] ?? 'unknown';
}

/** The replacement effect of changing top-level property `name` of `type`. */
export function replacementOf(type: string, name: string): 'yes' | 'maybe' | 'no' {
  return resourceType(type)?.p[name]?.c ?? 'no';
}
