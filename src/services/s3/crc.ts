/**
 * The CRCs S3 offers as checksums, synchronous and table-driven: CRC32 (zlib's native code),
 * CRC32C and CRC64/NVME (slicing-by-8 in JavaScript, several times faster than the byte-at-a-time
 * libraries), and the combination of two CRCs of adjacent byte runs, crc(A‖B) from crc(A),
 * crc(B) and len(B), which gives a multipart object its full-object checksum without reading the
 * parts again (zlib's x^(8n) mod p method; valid because all three use init = xorout = ~0).
 */
import { zlib } from '../../on-demand.js';

const CRC32C_POLY = 0x82f63b78; // reflected Castagnoli
const CRC64_POLY_HI = 0x9a6c9329; // reflected NVMe polynomial 0x9a6c9329ac4bc9b5
const CRC64_POLY_LO = 0xac4bc9b5;

let crc32cTable: Int32Array | undefined;

function crc32cTables(): Int32Array {
  if (crc32cTable) return crc32cTable;
  const t = new Int32Array(8 * 256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let j = 0; j < 8; j++) c = c & 1 ? CRC32C_POLY ^ (c >>> 1) : c >>> 1;
    t[i] = c;
  }
  for (let k = 1; k < 8; k++) {
    for (let i = 0; i < 256; i++) {
      const prev = t[(k - 1) * 256 + i]!;
      t[k * 256 + i] = (prev >>> 8) ^ t[prev & 0xff]!;
    }
  }
  crc32cTable = t;
  return t;
}

/** Updates a running CRC32C (pass 0 to start); returns the new value as an unsigned 32-bit number. */
export function crc32c(data: Uint8Array, previous = 0): number {
  const t = crc32cTables();
  let crc = ~previous;
  let i = 0;
  const n = data.length;
  while (i + 8 <= n) {
    crc ^= data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    crc =
      t[1792 + (crc & 0xff)]! ^
      t[1536 + ((crc >>> 8) & 0xff)]! ^
      t[1280 + ((crc >>> 16) & 0xff)]! ^
      t[1024 + (crc >>> 24)]! ^
      t[768 + data[i + 4]!]! ^
      t[512 + data[i + 5]!]! ^
      t[256 + data[i + 6]!]! ^
      t[data[i + 7]!]!;
    i += 8;
  }
  while (i < n) crc = (crc >>> 8) ^ t[(crc ^ data[i++]!) & 0xff]!;
  return ~crc >>> 0;
}

let crc64Hi: Int32Array | undefined;
let crc64Lo: Int32Array | undefined;

function crc64Tables(): [Int32Array, Int32Array] {
  if (crc64Hi && crc64Lo) return [crc64Hi, crc64Lo];
  const hi = new Int32Array(8 * 256);
  const lo = new Int32Array(8 * 256);
  for (let i = 0; i < 256; i++) {
    let h = 0;
    let l = i;
    for (let j = 0; j < 8; j++) {
      const carry = l & 1;
      l = (l >>> 1) | ((h & 1) << 31);
      h = h >>> 1;
      if (carry) {
        h ^= CRC64_POLY_HI;
        l ^= CRC64_POLY_LO;
      }
    }
    hi[i] = h;
    lo[i] = l;
  }
  for (let k = 1; k < 8; k++) {
    for (let i = 0; i < 256; i++) {
      const ph = hi[(k - 1) * 256 + i]!;
      const pl = lo[(k - 1) * 256 + i]!;
      const idx = pl & 0xff;
      // (prev >>> 8) ^ T0[prev & 0xff], on 64 bits split in two halves
      hi[k * 256 + i] = (ph >>> 8) ^ hi[idx]!;
      lo[k * 256 + i] = ((pl >>> 8) | (ph << 24)) ^ lo[idx]!;
    }
  }
  crc64Hi = hi;
  crc64Lo = lo;
  return [hi, lo];
}

/** A running CRC64/NVME as two 32-bit halves. */
export class Crc64 {
  private hi = -1;
  private lo = -1;

  update(data: Uint8Array): void {
    const [th, tl] = crc64Tables();
    let h = this.hi;
    let l = this.lo;
    let i = 0;
    const n = data.length;
    while (i + 8 <= n) {
      l ^= data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
      h ^= data[i + 4]! | (data[i + 5]! << 8) | (data[i + 6]! << 16) | (data[i + 7]! << 24);
      const b0 = 1792 + (l & 0xff);
      const b1 = 1536 + ((l >>> 8) & 0xff);
      const b2 = 1280 + ((l >>> 16) & 0xff);
      const b3 = 1024 + (l >>> 24);
      const b4 = 768 + (h & 0xff);
      const b5 = 512 + ((h >>> 8) & 0xff);
      const b6 = 256 + ((h >>> 16) & 0xff);
      const b7 = h >>> 24;
      h = th[b0]! ^ th[b1]! ^ th[b2]! ^ th[b3]! ^ th[b4]! ^ th[b5]! ^ th[b6]! ^ th[b7]!;
      l = tl[b0]! ^ tl[b1]! ^ tl[b2]! ^ tl[b3]! ^ tl[b4]! ^ tl[b5]! ^ tl[b6]! ^ tl[b7]!;
      i += 8;
    }
    while (i < n) {
      const idx = (l ^ data[i++]!) & 0xff;
      l = ((l >>> 8) | (h << 24)) ^ tl[idx]!;
      h = (h >>> 8) ^ th[idx]!;
    }
    this.hi = h;
    this.lo = l;
  }

  /** The CRC as 8 big-endian bytes (S3's wire form before base64). */
  digest(): Buffer {
    const out = Buffer.alloc(8);
    out.writeUInt32BE(~this.hi >>> 0, 0);
    out.writeUInt32BE(~this.lo >>> 0, 4);
    return out;
  }
}

export function crc32(data: Uint8Array, previous = 0): number {
  return zlib().crc32(data, previous);
}

// --- combination: crc(A‖B) = (x^(8·len(B)) mod p) ⊗ crc(A) ⊕ crc(B), reflected bit order ---

interface CrcWidth {
  width: 32 | 64;
  poly: bigint;
  /** x^(2^k) mod p for k = 0..63 */
  x2n: bigint[];
  /** x^(8·len) mod p by len: parts of a multipart upload mostly share one size. */
  cache: Map<number, bigint>;
}

function widthOf(width: 32 | 64, poly: bigint): CrcWidth {
  const w: CrcWidth = { width, poly, x2n: [], cache: new Map() };
  let p = 1n << BigInt(width - 2); // x^1
  w.x2n.push(p);
  for (let k = 1; k < 64; k++) {
    p = multModP(w, p, p);
    w.x2n.push(p);
  }
  return w;
}

function multModP(w: CrcWidth, a: bigint, b: bigint): bigint {
  const top = 1n << BigInt(w.width - 1);
  let m = top;
  let p = 0n;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1n)) === 0n) break;
    }
    m >>= 1n;
    b = b & 1n ? (b >> 1n) ^ w.poly : b >> 1n;
  }
  return p;
}

function x8nModP(w: CrcWidth, len: number): bigint {
  let cached = w.cache.get(len);
  if (cached !== undefined) return cached;
  let p = 1n << BigInt(w.width - 1); // x^0
  let n = BigInt(len);
  let k = 3; // 8·len = len·2^3
  while (n > 0n) {
    if (n & 1n) p = multModP(w, w.x2n[k % 64]!, p);
    n >>= 1n;
    k++;
  }
  if (w.cache.size > 64) w.cache.clear();
  w.cache.set(len, p);
  return p;
}

const widths = new Map<string, CrcWidth>();

function width(name: 'CRC32' | 'CRC32C' | 'CRC64NVME'): CrcWidth {
  let w = widths.get(name);
  if (!w) {
    w =
      name === 'CRC32'
        ? widthOf(32, 0xedb88320n)
        : name === 'CRC32C'
          ? widthOf(32, BigInt(CRC32C_POLY))
          : widthOf(64, (BigInt(CRC64_POLY_HI) << 32n) | BigInt(CRC64_POLY_LO));
    widths.set(name, w);
  }
  return w;
}

/** crc(A‖B) from the big-endian digests of A and B and the length of B. */
export function combineCrc(name: 'CRC32' | 'CRC32C' | 'CRC64NVME', a: Buffer, b: Buffer, lenB: number): Buffer {
  const w = width(name);
  const bytes = w.width / 8;
  const crcA = BigInt(`0x${a.toString('hex')}`);
  const crcB = BigInt(`0x${b.toString('hex')}`);
  const combined = multModP(w, x8nModP(w, lenB), crcA) ^ crcB;
  return Buffer.from(combined.toString(16).padStart(bytes * 2, '0'), 'hex');
}
