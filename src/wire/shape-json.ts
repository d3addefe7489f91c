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

export function toJson(
  model: ServiceModel,
  shape: Shape,
  value: unknown,
  opts: JsonCodecOptions,
  ref?: MemberRef,
): unknown {
  if (value === undefined || value === null) return undefined;
  if (isDocument(shape)) return value;
  switch (shape.type) {
    case 'structure': {
      const out: Record<string, unknown> = {};
      const src = value as Record<string, unknown>;
      for (const m of bodyMembers(model, shape)) {
        const v = toJson(model, m.shape, src[m.name], opts, m.ref);
        if (v !== undefined) out[m.wire] = v;
      }
      return out;
    }
    case 'list': {
      const member = shapeOf(model, shape.member!.shape);
      return (value as unknown[]).map((v) => toJson(model, member, v, opts, shape.member) ?? null);
    }
    case 'map': {
      const valueShape = shapeOf(model, shape.value!.shape);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const conv = toJson(model, valueShape, v, opts, shape.value);
        if (conv !== undefined) out[k] = conv;
      }
      return out;
    }
    case 'timestamp': {
      const date = value instanceof Date ? value : parseTimestamp(value);
      if (!date) return undefined;
      return formatTimestamp(date, ref?.timestampFormat ?? shape.timestampFormat ?? opts.timestampFormat, opts.micros);
    }
    case 'blob':
      return Buffer.isBuffer(value) || value instanceof Uint8Array
        ? Buffer.from(value as Uint8Array).toString('base64')
        : String(value);
    default:
      return value;
  }
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
