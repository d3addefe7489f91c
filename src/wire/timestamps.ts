/**
 * Timestamp formats of the AWS protocols: ISO-8601 (query and rest-xml bodies; S3 Tables bodies
 * through `timestampFormat: iso8601`, which AWS sends with microseconds), RFC 822 / HTTP-date
 * (headers) and epoch seconds (json and rest-json bodies by default).
 */
import type { TimestampFormat } from '../model/service-model.js';

/** `2025-01-07T22:14:48.689000Z` — microsecond precision as the S3 Tables service prints. */
export function isoMicros(date: Date): string {
  const ms = date.getTime();
  // Timestamps come in runs (a row's createdAt and modifiedAt, a page of rows made together), and
  // Date#toISOString dominates a listing's serialization otherwise.
  if (ms === lastMicros.ms) return lastMicros.text;
  const iso = date.toISOString(); // always ends in `.sssZ`
  lastMicros = { ms, text: `${iso.slice(0, -1)}000Z` };
  return lastMicros.text;
}

let lastMicros = { ms: Number.NaN, text: '' };

/** `2025-01-07T22:14:48.689Z` — the millisecond form query/XML services emit. */
export function isoMillis(date: Date): string {
  return date.toISOString();
}

export function formatTimestamp(date: Date, format: TimestampFormat, micros = false): string | number {
  switch (format) {
    case 'unixTimestamp':
      return Math.round(date.getTime()) / 1000;
    case 'rfc822':
      return date.toUTCString();
    default:
      return micros ? isoMicros(date) : isoMillis(date);
  }
}

export function parseTimestamp(value: unknown): Date | undefined {
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value * 1000);
  if (typeof value !== 'string' || value === '') return undefined;
  if (/^-?\d+(\.\d+)?$/.test(value)) return new Date(Number(value) * 1000);
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

export function toDate(value: unknown): Date | undefined {
  return parseTimestamp(value);
}
