/**
 * The Iceberg library's FileIO over the S3 API of a test server (`@aws-sdk/client-s3`): whole
 * reads, ranged reads and writes of `s3://bucket/key` locations, plus counters of the requests and
 * bytes each kind served, so tests can assert that a reader fetched only what it needed.
 */
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { FileIO } from '../../src/iceberg/file-io.js';
import { parseLocation } from '../../src/iceberg/file-io.js';
import type { TestServer } from './server.js';

export interface CountingFileIO extends FileIO {
  readRange(location: string, start: number, end: number): Promise<Uint8Array>;
  stats: { reads: number; rangeReads: number; writes: number; bytesRead: number; bytesWritten: number; locationsRead: string[] };
  reset(): void;
}

export function s3FileIO(t: TestServer, client = new S3Client({ ...t.clientConfig, maxAttempts: 1 })): CountingFileIO {
  const stats = { reads: 0, rangeReads: 0, writes: 0, bytesRead: 0, bytesWritten: 0, locationsRead: [] as string[] };
  const get = async (location: string, range?: string): Promise<Uint8Array> => {
    const { bucket, key } = parseLocation(location);
    const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: range }));
    const bytes = await out.Body!.transformToByteArray();
    stats.bytesRead += bytes.length;
    stats.locationsRead.push(location);
    return bytes;
  };
  return {
    stats,
    reset() {
      Object.assign(stats, { reads: 0, rangeReads: 0, writes: 0, bytesRead: 0, bytesWritten: 0, locationsRead: [] });
    },
    async read(location) {
      stats.reads++;
      return get(location);
    },
    async readRange(location, start, end) {
      stats.rangeReads++;
      return get(location, `bytes=${start}-${end - 1}`);
    },
    async write(location, bytes) {
      const { bucket, key } = parseLocation(location);
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes }));
      stats.writes++;
      stats.bytesWritten += bytes.length;
    },
  };
}
