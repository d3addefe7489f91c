/**
 * S3 general-purpose bucket naming rules (3–63 characters of lowercase letters, digits, dots and
 * hyphens; letter or digit at both ends; no IP-address form; AWS's reserved prefixes and
 * suffixes), including the `--table-s3` suffix AWS reserves for S3 Tables warehouses.
 */
const RESERVED_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'];
const RESERVED_SUFFIXES = ['-s3alias', '--ol-s3', '--x-s3', '--table-s3', '.mrap'];

export const WAREHOUSE_SUFFIX = '--table-s3';

/** Why `name` is not a valid bucket name, or undefined when it is. */
export function bucketNameProblem(name: string, allowReserved = false): string | undefined {
  if (name.length < 3 || name.length > 63) return 'length';
  if (!/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/.test(name)) return 'characters';
  if (name.includes('..') || name.includes('.-') || name.includes('-.')) return 'adjacent';
  if (/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)) return 'ip';
  if (allowReserved) return undefined;
  if (RESERVED_PREFIXES.some((p) => name.startsWith(p))) return 'prefix';
  if (RESERVED_SUFFIXES.some((s) => name.endsWith(s))) return 'suffix';
  return undefined;
}
