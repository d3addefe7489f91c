/**
 * Conditional requests as S3 evaluates them: reads (If-Match / If-Unmodified-Since → 412,
 * If-None-Match / If-Modified-Since → 304, with RFC 7232's precedence: an entity-tag condition
 * present makes its date counterpart ignored), copy-source conditions (always 412), conditional
 * writes (If-None-Match: * and If-Match on PutObject, CopyObject and CompleteMultipartUpload: 412
 * when the condition fails at commit, 404 NoSuchKey when If-Match names a missing object, 409
 * ConditionalRequestConflict when the object was deleted or replaced while the write was in
 * flight), and byte ranges (Range, x-amz-copy-source-range; 416 InvalidRange).
 */
import { etagListMatches } from './common.js';
import { s3Errors } from './errors.js';

interface ReadConditions {
  IfMatch?: string;
  IfNoneMatch?: string;
  IfModifiedSince?: Date;
  IfUnmodifiedSince?: Date;
}

/** Seconds are HTTP-date precision: compare Last-Modified as the client saw it. */
function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}

function dateSeconds(d: Date): number {
  return Math.floor(d.getTime() / 1000);
}

/** GetObject / HeadObject preconditions: throws 412 PreconditionFailed or 304 NotModified. */
export function checkReadConditions(c: ReadConditions, etag: string, lastModified: number): void {
  const lm = seconds(lastModified);
  if (c.IfMatch !== undefined) {
    if (!etagListMatches(c.IfMatch, etag)) throw s3Errors.preconditionFailed('If-Match');
  } else if (c.IfUnmodifiedSince && lm > dateSeconds(c.IfUnmodifiedSince)) {
    throw s3Errors.preconditionFailed('If-Unmodified-Since');
  }
  if (c.IfNoneMatch !== undefined) {
    if (etagListMatches(c.IfNoneMatch, etag)) throw s3Errors.notModified(etag, new Date(lastModified));
  } else if (c.IfModifiedSince) {
    const ims = dateSeconds(c.IfModifiedSince);
    // A date in the future is not a valid condition (RFC 7232 §3.3): ignored.
    if (ims <= seconds(Date.now()) && lm <= ims) throw s3Errors.notModified(etag, new Date(lastModified));
  }
}

interface CopySourceConditions {
  CopySourceIfMatch?: string;
  CopySourceIfNoneMatch?: string;
  CopySourceIfModifiedSince?: Date;
  CopySourceIfUnmodifiedSince?: Date;
}

/** CopyObject / UploadPartCopy source preconditions: every failure is 412. */
export function checkCopySourceConditions(c: CopySourceConditions, etag: string, lastModified: number): void {
  const lm = seconds(lastModified);
  if (c.CopySourceIfMatch !== undefined) {
    if (!etagListMatches(c.CopySourceIfMatch, etag)) throw s3Errors.preconditionFailed('x-amz-copy-source-If-Match');
  } else if (c.CopySourceIfUnmodifiedSince && lm > dateSeconds(c.CopySourceIfUnmodifiedSince)) {
    throw s3Errors.preconditionFailed('x-amz-copy-source-If-Unmodified-Since');
  }
  if (c.CopySourceIfNoneMatch !== undefined) {
    if (etagListMatches(c.CopySourceIfNoneMatch, etag)) throw s3Errors.preconditionFailed('x-amz-copy-source-If-None-Match');
  } else if (c.CopySourceIfModifiedSince) {
    const ims = dateSeconds(c.CopySourceIfModifiedSince);
    if (ims <= seconds(Date.now()) && lm <= ims) throw s3Errors.preconditionFailed('x-amz-copy-source-If-Modified-Since');
  }
}

interface WriteConditions {
  IfMatch?: string;
  IfNoneMatch?: string;
}

/** Validates the form of write conditions (AWS accepts only `If-None-Match: *` and an ETag If-Match). */
export function validateWriteConditions(c: WriteConditions): void {
  if (c.IfMatch !== undefined && c.IfNoneMatch !== undefined) {
    throw s3Errors.notImplemented('If-Match,If-None-Match');
  }
  if (c.IfNoneMatch !== undefined && c.IfNoneMatch.trim() !== '*') throw s3Errors.notImplemented('If-None-Match');
  if (c.IfMatch !== undefined && c.IfMatch.trim() === '*') throw s3Errors.notImplemented('If-Match');
}

function hasWriteConditions(c: WriteConditions): boolean {
  return c.IfMatch !== undefined || c.IfNoneMatch !== undefined;
}

/** What a conditional write saw of the key when it started. */
interface WriteSnapshot {
  existed: boolean;
  /** Last-Modified of the object then (ms), if it existed. */
  lastModified?: number;
}

/**
 * Evaluates write conditions against the object as it is now (`current`, undefined when
 * absent), given what existed when the write began.
 */
export function checkWriteConditions(
  c: WriteConditions,
  key: string,
  current: { etag: string; last_modified: number } | undefined,
  start: WriteSnapshot,
): void {
  if (c.IfNoneMatch !== undefined) {
    if (current) throw s3Errors.preconditionFailed('If-None-Match');
    if (start.existed) throw s3Errors.conditionalRequestConflict('If-None-Match', key);
    return;
  }
  if (c.IfMatch !== undefined) {
    if (!current) {
      if (start.existed) throw s3Errors.conditionalRequestConflict('If-Match', key);
      throw s3Errors.noSuchKey(key);
    }
    if (!etagListMatches(c.IfMatch, current.etag)) throw s3Errors.preconditionFailed('If-Match');
    if (start.lastModified !== undefined && current.last_modified > start.lastModified) {
      throw s3Errors.conditionalRequestConflict('If-Match', key);
    }
  }
}

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/**
 * A Range header against an object of `size` bytes. S3 serves one range; anything it cannot
 * parse (several ranges, other units, end before start) is ignored and the whole object sent.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | undefined {
  if (header === undefined) return undefined;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] !== '') {
    const start = Number(m[1]);
    if (start >= size) throw s3Errors.invalidRange(header, size);
    const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (end < start) return undefined;
    return { start, end };
  }
  const suffix = Number(m[2]);
  if (suffix === 0) throw s3Errors.invalidRange(header, size);
  if (size === 0) return undefined;
  return { start: Math.max(0, size - suffix), end: size - 1 };
}

const COPY_RANGE_FORM =
  'The x-amz-copy-source-range value must be of the form bytes=first-last where first and last are the zero-based offsets of the first and last bytes to copy';

/** `x-amz-copy-source-range: bytes=first-last`, validated as strictly as S3 does. */
export function parseCopySourceRange(header: string, size: number): ByteRange {
  const m = /^bytes=(\d+)-(\d+)$/.exec(header.trim());
  if (!m) throw s3Errors.invalidArgument(COPY_RANGE_FORM, 'x-amz-copy-source-range', header);
  const start = Number(m[1]);
  const end = Number(m[2]);
  if (start > end) throw s3Errors.invalidArgument(COPY_RANGE_FORM, 'x-amz-copy-source-range', header);
  if (start >= size) throw s3Errors.invalidRequest('The specified copy range is invalid for the source object size');
  if (end >= size) {
    throw s3Errors.invalidArgument(`Range specified is not valid for source object of size: ${size}`, 'x-amz-copy-source-range', header);
  }
  return { start, end };
}

/**
 * A conditional write's start: the conditions checked against the object as it is (`head`), and
 * what was there, for the check again when the write commits; undefined for an unconditional one.
 */
export function startConditionalWrite(
  c: WriteConditions,
  key: string,
  head: () => { etag: string; last_modified: number } | undefined,
): WriteSnapshot | undefined {
  if (!hasWriteConditions(c)) return undefined;
  const current = head();
  const snapshot = { existed: current !== undefined, lastModified: current?.last_modified };
  checkWriteConditions(c, key, current, snapshot);
  return snapshot;
}
