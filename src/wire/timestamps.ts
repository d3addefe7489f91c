/**
 * Timestamp formats of the AWS protocols: ISO-8601 (query and rest-xml bodies; S3 Tables bodies
 * through `timestampFormat: iso8601`, which AWS sends with microseconds), RFC 822 / HTTP-date
 * (headers) and epoch seconds (json and rest-json bodies by default).
 */
import type { TimestampFormat } from '../model/service-model.js';

/** `2025-01-07T22:14:48.689000Z` — microsecond precision as the S3 Tables service prints. */
function isoMicros(date: Date): string {
  const ms = date.getTime();
  // A row's two timestamps are often one instant (a table not yet committed to).
  if (ms === lastMs) return lastText;
  if (!Number.isFinite(ms)) return date.toISOString(); // throws RangeError, as before
  // A listing prints two timestamps per row, and Date#toISOString dominated its serialization:
  // the date part is kept per day and the time of day put together from padded digits.
  const day = Math.floor(ms / DAY);
  if (day !== lastDay.day) lastDay = { day, text: new Date(day * DAY).toISOString().slice(0, -13) };
  let rest = ms - day * DAY;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const text = `${lastDay.text}${TWO[hours]}:${TWO[minutes]}:${TWO[seconds]}.${THREE[rest - seconds * 1000]}000Z`;
  lastMs = ms;
  lastText = text;
  return text;
}

const DAY = 86_400_000;
const TWO = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
let lastDay = { day: Number.NaN, text: '' };
let lastMs = Number.NaN;
let lastText = '';

/** `2025-01-07T22:14:48.689Z` — the millisecond form query/XML services emit. */
function isoMillis(date: Date): string {
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
