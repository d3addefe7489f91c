/**
 * Taking in an object or part body: streams it into the blob store (inline when small) while
 * hashing MD5 (the ETag) and the one checksum the request asks for, then verifies Content-MD5,
 * the declared checksum (header or aws-chunked trailer) and the length, with AWS's errors. On
 * any failure the written blob is discarded, so nothing of a refused body remains. Then the
 * commit that hands new blobs to their rows (`commitBlobs`), the one place that follows the blob
 * store's adopt / release / discard / sweep protocol.
 */
import type { Ctx } from '../../runtime/runtime.js';
import type { BlobRef, WrittenBody } from '../../store/blobs.js';
import type { ChunkedBody } from './aws-chunked.js';
import {
  createHasher,
  type Hasher,
  parseContentMd5,
  verifyChecksum,
  verifyContentMd5,
  type ChecksumAlgorithm,
  type DeclaredChecksum,
} from './checksums.js';
import { s3Errors } from './errors.js';
import { StreamingMd5 } from './md5.js';

interface IngestOptions {
  body: AsyncIterable<Buffer | Uint8Array> | undefined;
  /** Content-MD5 header, base64. */
  contentMd5?: string;
  /** The checksum the request declared (value in a header or an aws-chunked trailer). */
  declared?: DeclaredChecksum;
  /** A checksum to compute although the request did not declare one (a multipart upload's). */
  compute?: ChecksumAlgorithm;
  /** Bytes the request said it carries (Content-Length or x-amz-decoded-content-length). */
  expectedLength?: number;
  /** Write a blob file even for a small body. */
  forceBlob?: boolean;
}

interface Ingested {
  written: WrittenBody;
  md5: Buffer;
  /** `"<md5 hex>"` */
  etag: string;
  checksum?: { algorithm: ChecksumAlgorithm; value: string };
}

const EMPTY: AsyncIterable<Buffer> = { async *[Symbol.asyncIterator]() {} };

/**
 * The body as the blob store reads it, hashed on the way and paced by the MD5 worker. A socket
 * is iterated without destroy-on-return, so a refused body can still be answered.
 */
async function* hashed(
  body: AsyncIterable<Buffer | Uint8Array>,
  md5: StreamingMd5,
  hasher: Hasher | undefined,
): AsyncGenerator<Buffer> {
  const source = body as AsyncIterable<Buffer | Uint8Array> & { iterator?: (o: { destroyOnReturn: boolean }) => AsyncIterable<Buffer> };
  const chunks = typeof source.iterator === 'function' ? source.iterator({ destroyOnReturn: false }) : source;
  for await (const c of chunks) {
    const chunk = Buffer.isBuffer(c) ? c : Buffer.from(c);
    md5.update(chunk);
    hasher?.update(chunk);
    const wait = md5.ready();
    if (wait) await wait;
    yield chunk;
  }
}

export async function ingest(ctx: Ctx, opts: IngestOptions): Promise<Ingested> {
  const expectedMd5 = parseContentMd5(opts.contentMd5);
  const algorithm = opts.declared?.algorithm ?? opts.compute;
  const md5 = new StreamingMd5();
  const hasher = algorithm ? createHasher(algorithm) : undefined;
  const body = opts.body ?? EMPTY;
  let written: WrittenBody;
  try {
    written = await ctx.rt.blobs.write(hashed(body, md5, hasher), undefined, opts.forceBlob);
  } catch (err) {
    md5.abort();
    // A client that goes away mid-body is a short body, not a server failure.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (err as Error).message === 'aborted') {
      throw s3Errors.incompleteBody();
    }
    throw err;
  }
  try {
    if (opts.expectedLength !== undefined && written.size !== opts.expectedLength) throw s3Errors.incompleteBody();
    const digest = await md5.digest();
    verifyContentMd5(expectedMd5, digest);
    let checksum: Ingested['checksum'];
    if (algorithm && hasher) {
      const value = hasher.digest().toString('base64');
      let expected = opts.declared?.value;
      if (opts.declared?.trailer) {
        const name = `x-amz-checksum-${algorithm.toLowerCase()}`;
        expected = (body as Partial<ChunkedBody>).trailers?.[name];
        if (expected === undefined) throw s3Errors.invalidRequest(`The ${name} trailing header was not found in the request.`);
      }
      verifyChecksum(algorithm, expected, value);
      checksum = { algorithm, value };
    }
    return { written, md5: digest, etag: `"${digest.toString('hex')}"`, checksum };
  } catch (err) {
    if (written.blob) ctx.rt.blobs.discard(written.blob);
    throw err;
  }
}

/** The `blob_ids` column for a written body (null when inline). */
export function segmentsOf(written: WrittenBody): string | null {
  return written.blob ? JSON.stringify([{ id: written.blob.id, size: written.blob.size }]) : null;
}

/**
 * Runs `write` in one transaction that also adopts the freshly written blobs `fresh` and releases
 * the blob ids `write` returns (those its rows let go of). If the transaction fails the fresh
 * blobs are discarded; after it commits the released ones are swept.
 */
export function commitBlobs(ctx: Ctx, fresh: readonly BlobRef[], write: () => string[]): void {
  try {
    ctx.rt.meta.tx(() => {
      ctx.rt.blobs.adopt(fresh.map((b) => b.id));
      ctx.rt.blobs.release(write());
    });
  } catch (err) {
    for (const b of fresh) ctx.rt.blobs.discard(b);
    throw err;
  }
  ctx.rt.blobs.sweep();
}
