/**
 * Inputs from the service models: a plausible input for any operation (fixture values by member
 * name, else the first candidate that satisfies the shape's enum, length and pattern), and the
 * hostile variants of it — each required member missing in turn, and for each member (and the
 * members of nested body structures and lists of them) the wrong JSON type, over-long and empty strings, unicode and
 * control characters, huge, negative and fractional numbers, NaN-like text, percent-encoding edge
 * cases for path labels, oversized lists and maps. A seeded shuffle bounds the variants per
 * operation so a run is deterministic and a few thousand requests in all.
 */
import type { MemberRef, ServiceModel, Shape } from '../../src/model/service-model.js';
import { shuffled } from './support.js';

/** Text placed on the wire exactly as given (no percent-encoding by the request builder). */
export class RawText {
  constructor(readonly text: string) {}
}

/** A JSON token placed in a JSON body verbatim (`1e400`, `-0`, `00012`). */
export class RawJson {
  constructor(readonly text: string) {}
}

export type Fixtures = Record<string, unknown>;

const STRING_CANDIDATES = [
  'abc', 'a', 'test1', 'name-1', 'Key1', 'x1', '/a', '1', 'arn:aws:iam::000000000000:role/robust',
  'AKIAIOSFODNN7EXAMPLE', 'abcdefghij', 'robustness-token-0000000000000000',
];

function compile(pattern: string): RegExp | undefined {
  try {
    return new RegExp(`^(?:${pattern})$`, 'su');
  } catch {
    return undefined;
  }
}

function plausibleString(shape: Shape): string {
  if (shape.enum?.length) return shape.enum[0]!;
  const re = shape.pattern ? compile(shape.pattern) : undefined;
  const min = shape.min ?? 0;
  const max = shape.max ?? Infinity;
  const fits = (s: string) => s.length >= min && s.length <= max && (!re || re.test(s));
  for (const c of STRING_CANDIDATES) if (fits(c)) return c;
  const padded = 'a'.repeat(Math.max(min, 1));
  return fits(padded) ? padded : STRING_CANDIDATES[0]!;
}

/** A plausible value of `shapeName` (required members only for structures). */
export function sampleValue(model: ServiceModel, shapeName: string, member: string, fixtures: Fixtures, depth = 0): unknown {
  const shape = model.shapes[shapeName]!;
  if (member in fixtures) {
    const fixture = fixtures[member];
    if (shape.type === 'list' && !Array.isArray(fixture)) return [fixture];
    if (shape.type !== 'list' && Array.isArray(fixture)) return fixture[0];
    return fixture;
  }
  switch (shape.type) {
    case 'structure': {
      const out: Record<string, unknown> = {};
      if (depth > 5) return out;
      const names = shape.union ? Object.keys(shape.members ?? {}).slice(0, 1) : (shape.required ?? []);
      for (const name of names) {
        const ref = shape.members![name]!;
        out[name] = sampleValue(model, ref.shape, name, fixtures, depth + 1);
      }
      return out;
    }
    case 'list':
      return [sampleValue(model, shape.member!.shape, member, fixtures, depth + 1)];
    case 'map': {
      const key = sampleValue(model, shape.key!.shape, 'key', {}, depth + 1) as string;
      return { [key]: sampleValue(model, shape.value!.shape, 'value', fixtures, depth + 1) };
    }
    case 'string':
      return plausibleString(shape);
    case 'integer':
    case 'long':
      return Math.min(Math.max(1, shape.min ?? 1), shape.max ?? 1);
    case 'float':
    case 'double':
      return 1;
    case 'boolean':
      return false;
    case 'timestamp':
      return new Date('2025-01-01T00:00:00Z');
    case 'blob':
      return Buffer.from('data');
    default:
      return {};
  }
}

export function sampleInput(model: ServiceModel, operation: string, fixtures: Fixtures): Record<string, unknown> {
  const op = model.operations[operation]!;
  if (!op.input) return {};
  return sampleValue(model, op.input.shape, '', fixtures) as Record<string, unknown>;
}

export interface Mutation {
  /** e.g. `missing Name`, `wrong-type TimeoutInMinutes`. */
  label: string;
  /** The whole input with the one defect. */
  input: Record<string, unknown>;
  /** Why the model forbids this input (AWS must refuse it), when it clearly does. */
  invalid?: string;
}

function inLength(shape: Shape, length: number): boolean {
  return (shape.min === undefined || length >= shape.min) && (shape.max === undefined || length <= shape.max);
}

/**
 * Why `value` clearly breaks `shape`'s constraints (enum, length, pattern, range, list size), or —
 * in JSON bodies — its type; undefined when it may be acceptable. Only unambiguous cases count.
 */
export function violation(model: ServiceModel, shape: Shape, value: unknown, json: boolean): string | undefined {
  if (value === null || value === undefined || value instanceof RawJson) return undefined;
  const text = value instanceof RawText ? value.text : undefined;
  switch (shape.type) {
    case 'string': {
      const s = text ?? value;
      if (typeof s !== 'string') return json ? 'wrong JSON type' : undefined;
      if (text !== undefined && /%/.test(text)) return undefined;
      if (shape.enum && !shape.enum.includes(s)) return 'not in the enum';
      if (!inLength(shape, [...s].length)) return 'length out of range';
      if (shape.pattern) {
        const re = compile(shape.pattern);
        if (re && !re.test(s)) return 'pattern mismatch';
      }
      return undefined;
    }
    case 'integer':
    case 'long':
    case 'float':
    case 'double': {
      if (text !== undefined && /%/.test(text)) return undefined;
      if (text !== undefined) return /^-?\d+$/.test(text) && inLength(shape, Number(text)) ? undefined : 'not a number in range';
      if (typeof value !== 'number') return json ? 'wrong JSON type' : undefined;
      if ((shape.type === 'integer' || shape.type === 'long') && !Number.isInteger(value)) return 'not an integer';
      return inLength(shape, value) ? undefined : 'out of range';
    }
    case 'boolean':
      if (text !== undefined) return /^(true|false)$/i.test(text) ? undefined : 'not a boolean';
      return typeof value === 'boolean' || !json ? undefined : 'wrong JSON type';
    case 'timestamp':
      return text !== undefined ? 'not a timestamp' : undefined;
    case 'list':
      if (!Array.isArray(value)) return json ? 'wrong JSON type' : undefined;
      if (!inLength(shape, value.length)) return 'list size out of range';
      for (const item of value) {
        const why = violation(model, model.shapes[shape.member!.shape]!, item, json);
        if (why) return why;
      }
      return undefined;
    case 'map':
      if (typeof value !== 'object' || Array.isArray(value)) return json ? 'wrong JSON type' : undefined;
      return inLength(shape, Object.keys(value).length) ? undefined : 'map size out of range';
    case 'structure':
      if (typeof value !== 'object' || Array.isArray(value)) return json ? 'wrong JSON type' : undefined;
      for (const req of shape.required ?? []) {
        if ((value as Record<string, unknown>)[req] === undefined) return `missing ${req}`;
      }
      return undefined;
    default:
      return undefined;
  }
}

const LONG = 'a'.repeat(100 * 1024);
const UNICODE = 'ünï-😀-\u202e-\ufeff-漢字';
const CONTROL = 'a\u0000b\u0001c\u007f\u001b[31m';

/** Hostile text for a member bound to a path label, query parameter or header. */
function textVariants(shape: Shape, location: MemberRef['location'], greedy: boolean): [string, unknown][] {
  const out: [string, unknown][] = [];
  if (shape.type === 'integer' || shape.type === 'long' || shape.type === 'float' || shape.type === 'double') {
    for (const t of ['abc', '', '-1', '1.5', '1e400', 'NaN', 'Infinity', '99999999999999999999999', '0x10', '%207', '-0']) {
      out.push([`number-text ${JSON.stringify(t)}`, new RawText(t)]);
    }
    return out;
  }
  if (shape.type === 'boolean') {
    for (const t of ['yes', '', 'TRUE', '1', 'null']) out.push([`boolean-text ${JSON.stringify(t)}`, new RawText(t)]);
    return out;
  }
  if (shape.type === 'timestamp') {
    for (const t of ['not-a-date', '', '99999999999999', '-1', 'Mon, 32 Foo 2025 99:99:99 GMT']) {
      out.push([`timestamp-text ${JSON.stringify(t)}`, new RawText(t)]);
    }
    return out;
  }
  if (shape.type === 'list') {
    out.push(['list 1000 items', Array.from({ length: 1000 }, (_, i) => `v${i}`)]);
    out.push(['list empty item', ['']]);
    return out;
  }
  if (shape.type === 'map') {
    out.push(['map 200 entries', Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, `v${i}`]))]);
    return out;
  }
  out.push(['empty string', '']);
  out.push(['unicode', UNICODE]);
  if (location === 'header') {
    out.push(['too long 8 KB', 'a'.repeat(8 * 1024)]);
    out.push(['latin1 bytes', 'caf\u00e9\u00ff']);
    return out;
  }
  out.push(['too long 100 KB', LONG]);
  out.push(['1025 bytes', 'k'.repeat(1025)]);
  out.push(['control characters', CONTROL]);
  for (const raw of ['%00', '%', '%ZZ', '%2F', '%C0%AF', '%FF%FE', 'a%2e%2e%2fb', '..', '.', '%20', '+']) {
    if (location === 'uri' && greedy && raw === '%2F') continue;
    out.push([`raw ${raw}`, new RawText(raw)]);
  }
  return out;
}

/** Hostile JSON values for a body member (also rendered as XML text for rest-xml bodies). */
function bodyVariants(model: ServiceModel, shape: Shape, sample: unknown): [string, unknown][] {
  const common: [string, unknown][] = [
    ['null', null],
    ['wrong-type object', { unexpected: 1 }],
  ];
  switch (shape.type) {
    case 'string':
      return [
        ...common,
        ['empty string', ''],
        ['too long', shape.max !== undefined && shape.max < 100_000 ? 'a'.repeat(shape.max + 1) : LONG],
        ['unicode', UNICODE],
        ['control characters', CONTROL],
        ['lone surrogate', new RawJson('"\\ud800x"')],
        ['wrong-type number', 123],
        ['wrong-type boolean', true],
        ['wrong-type array', ['a']],
      ];
    case 'integer':
    case 'long':
    case 'float':
    case 'double':
      return [
        ...common,
        ['wrong-type string', 'abc'],
        ['numeric string', '12'],
        ['fraction', 1.5],
        ['negative', -1],
        ['huge 1e308', 1e308],
        ['2^63', new RawJson('9223372036854775808')],
        ['-2^63-1', new RawJson('-9223372036854775809')],
        ['1e400', new RawJson('1e400')],
        ['wrong-type array', [1]],
      ];
    case 'boolean':
      return [...common, ['wrong-type string', 'true'], ['wrong-type number', 1]];
    case 'timestamp':
      return [...common, ['bad date', 'not-a-date'], ['negative', -1], ['huge', 1e20], ['wrong-type boolean', true]];
    case 'blob':
      return [...common, ['not base64', '!!!not base64***'], ['wrong-type number', 5]];
    case 'list': {
      const item = Array.isArray(sample) && sample.length > 0 ? sample[0] : 'x';
      return [
        ...common,
        ['empty list', []],
        ['scalar for list', 'x'],
        ['null item', [null]],
        ['wrong-type items', [{ a: 1 }, 5]],
        ['1000 items', Array.from({ length: 1000 }, () => item)],
      ];
    }
    case 'map':
      return [
        ...common.slice(0, 1),
        ['array for map', [1, 2]],
        ['scalar for map', 'x'],
        ['wrong-type values', { k: { nested: [1] } }],
        ['empty key', { '': 'v' }],
        ['1000 entries', Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, 'v']))],
      ];
    case 'structure':
      return [
        ['null', null],
        ['scalar for structure', 'x'],
        ['array for structure', [{}]],
        ['empty structure', {}],
        ['unknown members only', { zzUnknown: 1 }],
      ];
    default:
      void model;
      return common;
  }
}

function isGreedy(model: ServiceModel, operation: string, wire: string): boolean {
  return model.operations[operation]!.http.requestUri.includes(`{${wire}+}`);
}

/** A deep copy of `root` with `value` at `path` (absent: deleted); parents made as needed. */
export function setAt(root: Record<string, unknown>, path: (string | number)[], value: unknown, remove = false): Record<string, unknown> {
  const copy = structuredClone(root) as Record<string, unknown>;
  let node: Record<string | number, unknown> = copy;
  path.slice(0, -1).forEach((key, i) => {
    const wantArray = typeof path[i + 1] === 'number';
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next) !== wantArray) node[key] = wantArray ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  });
  const last = path[path.length - 1]!;
  if (remove) delete node[last];
  else node[last] = value;
  return copy;
}

function getAt(root: unknown, path: (string | number)[]): unknown {
  let node = root;
  for (const key of path) node = node && typeof node === 'object' ? (node as Record<string | number, unknown>)[key] : undefined;
  return node;
}

/**
 * The hostile variants of `base` for `operation`, each a complete input: every required member
 * missing (always kept), then up to `budget` member-level variants chosen by `random`. Nested
 * body structures — also the first item of a list of structures, as in S3 Tables' Iceberg
 * schemas — are entered down to `maxDepth`, filled in with a plausible value where the plausible
 * input left them out, so each variant breaks one thing in an otherwise sound request.
 */
export function mutations(
  model: ServiceModel,
  operation: string,
  base: Record<string, unknown>,
  random: () => number,
  budget: number,
  json = false,
  fixtures: Fixtures = {},
  maxDepth = 5,
): Mutation[] {
  const op = model.operations[operation]!;
  if (!op.input) return [];
  const input = model.shapes[op.input.shape]!;
  // Without a path label the request addresses another resource (`/buckets/` lists buckets), so
  // its answer says nothing about validation.
  const missing: Mutation[] = (input.required ?? []).map((name) => ({
    label: `missing ${name}`,
    input: setAt(base, [name], undefined, true),
    invalid: input.members![name]!.location === 'uri' ? undefined : 'required member missing',
  }));
  const variants: Mutation[] = [];
  const visit = (shape: Shape, root: Record<string, unknown>, path: (string | number)[], depth: number) => {
    const top = path.length === 0;
    const value = getAt(root, path) as Record<string, unknown> | undefined;
    for (const [name, ref] of Object.entries(shape.members ?? {})) {
      const memberShape = model.shapes[ref.shape]!;
      if (top && ref.location === 'headers') continue;
      if (memberShape.type === 'blob' && (memberShape.streaming || ref.streaming)) continue;
      const at = [...path, name];
      const where = at.join('.');
      const located = top && ref.location !== undefined;
      const list = located
        ? textVariants(memberShape, ref.location, ref.location === 'uri' && isGreedy(model, operation, ref.locationName ?? name))
        : bodyVariants(model, memberShape, value?.[name]);
      for (const [kind, v] of list) {
        const emptyLabel = ref.location === 'uri' && v === '';
        const invalid = emptyLabel ? undefined : violation(model, memberShape, v, json && !located);
        variants.push({ label: `${kind} ${where}`, input: setAt(root, at, v), invalid });
      }
      if (located || depth >= maxDepth) continue;
      // Enter a nested structure (or a list's first structure), present or plausibly filled in.
      let inner: Shape | undefined;
      let innerPath: (string | number)[] = at;
      if (memberShape.type === 'structure') inner = memberShape;
      else if (memberShape.type === 'list' && model.shapes[memberShape.member!.shape]!.type === 'structure') {
        inner = model.shapes[memberShape.member!.shape]!;
        innerPath = [...at, 0];
      }
      if (!inner) continue;
      let nextRoot = root;
      if (getAt(root, innerPath) === undefined) {
        nextRoot = setAt(root, innerPath, sampleValue(model, memberShape.type === 'list' ? memberShape.member!.shape : ref.shape, name, fixtures, depth + 1));
      }
      const child = getAt(nextRoot, innerPath) as Record<string, unknown>;
      for (const req of inner.required ?? []) {
        if (child?.[req] !== undefined) {
          missing.push({ label: `missing ${[...innerPath, req].join('.')}`, input: setAt(nextRoot, [...innerPath, req], undefined, true), invalid: 'required member missing' });
        }
      }
      visit(inner, nextRoot, innerPath, depth + 1);
    }
  };
  visit(input, base, [], 0);
  return [...missing, ...shuffled(random, variants).slice(0, budget)];
}
