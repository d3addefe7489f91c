/**
 * The metadata of a new table (format version 2, or 3 when `properties["format-version"]` asks):
 * the checked schema, partition spec (ids from 1000, 999 when unpartitioned) and sort order with
 * their ids, the properties (without `format-version`, which the document carries itself) and
 * every field the spec's "Table Metadata Fields" requires, laid out as the Java reference writes
 * it. `planNewTable` checks everything before anything is written; `newTableMetadata` makes the
 * document once the location is known. S3 Tables CreateTable and the REST catalog's createTable
 * both build their first metadata.json here.
 */
import { randomUUID } from 'node:crypto';
import {
  checkPartitionFields,
  checkSchema,
  checkSortFields,
  checkSortOrderId,
  formatVersionOf,
  InvalidMetadataError,
  PARTITION_ID_BASE,
} from './schema.js';
import type { PartitionSpec, Schema, SortOrder, TableMetadata } from './types.js';

/** A create request in Iceberg JSON terms (the REST CreateTableRequest's members). */
interface NewTableRequest {
  schema: unknown;
  'partition-spec'?: unknown;
  'write-order'?: unknown;
  properties?: Record<string, string>;
}

export interface NewTablePlan {
  formatVersion: number;
  schema: Schema;
  lastColumnId: number;
  partitionSpec: PartitionSpec;
  lastPartitionId: number;
  sortOrder: SortOrder;
  properties: Record<string, string>;
}

function objectOrUndefined(value: unknown, what: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw new InvalidMetadataError(`the ${what} must be an object`);
  return value as Record<string, unknown>;
}

export function planNewTable(request: NewTableRequest): NewTablePlan {
  const properties = request.properties ?? {};
  for (const [k, v] of Object.entries(properties)) {
    if (typeof v !== 'string') throw new InvalidMetadataError(`the value of property '${k}' must be a string`);
  }
  const formatVersion = formatVersionOf(properties);
  const checked = checkSchema(request.schema, formatVersion);

  const spec = objectOrUndefined(request['partition-spec'], 'partition spec');
  const specId = spec?.['spec-id'] ?? 0;
  if (typeof specId !== 'number' || !Number.isInteger(specId) || specId < 0) {
    throw new InvalidMetadataError('spec-id must be a non-negative integer');
  }
  const partitionFields = checkPartitionFields(spec?.fields, checked);
  const lastPartitionId = Math.max(PARTITION_ID_BASE - 1, ...partitionFields.map((f) => f['field-id']));

  const order = objectOrUndefined(request['write-order'], 'write order');
  const sortFields = checkSortFields(order?.fields, checked);
  const orderId = checkSortOrderId(order?.['order-id'], sortFields.length);

  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(properties)) if (k !== 'format-version') kept[k] = v;
  return {
    formatVersion,
    schema: checked.schema,
    lastColumnId: checked.highestFieldId,
    partitionSpec: { 'spec-id': specId, fields: partitionFields },
    lastPartitionId,
    sortOrder: { 'order-id': orderId, fields: sortFields },
    properties: kept,
  };
}

/** The metadata document of a new table at `location`, created at `nowMs`. */
export function newTableMetadata(plan: NewTablePlan, location: string, nowMs: number, tableUuid = randomUUID()): TableMetadata {
  const doc: TableMetadata = {
    'format-version': plan.formatVersion,
    'table-uuid': tableUuid,
    location,
    'last-sequence-number': 0,
    'last-updated-ms': nowMs,
    'last-column-id': plan.lastColumnId,
    'current-schema-id': plan.schema['schema-id'],
    schemas: [plan.schema],
    'default-spec-id': plan.partitionSpec['spec-id'],
    'partition-specs': [plan.partitionSpec],
    'last-partition-id': plan.lastPartitionId,
    'default-sort-order-id': plan.sortOrder['order-id'],
    'sort-orders': [plan.sortOrder],
    properties: plan.properties,
    // The Java reference writes -1 for "no current snapshot" up to v2 and null from v3.
    'current-snapshot-id': plan.formatVersion >= 3 ? null : -1n,
    refs: {},
    snapshots: [],
    statistics: [],
    'partition-statistics': [],
    'snapshot-log': [],
    'metadata-log': [],
  };
  if (plan.formatVersion >= 3) doc['next-row-id'] = 0;
  return doc;
}
