/**
 * Iceberg tables on a test server for the library's tests: a table created through S3 Tables
 * `CreateTable` with `metadata.iceberg`, its metadata.json loaded through a FileIO, and commits
 * through Overcast's Iceberg REST catalog (the unsigned `/_overcast/iceberg` endpoint) as an
 * engine sends them — `add-snapshot` with `set-snapshot-ref` guarded by `assert-ref-snapshot-id`,
 * `add-schema` with `set-current-schema` — with 64-bit ids kept exact on the wire. Also a `fetch`
 * redirect for icebird, which addresses objects as `https://<bucket>.s3.amazonaws.com/<key>`: it
 * sends those requests to the test server path-style.
 */
import { GetTableMetadataLocationCommand, S3TablesClient, type IcebergMetadata } from '@aws-sdk/client-s3tables';
import type { FileIO } from '../../src/iceberg/file-io.js';
import { parseIcebergJson, stringifyIcebergJson } from '../../src/iceberg/json.js';
import type { Schema, Snapshot, TableMetadata } from '../../src/iceberg/types.js';
import { makeTable } from '../s3tables/helpers.js';
import type { TestServer } from './server.js';

export interface TableId {
  tableBucketARN: string;
  namespace: string;
  name: string;
}

export interface IcebergTable {
  id: TableId;
  metadataLocation: string;
  metadata: TableMetadata;
}

/** Creates a table (bucket and namespace too) with Iceberg metadata (`schemaV2` types are free-form JSON) and loads it. */
export async function createIcebergTable(io: FileIO, s3t: S3TablesClient, iceberg: object): Promise<IcebergTable> {
  const tb = await makeTable(s3t, { metadata: { iceberg: iceberg as IcebergMetadata } });
  const id = { tableBucketARN: tb.bucketArn, namespace: tb.namespace, name: tb.name };
  const { metadataLocation } = await s3t.send(new GetTableMetadataLocationCommand(id));
  const metadata = parseIcebergJson(new TextDecoder().decode(await io.read(metadataLocation!))) as TableMetadata;
  return { id, metadataLocation: metadataLocation!, metadata };
}

/** POSTs a CommitTableRequest to the REST catalog; throws with the catalog's error unless it answers 200. */
export async function commitUpdates(t: TestServer, table: IcebergTable, requirements: unknown[], updates: unknown[]): Promise<IcebergTable> {
  const { tableBucketARN, namespace, name } = table.id;
  const url = `${t.endpoint}/_overcast/iceberg/v1/${encodeURIComponent(tableBucketARN)}/namespaces/${namespace}/tables/${name}`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: stringifyIcebergJson({ requirements, updates }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`commit answered ${res.status}: ${text}`);
  const body = parseIcebergJson(text) as { 'metadata-location': string; metadata: TableMetadata };
  return { id: table.id, metadataLocation: body['metadata-location'], metadata: body.metadata };
}

/** Commits a snapshot on a branch (default main), as an engine's append or row delta does. */
export async function commitSnapshot(t: TestServer, table: IcebergTable, snapshot: Snapshot, ref = 'main'): Promise<IcebergTable> {
  return commitUpdates(
    t,
    table,
    [{ type: 'assert-ref-snapshot-id', ref, 'snapshot-id': snapshot['parent-snapshot-id'] ?? null }],
    [
      { action: 'add-snapshot', snapshot },
      { action: 'set-snapshot-ref', 'ref-name': ref, type: 'branch', 'snapshot-id': snapshot['snapshot-id'] },
    ],
  );
}

/** Adds a schema and makes it current (a rename, an added column). */
export async function evolveSchema(t: TestServer, table: IcebergTable, schema: Omit<Schema, 'schema-id'>): Promise<IcebergTable> {
  const next = Math.max(...table.metadata.schemas.map((s) => s['schema-id'])) + 1;
  return commitUpdates(
    t,
    table,
    [{ type: 'assert-current-schema-id', 'current-schema-id': table.metadata['current-schema-id'] }],
    [{ action: 'add-schema', schema: { ...schema, 'schema-id': next } }, { action: 'set-current-schema', 'schema-id': -1 }],
  );
}

/** Sends icebird's virtual-hosted S3 URLs to the test server path-style; returns the restore function. */
export function redirectS3Fetch(endpoint: string): () => void {
  const original = globalThis.fetch;
  globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const m = /^https:\/\/([^/]+?)\.s3\.amazonaws\.com\/(.*)$/.exec(url);
    return original(m ? `${endpoint}/${m[1]}/${m[2]}` : input, init);
  }) as typeof fetch;
  return () => {
    globalThis.fetch = original;
  };
}
