/**
 * Table commits through the REST catalog (`POST …/tables/{table}`): every requirement type and
 * what its failure leaves (nothing), every update action of format versions 2 and 3 applied as the
 * Java reference applies it, the metadata and snapshot logs, 64-bit snapshot ids kept digit for
 * digit, bad bodies refused, and the one compare-and-swap shared with UpdateTableMetadataLocation:
 * of concurrent commits through either road exactly one wins, and commits that do not conflict
 * all land without losing each other's changes. Each commit is cross-checked with the S3 Tables
 * SDK (the version token moves, the pointer names the document the catalog answered).
 */
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  CreateTableCommand,
  GetTableMetadataLocationCommand,
  UpdateTableMetadataLocationCommand,
  type S3TablesClient,
} from '@aws-sdk/client-s3tables';
import type { IcebergRestCatalog } from 'iceberg-js';
import { describe, expect, it } from '../helpers/fixture.js';
import type { TestServer } from '../helpers/server.js';
import { makeBucket, makeNamespace, uniqueName } from '../s3tables/helpers.js';
import { catalog, expectIcebergError, icebergFailure, prefixOf, raw, SIMPLE_SCHEMA } from './helpers.js';

let arn: string;
let ns: string;
let c: IcebergRestCatalog;

it.beforeAll(async ({ server: t, s3tables: s3t }) => {
  arn = await makeBucket(s3t);
  ns = await makeNamespace(s3t, arn);
  c = catalog(t, arn);
});

type Json = Record<string, any>;

async function newTable(properties: Record<string, string> = {}): Promise<{ name: string; path: string; uuid: string }> {
  const name = uniqueName('t_');
  const m = (await c.createTable({ namespace: [ns] }, { name, schema: SIMPLE_SCHEMA as never, properties })) as Json;
  return { name, path: `${prefixOf(arn)}/namespaces/${ns}/tables/${name}`, uuid: m['table-uuid'] };
}

async function pointer(s3t: S3TablesClient, name: string): Promise<{ versionToken: string; metadataLocation: string }> {
  const out = await s3t.send(new GetTableMetadataLocationCommand({ tableBucketARN: arn, namespace: ns, name }));
  return { versionToken: out.versionToken!, metadataLocation: out.metadataLocation! };
}

async function warehouseDoc(s3: S3Client, location: string): Promise<string> {
  const m = /^s3:\/\/([^/]+)\/(.+)$/.exec(location)!;
  return (await s3.send(new GetObjectCommand({ Bucket: m[1], Key: m[2] }))).Body!.transformToString();
}

let nextId = 1000n;
function snapshot(seq: number, parent: bigint | null, extra: Json = {}): Json {
  nextId += 1n;
  return {
    'snapshot-id': Number(nextId),
    ...(parent === null ? {} : { 'parent-snapshot-id': Number(parent) }),
    'sequence-number': seq,
    'timestamp-ms': 1_700_000_000_000 + seq,
    'manifest-list': `s3://somewhere/metadata/snap-${nextId}-1-manifest-list.avro`,
    summary: { operation: 'append', 'added-records': '3' },
    'schema-id': 0,
    ...extra,
  };
}

/** A commit through a raw signed request: the response as JSON. */
async function commit(t: TestServer, path: string, requirements: Json[], updates: Json[]): Promise<{ status: number; json: Json }> {
  const res = await raw(t, 'POST', path, { requirements, updates });
  return { status: res.status, json: res.json };
}

describe('appends and logs', () => {
  it('adds snapshots on main, advancing sequence numbers, the snapshot log and the metadata log, with a new version token each time', async ({ server: t, s3tables: s3t, s3 }) => {
    const { name, path, uuid } = await newTable();
    const p0 = await pointer(s3t, name);
    const s1 = snapshot(1, null);
    const r1 = await c.updateTable({ namespace: [ns], name }, {
      requirements: [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': null }, { type: 'assert-table-uuid', uuid }],
      updates: [{ action: 'add-snapshot', snapshot: s1 }, { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': s1['snapshot-id'] }],
    } as never);
    const p1 = await pointer(s3t, name);
    expect(p1.versionToken).not.toBe(p0.versionToken);
    expect(p1.metadataLocation).toBe(r1['metadata-location']);
    expect(p1.metadataLocation).toMatch(/\/metadata\/00001-[0-9a-f-]{36}\.metadata\.json$/);
    const m1 = r1.metadata as Json;
    expect(m1['current-snapshot-id']).toBe(s1['snapshot-id']);
    expect(m1['last-sequence-number']).toBe(1);
    expect(m1.refs).toEqual({ main: { 'snapshot-id': s1['snapshot-id'], type: 'branch' } });
    expect(m1['snapshot-log']).toEqual([{ 'timestamp-ms': s1['timestamp-ms'], 'snapshot-id': s1['snapshot-id'] }]);
    expect(m1['metadata-log']).toEqual([{ 'timestamp-ms': expect.any(Number), 'metadata-file': p0.metadataLocation }]);
    expect(m1['last-updated-ms']).toBeGreaterThanOrEqual(m1['metadata-log'][0]['timestamp-ms']);
    expect(JSON.parse(await warehouseDoc(s3, p1.metadataLocation))).toEqual(m1);

    const s2 = snapshot(2, BigInt(s1['snapshot-id']));
    const r2 = await commit(t, path, [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': s1['snapshot-id'] }], [
      { action: 'add-snapshot', snapshot: s2 },
      { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': s2['snapshot-id'] },
    ]);
    expect(r2.status).toBe(200);
    expect(r2.json['metadata-location']).toMatch(/\/metadata\/00002-/);
    expect(r2.json.metadata.snapshots.map((s: Json) => s['snapshot-id'])).toEqual([s1['snapshot-id'], s2['snapshot-id']]);
    expect(r2.json.metadata['snapshot-log']).toHaveLength(2);
    expect(r2.json.metadata['metadata-log'].map((e: Json) => e['metadata-file'])).toEqual([p0.metadataLocation, p1.metadataLocation]);
    const loaded = (await c.loadTable({ namespace: [ns], name })) as Json;
    expect(loaded).toEqual(r2.json.metadata);

    // A stale sequence number is refused as a conflict the client retries after a refresh.
    const stale = await commit(t, path, [], [{ action: 'add-snapshot', snapshot: snapshot(2, BigInt(s2['snapshot-id'])) }]);
    expectIcebergError(stale as never, 409, 'CommitFailedException');
    expect(stale.json.error.message).toMatch(/^Validation failed, please retry: Cannot add snapshot with sequence number 2 older than last sequence number 2/);
  });

  it('keeps snapshot ids beyond 2^53 digit for digit', async ({ server: t }) => {
    const { path } = await newTable();
    const big = '9223372036854775807';
    const parentless = `{"requirements":[],"updates":[{"action":"add-snapshot","snapshot":{"snapshot-id":${big},"sequence-number":1,"timestamp-ms":1700000000001,"manifest-list":"s3://w/metadata/snap.avro","summary":{"operation":"append"}}},{"action":"set-snapshot-ref","ref-name":"main","type":"branch","snapshot-id":${big}}]}`;
    const res = await raw(t, 'POST', path, parentless);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`"current-snapshot-id":${big}`);
    expect(res.text).toContain(`"snapshot-id":${big}`);
    const child = '4611686018427387905';
    const next = await raw(
      t,
      'POST',
      path,
      `{"requirements":[{"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":${big}}],"updates":[{"action":"add-snapshot","snapshot":{"snapshot-id":${child},"parent-snapshot-id":${big},"sequence-number":2,"timestamp-ms":1700000000002,"manifest-list":"s3://w/metadata/snap2.avro","summary":{"operation":"append"}}},{"action":"set-snapshot-ref","ref-name":"main","type":"branch","snapshot-id":${child}}]}`,
    );
    expect(next.status).toBe(200);
    const loaded = await raw(t, 'GET', path);
    expect(loaded.text).toContain(`"parent-snapshot-id":${big}`);
    expect(loaded.text).toContain(`"current-snapshot-id":${child}`);
    // One digit off is another snapshot: the requirement fails.
    const off = await raw(t, 'POST', path, `{"requirements":[{"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":4611686018427387904}],"updates":[]}`);
    expectIcebergError(off, 409, 'CommitFailedException');
  });
});

describe('requirements', () => {
  it('fails each unmet requirement with 409 CommitFailedException and changes nothing', async ({ server: t, s3tables: s3t }) => {
    const { name, path, uuid } = await newTable();
    const s1 = snapshot(1, null);
    expect((await commit(t, path, [], [{ action: 'add-snapshot', snapshot: s1 }, { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': s1['snapshot-id'] }])).status).toBe(200);
    const before = await pointer(s3t, name);
    const failing: [Json, string][] = [
      [{ type: 'assert-create' }, 'Requirement failed: table already exists'],
      [{ type: 'assert-table-uuid', uuid: '00000000-0000-0000-0000-000000000000' }, `Requirement failed: UUID does not match: expected ${uuid} != 00000000-0000-0000-0000-000000000000`],
      [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': null }, 'Requirement failed: branch main was created concurrently'],
      [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': 1 }, `Requirement failed: branch main has changed: expected id 1 != ${s1['snapshot-id']}`],
      [{ type: 'assert-ref-snapshot-id', ref: 'dev', 'snapshot-id': 5 }, 'Requirement failed: branch or tag dev is missing, expected 5'],
      [{ type: 'assert-last-assigned-field-id', 'last-assigned-field-id': 7 }, 'Requirement failed: last assigned field id changed: expected id 7 != 2'],
      [{ type: 'assert-current-schema-id', 'current-schema-id': 3 }, 'Requirement failed: current schema changed: expected id 3 != 0'],
      [{ type: 'assert-last-assigned-partition-id', 'last-assigned-partition-id': 1000 }, 'Requirement failed: last assigned partition id changed: expected id 1000 != 999'],
      [{ type: 'assert-default-spec-id', 'default-spec-id': 1 }, 'Requirement failed: default partition spec changed: expected id 1 != 0'],
      [{ type: 'assert-default-sort-order-id', 'default-sort-order-id': 2 }, 'Requirement failed: default sort order changed: expected id 2 != 0'],
    ];
    for (const [requirement, message] of failing) {
      const res = await commit(t, path, [requirement], [{ action: 'set-properties', updates: { touched: 'yes' } }]);
      expectIcebergError(res as never, 409, 'CommitFailedException');
      expect(res.json.error.message, requirement.type).toBe(message);
    }
    // Every requirement that holds passes, together.
    const ok = await commit(t, 
      path,
      [
        { type: 'assert-table-uuid', uuid: uuid.toUpperCase() },
        { type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': s1['snapshot-id'] },
        { type: 'assert-ref-snapshot-id', ref: 'dev', 'snapshot-id': null },
        { type: 'assert-last-assigned-field-id', 'last-assigned-field-id': 2 },
        { type: 'assert-current-schema-id', 'current-schema-id': 0 },
        { type: 'assert-last-assigned-partition-id', 'last-assigned-partition-id': 999 },
        { type: 'assert-default-spec-id', 'default-spec-id': 0 },
        { type: 'assert-default-sort-order-id', 'default-sort-order-id': 0 },
      ],
      [],
    );
    expect(ok.status).toBe(200);
    // Nothing to change: no new metadata file, no new token.
    expect(await pointer(s3t, name)).toEqual(before);
    expect(ok.json['metadata-location']).toBe(before.metadataLocation);
  });
});

describe('update actions', () => {
  it('evolves schema, spec and sort order with Java’s id rules and -1 for the last added', async ({ server: t, s3tables: s3t }) => {
    const { name, path } = await newTable();
    const evolved = {
      type: 'struct',
      'schema-id': 7, // ignored: the next id is the highest plus one
      fields: [
        ...SIMPLE_SCHEMA.fields,
        { id: 3, name: 'point', required: false, type: { type: 'struct', fields: [{ id: 4, name: 'x', type: 'double', required: true }, { id: 5, name: 'y', type: 'double', required: true }] } },
      ],
    };
    const r = await commit(t, path, [{ type: 'assert-current-schema-id', 'current-schema-id': 0 }], [
      { action: 'add-schema', schema: evolved },
      { action: 'set-current-schema', 'schema-id': -1 },
      { action: 'add-spec', spec: { fields: [{ 'source-id': 1, transform: 'bucket[16]', name: 'id_bucket' }] } },
      { action: 'set-default-spec', 'spec-id': -1 },
      { action: 'add-sort-order', 'sort-order': { 'order-id': 1, fields: [{ 'source-id': 2, transform: 'identity', direction: 'desc', 'null-order': 'nulls-last' }] } },
      { action: 'set-default-sort-order', 'sort-order-id': -1 },
    ]);
    expect(r.status).toBe(200);
    const m = r.json.metadata;
    expect(m['current-schema-id']).toBe(1);
    expect(m.schemas.map((s: Json) => s['schema-id'])).toEqual([0, 1]);
    expect(m['last-column-id']).toBe(5); // computed across the nested struct
    expect(m['default-spec-id']).toBe(1);
    expect(m['partition-specs'][1]).toEqual({ 'spec-id': 1, fields: [{ name: 'id_bucket', transform: 'bucket[16]', 'source-id': 1, 'field-id': 1000 }] });
    expect(m['last-partition-id']).toBe(1000);
    expect(m['default-sort-order-id']).toBe(1);
    expect(m['sort-orders'][1]).toEqual({ 'order-id': 1, fields: [{ transform: 'identity', 'source-id': 2, direction: 'desc', 'null-order': 'nulls-last' }] });

    // The same schema again is reused, not added; switching back is allowed; -1 without an add is not.
    const again = await commit(t, path, [], [{ action: 'add-schema', schema: { ...SIMPLE_SCHEMA, 'schema-id': 9 } }, { action: 'set-current-schema', 'schema-id': -1 }]);
    expect(again.status).toBe(400);
    expect(again.json.error.message).toBe('Cannot set last added schema: no schema has been added');
    const back = await commit(t, path, [], [{ action: 'set-current-schema', 'schema-id': 0 }]);
    expect(back.json.metadata['current-schema-id']).toBe(0);
    expect(back.json.metadata.schemas).toHaveLength(2);
    for (const [update, message] of [
      [{ action: 'set-current-schema', 'schema-id': 42 }, 'Cannot set current schema to unknown schema: 42'],
      [{ action: 'set-default-spec', 'spec-id': 9 }, 'Cannot set default partition spec to unknown spec: 9'],
      [{ action: 'add-schema', schema: { type: 'struct', fields: [{ id: 1, name: 'id', type: 'long', required: true }] }, 'last-column-id': 1 }, 'Invalid last column ID: 1 < 5 (previous last column ID)'],
      [{ action: 'add-spec', spec: { fields: [{ 'source-id': 2, transform: 'day', name: 'd' }] } }, "transform 'day' in partition field 1 cannot be applied to type string"],
      [{ action: 'remove-schemas', 'schema-ids': [0] }, 'Cannot remove the current schema'],
      [{ action: 'remove-partition-specs', 'spec-ids': [1] }, 'Cannot remove the default partition spec'],
    ] as [Json, string][]) {
      const res = await commit(t, path, [], [update]);
      expectIcebergError(res as never, 400, 'BadRequestException');
      expect(res.json.error.message).toBe(message);
    }
    const removed = await commit(t, path, [], [{ action: 'set-default-spec', 'spec-id': 0 }, { action: 'remove-partition-specs', 'spec-ids': [1] }, { action: 'remove-schemas', 'schema-ids': [1] }]);
    expect(removed.json.metadata['partition-specs'].map((s: Json) => s['spec-id'])).toEqual([0]);
    expect(removed.json.metadata.schemas.map((s: Json) => s['schema-id'])).toEqual([0]);
    expect((await pointer(s3t, name)).metadataLocation).toBe(removed.json['metadata-location']);
  });

  it('sets and removes refs (branches and tags), snapshots, properties, location, statistics and keys', async ({ server: t }) => {
    const { path } = await newTable();
    const s1 = snapshot(1, null);
    const s2 = snapshot(2, BigInt(s1['snapshot-id']));
    const id1 = s1['snapshot-id'];
    const id2 = s2['snapshot-id'];
    let r = await commit(t, path, [], [
      { action: 'add-snapshot', snapshot: s1 },
      { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': id1 },
      { action: 'add-snapshot', snapshot: s2 },
      { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': id2 },
      { action: 'set-snapshot-ref', 'ref-name': 'v1', type: 'tag', 'snapshot-id': id1, 'max-ref-age-ms': 86_400_000 },
      { action: 'set-snapshot-ref', 'ref-name': 'dev', type: 'branch', 'snapshot-id': id1, 'min-snapshots-to-keep': 2, 'max-snapshot-age-ms': 3_600_000 },
      { action: 'set-properties', updates: { 'commit.retry.num-retries': '5', owner: 'me' } },
      { action: 'remove-properties', removals: ['owner', 'not-there'] },
      { action: 'set-statistics', statistics: { 'snapshot-id': id2, 'statistics-path': 's3://w/metadata/stats.puffin', 'file-size-in-bytes': 100, 'file-footer-size-in-bytes': 20, 'blob-metadata': [{ type: 'apache-datasketches-theta-v1', 'snapshot-id': id2, 'sequence-number': 2, fields: [1] }] } },
      { action: 'set-partition-statistics', 'partition-statistics': { 'snapshot-id': id2, 'statistics-path': 's3://w/metadata/part.parquet', 'file-size-in-bytes': 10 } },
      { action: 'add-encryption-key', 'encryption-key': { 'key-id': 'k1', 'encrypted-key-metadata': 'AAA=' } },
    ]);
    expect(r.status).toBe(200);
    let m = r.json.metadata;
    expect(m['current-snapshot-id']).toBe(id2);
    // The intermediate main (s1 within the same commit) leaves the snapshot log.
    expect(m['snapshot-log']).toEqual([{ 'timestamp-ms': s2['timestamp-ms'], 'snapshot-id': id2 }]);
    expect(m.refs).toEqual({
      main: { 'snapshot-id': id2, type: 'branch' },
      v1: { 'snapshot-id': id1, type: 'tag', 'max-ref-age-ms': 86_400_000 },
      dev: { 'snapshot-id': id1, type: 'branch', 'min-snapshots-to-keep': 2, 'max-snapshot-age-ms': 3_600_000 },
    });
    expect(m.properties).toEqual({ 'commit.retry.num-retries': '5' });
    expect(m.statistics).toHaveLength(1);
    expect(m['partition-statistics']).toHaveLength(1);
    expect(m['encryption-keys']).toEqual([{ 'key-id': 'k1', 'encrypted-key-metadata': 'AAA=' }]);

    for (const [update, message] of [
      [{ action: 'set-snapshot-ref', 'ref-name': 'main', type: 'tag', 'snapshot-id': id1 }, 'Cannot set main to a tag, it must be a branch'],
      [{ action: 'set-snapshot-ref', 'ref-name': 'x', type: 'branch', 'snapshot-id': 12345 }, 'Cannot set x to unknown snapshot: 12345'],
      [{ action: 'set-snapshot-ref', 'ref-name': 't', type: 'tag', 'snapshot-id': id1, 'min-snapshots-to-keep': 1 }, 'Tags do not support setting minSnapshotsToKeep'],
      [{ action: 'set-snapshot-ref', 'ref-name': 'b', type: 'branch', 'snapshot-id': id1, 'min-snapshots-to-keep': 0 }, 'Min snapshots to keep must be greater than 0'],
      [{ action: 'add-snapshot', snapshot: { ...s2 } }, `Snapshot already exists for id: ${id2}`],
      [{ action: 'upgrade-format-version', 'format-version': 1 }, 'Cannot downgrade v2 table to v1'],
      [{ action: 'upgrade-format-version', 'format-version': 4 }, 'Cannot upgrade table to unsupported format version: v4 (supported: v3)'],
    ] as [Json, string][]) {
      const res = await commit(t, path, [], [update]);
      expectIcebergError(res as never, 400, 'BadRequestException');
      expect(res.json.error.message).toBe(message);
    }

    // Removing s1 drops the tag and branch that point at it and cuts the snapshot log.
    r = await commit(t, path, [], [
      { action: 'remove-snapshots', 'snapshot-ids': [id1] },
      { action: 'remove-statistics', 'snapshot-id': id2 },
      { action: 'remove-partition-statistics', 'snapshot-id': id2 },
      { action: 'remove-encryption-key', 'key-id': 'k1' },
      { action: 'set-location', location: m.location },
    ]);
    m = r.json.metadata;
    expect(m.snapshots.map((s: Json) => s['snapshot-id'])).toEqual([id2]);
    expect(Object.keys(m.refs)).toEqual(['main']);
    expect(m.statistics).toEqual([]);
    expect(m['partition-statistics']).toEqual([]);
    expect(m['encryption-keys']).toEqual([]);
    r = await commit(t, path, [], [{ action: 'remove-snapshot-ref', 'ref-name': 'main' }]);
    expect(r.json.metadata['current-snapshot-id']).toBe(-1);
    expect(r.json.metadata.refs).toEqual({});

    const outside = await commit(t, path, [], [{ action: 'set-location', location: 's3://some-other-bucket/t' }]);
    expectIcebergError(outside as never, 400, 'BadRequestException');
    const uuid = await commit(t, path, [], [{ action: 'assign-uuid', uuid: '11111111-2222-3333-4444-555555555555' }]);
    expect(uuid.json.metadata['table-uuid']).toBe('11111111-2222-3333-4444-555555555555');
  });

  it('upgrades to format version 3 with row lineage checked on every snapshot', async ({ server: t }) => {
    const { path } = await newTable();
    let r = await commit(t, path, [], [{ action: 'upgrade-format-version', 'format-version': 3 }]);
    expect(r.json.metadata['format-version']).toBe(3);
    expect(r.json.metadata['next-row-id']).toBe(0);
    expect(r.json.metadata['current-snapshot-id']).toBeNull();
    const missing = await commit(t, path, [], [{ action: 'add-snapshot', snapshot: snapshot(1, null) }]);
    expectIcebergError(missing as never, 400, 'BadRequestException');
    expect(missing.json.error.message).toBe('Cannot add a snapshot: first-row-id is null');
    const s1 = snapshot(1, null, { 'first-row-id': 0, 'added-rows': 3 });
    r = await commit(t, path, [], [{ action: 'add-snapshot', snapshot: s1 }, { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': s1['snapshot-id'] }]);
    expect(r.json.metadata['next-row-id']).toBe(3);
    expect(r.json.metadata.snapshots[0]).toMatchObject({ 'first-row-id': 0, 'added-rows': 3 });
    const behind = await commit(t, path, [], [{ action: 'add-snapshot', snapshot: snapshot(2, BigInt(s1['snapshot-id']), { 'first-row-id': 1, 'added-rows': 1 }) }]);
    expectIcebergError(behind as never, 409, 'CommitFailedException');
  });

  it('refuses unknown and view actions, wrong types and malformed JSON with 400, changing nothing', async ({ server: t, s3tables: s3t }) => {
    const { name, path } = await newTable();
    const before = await pointer(s3t, name);
    const bodies: unknown[] = [
      { requirements: [], updates: [{ action: 'set-everything' }] },
      { requirements: [], updates: [{ action: 'add-view-version', 'view-version': {} }] },
      { requirements: [{ type: 'assert-magic' }], updates: [] },
      { requirements: [], updates: [{ action: 'set-properties', updates: { a: 1 } }] },
      { requirements: [], updates: [{ action: 'set-current-schema', 'schema-id': 'zero' }] },
      { requirements: [], updates: [{ action: 'add-snapshot', snapshot: { 'snapshot-id': 1 } }] },
      { requirements: [], updates: [{ action: 'remove-properties', removals: 'a' }] },
      { requirements: [], updates: [{ noAction: true }] },
      { requirements: {}, updates: [] },
      { requirements: [{ type: 'assert-create' }, { type: 'assert-current-schema-id', 'current-schema-id': 0 }], updates: [] },
      [],
      '{"requirements": [',
      'null',
    ];
    for (const body of bodies) {
      const res = await raw(t, 'POST', path, typeof body === 'string' ? body : JSON.stringify(body));
      expectIcebergError(res, 400, 'BadRequestException');
    }
    const unknown = await raw(t, 'POST', path, { requirements: [], updates: [{ action: 'set-everything' }] });
    expect(unknown.json.error.message).toBe('Cannot convert metadata update action from json: set-everything');
    // Updates that fail partway leave the table as it was.
    const partial = await raw(t, 'POST', path, { requirements: [], updates: [{ action: 'set-properties', updates: { a: 'b' } }, { action: 'set-current-schema', 'schema-id': 99 }] });
    expectIcebergError(partial, 400, 'BadRequestException');
    expect(await pointer(s3t, name)).toEqual(before);
    expect(((await c.loadTable({ namespace: [ns], name })) as Json).properties).toEqual({});
    expectIcebergError(await raw(t, 'POST', `${prefixOf(arn)}/namespaces/${ns}/tables/nope`, { requirements: [], updates: [] }), 404, 'NoSuchTableException');
  });
});

describe('one table, two roads', () => {
  it('of concurrent commits through the catalog and UpdateTableMetadataLocation exactly one wins', async ({ server: t, s3tables: s3t, s3 }) => {
    for (let round = 0; round < 5; round++) {
      const { name, path } = await newTable();
      const start = await pointer(s3t, name);
      const base = JSON.parse(await warehouseDoc(s3, start.metadataLocation));
      // An API writer's own metadata file (a copy, as an engine on the S3 Tables road would write).
      const apiLocation = start.metadataLocation.replace(/00000-[^/]+$/, `00001-api-${round}.metadata.json`);
      const { PutObjectCommand } = await import('@aws-sdk/client-s3');
      const m = /^s3:\/\/([^/]+)\/(.+)$/.exec(apiLocation)!;
      await s3.send(new PutObjectCommand({ Bucket: m[1], Key: m[2], Body: JSON.stringify({ ...base, properties: { road: 'api' } }) }));
      const restCommits = Array.from({ length: 4 }, (_, i) => {
        const s = snapshot(1, null);
        return commit(t, path, [{ type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': null }, { type: 'assert-current-schema-id', 'current-schema-id': 0 }, { type: 'assert-last-assigned-field-id', 'last-assigned-field-id': 2 }], [
          { action: 'add-snapshot', snapshot: s },
          { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': s['snapshot-id'] },
          { action: 'set-properties', updates: { road: `rest-${i}` } },
        ]);
      });
      const apiCommit = s3t
        .send(new UpdateTableMetadataLocationCommand({ tableBucketARN: arn, namespace: ns, name, versionToken: start.versionToken, metadataLocation: apiLocation }))
        .then(() => 200, (e: { $metadata?: { httpStatusCode?: number } }) => e.$metadata?.httpStatusCode);
      const statuses = [...(await Promise.all(restCommits)).map((r) => r.status), await apiCommit];
      expect(statuses.filter((s) => s === 200), `round ${round}: ${statuses}`).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(4);
      const end = await pointer(s3t, name);
      expect(end.versionToken).not.toBe(start.versionToken);
      const winner = JSON.parse(await warehouseDoc(s3, end.metadataLocation));
      expect(winner.properties.road).toMatch(/^(api|rest-\d)$/);
    }
  });

  it('lands every concurrent commit whose requirements still hold, losing none of their changes', async ({ server: t }) => {
    const { name } = await newTable();
    const path = `${prefixOf(arn)}/namespaces/${ns}/tables/${name}`;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => commit(t, path, [], [{ action: 'set-properties', updates: { [`k${i}`]: `v${i}` } }])),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    const m = (await c.loadTable({ namespace: [ns], name })) as Json;
    expect(Object.keys(m.properties).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `k${i}`).sort());
    expect(m['metadata-log']).toHaveLength(12);
  });

  it('creates the metadata of a table made through the S3 Tables API without any, by an assert-create commit', async ({ server: t, s3tables: s3t }) => {
    const name = uniqueName('bare_');
    await s3t.send(new CreateTableCommand({ tableBucketARN: arn, namespace: ns, name, format: 'ICEBERG' }));
    const path = `${prefixOf(arn)}/namespaces/${ns}/tables/${name}`;
    const r = await commit(t, path, [{ type: 'assert-create' }], [
      { action: 'assign-uuid', uuid: '9f0b5a3c-0000-4000-8000-000000000001' },
      { action: 'upgrade-format-version', 'format-version': 2 },
      { action: 'add-schema', schema: SIMPLE_SCHEMA },
      { action: 'set-current-schema', 'schema-id': -1 },
      { action: 'add-spec', spec: { 'spec-id': 0, fields: [] } },
      { action: 'set-default-spec', 'spec-id': -1 },
      { action: 'add-sort-order', 'sort-order': { 'order-id': 0, fields: [] } },
      { action: 'set-default-sort-order', 'sort-order-id': -1 },
      { action: 'set-properties', updates: { created: 'by-commit' } },
    ]);
    expect(r.status).toBe(200);
    expect(r.json.metadata).toMatchObject({ 'table-uuid': '9f0b5a3c-0000-4000-8000-000000000001', 'current-schema-id': 0, 'last-column-id': 2, properties: { created: 'by-commit' } });
    expect(r.json['metadata-location']).toMatch(/\/metadata\/00000-[0-9a-f-]{36}\.metadata\.json$/);
    expect((await pointer(s3t, name)).metadataLocation).toBe(r.json['metadata-location']);
    expect(((await c.loadTable({ namespace: [ns], name })) as Json)['table-uuid']).toBe('9f0b5a3c-0000-4000-8000-000000000001');
    const again = await commit(t, path, [{ type: 'assert-create' }], [{ action: 'set-properties', updates: { x: 'y' } }]);
    expectIcebergError(again as never, 409, 'CommitFailedException');
    expect(await icebergFailure(c.loadTable({ namespace: [ns], name: 'never_made' }))).toMatchObject({ status: 404 });
  });
});
