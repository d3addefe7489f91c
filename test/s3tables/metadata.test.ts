/**
 * The Iceberg metadata.json CreateTable writes: fetched from the warehouse over the S3 API by a real
 * Iceberg reader (icebird), interpreted with iceberg-js's type helpers, and checked against the
 * Iceberg table spec's required v2 fields — flat schemas with every primitive type, nested
 * schemaV2 types, partition specs and sort orders with their ids, format version 3, and the 400s
 * for metadata AWS would refuse (which create neither a table nor a warehouse).
 */
import { CreateTableCommand, GetTableCommand, ListTablesCommand, S3TablesClient, type IcebergMetadata } from '@aws-sdk/client-s3tables';
import { getCurrentSchema, parseDecimalType, parseFixedType, typesEqual, type TableMetadata } from 'iceberg-js';
import { icebergMetadata, icebergRead } from 'icebird';
import { describe, expect, it } from '../helpers/fixture.js';
import { warehouseBuckets, type TestServer } from '../helpers/server.js';
import { expectError, makeBucket, makeNamespace, makeTable } from './helpers.js';

type Json = Record<string, any>;

/** Creates a table with `iceberg` metadata and reads its metadata.json back with icebird over S3. */
async function createAndRead(
  t: TestServer,
  s3t: S3TablesClient,
  iceberg: IcebergMetadata,
): Promise<{ meta: Json; warehouse: string; createdAt: Date }> {
  const tb = await makeTable(s3t, { metadata: { iceberg } });
  const got = await s3t.send(new GetTableCommand({ tableArn: tb.tableArn }));
  const location = got.metadataLocation!;
  expect(location).toMatch(
    new RegExp(`^${got.warehouseLocation}/metadata/00000-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.metadata\\.json$`),
  );
  const warehouse = got.warehouseLocation!.replace('s3://', '');
  // icebird fetches `<tableUrl>/metadata/<file>`: path-style, unsigned, so Overcast's S3 answers.
  const meta = await icebergMetadata({ tableUrl: `${t.endpoint}/${warehouse}`, metadataFileName: location.split('/').pop()! });
  return { meta: meta as unknown as Json, warehouse, createdAt: got.createdAt! };
}

/** Every id a type (and its nested types) declares. */
function idsOf(type: unknown): number[] {
  if (!type || typeof type !== 'object') return [];
  const o = type as Json;
  if (o.type === 'struct') return o.fields.flatMap((f: Json) => [f.id, ...idsOf(f.type)]);
  if (o.type === 'list') return [o['element-id'], ...idsOf(o.element)];
  if (o.type === 'map') return [o['key-id'], ...idsOf(o.key), o['value-id'], ...idsOf(o.value)];
  return [];
}

/** The Iceberg table spec's "Table Metadata Fields", v2 column: required fields and their invariants. */
function checkSpecV2(meta: Json, warehouse: string): void {
  for (const field of [
    'format-version', 'table-uuid', 'location', 'last-sequence-number', 'last-updated-ms', 'last-column-id', 'schemas',
    'current-schema-id', 'partition-specs', 'default-spec-id', 'last-partition-id', 'sort-orders', 'default-sort-order-id',
  ]) {
    expect(meta, `required field ${field}`).toHaveProperty([field]);
  }
  expect(meta['table-uuid']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(meta.location).toBe(`s3://${warehouse}`);
  expect(meta['last-sequence-number']).toBe(0);
  const schema = meta.schemas.find((s: Json) => s['schema-id'] === meta['current-schema-id']);
  expect(schema?.type).toBe('struct');
  const ids = idsOf(schema);
  expect(new Set(ids).size).toBe(ids.length);
  expect(meta['last-column-id']).toBe(Math.max(0, ...ids));
  const spec = meta['partition-specs'].find((s: Json) => s['spec-id'] === meta['default-spec-id']);
  expect(spec).toBeDefined();
  expect(meta['last-partition-id']).toBe(Math.max(999, ...spec.fields.map((f: Json) => f['field-id'])));
  for (const f of spec.fields) expect(ids).toContain(f['source-id']);
  const order = meta['sort-orders'].find((o: Json) => o['order-id'] === meta['default-sort-order-id']);
  expect(order).toBeDefined();
  for (const f of order.fields) {
    expect(ids).toContain(f['source-id']);
    expect(['asc', 'desc']).toContain(f.direction);
    expect(['nulls-first', 'nulls-last']).toContain(f['null-order']);
  }
  expect(meta.snapshots ?? []).toEqual([]);
  expect([undefined, null, -1]).toContain(meta['current-snapshot-id']);
  expect(meta.properties ?? {}).not.toHaveProperty('format-version');
}

describe('metadata.json written by CreateTable', () => {
  it('maps every primitive type, assigns field ids 1…N, and reads back with icebird and iceberg-js', async ({ server: t, s3tables: s3t }) => {
    const types = ['boolean', 'int', 'long', 'float', 'double', 'decimal(10,2)', 'date', 'time', 'timestamp', 'timestamptz', 'string', 'uuid', 'fixed[16]', 'binary'];
    const fields = types.map((type, i) => ({ name: `c${i}`, type, required: i === 0 }));
    const { meta, warehouse, createdAt } = await createAndRead(t, s3t, { schema: { fields } });
    checkSpecV2(meta, warehouse);
    expect(meta['format-version']).toBe(2);
    expect(meta['last-updated-ms']).toBe(createdAt.getTime());
    expect(meta['current-snapshot-id']).toBe(-1);
    expect(meta['last-partition-id']).toBe(999);
    expect(meta['partition-specs']).toEqual([{ 'spec-id': 0, fields: [] }]);
    expect(meta['sort-orders']).toEqual([{ 'order-id': 0, fields: [] }]);
    const schema = getCurrentSchema(meta as unknown as TableMetadata)!;
    expect(schema.fields.map((f) => f.id)).toEqual(types.map((_, i) => i + 1));
    expect(schema.fields.map((f) => f.required)).toEqual(types.map((_, i) => i === 0));
    for (const [i, f] of schema.fields.entries()) expect(typesEqual(f.type as string, types[i]!)).toBe(true);
    expect(parseDecimalType(schema.fields[5]!.type as string)).toEqual({ precision: 10, scale: 2 });
    expect(parseFixedType(schema.fields[12]!.type as string)).toEqual({ length: 16 });
    expect(meta['last-column-id']).toBe(types.length);
    // A fresh table has no snapshot: the reader says so rather than failing to parse.
    await expect(icebergRead({ tableUrl: `${t.endpoint}/${warehouse}`, metadata: meta as never })).rejects.toThrow(/snapshot/i);
  });

  it('keeps ids given in the request and fills the others', async ({ server: t, s3tables: s3t }) => {
    const { meta } = await createAndRead(t, s3t, {
      schema: { fields: [{ name: 'a', type: 'int', id: 5 }, { name: 'b', type: 'STRING' }, { name: 'c', type: 'long', id: 1 }, { name: 'd', type: 'date' }] },
    });
    const fields = meta.schemas[0].fields;
    expect(fields.map((f: Json) => [f.name, f.id, f.type])).toEqual([['a', 5, 'int'], ['b', 2, 'string'], ['c', 1, 'long'], ['d', 3, 'date']]);
    expect(meta['last-column-id']).toBe(5);
  });

  it('writes nested schemaV2 types, counting nested ids in last-column-id, with identifier fields', async ({ server: t, s3tables: s3t }) => {
    const { meta, warehouse } = await createAndRead(t, s3t, {
      schemaV2: {
        type: 'struct',
        schemaId: 0,
        identifierFieldIds: [1],
        fields: [
          { id: 1, name: 'id', type: 'long', required: true },
          {
            id: 2, name: 'address', required: false, doc: 'postal address',
            type: { type: 'struct', fields: [{ id: 5, name: 'street', type: 'string', required: false }, { id: 6, name: 'zip', type: 'int', required: true }] },
          },
          { id: 3, name: 'tags', required: false, type: { type: 'list', 'element-id': 7, element: 'string', 'element-required': true } },
          {
            id: 4, name: 'attrs', required: false,
            type: { type: 'map', 'key-id': 8, key: 'string', 'value-id': 9, value: { type: 'struct', fields: [{ id: 10, name: 'v', type: 'decimal(38, 10)', required: false }] }, 'value-required': false },
          },
        ],
      },
    });
    checkSpecV2(meta, warehouse);
    expect(meta['last-column-id']).toBe(10);
    const schema = meta.schemas[0];
    expect(schema['identifier-field-ids']).toEqual([1]);
    expect(schema.fields[1]).toEqual({
      id: 2, name: 'address', required: false, doc: 'postal address',
      type: { type: 'struct', fields: [{ id: 5, name: 'street', required: false, type: 'string' }, { id: 6, name: 'zip', required: true, type: 'int' }] },
    });
    expect(schema.fields[2].type).toEqual({ type: 'list', 'element-id': 7, element: 'string', 'element-required': true });
    expect(schema.fields[3].type.value.fields[0].type).toBe('decimal(38, 10)');
  });

  it('writes the partition spec (field ids from 1000) and the sort order with their ids, and the properties', async ({ server: t, s3tables: s3t }) => {
    const { meta, warehouse } = await createAndRead(t, s3t, {
      schema: { fields: [{ name: 'id', type: 'long', required: true }, { name: 'ts', type: 'timestamptz' }, { name: 'region', type: 'string' }] },
      partitionSpec: {
        fields: [
          { sourceId: 2, transform: 'day', name: 'ts_day' },
          { sourceId: 3, transform: 'bucket[16]', name: 'region_bucket' },
          { sourceId: 3, transform: 'identity', name: 'region' },
        ],
      },
      writeOrder: { orderId: 1, fields: [{ sourceId: 1, transform: 'identity', direction: 'asc', nullOrder: 'nulls-first' }] },
      properties: { 'write.parquet.compression-codec': 'zstd' },
    });
    checkSpecV2(meta, warehouse);
    expect(meta['partition-specs']).toEqual([
      {
        'spec-id': 0,
        fields: [
          { name: 'ts_day', transform: 'day', 'source-id': 2, 'field-id': 1000 },
          { name: 'region_bucket', transform: 'bucket[16]', 'source-id': 3, 'field-id': 1001 },
          { name: 'region', transform: 'identity', 'source-id': 3, 'field-id': 1002 },
        ],
      },
    ]);
    expect(meta['last-partition-id']).toBe(1002);
    expect(meta['default-sort-order-id']).toBe(1);
    expect(meta['sort-orders']).toEqual([
      { 'order-id': 1, fields: [{ transform: 'identity', 'source-id': 1, direction: 'asc', 'null-order': 'nulls-first' }] },
    ]);
    expect(meta.properties).toEqual({ 'write.parquet.compression-codec': 'zstd' });
  });

  it('writes format version 3 when the properties ask for it, with its v3 fields and types', async ({ server: t, s3tables: s3t }) => {
    const { meta } = await createAndRead(t, s3t, {
      schema: { fields: [{ name: 'id', type: 'long', required: true }, { name: 'at', type: 'timestamp_ns' }] },
      properties: { 'format-version': '3' },
    });
    expect(meta['format-version']).toBe(3);
    expect(meta['next-row-id']).toBe(0);
    expect(meta.schemas[0].fields[1].type).toBe('timestamp_ns');
    expect(meta.properties).toEqual({});
  });

  it('writes a metadata.json larger than a stored row (over 128 KiB) as well as a small one', async ({ server: t, s3tables: s3t }) => {
    // Small documents land in the transaction that creates the table; larger ones take the
    // streaming write first. Both must read back whole.
    const fields = Array.from({ length: 1500 }, (_, i) => ({ name: `column_${String(i).padStart(4, '0')}_${'x'.repeat(60)}`, type: 'string' }));
    const { meta } = await createAndRead(t, s3t, { schema: { fields } });
    expect(JSON.stringify(meta).length).toBeGreaterThan(128 * 1024);
    expect(meta.schemas[0].fields).toHaveLength(1500);
    expect(meta['last-column-id']).toBe(1500);
  });

  it('writes metadata for an empty field list too', async ({ server: t, s3tables: s3t }) => {
    const { meta, warehouse } = await createAndRead(t, s3t, { schema: { fields: [] } });
    checkSpecV2(meta, warehouse);
    expect(meta['last-column-id']).toBe(0);
    expect(meta.schemas[0].fields).toEqual([]);
  });

  it('refuses metadata AWS would refuse, creating no table and no warehouse', async ({ server: t, s3tables: s3t }) => {
    const bucketArn = await makeBucket(s3t);
    const namespace = await makeNamespace(s3t, bucketArn);
    const before = warehouseBuckets(t).length;
    const id = { name: 'id', type: 'long', required: true };
    const cases: [string, IcebergMetadata][] = [
      ['both schemas', { schema: { fields: [id] }, schemaV2: { type: 'struct', fields: [{ id: 1, name: 'id', type: 'long', required: true }] } }],
      ['unknown type', { schema: { fields: [{ name: 'x', type: 'varchar(10)' }] } }],
      ['nested type in schema', { schema: { fields: [{ name: 'x', type: 'list<string>' }] } }],
      ['duplicate name', { schema: { fields: [id, { name: 'id', type: 'int' }] } }],
      ['duplicate id', { schema: { fields: [{ ...id, id: 1 }, { name: 'y', type: 'int', id: 1 }] } }],
      ['decimal precision', { schema: { fields: [{ name: 'x', type: 'decimal(39,2)' }] } }],
      ['v3 type in v2', { schema: { fields: [{ name: 'x', type: 'variant' }] } }],
      ['unknown partition source', { schema: { fields: [id] }, partitionSpec: { fields: [{ sourceId: 9, transform: 'identity', name: 'p' }] } }],
      ['transform for the type', { schema: { fields: [{ name: 's', type: 'string' }] }, partitionSpec: { fields: [{ sourceId: 1, transform: 'year', name: 'p' }] } }],
      ['unknown transform', { schema: { fields: [id] }, partitionSpec: { fields: [{ sourceId: 1, transform: 'week', name: 'p' }] } }],
      ['sorted order 0', { schema: { fields: [id] }, writeOrder: { orderId: 0, fields: [{ sourceId: 1, transform: 'identity', direction: 'asc', nullOrder: 'nulls-last' }] } }],
      ['optional identifier', { schemaV2: { type: 'struct', identifierFieldIds: [1], fields: [{ id: 1, name: 'id', type: 'long', required: false }] } }],
      ['duplicate nested id', { schemaV2: { type: 'struct', fields: [{ id: 1, name: 'l', required: true, type: { type: 'list', 'element-id': 1, element: 'int', 'element-required': true } }] } }],
      ['format version 1', { schema: { fields: [id] }, properties: { 'format-version': '1' } }],
    ];
    for (const [label, iceberg] of cases) {
      const err = await expectError(
        s3t.send(new CreateTableCommand({ tableBucketARN: bucketArn, namespace, name: 'refused', format: 'ICEBERG', metadata: { iceberg } })),
        'BadRequestException',
        400,
      );
      expect(err.message, label).toMatch(/^Invalid Iceberg metadata: /);
    }
    expect((await s3t.send(new ListTablesCommand({ tableBucketARN: bucketArn }))).tables).toEqual([]);
    expect(warehouseBuckets(t)).toHaveLength(before);
  });
});
