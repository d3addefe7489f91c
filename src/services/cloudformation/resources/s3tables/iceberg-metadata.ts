/**
 * The `IcebergMetadata` of an AWS::S3Tables::Table mapped onto CreateTable's `metadata.iceberg`
 * member by member, so a template yields the same metadata.json as the API: schema (v1 field list
 * or v2 with nested types), partition spec, sort order and table properties.
 */
import type * as S3T from '@aws-sdk/client-s3tables';
import type {
  TableIcebergMetadata,
  TableIcebergPartitionSpec,
  TableIcebergSchema,
  TableIcebergSchemaV2,
  TableIcebergSortOrder,
} from '../../spec/property-types.js';
import { compact } from './properties.js';

function schemaV1(s: TableIcebergSchema | undefined): S3T.IcebergSchema | undefined {
  if (!s) return undefined;
  return { fields: s.SchemaFieldList.map((f) => compact({ id: f.Id, name: f.Name, type: f.Type, required: f.Required })) };
}

function schemaV2(s: TableIcebergSchemaV2 | undefined): S3T.IcebergSchemaV2 | undefined {
  if (!s) return undefined;
  return compact({
    type: s.SchemaV2FieldType,
    fields: s.SchemaV2FieldList.map((f) =>
      // A nested type (struct, list, map) arrives as a JSON object and stays one.
      compact({ id: f.Id, name: f.Name, type: f.Type as S3T.SchemaV2Field['type'], required: f.Required, doc: f.Doc }),
    ),
    schemaId: s.SchemaId,
    identifierFieldIds: s.IdentifierFieldIds,
  });
}

function partitionSpec(p: TableIcebergPartitionSpec | undefined): S3T.IcebergPartitionSpec | undefined {
  if (!p) return undefined;
  return compact({
    fields: p.Fields.map((f) => compact({ sourceId: f.SourceId, transform: f.Transform, name: f.Name, fieldId: f.FieldId })),
    specId: p.SpecId,
  });
}

function sortOrder(o: TableIcebergSortOrder | undefined): S3T.IcebergSortOrder | undefined {
  if (!o) return undefined;
  return {
    // The schema's documented default order id is 1 (0 means unsorted).
    orderId: o.OrderId ?? 1,
    fields: o.Fields.map((f) => ({ sourceId: f.SourceId, transform: f.Transform, direction: f.Direction, nullOrder: f.NullOrder })),
  };
}

export function icebergMetadata(m: TableIcebergMetadata | undefined): S3T.IcebergMetadata | undefined {
  if (!m) return undefined;
  return compact({
    schema: schemaV1(m.IcebergSchema),
    schemaV2: schemaV2(m.IcebergSchemaV2),
    partitionSpec: partitionSpec(m.IcebergPartitionSpec),
    writeOrder: sortOrder(m.IcebergSortOrder),
    properties: m.TableProperties,
  });
}
