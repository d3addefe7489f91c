/**
 * Listings: ListObjectsV2 (prefix, delimiter + CommonPrefixes, start-after, continuation token,
 * max-keys, encoding-type=url, fetch-owner), ListObjects v1 (marker, NextMarker) and
 * ListMultipartUploads. All three walk one lazy index range scan; when a key rolls up into a
 * common prefix the scan is closed and reopened after that prefix, so a prefix holding a million
 * keys costs one seek, and a page costs the page.
 */
import type * as S3 from '@aws-sdk/client-s3';
import type { Ctx } from '../../runtime/runtime.js';
import { upperBound, type ObjectSummaryRow, type UploadRow } from '../../store/s3-repo.js';
import { decodeToken, encodeToken, ownerOf, repo, requireBucket } from './common.js';
import { s3Errors } from './errors.js';

type Entry<T> = { row: T; prefix?: undefined } | { prefix: string; row?: undefined };

/**
 * Walks rows in key order from `open(position)`, rolling keys that contain `delimiter` after
 * `prefix` into common prefixes and reopening the scan past each one. A common prefix that
 * `marker` lies inside is skipped (the previous page already returned it).
 */
function* walk<T>(
  open: (after: string, inclusive: boolean) => Iterable<T>,
  keyOf: (row: T) => string,
  start: { after: string; inclusive: boolean },
  prefix: string,
  delimiter: string | undefined,
  marker: string | undefined,
): Generator<Entry<T>> {
  let pos = start;
  for (;;) {
    let reopened = false;
    for (const row of open(pos.after, pos.inclusive)) {
      const key = keyOf(row);
      if (delimiter) {
        const at = key.indexOf(delimiter, prefix.length);
        if (at >= 0) {
          const common = key.slice(0, at + delimiter.length);
          if (!(marker !== undefined && marker.startsWith(common))) yield { prefix: common };
          pos = { after: upperBound(common), inclusive: false };
          reopened = true;
          break;
        }
      }
      yield { row };
    }
    if (!reopened) return;
  }
}

/** Where a scan starts: after `after`, but never before `prefix`. */
function startOf(after: string, prefix: string): { after: string; inclusive: boolean } {
  return after >= prefix ? { after, inclusive: false } : { after: prefix, inclusive: true };
}

function take<T>(gen: Generator<T>, max: number): { items: T[]; truncated: boolean } {
  const items: T[] = [];
  if (max === 0) return { items, truncated: false };
  for (const item of gen) {
    if (items.length === max) {
      gen.return(undefined);
      return { items, truncated: true };
    }
    items.push(item);
  }
  return { items, truncated: false };
}

interface Page<T> {
  rows: T[];
  prefixes: S3.CommonPrefix[];
  truncated: boolean;
  /** Rows and common prefixes together (KeyCount). */
  count: number;
  /** The key (or common prefix) the page ended on, when it is truncated. */
  next?: { key: string; row?: T };
}

/** One page of a walk: its rows and its common prefixes (encoded), in key order. */
function page<T>(gen: Generator<Entry<T>>, max: number, keyOf: (row: T) => string, enc: Encoder): Page<T> {
  const { items, truncated } = take(gen, max);
  const rows: T[] = [];
  const prefixes: S3.CommonPrefix[] = [];
  for (const item of items) {
    if (item.prefix !== undefined) prefixes.push({ Prefix: enc(item.prefix) });
    else rows.push(item.row);
  }
  const last = items[items.length - 1];
  const next = truncated && last ? (last.prefix !== undefined ? { key: last.prefix } : { key: keyOf(last.row), row: last.row }) : undefined;
  return { rows, prefixes, truncated, count: items.length, next };
}

/** A page of a bucket's objects after `after` (never before `prefix`). */
function objectPage(
  ctx: Ctx,
  bucket: string,
  q: { prefix: string; delimiter: string | undefined; after: string; marker: string | undefined; max: number; enc: Encoder },
): Page<ObjectSummaryRow> {
  const keyOf = (r: ObjectSummaryRow) => r.key;
  const gen = walk(objectsOf(ctx, bucket, q.prefix), keyOf, startOf(q.after, q.prefix), q.prefix, q.delimiter, q.marker);
  return page(gen, q.max, keyOf, q.enc);
}

function checkListArgs(maxKeys: number | undefined, encodingType: string | undefined): number {
  if (maxKeys !== undefined && maxKeys < 0) {
    throw s3Errors.invalidArgument('Argument maxKeys must be an integer between 0 and 2147483647', 'maxKeys', maxKeys);
  }
  if (encodingType !== undefined && encodingType !== 'url') {
    throw s3Errors.invalidArgument('Invalid Encoding Method specified in Request', 'encoding-type', encodingType);
  }
  return Math.min(maxKeys ?? 1000, 1000);
}

type Encoder = (s: string | undefined) => string | undefined;

/** `encoding-type=url`: keys percent-encoded, `/` kept (botocore decodes with unquote_plus). */
function encoder(encodingType: string | undefined): Encoder {
  if (encodingType !== 'url') return (s) => s;
  return (s) => (s === undefined ? undefined : encodeURIComponent(s).replace(/%2F/g, '/'));
}

function objectsOf(ctx: Ctx, bucket: string, prefix: string) {
  const r = repo(ctx);
  const upper = prefix ? upperBound(prefix) : undefined;
  return (after: string, inclusive: boolean) => r.iterateObjects(bucket, after, inclusive, upper);
}

function summary(row: ObjectSummaryRow, enc: (s: string) => string | undefined, owner?: S3.Owner): S3._Object {
  const o: S3._Object = {
    Key: enc(row.key),
    LastModified: new Date(row.last_modified),
    ETag: row.etag,
    Size: row.size,
    StorageClass: row.storage_class as S3.ObjectStorageClass,
  };
  if (row.checksum_algorithm) {
    o.ChecksumAlgorithm = [row.checksum_algorithm as S3.ChecksumAlgorithm];
    o.ChecksumType = row.checksum_type as S3.ChecksumType;
  }
  if (owner) o.Owner = owner;
  return o;
}

interface ListingRequest {
  Bucket?: string;
  Prefix?: string;
  Delimiter?: string;
  EncodingType?: string;
}

/** What every listing reads from its request: the page size, prefix, delimiter and key encoder. */
function listingArgs(input: ListingRequest, maxKeys: number | undefined) {
  return {
    bucket: input.Bucket!,
    max: checkListArgs(maxKeys, input.EncodingType),
    prefix: input.Prefix ?? '',
    delimiter: input.Delimiter || undefined,
    enc: encoder(input.EncodingType),
  };
}

/** The members every object listing answers with beside its entries. */
function listingEcho(input: ListingRequest & { MaxKeys?: number }, enc: Encoder, prefixes: S3.CommonPrefix[]) {
  return {
    Name: input.Bucket!,
    Prefix: enc(input.Prefix ?? ''),
    Delimiter: enc(input.Delimiter),
    MaxKeys: input.MaxKeys ?? 1000,
    CommonPrefixes: prefixes.length ? prefixes : undefined,
    EncodingType: input.EncodingType as S3.EncodingType | undefined,
  };
}

export function listObjectsV2(ctx: Ctx, input: S3.ListObjectsV2Request): S3.ListObjectsV2Output {
  const { bucket, max, prefix, delimiter, enc } = listingArgs(input, input.MaxKeys);
  const owner = ownerOf(requireBucket(ctx, bucket).account);
  let after = input.StartAfter ?? '';
  if (input.ContinuationToken !== undefined) after = decodeToken(input.ContinuationToken);
  const marker = input.ContinuationToken === undefined ? input.StartAfter : undefined;
  const p = objectPage(ctx, bucket, { prefix, delimiter, after, marker, max, enc });
  return {
    IsTruncated: p.truncated,
    Contents: p.rows.length ? p.rows.map((row) => summary(row, enc, input.FetchOwner ? owner : undefined)) : undefined,
    ...listingEcho(input, enc, p.prefixes),
    KeyCount: p.count,
    ContinuationToken: input.ContinuationToken,
    NextContinuationToken: p.next ? encodeToken(p.next.row ? p.next.key : upperBound(p.next.key)) : undefined,
    StartAfter: enc(input.StartAfter),
  };
}

export function listObjects(ctx: Ctx, input: S3.ListObjectsRequest): S3.ListObjectsOutput {
  const { bucket, max, prefix, delimiter, enc } = listingArgs(input, input.MaxKeys);
  const owner = ownerOf(requireBucket(ctx, bucket).account);
  const marker = input.Marker ?? '';
  const p = objectPage(ctx, bucket, { prefix, delimiter, after: marker, marker: input.Marker, max, enc });
  return {
    IsTruncated: p.truncated,
    Marker: enc(marker),
    // AWS sends NextMarker only with a delimiter; without one, clients continue from the last key.
    NextMarker: p.next && delimiter ? enc(p.next.key) : undefined,
    Contents: p.rows.length ? p.rows.map((row) => summary(row, enc, owner)) : undefined,
    ...listingEcho(input, enc, p.prefixes),
  };
}

export function listMultipartUploads(ctx: Ctx, input: S3.ListMultipartUploadsRequest): S3.ListMultipartUploadsOutput {
  const { bucket, max, prefix, delimiter, enc } = listingArgs(input, input.MaxUploads);
  requireBucket(ctx, bucket);
  const keyMarker = input.KeyMarker ?? '';
  const idMarker = input.KeyMarker ? input.UploadIdMarker || undefined : undefined;
  const r = repo(ctx);
  const upper = prefix ? upperBound(prefix) : undefined;
  let first = true;
  // The first scan resumes inside the marker key (after its upload id); later ones skip prefixes.
  const open = (after: string, inclusive: boolean) => {
    const resume = first && idMarker !== undefined && after === keyMarker;
    first = false;
    return r.iterateUploads(bucket, after, resume ? idMarker : inclusive ? '' : undefined, upper);
  };
  const start = idMarker !== undefined && keyMarker >= prefix ? { after: keyMarker, inclusive: false } : startOf(keyMarker, prefix);
  const keyOf = (u: UploadRow) => u.key;
  const p = page(walk<UploadRow>(open, keyOf, start, prefix, delimiter, input.KeyMarker), max, keyOf, enc);
  const uploads = p.rows.map((u): S3.MultipartUpload => {
    const meta = JSON.parse(u.meta) as { storageClass: string; checksumAlgorithm?: string; checksumType?: string };
    const who = ownerOf(u.initiator);
    const entry: S3.MultipartUpload = {
      UploadId: u.upload_id,
      Key: enc(u.key),
      Initiated: new Date(u.initiated),
      StorageClass: meta.storageClass as S3.StorageClass,
      Owner: who,
      Initiator: who,
    };
    if (meta.checksumAlgorithm) {
      entry.ChecksumAlgorithm = meta.checksumAlgorithm as S3.ChecksumAlgorithm;
      entry.ChecksumType = meta.checksumType as S3.ChecksumType;
    }
    return entry;
  });
  return {
    Bucket: bucket,
    KeyMarker: enc(keyMarker),
    UploadIdMarker: idMarker ?? '',
    NextKeyMarker: p.next ? enc(p.next.key) : undefined,
    NextUploadIdMarker: p.next?.row ? p.next.row.upload_id : undefined,
    Prefix: enc(prefix) || undefined,
    Delimiter: enc(input.Delimiter),
    MaxUploads: input.MaxUploads ?? 1000,
    IsTruncated: p.truncated,
    Uploads: uploads.length ? uploads : undefined,
    CommonPrefixes: p.prefixes.length ? p.prefixes : undefined,
    EncodingType: input.EncodingType as S3.EncodingType | undefined,
  };
}

/**
 * ListObjectVersions over an unversioned store: every object is its only version, `null`,
 * and the latest; there are no delete markers.
 */
export function listObjectVersions(ctx: Ctx, input: S3.ListObjectVersionsRequest): S3.ListObjectVersionsOutput {
  const { bucket, max, prefix, delimiter, enc } = listingArgs(input, input.MaxKeys);
  const owner = ownerOf(requireBucket(ctx, bucket).account);
  if (input.VersionIdMarker && !input.KeyMarker) {
    throw s3Errors.invalidArgument('A version-id marker cannot be specified without a key marker.', 'version-id-marker', input.VersionIdMarker);
  }
  const keyMarker = input.KeyMarker ?? '';
  const p = objectPage(ctx, bucket, { prefix, delimiter, after: keyMarker, marker: input.KeyMarker, max, enc });
  const versions = p.rows.map((row): S3.ObjectVersion => {
    const { Key, LastModified, ETag, Size, StorageClass, ChecksumAlgorithm, ChecksumType } = summary(row, enc);
    return {
      ETag,
      ChecksumAlgorithm,
      ChecksumType,
      Size,
      StorageClass: StorageClass as S3.ObjectVersionStorageClass,
      Key,
      VersionId: 'null',
      IsLatest: true,
      LastModified,
      Owner: owner,
    };
  });
  return {
    IsTruncated: p.truncated,
    KeyMarker: enc(keyMarker),
    VersionIdMarker: input.VersionIdMarker ?? '',
    NextKeyMarker: p.next ? enc(p.next.key) : undefined,
    NextVersionIdMarker: p.next?.row ? 'null' : undefined,
    Versions: versions.length ? versions : undefined,
    ...listingEcho(input, enc, p.prefixes),
  };
}
