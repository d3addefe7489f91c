/**
 * S3 Tables names and identifiers: the semantic naming rules of table buckets, namespaces and
 * tables (beyond the model's length/character patterns), ARNs of table buckets and tables and
 * their parsing, ids, version tokens, and warehouse bucket names shaped like AWS's.
 */
import { randomBytes } from 'node:crypto';

// "Amazon S3 table bucket, table, and namespace naming rules" (S3 User Guide).
const BUCKET_RESERVED_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-', 'aws'];
const BUCKET_RESERVED_SUFFIXES = ['-s3alias', '--ol-s3', '--x-s3', '--table-s3'];

/** True when `name` satisfies every table bucket naming rule. */
export function validTableBucketName(name: string): boolean {
  if (!/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(name)) return false;
  if (BUCKET_RESERVED_PREFIXES.some((p) => name.startsWith(p))) return false;
  return !BUCKET_RESERVED_SUFFIXES.some((s) => name.endsWith(s));
}

/** Namespace names: a-z, 0-9 and `_`, letter or digit at both ends, no `aws` prefix. */
export function validNamespaceName(name: string): boolean {
  return /^[a-z0-9]([a-z0-9_]{0,253}[a-z0-9])?$/.test(name) && !name.startsWith('aws');
}

/** Table names: a-z, 0-9 and `_`, letter or digit at both ends. */
export function validTableName(name: string): boolean {
  return /^[a-z0-9]([a-z0-9_]{0,253}[a-z0-9])?$/.test(name);
}

export function tableBucketArn(partition: string, region: string, account: string, name: string): string {
  return `arn:${partition}:s3tables:${region}:${account}:bucket/${name}`;
}

export function tableArn(bucketArn: string, tableId: string): string {
  return `${bucketArn}/table/${tableId}`;
}

interface ParsedBucketArn {
  partition: string;
  service: string;
  region: string;
  account: string;
  bucket: string;
}

interface ParsedTableArn extends ParsedBucketArn {
  tableId: string;
}

const BUCKET_ARN = /^arn:(aws[-a-z0-9]*):([a-z0-9]+):([-a-z0-9]*):([0-9]{12}):bucket\/([a-z0-9_-]{3,63})$/;
const TABLE_ARN = /^arn:(aws[-a-z0-9]*):([a-z0-9]+):([-a-z0-9]*):([0-9]{12}):bucket\/([a-z0-9_-]{3,63})\/table\/([a-zA-Z0-9_-]{1,255})$/;

export function parseBucketArn(arn: string): ParsedBucketArn | undefined {
  const m = BUCKET_ARN.exec(arn);
  if (!m) return undefined;
  return { partition: m[1]!, service: m[2]!, region: m[3]!, account: m[4]!, bucket: m[5]! };
}

export function parseTableArn(arn: string): ParsedTableArn | undefined {
  const m = TABLE_ARN.exec(arn);
  if (!m) return undefined;
  return { partition: m[1]!, service: m[2]!, region: m[3]!, account: m[4]!, bucket: m[5]!, tableId: m[6]! };
}

/**
 * Ids of table buckets, namespaces and tables: version-4 UUIDs as AWS's look
 * (`55511111-7a03-4513-…`), except that the first 48 bits are the creation time in milliseconds
 * rather than random. Clients treat ids as opaque; the store keys tables and their configurations
 * by them, and warehouse buckets and their objects by the warehouse name, which begins with the
 * table id. Ids that grow with time are appended to those B-trees, where random ones each landed
 * on a leaf of their own: a 100-table stack on a store holding 30 such stacks rewrote 452 pages,
 * about 250 of them such leaves.
 */
export function newId(): string {
  const at = takeRandom(10);
  const time = Date.now().toString(16).padStart(12, '0');
  const random = pool.toString('hex', at, at + 9);
  const variant = '89ab'[pool[at + 9]! & 3];
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-4${random.slice(0, 3)}-${variant}${random.slice(3, 6)}-${random.slice(6, 18)}`;
}

/** Table version tokens look like AWS's: 20 lowercase hex characters (e.g. `aafc39ddd462690d2a0c`). */
export function newVersionToken(): string {
  const at = takeRandom(10);
  return pool.toString('hex', at, at + 10);
}

// Tokens and names draw from a pool of random bytes: one call into the CSPRNG per 4 KiB.
let pool = Buffer.alloc(0);
let poolOffset = 0;

/** The offset in `pool` of `n` fresh random bytes. */
function takeRandom(n: number): number {
  if (poolOffset + n > pool.length) {
    pool = randomBytes(4096);
    poolOffset = 0;
  }
  poolOffset += n;
  return poolOffset - n;
}

/**
 * Short region code AWS puts in warehouse names: `us-east-1` → `use1`, `ap-northeast-2` → `apn2`
 * (observed in public warehouse locations such as `…tbt6apn2b--table-s3`).
 */
function regionCode(region: string): string {
  let code = regionCodes.get(region);
  if (code === undefined) {
    const parts = region.split('-').filter(Boolean);
    if (parts.length < 2) code = region.replace(/[^a-z0-9]/g, '').slice(0, 6) || 'r';
    else code = `${parts[0]}${parts.slice(1, -1).map((p) => p[0]).join('')}${parts[parts.length - 1]}`.replace(/[^a-z0-9]/g, '');
    if (regionCodes.size < 256) regionCodes.set(region, code);
  }
  return code;
}

const regionCodes = new Map<string, string>();

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export const WAREHOUSE_SUFFIX = '--table-s3';

/**
 * A warehouse bucket name with AWS's anatomy: the first 19 characters of the table id, random
 * `[a-z0-9]`, the region code and `b`, then `--table-s3` — 63 characters in all, e.g.
 * `63a8e430-6e0b-46f5-k833abtwr6s8tmtsycedn8s4yc3xhuse1b--table-s3` (S3 User Guide).
 */
export function warehouseBucketName(tableId: string, region: string): string {
  const head = tableId.slice(0, 19).toLowerCase();
  const tail = `${regionCode(region)}b${WAREHOUSE_SUFFIX}`;
  const n = Math.max(4, 63 - head.length - tail.length);
  let random = '';
  while (random.length < n) {
    const byte = pool[takeRandom(1)]!;
    // 252 = 7 × 36: bytes above it are dropped so that every character is equally likely.
    if (byte < 252) random += ALPHABET[byte % ALPHABET.length];
  }
  return `${head}${random}${tail}`;
}

/** `s3://<bucket>` → `<bucket>`. */
export function warehouseBucketOf(warehouseLocation: string): string {
  return warehouseLocation.replace(/^s3:\/\//, '');
}
