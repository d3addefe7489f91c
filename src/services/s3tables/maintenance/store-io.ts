/**
 * The Iceberg library's FileIO over Overcast's own S3, in process: whole and ranged reads through
 * the S3 provider's GetObject, writes through PutObject (so every maintenance output is an object
 * like a client's, with the creation time unreferenced-file removal judges), and existence checks
 * for replication. Locations are `s3://bucket/key` (also `s3a://`, `s3n://`).
 */
import type { FileIO } from '../../../iceberg/file-io.js';
import { parseLocation } from '../../../iceberg/file-io.js';
import type { Ctx } from '../../../runtime/runtime.js';
import { isAwsError } from '../../../wire/errors.js';
import { getObjectBytes, headObject, putObject } from '../../s3/provider.js';

export interface StoreFileIO extends FileIO {
  readRange(location: string, start: number, end: number): Promise<Uint8Array>;
  /** Whether an object exists at the location. */
  exists(location: string): boolean;
  /** The object's size, or undefined when there is none. */
  size(location: string): number | undefined;
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

export function storeFileIO(ctx: Ctx): StoreFileIO {
  return {
    async read(location) {
      const { bucket, key } = parseLocation(location);
      return getObjectBytes(ctx, { Bucket: bucket, Key: key });
    },
    async readRange(location, start, end) {
      const { bucket, key } = parseLocation(location);
      return getObjectBytes(ctx, { Bucket: bucket, Key: key, Range: `bytes=${start}-${end - 1}` });
    },
    async write(location, bytes) {
      const { bucket, key } = parseLocation(location);
      await putObject(ctx, { Bucket: bucket, Key: key, Body: once(bytes) });
    },
    exists(location) {
      return this.size(location) !== undefined;
    },
    size(location) {
      const { bucket, key } = parseLocation(location);
      try {
        return headObject(ctx, { Bucket: bucket, Key: key }).ContentLength;
      } catch (err) {
        if (isAwsError(err) && err.status === 404) return undefined;
        throw err;
      }
    },
  };
}
