/**
 * Helpers for the S3 tests: an SDK client on a test server (path style unless asked otherwise),
 * a raw HTTP request over node:http (for what fetch cannot send: `Expect: 100-continue`, chunked
 * bodies written piece by piece, any Host header) and small readers of S3's XML error documents.
 */
import http from 'node:http';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import type { TestServer } from '../helpers/server.js';

export function s3Client(t: TestServer, extra: Partial<S3ClientConfig> = {}): S3Client {
  return new S3Client({ ...t.clientConfig, ...extra });
}

/** A SigV4 Authorization header for `service` (the signature itself is never checked). */
export function auth(accessKey = 'test', region = 'us-east-1', service = 's3'): string {
  return `AWS4-HMAC-SHA256 Credential=${accessKey}/20250101/${region}/${service}/aws4_request, SignedHeaders=host;x-amz-date, Signature=0000`;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Whether the server sent `100 Continue` before the final answer. */
  continued: boolean;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string | number>;
  /** Written in order; with `expectContinue`, only after the server's 100 Continue. */
  body?: Buffer | string | (Buffer | string)[];
  expectContinue?: boolean;
}

export function raw(endpoint: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(endpoint);
  const chunks = req.body === undefined ? [] : Array.isArray(req.body) ? req.body : [req.body];
  return new Promise((resolve, reject) => {
    let continued = false;
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.expectContinue) headers.expect = '100-continue';
    const r = http.request(
      { host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent: false },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), continued }));
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    const send = () => {
      for (const c of chunks) r.write(c);
      r.end();
    };
    if (req.expectContinue) {
      r.on('continue', () => {
        continued = true;
        send();
      });
      r.flushHeaders();
    } else {
      send();
    }
  });
}

/** The text of one element of an XML document (first occurrence). */
export function xmlText(xml: Buffer | string, element: string): string | undefined {
  const m = new RegExp(`<${element}>([\\s\\S]*?)</${element}>`).exec(xml.toString());
  return m?.[1];
}

/** aws-chunked framing as pyarrow and the SDKs send it: unsigned chunks then trailers. */
export function awsChunked(data: Buffer, chunkSize: number, trailers: Record<string, string> = {}, signed = false): Buffer {
  const parts: Buffer[] = [];
  const sig = (i: number) => (signed ? `;chunk-signature=${i.toString(16).padStart(64, '0')}` : '');
  let i = 0;
  for (let at = 0; at < data.length; at += chunkSize) {
    const chunk = data.subarray(at, at + chunkSize);
    parts.push(Buffer.from(`${chunk.length.toString(16)}${sig(i++)}\r\n`), chunk, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`0${sig(i)}\r\n`));
  for (const [k, v] of Object.entries(trailers)) parts.push(Buffer.from(`${k}:${v}\r\n`));
  parts.push(Buffer.from('\r\n'));
  return Buffer.concat(parts);
}
