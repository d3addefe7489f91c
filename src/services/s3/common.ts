/**
 * What every S3 provider module shares: the repository of the runtime's store, bucket lookup with
 * AWS's NoSuchBucket, owners (canonical ids derived from the account), key validation, ETag
 * comparison as conditional headers need it, and the continuation tokens listings hand out.
 */
import { createHash, randomBytes } from 'node:crypto';
import type * as S3 from '@aws-sdk/client-s3';
import { perStore, type Ctx } from '../../runtime/runtime.js';
import { S3Repo, type BucketRow } from '../../store/s3-repo.js';
import { s3Errors } from './errors.js';

export const repo: (ctx: Ctx) => S3Repo = perStore((meta) => new S3Repo(meta));

export function requireBucket(ctx: Ctx, name: string): BucketRow {
  const bucket = repo(ctx).getBucket(name);
  if (!bucket) throw s3Errors.noSuchBucket(name);
  return bucket;
}

const owners = new Map<string, string>();

/** The canonical user id S3 shows for an account (64 hex characters, stable per account). */
export function ownerId(account: string): string {
  let id = owners.get(account);
  if (!id) {
    id = createHash('sha256').update(`overcast:${account}`).digest('hex');
    owners.set(account, id);
  }
  return id;
}

export function ownerOf(account: string): S3.Owner {
  return { ID: ownerId(account), DisplayName: 'overcast' };
}

/** S3 refuses keys longer than 1024 bytes of UTF-8. */
export function checkKey(key: string): void {
  const size = Buffer.byteLength(key, 'utf8');
  if (size > 1024) throw s3Errors.keyTooLong(size);
  if (size === 0) throw s3Errors.invalidArgument('Invalid key: the key must not be empty', 'key', '');
}

/** `"abc"`, `abc` and `W/"abc"` all name the ETag `"abc"`. */
export function normalizeEtag(value: string): string {
  const v = value.trim().replace(/^W\//, '');
  return v.startsWith('"') ? v : `"${v}"`;
}

/** Whether an If-Match / If-None-Match list (`"a", "b"` or `*`) names the ETag. */
export function etagListMatches(header: string, etag: string): boolean {
  const wanted = normalizeEtag(etag);
  return header.split(',').some((v) => v.trim() === '*' || normalizeEtag(v) === wanted);
}

/** Opaque continuation tokens: the listing position, versioned so garbage is recognised. */
export function encodeToken(position: string): string {
  return Buffer.from(`1\u0000${position}`, 'utf8').toString('base64url');
}

export function decodeToken(token: string, argument = 'continuation-token'): string {
  const text = /^[A-Za-z0-9_-]*={0,2}$/.test(token) ? Buffer.from(token, 'base64url').toString('utf8') : '';
  if (!text.startsWith('1\u0000')) {
    throw s3Errors.invalidArgument('The continuation token provided is incorrect', argument);
  }
  return text.slice(2);
}

/** Time-ordered, unguessable ids (upload ids sort by initiation within a key). */
export function timeOrderedId(): string {
  const time = Date.now().toString(16).padStart(12, '0');
  return `${time}${randomBytes(30).toString('base64url')}`;
}

export const MAX_OBJECT_SIZE = 5 * 1024 * 1024 * 1024;
