/**
 * Decoding of `aws-chunked` request bodies, streamed: `<hex-size>[;chunk-signature=…]\r\n<bytes>\r\n`
 * repeated, a zero-size chunk, then optional trailing headers (`x-amz-checksum-crc64nvme:<b64>`,
 * `x-amz-trailer-signature:…`) and a blank line. Covers STREAMING-AWS4-HMAC-SHA256-PAYLOAD(-TRAILER)
 * and STREAMING-UNSIGNED-PAYLOAD-TRAILER (pyarrow, the SDKs' streaming uploads); in strict mode
 * each chunk's signature and the trailer's are handed to the request's ChunkSignatures, which
 * checks the chain before the chunk's last bytes go on. Data chunks are passed on as views of the received buffers (no copies), so a
 * body of any size costs a few buffers of memory. The source is never destroyed on an error, so
 * the connection can still carry S3's error response.
 *
 * decodeAwsChunked is one long function on purpose: a single-pass state machine over the frames.
 */
import type { Readable } from 'node:stream';
import { AwsError } from '../../wire/errors.js';
import type { ChunkSignatures } from '../../wire/http.js';
import { s3Errors } from './errors.js';

export interface ChunkedBody extends AsyncIterable<Buffer> {
  /** Trailing headers (lower-cased names), complete once iteration has finished. */
  readonly trailers: Record<string, string>;
}

const MAX_LINE = 4096;
const CRLF = Buffer.from('\r\n');

function malformed(detail: string): AwsError {
  return new AwsError('InvalidRequest', `Malformed aws-chunked body: ${detail}`, 400);
}

/** True when the request body is aws-chunked (by payload hash or Content-Encoding). */
export function isAwsChunked(contentSha256: string | undefined, contentEncoding: string | undefined): boolean {
  if (contentSha256?.startsWith('STREAMING-')) return true;
  return contentEncoding !== undefined && contentEncoding.split(',').some((c) => c.trim() === 'aws-chunked');
}

export function decodeAwsChunked(source: Readable, expectedLength?: number, signatures?: ChunkSignatures): ChunkedBody {
  const trailers: Record<string, string> = {};
  const trailerLines: [string, string][] = [];
  async function* decode(): AsyncGenerator<Buffer> {
    const it = (source as Readable & { iterator(o: { destroyOnReturn: boolean }): AsyncIterableIterator<Buffer> }).iterator({
      destroyOnReturn: false,
    });
    let buf: Buffer = Buffer.alloc(0);
    let state: 'size' | 'data' | 'data-crlf' | 'trailer' | 'done' = 'size';
    let remaining = 0;
    let total = 0;
    let ended = false;

    const pull = async (): Promise<boolean> => {
      if (ended) return false;
      const next = await it.next();
      if (next.done) {
        ended = true;
        return false;
      }
      const chunk = next.value;
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      return true;
    };

    /** The next CRLF-terminated line, or undefined at end of input. */
    const line = async (): Promise<string | undefined> => {
      for (;;) {
        const at = buf.indexOf(CRLF);
        if (at >= 0) {
          const text = buf.subarray(0, at).toString('latin1');
          buf = buf.subarray(at + 2);
          return text;
        }
        if (buf.length > MAX_LINE) throw malformed('header line too long');
        if (!(await pull())) return undefined;
      }
    };

    while (state !== 'done') {
      if (state === 'size') {
        const header = await line();
        if (header === undefined) throw s3Errors.incompleteBody();
        const hex = header.split(';', 1)[0]!.trim();
        if (!/^[0-9a-fA-F]{1,16}$/.test(hex)) throw malformed(`bad chunk size ${JSON.stringify(hex.slice(0, 32))}`);
        remaining = parseInt(hex, 16);
        if (signatures) {
          signatures.begin(/;\s*chunk-signature=([^;\s]*)/.exec(header)?.[1]);
          if (remaining === 0) signatures.end();
        }
        state = remaining === 0 ? 'trailer' : 'data';
        continue;
      }
      if (state === 'data') {
        if (buf.length === 0 && !(await pull())) throw s3Errors.incompleteBody();
        const take = Math.min(remaining, buf.length);
        const out = buf.subarray(0, take);
        buf = buf.subarray(take);
        remaining -= take;
        total += take;
        if (expectedLength !== undefined && total > expectedLength) throw s3Errors.incompleteBody();
        signatures?.update(out);
        if (remaining === 0) {
          signatures?.end();
          state = 'data-crlf';
        }
        yield out;
        continue;
      }
      if (state === 'data-crlf') {
        while (buf.length < 2) if (!(await pull())) throw s3Errors.incompleteBody();
        if (buf[0] !== 0x0d || buf[1] !== 0x0a) throw malformed('chunk not followed by CRLF');
        buf = buf.subarray(2);
        state = 'size';
        continue;
      }
      // Trailing headers until a blank line; a body that simply ends here is accepted too.
      const header = await line();
      if (header === undefined) {
        if (buf.length > 0) {
          addTrailer(trailers, trailerLines, buf.toString('latin1'));
          buf = Buffer.alloc(0);
        }
        state = 'done';
      } else if (header === '') {
        state = 'done';
      } else {
        addTrailer(trailers, trailerLines, header);
      }
    }
    signatures?.trailer(trailerLines);
    if (expectedLength !== undefined && total !== expectedLength) throw s3Errors.incompleteBody();
    // Drain anything after the final CRLF so the connection stays in step.
    while (await pull()) buf = Buffer.alloc(0);
  }
  return { trailers, [Symbol.asyncIterator]: decode };
}

function addTrailer(trailers: Record<string, string>, lines: [string, string][], line: string): void {
  const colon = line.indexOf(':');
  if (colon <= 0) throw malformed('bad trailer');
  const name = line.slice(0, colon).trim().toLowerCase();
  const value = line.slice(colon + 1).trim();
  trailers[name] = value;
  lines.push([name, value]);
}
