/**
 * The storage interface the Iceberg reader and writer use: whole-object reads and writes of
 * `s3://bucket/key` locations, with an optional ranged read so a Parquet reader fetches only the
 * footer and the column chunks it needs. Test support implements it over the S3 API; the server's
 * table maintenance implements it over the store.
 */

export interface FileIO {
  read(location: string): Promise<Uint8Array>;
  write(location: string, bytes: Uint8Array): Promise<void>;
  /** Bytes [start, end) of the object; when absent, readers fall back to `read`. */
  readRange?(location: string, start: number, end: number): Promise<Uint8Array>;
}

/** Splits `s3://bucket/key` (also `s3a://`, `s3n://`); throws for anything else. */
export function parseLocation(location: string): { bucket: string; key: string } {
  const m = /^s3[an]?:\/\/([^/]+)\/(.+)$/.exec(location);
  if (!m) throw new Error(`not an S3 location: ${location}`);
  return { bucket: m[1]!, key: m[2]! };
}
