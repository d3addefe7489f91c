/**
 * Shape-driven JSON for the rest-json (S3 Tables) and json-1.1 (SSM) protocols: body members are
 * keyed by their `locationName` when the model gives one (S3 Tables' Iceberg structures use
 * `source-id`, `field-id`, …), timestamps and blobs are converted per shape, absent members are
 * omitted, and unknown request members are ignored.
 */
import type { MemberRef, ServiceModel, Shape, TimestampFormat } from '../model/service-model.js';
import { shapeOf } from '../model/service-model.js';
import { AwsError } from './errors.js';
import { formatTimestamp, parseTimestamp } from './timestamps.js';

export interface JsonCodecOptions {
  /** Timestamp format when neither member nor shape says (rest-json/json: epoch seconds). */
  timestampFormat: TimestampFormat;
  /** Emit ISO timestamps with microseconds (S3 Tables does). */
  micros?: boolean;
  /** Error code for a body of the wrong JSON type. */
  invalidInputCode: string;
}

/** A document shape (`"document": true`, e.g. S3 Tables' SchemaV2Field.type): any JSON value, passed through. */
function isDocument(shape: Shape): boolean {
  return (shape as { document?: boolean }).document === true;
}

function wireName(name: string, ref: MemberRef): string {
  return ref.locationName ?? name;
}

interface BodyMember {
  name: string;
  wire: string;
  ref: MemberRef;
  shape: Shape;
}

const bodyMemberCache = new WeakMap<Shape, BodyMember[]>();

/** A structure's body members (no location binding) with their shapes, resolved once per shape. */
function bodyMembers(model: ServiceModel, shape: Shape): BodyMember[] {
  let members = bodyMemberCache.get(shape);
  if (!members) {
    members = Object.entries(shape.members ?? {})
      .filter(([, ref]) => !ref.location)
      .map(([name, ref]) => ({ name, wire: wireName(name, ref), ref, shape: shapeOf(model, ref.shape) }));
    bodyMemberCache.set(shape, members);
  }
  return members;
}

/**
 * The slot by which an output structure asks to be written once: created holding `null`, it holds
 * the structure's JSON text after the first write, and later writes answer that text. Only for
 * values that never change, what they hold included, and that one codec writes (a listing's table
 * summaries, kept with their cached rows, are written page after page). A slot rather than a
 * WeakMap from value to text: a cold listing's hundreds of new keys made the garbage collector's
 * work on weak tables cost more than writing the text.
 */
export const KEEP_JSON_TEXT: unique symbol = Symbol('overcast.keepJsonText');

/** Writes one value as JSON text; undefined when the value is absent (the member is omitted). */
type Writer = (value: unknown) => string | undefined;

/** Compiled writers, per codec options and per (shape, member) pair. */
const writers = new WeakMap<JsonCodecOptions, WeakMap<Shape, Map<MemberRef | undefined, Writer>>>();

/**
 * The writer of one shape, compiled once: a structure's members (with their keys already quoted),
 * a list's element writer, a timestamp's format are worked out when first needed, and a response
 * is written straight to text rather than built as objects for JSON.stringify to walk again.
 */
function writerOf(model: ServiceModel, shape: Shape, opts: JsonCodecOptions, ref?: MemberRef): Writer {
  let byShape = writers.get(opts);
  if (!byShape) {
    byShape = new WeakMap();
    writers.set(opts, byShape);
  }
  let byRef = byShape.get(shape);
  if (!byRef) {
    byRef = new Map();
    byShape.set(shape, byRef);
  }
  let writer = byRef.get(ref);
  if (!writer) {
    // A placeholder first, so recursive shapes resolve to the writer being built.
    let built: Writer | undefined;
    byRef.set(ref, (v) => built!(v));
    built = compile(model, shape, opts, ref);
    byRef.set(ref, built);
    writer = built;
  }
  return writer;
}

const plain: Writer = (value) => (value === null ? undefined : JSON.stringify(value));

/** Characters JSON.stringify would escape: quotes, backslashes, controls and lone surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Names, ARNs and ids need no escaping: quoted as they are, the rest through JSON.stringify. */
const text: Writer = (value) =>
  typeof value === 'string' && !NEEDS_ESCAPE.test(value) ? `"${value}"` : plain(value);

/**
 * A structure's writer as code generated for the shape (as fast-json-stringify does for a JSON
 * schema): each member is read as a named property and written through its own call site, so V8
 * sees one object shape and one callee at each place, where a loop over the members saw them all.
 * Strings are quoted inline. Member names and keys enter the code only as JSON string literals.
 */
function structureWriter(model: ServiceModel, shape: Shape, opts: JsonCodecOptions): Writer {
  const members = bodyMembers(model, shape);
  const deps: ((value: unknown) => string | undefined)[] = [];
  const lines: string[] = [];
  for (const m of members) {
    // Keys with their separator, as literals: `{"name":` first, `,"name":` after (and with the
    // opening quote of a string value), so a member adds as few pieces to the text as it can.
    const key = `${JSON.stringify(m.wire)}:`;
    const [first, next, firstQuoted, nextQuoted] = [`{${key}`, `,${key}`, `{${key}"`, `,${key}"`].map((k) => JSON.stringify(k));
    const read = `x = v[${JSON.stringify(m.name)}]; if (x !== undefined && x !== null) {`;
    const format = m.shape.type === 'timestamp' ? timestampFormatOf(m.shape, opts, m.ref) : undefined;
    if (m.shape.type === 'string' && !isDocument(m.shape)) {
      lines.push(
        `${read} if (typeof x === 'string' && !ESC.test(x)) o += (o === '' ? ${firstQuoted} : ${nextQuoted}) + x + '"'; ` +
          `else { s = plain(x); if (s !== undefined) o += (o === '' ? ${first} : ${next}) + s; } }`,
      );
    } else if (format !== undefined && textTimestamp(format)) {
      // ISO and HTTP-date texts never need escaping.
      const t = `w${deps.push(timestampText(format, opts)) - 1}`;
      lines.push(`${read} s = ${t}(x); if (s !== undefined) o += (o === '' ? ${firstQuoted} : ${nextQuoted}) + s + '"'; }`);
    } else {
      const w = `w${deps.push(writerOf(model, m.shape, opts, m.ref)) - 1}`;
      lines.push(`${read} s = ${w}(x); if (s !== undefined) o += (o === '' ? ${first} : ${next}) + s; }`);
    }
  }
  // A value holding a KEEP_JSON_TEXT slot is written once; its text is kept in the slot.
  const source = `return function (v) {
    if (v === undefined || v === null) return undefined;
    const kept = v[KEEP];
    if (kept !== undefined && kept !== null) return kept;
    let o = ''; let x; let s;
    ${lines.join('\n    ')}
    o = o === '' ? '{}' : o + '}';
    if (kept === null) {
      // Kept flat: V8 flattens a rope in place when it searches it, so each reply that holds this
      // text copies one string, not the few dozen pieces it was built from.
      o.indexOf('\\u0000');
      v[KEEP] = o;
    }
    return o;
  };`;
  const names = deps.map((_, i) => `w${i}`);
  return new Function('ESC', 'plain', 'KEEP', ...names, source)(NEEDS_ESCAPE, plain, KEEP_JSON_TEXT, ...deps) as Writer;
}

function timestampFormatOf(shape: Shape, opts: JsonCodecOptions, ref?: MemberRef): TimestampFormat {
  return ref?.timestampFormat ?? shape.timestampFormat ?? opts.timestampFormat;
}

/** Whether a timestamp format is written as a JSON string (ISO 8601, HTTP-date), not a number. */
function textTimestamp(format: TimestampFormat): boolean {
  return format !== 'unixTimestamp';
}

/** A timestamp's text in a string format, unquoted (it never needs escaping); undefined for no date. */
function timestampText(format: TimestampFormat, opts: JsonCodecOptions): (value: unknown) => string | undefined {
  return (value) => {
    const date = value instanceof Date ? value : parseTimestamp(value);
    return date ? String(formatTimestamp(date, format, opts.micros)) : undefined;
  };
}

function compile(model: ServiceModel, shape: Shape, opts: JsonCodecOptions, ref?: MemberRef): Writer {
  if (isDocument(shape)) return plain;
  switch (shape.type) {
    case 'structure':
      return structureWriter(model, shape, opts);
    case 'list': {
      const item = writerOf(model, shapeOf(model, shape.member!.shape), opts, shape.member);
      return (value) => {
        if (value === undefined || value === null) return undefined;
        const list = value as unknown[];
        let out = '[';
        for (let i = 0; i < list.length; i++) out += `${i === 0 ? '' : ','}${item(list[i]) ?? 'null'}`;
        return `${out}]`;
      };
    }
    case 'map': {
      const item = writerOf(model, shapeOf(model, shape.value!.shape), opts, shape.value);
      return (value) => {
        if (value === undefined || value === null) return undefined;
        let out = '';
        for (const k in value as Record<string, unknown>) {
          const conv = item((value as Record<string, unknown>)[k]);
          if (conv !== undefined) out += `${out === '' ? '{' : ','}${JSON.stringify(k)}:${conv}`;
        }
        return out === '' ? '{}' : `${out}}`;
      };
    }
    case 'timestamp': {
      const format = timestampFormatOf(shape, opts, ref);
      if (!textTimestamp(format)) return (value) => {
        const date = value instanceof Date ? value : parseTimestamp(value);
        return date ? JSON.stringify(formatTimestamp(date, format, opts.micros)) : undefined;
      };
      const text = timestampText(format, opts);
      return (value) => {
        const t = text(value);
        return t === undefined ? undefined : `"${t}"`;
      };
    }
    case 'blob':
      return (value) =>
        value === undefined || value === null
          ? undefined
          : JSON.stringify(
              Buffer.isBuffer(value) || value instanceof Uint8Array
                ? Buffer.from(value as Uint8Array).toString('base64')
                : String(value),
            );
    case 'string':
      return text;
    default:
      return plain;
  }
}

/** A value of `shape` as the protocol's JSON text (absent members omitted; undefined for no value). */
export function toJsonText(
  model: ServiceModel,
  shape: Shape,
  value: unknown,
  opts: JsonCodecOptions,
  ref?: MemberRef,
): string | undefined {
  return writerOf(model, shape, opts, ref)(value);
}

function typeError(opts: JsonCodecOptions, path: string, expected: string): AwsError {
  return new AwsError(opts.invalidInputCode, `Invalid value for '${path}': expected ${expected}`, 400);
}

export function fromJson(
  model: ServiceModel,
  shape: Shape,
  value: unknown,
  opts: JsonCodecOptions,
  path = '',
): unknown {
  if (value === undefined || value === null) return undefined;
  if (isDocument(shape)) return value;
  switch (shape.type) {
    case 'structure': {
      if (typeof value !== 'object' || Array.isArray(value)) throw typeError(opts, path, 'an object');
      const src = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(shape.members ?? {})) {
        if (member.location) continue;
        const raw = src[wireName(name, member)];
        if (raw === undefined) continue;
        const v = fromJson(model, shapeOf(model, member.shape), raw, opts, path ? `${path}.${name}` : name);
        if (v !== undefined) out[name] = v;
      }
      return out;
    }
    case 'list': {
      if (!Array.isArray(value)) throw typeError(opts, path, 'a list');
      const member = shapeOf(model, shape.member!.shape);
      return value.map((v, i) => fromJson(model, member, v, opts, `${path}[${i}]`));
    }
    case 'map': {
      if (typeof value !== 'object' || Array.isArray(value)) throw typeError(opts, path, 'a map');
      const valueShape = shapeOf(model, shape.value!.shape);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        out[k] = fromJson(model, valueShape, v, opts, `${path}.${k}`);
      }
      return out;
    }
    case 'string':
      if (typeof value !== 'string') throw typeError(opts, path, 'a string');
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw typeError(opts, path, 'a boolean');
      return value;
    case 'integer':
    case 'long':
      if (typeof value !== 'number' || !Number.isInteger(value)) throw typeError(opts, path, 'an integer');
      return value;
    case 'float':
    case 'double':
      if (typeof value !== 'number') throw typeError(opts, path, 'a number');
      return value;
    case 'timestamp': {
      const d = parseTimestamp(value);
      if (!d) throw typeError(opts, path, 'a timestamp');
      return d;
    }
    case 'blob':
      if (typeof value !== 'string') throw typeError(opts, path, 'a base64 string');
      return Buffer.from(value, 'base64');
    default:
      return value; // document
  }
}
