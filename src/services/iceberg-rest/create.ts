/**
 * createTable of the REST catalog (`POST …/namespaces/{namespace}/tables`): the CreateTableRequest
 * checked as S3 Tables checks CreateTable (names, then the Iceberg schema, spec and order), and
 * the table made by the same S3 Tables function with the same first metadata.json, its location
 * the table's warehouse. S3 Tables refuses `stage-create` (so engines cannot CTAS) and chooses
 * the location itself; the permissive mode stages the table in a warehouse of its own, which the
 * `assert-create` commit that follows adopts (commit.ts).
 */
import type * as S3T from '@aws-sdk/client-s3tables';
import { planNewTable } from '../../iceberg/new-table.js';
import type { TableMetadata } from '../../iceberg/types.js';
import { checkCreateTable, createTableWithPlan, stageTable } from '../s3tables/tables.js';
import { iceErrors, translate } from './errors.js';
import type { Warehouse } from './warehouse.js';

function stringMap(value: unknown, what: string): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw iceErrors.badRequest(`Invalid ${what}: a map of strings is required`);
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw iceErrors.badRequest(`Invalid ${what}: the value of '${k}' must be a string`);
  }
  return value as Record<string, string>;
}

export async function createTableFromRequest(
  w: Warehouse,
  namespace: string,
  body: unknown,
): Promise<{ metadataLocation: string | null; metadata: TableMetadata }> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw iceErrors.badRequest('Invalid create table request: the body must be an object');
  const o = body as Record<string, unknown>;
  if (typeof o.name !== 'string' || o.name === '') throw iceErrors.badRequest('Invalid table name: null');
  if (o.schema === undefined || o.schema === null) throw iceErrors.badRequest('Invalid schema: null');
  const staged = o['stage-create'] === true;
  if (staged && !w.ctx.rt.config.icebergPermissive) {
    throw iceErrors.badRequest('S3 Tables does not support staged table creation (stage-create).');
  }
  if (o.location !== undefined && o.location !== null) {
    throw iceErrors.badRequest('S3 Tables sets the location of a table (its warehouse); a create request cannot specify one.');
  }
  const properties = stringMap(o.properties, 'table properties');
  const name = o.name;
  const subject = { namespace, table: name };
  const input: S3T.CreateTableRequest = { tableBucketARN: w.arn, namespace, name, format: 'ICEBERG' };
  try {
    checkCreateTable(input);
    const plan = planNewTable({ schema: o.schema, 'partition-spec': o['partition-spec'], 'write-order': o['write-order'], properties });
    if (staged) return { metadataLocation: null, metadata: stageTable(w.ctx, input, plan) };
    const { row, metadata } = await createTableWithPlan(w.ctx, input, plan);
    return { metadataLocation: row.metadata_location!, metadata: metadata! };
  } catch (err) {
    throw translate(err, subject);
  }
}
