/**
 * Iceberg tables on a test server for the library's tests: a table created through S3 Tables
 * `CreateTable` with `metadata.iceberg`, its metadata.json loaded through a FileIO, and a commit
 * that adds a snapshot (and points a branch at it) by writing the next metadata.json and swapping it
 * in with `UpdateTableMetadataLocation` — a stand-in for the REST catalog's `add-snapshot` and
 * `set-snapshot-ref` updates. Also a `fetch` redirect for icebird, which addresses objects as
 * `https://<bucket>.s3.amazonaws.com/<key>`: it sends those requests to the test server path-style.
 */
import { randomUUID } from 'node:crypto';
import { GetTableMetadataLocationCommand, S3TablesClient, UpdateTableMetadataLocationCommand, type IcebergMetadata } from '@aws-sdk/client-s3tables';
import type { FileIO } from '../../src/iceberg/file-io.js';
import { parseIcebergJson, stringifyIcebergJson } from '../../src/iceberg/json.js';
import type { Schema, Snapshot, TableMetadata } from '../../src/iceberg/types.js';
import { makeTable } from '../s3tables/helpers.js';

export interface TableId {
  tableBucketARN: string;
  namespace: string;
  name: string;
}

export interface IcebergTable {
  id: TableId;
  metadataLocation: string;
  versionToken: string;
  metadata: TableMetadata;
}

export async function loadTable(io: FileIO, s3t: S3TablesClient, id: TableId): Promise<IcebergTable> {
  const got = await s3t.send(new GetTableMetadataLocationCommand(id));
  const metadataLocation = got.metadataLocation!;
  const metadata = parseIcebergJson(new TextDecoder().decode(await io.read(metadataLocation))) as TableMetadata;
  return { id, metadataLocation, versionToken: got.versionToken!, metadata };
}

/** Creates a table (bucket and namespace too) with Iceberg metadata and loads it. */
export async function createIcebergTable(io: FileIO, s3t: S3TablesClient, iceberg: IcebergMetadata): Promise<IcebergTable> {
  const tb = await makeTable(s3t, { metadata: { iceberg } });
  return loadTable(io, s3t, { tableBucketARN: tb.bucketArn, namespace: tb.namespace, name: tb.name });
}

/** The metadata with the snapshot added and `ref` pointing at it (the REST catalog's view of the two updates). */
export function withSnapshot(metadata: TableMetadata, snapshot: Snapshot, ref = 'main'): TableMetadata {
  const next: TableMetadata = structuredClone(metadata);
  next.snapshots = [...(next.snapshots ?? []), snapshot];
  next['last-sequence-number'] = Math.max(next['last-sequence-number'], snapshot['sequence-number'] ?? 0);
  next['last-updated-ms'] = snapshot['timestamp-ms'];
  next.refs = { ...(next.refs ?? {}), [ref]: { 'snapshot-id': snapshot['snapshot-id'], type: 'branch' } };
  if (ref === 'main') {
    next['current-snapshot-id'] = snapshot['snapshot-id'];
    next['snapshot-log'] = [...(next['snapshot-log'] ?? []), { 'snapshot-id': snapshot['snapshot-id'], 'timestamp-ms': snapshot['timestamp-ms'] }];
  }
  if (snapshot['added-rows'] !== undefined) next['next-row-id'] = (snapshot['first-row-id'] ?? 0) + snapshot['added-rows'];
  return next;
}

/** The metadata with a new schema made current (schema evolution as `add-schema` + `set-current-schema`). */
export function withSchema(metadata: TableMetadata, schema: Omit<Schema, 'schema-id'>): TableMetadata {
  const next: TableMetadata = structuredClone(metadata);
  const id = Math.max(...next.schemas.map((s) => s['schema-id'])) + 1;
  next.schemas = [...next.schemas, { ...schema, 'schema-id': id } as Schema];
  next['current-schema-id'] = id;
  const ids = JSON.stringify(schema).match(/"(?:id|element-id|key-id|value-id)":\d+/g) ?? [];
  next['last-column-id'] = Math.max(next['last-column-id'], ...ids.map((m) => Number(m.split(':')[1])));
  return next;
}

/** Writes `metadata` as the table's next metadata.json and swaps it in. */
export async function commitMetadata(io: FileIO, s3t: S3TablesClient, table: IcebergTable, metadata: TableMetadata): Promise<IcebergTable> {
  const previous = table.metadataLocation;
  const version = Number(/\/(\d+)-[^/]+\.metadata\.json$/.exec(previous)?.[1] ?? 0) + 1;
  const next: TableMetadata = {
    ...metadata,
    'metadata-log': [...(metadata['metadata-log'] ?? []), { 'metadata-file': previous, 'timestamp-ms': table.metadata['last-updated-ms'] }],
  };
  const location = `${metadata.location}/metadata/${String(version).padStart(5, '0')}-${randomUUID()}.metadata.json`;
  await io.write(location, new TextEncoder().encode(stringifyIcebergJson(next)));
  const out = await s3t.send(
    new UpdateTableMetadataLocationCommand({ ...table.id, metadataLocation: location, versionToken: table.versionToken }),
  );
  return { id: table.id, metadataLocation: location, versionToken: out.versionToken!, metadata: next };
}

/** Commits a snapshot on `ref`. */
export async function commitSnapshot(io: FileIO, s3t: S3TablesClient, table: IcebergTable, snapshot: Snapshot, ref = 'main'): Promise<IcebergTable> {
  return commitMetadata(io, s3t, table, withSnapshot(table.metadata, snapshot, ref));
}

/** Sends icebird's virtual-hosted S3 URLs to the test server path-style; returns the restore function. */
export function redirectS3Fetch(endpoint: string): () => void {
  const original = globalThis.fetch;
  globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const m = /^https:\/\/([^/.]+(?:\.[^/.]+)*?)\.s3\.amazonaws\.com\/(.*)$/.exec(url);
    return original(m ? `${endpoint}/${m[1]}/${m[2]}` : input, init);
  }) as typeof fetch;
  return () => {
    globalThis.fetch = original;
  };
}
