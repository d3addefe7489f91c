/**
 * Helpers shared by the maintenance tests: Overcast's own endpoints (advance the clock, run
 * maintenance now) over plain HTTP, Iceberg tables with data written by the project's writer and
 * committed through the REST catalog, the table's warehouse listed through the S3 API, and icebird
 * reading a table as any engine would.
 */
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import {
  GetTableCommand,
  GetTableMaintenanceJobStatusCommand,
  PutTableMaintenanceConfigurationCommand,
  type S3TablesClient,
} from '@aws-sdk/client-s3tables';
import { icebergRead } from 'icebird';
import { expect } from 'vitest';
import { appendRows } from '../../src/iceberg/append.js';
import type { FileIO } from '../../src/iceberg/file-io.js';
import { parseIcebergJson } from '../../src/iceberg/json.js';
import type { TableMetadata } from '../../src/iceberg/types.js';
import { commitSnapshot, createIcebergTable, type IcebergTable } from '../helpers/iceberg-table.js';
import type { TestServer } from '../helpers/server.js';

export type Row = Record<string, unknown>;

export const FIELDS = [
  { id: 1, name: 'id', type: 'long', required: true },
  { id: 2, name: 'category', type: 'string', required: false },
  { id: 3, name: 'amount', type: 'double', required: false },
];

export const rowsOf = (from: number, to: number, category = (i: number) => `c${i % 3}`): Row[] =>
  Array.from({ length: to - from }, (_, k) => {
    const i = from + k;
    return { id: BigInt(i), category: category(i), amount: i % 5 === 0 ? null : i * 1.5 };
  });

export const byId = (a: Row, b: Row) => Number(a.id) - Number(b.id);

/** POST to one of Overcast's own endpoints; the JSON answer. */
export async function admin(t: TestServer, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${t.endpoint}/_overcast/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

export async function advance(t: TestServer, duration: string): Promise<void> {
  const res = await admin(t, 'clock', { advance: duration });
  expect(res.status).toBe(200);
}

/** Runs maintenance now (one table, or all); the report. */
export async function runMaintenance(t: TestServer, tableArn?: string): Promise<any> {
  const res = await admin(t, 'maintenance/run', tableArn ? { tableArn } : {});
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json;
}

/** The table's job reports of a run report. */
export function jobsOf(report: any, tableArn: string): Record<string, any> {
  const table = report.tables.find((x: any) => x.tableArn === tableArn);
  expect(table, `table ${tableArn} in the run`).toBeDefined();
  return table.jobs;
}

export interface DataTable extends IcebergTable {
  arn: string;
}

/** A table with the test schema (optionally partitioned by category) and `appends` commits of `perAppend` rows. */
export async function tableWithData(
  t: TestServer,
  io: FileIO,
  s3t: S3TablesClient,
  options: { appends: number; perAppend?: number; partitioned?: boolean; properties?: Record<string, string>; compaction?: boolean; writeOrder?: object } = {
    appends: 1,
  },
): Promise<{ table: DataTable; rows: Row[] }> {
  const created = await createIcebergTable(io, s3t, {
    schemaV2: { type: 'struct', fields: FIELDS },
    ...(options.partitioned ? { partitionSpec: { fields: [{ sourceId: 2, transform: 'identity', name: 'category' }] } } : {}),
    ...(options.writeOrder ? { writeOrder: options.writeOrder } : {}),
    ...(options.properties ? { properties: options.properties } : {}),
  });
  const arn = (await s3t.send(new GetTableCommand(created.id))).tableARN!;
  if (options.compaction === false) {
    await s3t.send(new PutTableMaintenanceConfigurationCommand({ ...created.id, type: 'icebergCompaction', value: { status: 'disabled' } }));
  }
  let table: DataTable = { ...created, arn };
  const per = options.perAppend ?? 4;
  const rows: Row[] = [];
  for (let i = 0; i < options.appends; i++) {
    const batch = rowsOf(i * per, (i + 1) * per);
    table = await append(t, io, table, batch);
    rows.push(...batch);
  }
  return { table, rows };
}

export async function append(t: TestServer, io: FileIO, table: DataTable, rows: Row[]): Promise<DataTable> {
  const result = await appendRows(io, table.metadata, rows);
  return { ...(await commitSnapshot(t, table, result.snapshot)), arn: table.arn };
}

/** The table's current metadata, read through its pointer. */
export async function reload(io: FileIO, s3t: S3TablesClient, table: DataTable): Promise<DataTable> {
  const got = await s3t.send(new GetTableCommand(table.id));
  const metadata = parseIcebergJson(new TextDecoder().decode(await io.read(got.metadataLocation!))) as TableMetadata;
  return { ...table, metadataLocation: got.metadataLocation!, metadata };
}

/** Rows as icebird reads the table (from its current metadata file). */
export async function icebirdRows(table: DataTable): Promise<Row[]> {
  const rows = (await icebergRead({ tableUrl: table.metadata.location, metadata: table.metadata as never })) as Row[];
  return rows.map((r) => ({ ...r, amount: r.amount ?? null })).sort(byId);
}

/** Every key of a warehouse bucket, listed through the S3 API. */
export async function warehouseKeys(s3: S3Client, location: string): Promise<string[]> {
  const bucket = location.replace(/^s3:\/\//, '');
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    for (const o of page.Contents ?? []) keys.push(o.Key!);
    token = page.NextContinuationToken;
  } while (token);
  return keys.sort();
}

export async function jobStatus(s3t: S3TablesClient, table: DataTable): Promise<Record<string, any>> {
  return (await s3t.send(new GetTableMaintenanceJobStatusCommand(table.id))).status!;
}
