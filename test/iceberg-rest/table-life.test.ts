/**
 * A table's whole life with data through the REST catalog signed for s3tables, as an engine lives
 * it: created through the catalog, Parquet data files, manifests and manifest lists written by the
 * project's Iceberg writer into the warehouse over S3, each snapshot committed through the
 * catalog and read back by icebird (an Iceberg reader from npm) — append, append, evolve the
 * schema, append, time travel to the first snapshot, a writer that commits on stale metadata fails
 * and succeeds after a refresh, rename, purge. The S3 Tables API sees every step.
 */
import { GetTableMetadataLocationCommand } from '@aws-sdk/client-s3tables';
import { icebergRead } from 'icebird';
import { describe, expect, it } from '../helpers/fixture.js';
import { appendRows } from '../../src/iceberg/append.js';
import { parseIcebergJson, stringifyIcebergJson } from '../../src/iceberg/json.js';
import { readRows } from '../../src/iceberg/scan.js';
import type { Snapshot, TableMetadata } from '../../src/iceberg/types.js';
import { redirectS3Fetch } from '../helpers/iceberg-table.js';
import { s3FileIO, type CountingFileIO } from '../helpers/s3-file-io.js';
import { warehouseBuckets, type TestServer } from '../helpers/server.js';
import { eventually, makeBucket, makeNamespace } from '../s3tables/helpers.js';
import { catalog, prefixOf, signedFetch } from './helpers.js';

let io: CountingFileIO;
let restoreFetch: () => void;

it.beforeAll(async ({ server: t }) => {
  io = s3FileIO(t);
  restoreFetch = redirectS3Fetch(t.endpoint);
});
it.afterAll(() => restoreFetch());

type Row = Record<string, unknown>;

/** The catalog's answers parsed losslessly: snapshot ids are 63-bit. */
async function call(t: TestServer, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await signedFetch(t)(`${t.endpoint}/iceberg/v1/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : stringifyIcebergJson(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? parseIcebergJson(text) : undefined };
}

function rowsOf(from: number, to: number, note?: (i: number) => string | null): Row[] {
  return Array.from({ length: to - from }, (_, k) => {
    const i = from + k;
    const row: Row = { id: BigInt(i), customer: `c${i % 7}`, amount: `${i}.${String(i % 100).padStart(2, '0')}`, day: new Date(Date.UTC(2026, 0, 1 + (i % 3))) };
    if (note) row.note = note(i);
    return row;
  });
}

/**
 * icebird returns decimals as doubles (hyparquet's conversion) and a column a file predates as
 * undefined: back to the two-decimal text and null the writer and the library's reader use.
 */
const fromIcebird = (r: Row): Row => ({ ...r, amount: (r.amount as number).toFixed(2), ...('note' in r ? { note: r.note ?? null } : {}) });
const byId = (a: Row, b: Row) => Number(a.id) - Number(b.id);

describe('a table with data through the REST catalog', () => {
  it('lives: append, append, evolve, append, time travel, conflict and retry, rename, purge', async ({ server: t, s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    const ns = await makeNamespace(s3t, arn);
    const p = prefixOf(arn);
    const created = await call(t, 'POST', `${p}/namespaces/${ns}/tables`, {
      name: 'orders',
      schema: {
        type: 'struct',
        'schema-id': 0,
        fields: [
          { id: 1, name: 'id', type: 'long', required: true },
          { id: 2, name: 'customer', type: 'string', required: false },
          { id: 3, name: 'amount', type: 'decimal(10, 2)', required: false },
          { id: 4, name: 'day', type: 'date', required: false },
        ],
      },
      'partition-spec': { 'spec-id': 0, fields: [{ 'source-id': 4, transform: 'identity', name: 'day', 'field-id': 1000 }] },
      'write-order': { 'order-id': 0, fields: [] },
    });
    expect(created.status).toBe(200);
    let path = `${p}/namespaces/${ns}/tables/orders`;
    const load = async (): Promise<TableMetadata> => {
      const res = await call(t, 'GET', path);
      expect(res.status).toBe(200);
      return res.json.metadata;
    };
    const token = async (name = 'orders', namespace = ns) =>
      (await s3t.send(new GetTableMetadataLocationCommand({ tableBucketARN: arn, namespace, name }))).versionToken;
    const commit = (snapshot: Snapshot) =>
      call(t, 'POST', path, {
        requirements: [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': snapshot['parent-snapshot-id'] ?? null }],
        updates: [
          { action: 'add-snapshot', snapshot },
          { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': snapshot['snapshot-id'] },
        ],
      });
    const read = async (metadata: TableMetadata) =>
      ((await icebergRead({ tableUrl: metadata.location, metadata: metadata as never })) as Row[]).map(fromIcebird).sort(byId);

    // Append twice.
    const first = rowsOf(0, 30);
    let token0 = await token();
    const a1 = await appendRows(io, await load(), first);
    expect((await commit(a1.snapshot)).status).toBe(200);
    expect(await token()).not.toBe(token0);
    expect(await read(await load())).toEqual(first);
    const firstSnapshot = a1.snapshot['snapshot-id'];
    const second = rowsOf(30, 50);
    const a2 = await appendRows(io, await load(), second);
    expect((await commit(a2.snapshot)).status).toBe(200);
    let metadata = await load();
    expect(metadata.snapshots.map((s) => s['snapshot-id'])).toEqual([firstSnapshot, a2.snapshot['snapshot-id']]);
    expect(metadata.snapshots[1]!.summary).toMatchObject({ operation: 'append', 'added-records': '20', 'total-records': '50' });
    expect(await read(metadata)).toEqual([...first, ...second]);

    // Evolve the schema (a new optional column), then append rows that have it.
    token0 = await token();
    const evolved = await call(t, 'POST', path, {
      requirements: [{ type: 'assert-current-schema-id', 'current-schema-id': 0 }],
      updates: [
        { action: 'add-schema', schema: { ...metadata.schemas[0], 'schema-id': 1, fields: [...metadata.schemas[0]!.fields, { id: 5, name: 'note', type: 'string', required: false }] } },
        { action: 'set-current-schema', 'schema-id': -1 },
      ],
    });
    expect(evolved.status).toBe(200);
    expect(evolved.json.metadata['last-column-id']).toBe(5);
    expect(await token()).not.toBe(token0);
    const third = rowsOf(50, 60, (i) => (i % 2 ? `note ${i}` : null));
    const a3 = await appendRows(io, await load(), third);
    expect(a3.snapshot['schema-id']).toBe(1);
    expect((await commit(a3.snapshot)).status).toBe(200);
    metadata = await load();
    const all = [...first, ...second].map((r): Row => ({ ...r, note: null })).concat(third);
    expect(await read(metadata)).toEqual(all);
    expect((await readRows(io, metadata)).sort(byId)).toEqual(all);

    // Time travel to the first snapshot: its rows, in its schema.
    const asOfFirst = { ...metadata, 'current-snapshot-id': firstSnapshot, 'current-schema-id': 0 };
    expect(await read(asOfFirst)).toEqual(first);
    expect((await readRows(io, metadata, { snapshotId: firstSnapshot })).sort(byId)).toEqual(first);

    // Two writers start from the same metadata; the second commits on stale metadata and fails.
    const base = await load();
    const w1 = await appendRows(io, base, rowsOf(60, 65, () => 'w1'));
    const w2 = await appendRows(io, base, rowsOf(65, 70, () => 'w2'));
    expect((await commit(w1.snapshot)).status).toBe(200);
    const stale = await commit(w2.snapshot);
    expect(stale.status).toBe(409);
    expect(stale.json.error.type).toBe('CommitFailedException');
    // After a refresh the second writer commits again, on top of the first.
    const retried = await appendRows(io, await load(), rowsOf(65, 70, () => 'w2'));
    expect(retried.snapshot['parent-snapshot-id']).toBe(w1.snapshot['snapshot-id']);
    expect((await commit(retried.snapshot)).status).toBe(200);
    metadata = await load();
    expect((await read(metadata)).map((r) => Number(r.id))).toEqual(Array.from({ length: 70 }, (_, i) => i));

    // Rename into another namespace: the same table, the same rows.
    const archive = await makeNamespace(s3t, arn);
    await catalog(t, arn).renameTable({ source: { namespace: [ns], name: 'orders' }, destination: { namespace: [archive], name: 'orders_2026' } });
    path = `${p}/namespaces/${archive}/tables/orders_2026`;
    const renamed = await load();
    expect(renamed['table-uuid']).toBe(metadata['table-uuid']);
    expect((await read(renamed)).length).toBe(70);
    expect(await token('orders_2026', archive)).toBeTruthy();

    // Purge: the table and its warehouse (data files and metadata) are gone.
    const warehouse = renamed.location.replace('s3://', '');
    expect((await call(t, 'DELETE', `${path}?purgeRequested=true`)).status).toBe(204);
    expect((await call(t, 'GET', path)).status).toBe(404);
    expect(await eventually(async () => !warehouseBuckets(t).includes(warehouse))).toBe(true);
  });
});
