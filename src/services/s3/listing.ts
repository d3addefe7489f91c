/**
 * Listings: ListObjectsV2 (prefix, delimiter + CommonPrefixes, start-after, continuation token,
 * max-keys, encoding-type=url, fetch-owner), ListObjects v1 (marker, NextMarker) and
 * ListMultipartUploads. All three walk one lazy index range scan; when a key rolls up into a
 * common prefix the scan is closed and reopened after that prefix, so a prefix holding a million
 * keys costs one seek, and a page costs the page.
 */
import type * as S3 from '@aws-sdk/client-s3';
import type { Ctx } from '../../server/runtime.js';
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

function checkListArgs(maxKeys: number | undefined, encodingType: string | undefined): number {
  if (maxKeys !== undefined && maxKeys < 0) {
    throw s3Errors.invalidArgument('Argument maxKeys must be an integer between 0 and 2147483647', 'maxKeys', maxKeys);
  }
  if (encodingType !== undefined && encodingType !== 'url') {
    throw s3Errors.invalidArgument('Invalid Encoding Method specified in Request', 'encoding-type', encodingType);
  }
  return Math.min(maxKeys ?? 1000, 1000);
}

/** `encoding-type=url`: keys percent-encoded, `/` kept (botocore decodes with unquote_plus). */
function encoder(encodingType: string | undefined): (s: string | undefined) => string | undefined {
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

export function listObjectsV2(ctx: Ctx, input: S3.ListObjectsV2Request): S3.ListObjectsV2Output {
  const bucket = input.Bucket!;
  const owner = ownerOf(requireBucket(ctx, bucket).account);
  const max = checkListArgs(input.MaxKeys, input.EncodingType);
  const prefix = input.Prefix ?? '';
  const delimiter = input.Delimiter || undefined;
  const enc = encoder(input.EncodingType);
  let after = input.StartAfter ?? '';
  if (input.ContinuationToken !== undefined) after = decodeToken(input.ContinuationToken);
  const marker = input.ContinuationToken === undefined ? input.StartAfter : undefined;
  const gen = walk(objectsOf(ctx, bucket, prefix), (r) => r.key, startOf(after, prefix), prefix, delimiter, marker);
  const { items, truncated } = take(gen, max);
  const contents: S3._Object[] = [];
  const prefixes: S3.CommonPrefix[] = [];
  for (const item of items) {
    if (item.row) contents.push(summary(item.row, enc, input.FetchOwner ? owner : undefined));
    else prefixes.push({ Prefix: enc(item.prefix) });
  }
  const last = items[items.length - 1];
  return {
    IsTruncated: truncated,
    Contents: contents.length ? contents : undefined,
    Name: bucket,
    Prefix: enc(prefix),
    Delimiter: enc(input.Delimiter),
    MaxKeys: input.MaxKeys ?? 1000,
    CommonPrefixes: prefixes.length ? prefixes : undefined,
    EncodingType: input.EncodingType as S3.EncodingType | undefined,
    KeyCount: items.length,
    ContinuationToken: input.ContinuationToken,
    NextContinuationToken: truncated && last ? encodeToken(last.row ? last.row.key : upperBound(last.prefix)) : undefined,
    StartAfter: enc(input.StartAfter),
  };
}

export function listObjects(ctx: Ctx, input: S3.ListObjectsRequest): S3.ListObjectsOutput {
  const bucket = input.Bucket!;
  const owner = ownerOf(requireBucket(ctx, bucket).account);
  const max = checkListArgs(input.MaxKeys, input.EncodingType);
  const prefix = input.Prefix ?? '';
  const delimiter = input.Delimiter || undefined;
  const enc = encoder(input.EncodingType);
  const marker = input.Marker ?? '';
  const gen = walk(objectsOf(ctx, bucket, prefix), (r) => r.key, startOf(marker, prefix), prefix, delimiter, input.Marker);
  const { items, truncated } = take(gen, max);
  const contents: S3._Object[] = [];
  const prefixes: S3.CommonPrefix[] = [];
  for (const item of items) {
    if (item.row) contents.push(summary(item.row, enc, owner));
    else prefixes.push({ Prefix: enc(item.prefix) });
  }
  const last = items[items.length - 1];
  return {
    IsTruncated: truncated,
    Marker: enc(marker),
    // AWS sends NextMarker only with a delimiter; without one, clients continue from the last key.
    NextMarker: truncated && delimiter && last ? enc(last.row ? last.row.key : last.prefix) : undefined,
    Contents: contents.length ? contents : undefined,
    Name: bucket,
    Prefix: enc(prefix),
    Delimiter: enc(input.Delimiter),
    MaxKeys: input.MaxKeys ?? 1000,
    CommonPrefixes: prefixes.length ? prefixes : undefined,
    EncodingType: input.EncodingType as S3.EncodingType | undefined,
  };
}

export function listMultipartUploads(ctx: Ctx, input: S3.ListMultipartUploadsRequest): S3.ListMultipartUploadsOutput {
  const bucket = input.Bucket!;
  requireBucket(ctx, bucket);
  const max = checkListArgs(input.MaxUploads, input.EncodingType);
  const prefix = input.Prefix ?? '';
  const delimiter = input.Delimiter || undefined;
  const enc = encoder(input.EncodingType);
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
  const gen = walk<UploadRow>(open, (u) => u.key, start, prefix, delimiter, input.KeyMarker);
  const { items, truncated } = take(gen, max);
  const uploads: S3.MultipartUpload[] = [];
  const prefixes: S3.CommonPrefix[] = [];
  for (const item of items) {
    if (item.prefix !== undefined) {
      prefixes.push({ Prefix: enc(item.prefix) });
      continue;
    }
    const u = item.row;
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
    uploads.push(entry);
  }
  const last = items[items.length - 1];
  return {
    Bucket: bucket,
    KeyMarker: enc(keyMarker),
    UploadIdMarker: idMarker ?? '',
    NextKeyMarker: truncated && last ? enc(last.row ? last.row.key : last.prefix) : undefined,
    NextUploadIdMarker: truncated && last?.row ? last.row.upload_id : undefined,
    Prefix: enc(prefix) || undefined,
    Delimiter: enc(input.Delimiter),
    MaxUploads: input.MaxUploads ?? 1000,
    IsTruncated: truncated,
    Uploads: uploads.length ? uploads : undefined,
    CommonPrefixes: prefixes.length ? prefixes : undefined,
    EncodingType: input.EncodingType as S3.EncodingType | undefined,
  };
}

/**
 * ListObjectVersions over an unversioned store: every object is its only version, `null`,
 * and the latest; there are no delete markers.
 */
export function listObjectVersions(ctx: Ctx, input: S3.ListObjectVersionsRequest): S3.ListObjectVersionsOutput {
  const bucket = input.Bucket!;
  const owner = ownerOf(requireBucket(ctx, bucket).account);
  if (input.VersionIdMarker && !input.KeyMarker) {
    throw s3Errors.invalidArgument('A version-id marker cannot be specified without a key marker.', 'version-id-marker', input.VersionIdMarker);
  }
  const max = checkListArgs(input.MaxKeys, input.EncodingType);
  const prefix = input.Prefix ?? '';
  const delimiter = input.Delimiter || undefined;
  const enc = encoder(input.EncodingType);
  const keyMarker = input.KeyMarker ?? '';
  const gen = walk(objectsOf(ctx, bucket, prefix), (r) => r.key, startOf(keyMarker, prefix), prefix, delimiter, input.KeyMarker);
  const { items, truncated } = take(gen, max);
  const versions: S3.ObjectVersion[] = [];
  const prefixes: S3.CommonPrefix[] = [];
  for (const item of items) {
    if (item.prefix !== undefined) {
      prefixes.push({ Prefix: enc(item.prefix) });
      continue;
    }
    const { Key, LastModified, ETag, Size, StorageClass, ChecksumAlgorithm, ChecksumType } = summary(item.row, enc);
    versions.push({
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
    });
  }
  const last = items[items.length - 1];
  return {
    IsTruncated: truncated,
    KeyMarker: enc(keyMarker),
    VersionIdMarker: input.VersionIdMarker ?? '',
    NextKeyMarker: truncated && last ? enc(last.row ? last.row.key : last.prefix) : undefined,
    NextVersionIdMarker: truncated && last?.row ? 'null' : undefined,
    Versions: versions.length ? versions : undefined,
    Name: bucket,
    Prefix: enc(prefix),
    Delimiter: enc(input.Delimiter),
    MaxKeys: input.MaxKeys ?? 1000,
    CommonPrefixes: prefixes.length ? prefixes : undefined,
    EncodingType: input.EncodingType as S3.EncodingType | undefined,
  };
}
