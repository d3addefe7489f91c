/**
 * The continuation tokens of the List operations: opaque, carrying the listing kind, its filters
 * and the last key returned, with a checksum so a token this server did not issue (or one of
 * another listing, or with other filters) is a 400, not a wrong page.
 */
import { s3tErrors } from './errors.js';

/** A short FNV-1a checksum: tokens are opaque and tamper-evident enough to tell ours from garbage. */
function checksum(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** An opaque token carrying the listing kind, its filters and the last key returned. */
export function encodeToken(kind: string, filters: Record<string, string | undefined>, key: string[]): string {
  const json = JSON.stringify([kind, filters, key]);
  return `${Buffer.from(json, 'utf8').toString('base64url')}.${checksum(json)}`;
}

/**
 * The last key a token carries; 400 for a token this server did not issue, one of another
 * listing, or one whose filters differ from the request's.
 */
export function decodeToken(
  token: string | undefined,
  kind: string,
  filters: Record<string, string | undefined>,
  keyLength: number,
): string[] | undefined {
  if (token === undefined) return undefined;
  const dot = token.lastIndexOf('.');
  if (dot <= 0) throw s3tErrors.invalidContinuationToken();
  let parsed: unknown;
  try {
    const json = Buffer.from(token.slice(0, dot), 'base64url').toString('utf8');
    if (checksum(json) !== token.slice(dot + 1)) throw new Error('checksum');
    parsed = JSON.parse(json);
  } catch {
    throw s3tErrors.invalidContinuationToken();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || parsed[0] !== kind) throw s3tErrors.invalidContinuationToken();
  const [, f, key] = parsed as [string, Record<string, string>, unknown];
  const same = Object.keys({ ...filters, ...f }).every((k) => (f?.[k] ?? undefined) === (filters[k] ?? undefined));
  if (!same) throw s3tErrors.invalidContinuationToken();
  if (!Array.isArray(key) || key.length !== keyLength || key.some((k) => typeof k !== 'string')) {
    throw s3tErrors.invalidContinuationToken();
  }
  return key as string[];
}

/** Default page size of the three List operations (the model allows 1–1000; AWS's default is undocumented). */
export const DEFAULT_PAGE_SIZE = 1000;
