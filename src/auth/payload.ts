/**
 * The body of a signed request, checked as it streams: a hex `x-amz-content-sha256` against the
 * SHA-256 of the bytes received (the refusal surfaces as the stream's error once the last byte is
 * in, before the consumer commits anything), and the chain of an aws-chunked body's signatures —
 * each chunk's `AWS4-HMAC-SHA256-PAYLOAD` signature over the previous one (the seed is the
 * Authorization header's), then the trailer's `AWS4-HMAC-SHA256-TRAILER` signature over the last
 * chunk's (reference §2.3–§2.4). Nothing is buffered beyond the chunk in flight.
 */
import { createHash, createHmac, type Hash } from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { AwsError } from '../wire/errors.js';
import type { ChunkSignatures } from '../wire/http.js';
import { EMPTY_SHA256, sameSignature } from './sigv4.js';

/**
 * `source` passed through unchanged while hashed; at its end a hash other than `expected` fails
 * the stream with `mismatch(computed)`. The source is never destroyed, so the connection can
 * still carry the error response; a client that goes away fails this stream too.
 */
export function sha256Checked(source: Readable, expected: string, mismatch: (computed: string) => AwsError): Readable {
  const hash = createHash('sha256');
  const checked = new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done: TransformCallback) {
      const computed = hash.digest('hex');
      done(computed === expected ? null : mismatch(computed));
    },
  });
  source.on('error', (err) => checked.destroy(err));
  source.on('aborted', () => checked.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
  source.pipe(checked);
  return checked;
}

interface ChainStart {
  signingKey: Uint8Array;
  amzDate: string;
  scope: string;
  seed: string;
  /** Whether a signed trailer must follow (`…-PAYLOAD-TRAILER`). */
  trailer: boolean;
  /** The refusal of a wrong or missing signature. */
  refuse: (detail: { stringToSign: string; provided: string }) => AwsError;
}

/** Checks an aws-chunked body's chain of signatures as the decoder walks it. */
export class ChunkChain implements ChunkSignatures {
  private previous: string;
  private declared: string | undefined;
  private hash: Hash | undefined;
  private finalSeen = false;

  constructor(private readonly start: ChainStart) {
    this.previous = start.seed;
  }

  private hmac(text: string): string {
    return createHmac('sha256', this.start.signingKey).update(text).digest('hex');
  }

  begin(declared: string | undefined): void {
    if (this.finalSeen) throw this.start.refuse({ stringToSign: '', provided: declared ?? '' });
    this.declared = declared;
    this.hash = createHash('sha256');
  }

  update(data: Buffer): void {
    this.hash?.update(data);
  }

  end(): void {
    const digest = this.hash?.digest('hex') ?? EMPTY_SHA256;
    this.hash = undefined;
    const stringToSign = ['AWS4-HMAC-SHA256-PAYLOAD', this.start.amzDate, this.start.scope, this.previous, EMPTY_SHA256, digest].join('\n');
    const expected = this.hmac(stringToSign);
    const provided = this.declared ?? '';
    if (!sameSignature(expected, provided)) throw this.start.refuse({ stringToSign, provided });
    this.previous = expected;
    if (digest === EMPTY_SHA256) this.finalSeen = true;
  }

  trailer(lines: [string, string][]): void {
    if (!this.finalSeen) throw this.start.refuse({ stringToSign: '', provided: '' });
    if (!this.start.trailer) return;
    const provided = lines.find(([name]) => name === 'x-amz-trailer-signature')?.[1] ?? '';
    const canonical = lines
      .filter(([name]) => name !== 'x-amz-trailer-signature')
      .map(([name, value]) => `${name}:${value}\n`)
      .join('');
    const digest = createHash('sha256').update(canonical).digest('hex');
    const stringToSign = ['AWS4-HMAC-SHA256-TRAILER', this.start.amzDate, this.start.scope, this.previous, digest].join('\n');
    const expected = this.hmac(stringToSign);
    if (!sameSignature(expected, provided)) throw this.start.refuse({ stringToSign, provided });
  }
}
