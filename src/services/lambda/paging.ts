/**
 * Lambda's page markers, one form for every listing: the base64 of the last key a page returned
 * (a name, a version number, or `name#version`), read back as that key; the listings query for
 * one row more than a page holds, so a `NextMarker` is given exactly when more rows follow. A
 * marker that does not decode to a key of the listing is `Invalid Marker`, as on AWS.
 */
import { lambdaErrors } from './errors.js';

/** The key a request's Marker holds; undefined for the first page (no Marker, or an empty one). */
export function markerKey(marker: string | undefined): string | undefined {
  if (!marker) return undefined;
  const key = Buffer.from(marker, 'base64').toString('utf8');
  if (!key) throw lambdaErrors.invalidParameter('Invalid Marker');
  return key;
}

/** A numeric key (a version number), `first` for the first page. */
export function markerNumber(marker: string | undefined, first: number): number {
  const key = markerKey(marker);
  if (key === undefined) return first;
  const n = Number(key);
  if (!Number.isInteger(n)) throw lambdaErrors.invalidParameter('Invalid Marker');
  return n;
}

/** The page of `rows` (fetched as `max + 1`) and the marker of the next one, keyed by `key` of its last row. */
export function pageOf<T>(rows: T[], max: number, key: (last: T) => string | number): { page: T[]; NextMarker?: string } {
  const page = rows.slice(0, max);
  if (rows.length <= max) return { page };
  return { page, NextMarker: Buffer.from(String(key(page[page.length - 1]!))).toString('base64') };
}
