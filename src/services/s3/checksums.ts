/**
 * S3's additional checksums (CRC32, CRC32C, CRC64NVME, SHA1, SHA256) and Content-MD5: which one a
 * request asks for (an `x-amz-checksum-*` value, `x-amz-sdk-checksum-algorithm`, or a trailer named
 * in `x-amz-trailer`), a hasher that sees the body as it streams to the store, verification with
 * AWS's error codes and messages, and the multipart forms — COMPOSITE (checksum of the part
 * checksums, suffixed `-N`) and FULL_OBJECT (the CRCs of the parts combined). Only what a request
 * asks for is computed: MD5 (the ETag) is the one hash every upload pays for.
 */
import { createHash, type Hash } from 'node:crypto';
import { combineCrc, Crc64, crc32, crc32c } from './crc.js';
import { s3Errors } from './errors.js';

export const ALGORITHMS = ['CRC32', 'CRC32C', 'CRC64NVME', 'SHA1', 'SHA256'] as const;
export type ChecksumAlgorithm = (typeof ALGORITHMS)[number];
export type ChecksumType = 'COMPOSITE' | 'FULL_OBJECT';

const DIGEST_BYTES: Record<ChecksumAlgorithm, number> = { CRC32: 4, CRC32C: 4, CRC64NVME: 8, SHA1: 20, SHA256: 32 };

/** Output member of the SDK shapes for an algorithm (`ChecksumCRC32`, …). */
export function memberOf(alg: ChecksumAlgorithm): `Checksum${ChecksumAlgorithm}` {
  return `Checksum${alg}`;
}

export function isAlgorithm(value: string | undefined): value is ChecksumAlgorithm {
  return value !== undefined && (ALGORITHMS as readonly string[]).includes(value);
}

function isCrc(alg: ChecksumAlgorithm): alg is 'CRC32' | 'CRC32C' | 'CRC64NVME' {
  return alg === 'CRC32' || alg === 'CRC32C' || alg === 'CRC64NVME';
}

export interface Hasher {
  update(chunk: Buffer): void;
  digest(): Buffer;
}

export function createHasher(alg: ChecksumAlgorithm): Hasher {
  switch (alg) {
    case 'CRC32': {
      let c = 0;
      return { update: (b) => void (c = crc32(b, c)), digest: () => be32(c) };
    }
    case 'CRC32C': {
      let c = 0;
      return { update: (b) => void (c = crc32c(b, c)), digest: () => be32(c) };
    }
    case 'CRC64NVME': {
      const c = new Crc64();
      return { update: (b) => c.update(b), digest: () => c.digest() };
    }
    default: {
      const h: Hash = createHash(alg === 'SHA1' ? 'sha1' : 'sha256');
      return { update: (b) => void h.update(b), digest: () => h.digest() };
    }
  }
}

function be32(n: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(n >>> 0, 0);
  return b;
}

/** Checksum of a whole buffer, base64. */
export function checksumOf(alg: ChecksumAlgorithm, data: Buffer): string {
  const h = createHasher(alg);
  h.update(data);
  return h.digest().toString('base64');
}

/** True when `value` is base64 of the algorithm's digest length. */
function wellFormed(alg: ChecksumAlgorithm, value: string): boolean {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) return false;
  return Buffer.from(value, 'base64').length === DIGEST_BYTES[alg];
}

/** The checksum a request declares: algorithm and, unless it comes in a trailer, its value. */
export interface DeclaredChecksum {
  algorithm: ChecksumAlgorithm;
  value?: string;
  /** The value arrives as an aws-chunked trailer. */
  trailer?: boolean;
}

type ChecksumMembers = Partial<Record<`Checksum${ChecksumAlgorithm}`, string>> & { ChecksumAlgorithm?: string };

/**
 * Which checksum a PutObject/UploadPart asks S3 to verify, from its `x-amz-checksum-*` members,
 * `x-amz-sdk-checksum-algorithm` and the `x-amz-trailer` header. AWS refuses more than one.
 */
export function declaredChecksum(input: ChecksumMembers, trailer?: string): DeclaredChecksum | undefined {
  const present = ALGORITHMS.filter((a) => input[memberOf(a)] !== undefined);
  if (present.length > 1) {
    throw s3Errors.invalidRequest('Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.');
  }
  const sdk = input.ChecksumAlgorithm?.toUpperCase();
  if (sdk !== undefined && !isAlgorithm(sdk)) {
    throw s3Errors.invalidRequest('Value for x-amz-sdk-checksum-algorithm header is invalid.');
  }
  if (trailer) {
    const m = /^x-amz-checksum-([a-z0-9]+)$/i.exec(trailer.trim());
    const alg = m?.[1]?.toUpperCase();
    if (!alg || !isAlgorithm(alg)) {
      throw s3Errors.invalidRequest('The value specified in the x-amz-trailer header is not supported');
    }
    return { algorithm: alg, trailer: true };
  }
  const alg = present[0];
  if (alg) {
    const value = input[memberOf(alg)]!;
    if (sdk && sdk !== alg) {
      throw s3Errors.invalidRequest('Value for x-amz-sdk-checksum-algorithm header is invalid.');
    }
    if (!wellFormed(alg, value)) throw s3Errors.invalidRequest(`Value for x-amz-checksum-${alg.toLowerCase()} header is invalid.`);
    return { algorithm: alg, value };
  }
  // An algorithm named without a value: S3 computes and stores that checksum.
  return sdk ? { algorithm: sdk } : undefined;
}

/** Throws AWS's BadDigest when a declared checksum does not match the computed one. */
export function verifyChecksum(alg: ChecksumAlgorithm, expected: string | undefined, computed: string): void {
  if (expected === undefined) return;
  if (!wellFormed(alg, expected)) throw s3Errors.invalidRequest(`Value for x-amz-checksum-${alg.toLowerCase()} trailing header is invalid.`);
  if (expected !== computed) throw s3Errors.badChecksum(alg);
}

/** Decodes a Content-MD5 header: 16 bytes in base64, or InvalidDigest. */
export function parseContentMd5(value: string | undefined): Buffer | undefined {
  if (value === undefined) return undefined;
  const raw = /^[A-Za-z0-9+/]+={0,2}$/.test(value) ? Buffer.from(value, 'base64') : Buffer.alloc(0);
  if (raw.length !== 16) throw s3Errors.invalidDigest(value);
  return raw;
}

export function verifyContentMd5(expected: Buffer | undefined, computed: Buffer): void {
  if (expected && !expected.equals(computed)) {
    throw s3Errors.badDigest(expected.toString('base64'), computed.toString('base64'));
  }
}

/** The checksum types AWS allows per algorithm, and its default when CreateMultipartUpload names none. */
export function multipartChecksumType(alg: ChecksumAlgorithm, requested: string | undefined): ChecksumType {
  const type = (requested?.toUpperCase() as ChecksumType | undefined) ?? (alg === 'CRC64NVME' ? 'FULL_OBJECT' : 'COMPOSITE');
  if (type !== 'COMPOSITE' && type !== 'FULL_OBJECT') throw s3Errors.invalidRequest('Value for x-amz-checksum-type header is invalid.');
  if (type === 'COMPOSITE' && alg === 'CRC64NVME') {
    throw s3Errors.invalidRequest('The COMPOSITE checksum type cannot be used with the crc64nvme checksum algorithm.');
  }
  if (type === 'FULL_OBJECT' && !isCrc(alg)) {
    throw s3Errors.invalidRequest(`The FULL_OBJECT checksum type cannot be used with the ${alg.toLowerCase()} checksum algorithm.`);
  }
  return type;
}

/** Checksum of the part checksums, `base64-N`, as S3 reports a COMPOSITE multipart checksum. */
export function compositeChecksum(alg: ChecksumAlgorithm, parts: readonly string[]): string {
  const h = createHasher(alg);
  for (const p of parts) h.update(Buffer.from(p, 'base64'));
  return `${h.digest().toString('base64')}-${parts.length}`;
}

/** The CRC of the whole object from the CRCs and sizes of its parts, in order. */
export function fullObjectChecksum(alg: ChecksumAlgorithm, parts: readonly { checksum: string; size: number }[]): string {
  if (!isCrc(alg)) throw new Error(`FULL_OBJECT needs a CRC, not ${alg}`);
  let acc: Buffer | undefined;
  for (const p of parts) {
    const d = Buffer.from(p.checksum, 'base64');
    acc = acc ? combineCrc(alg, acc, d, p.size) : d;
  }
  return (acc ?? createHasher(alg).digest()).toString('base64');
}
