/**
 * The Iceberg metadata CreateTable writes when the request carries `metadata.iceberg`: the SDK's
 * shapes (flat `schema` with field ids assigned 1…N where omitted, or nested `schemaV2`, the
 * camel-cased partition spec and write order) turned into Iceberg JSON and planned by the Iceberg
 * library (src/iceberg/new-table.ts), which the REST catalog's createTable uses too. A problem is
 * a 400 BadRequestException "Invalid Iceberg metadata: …" before anything is written.
 */
import type * as S3T from '@aws-sdk/client-s3tables';
import { planNewTable, type NewTablePlan } from '../../iceberg/new-table.js';
import { InvalidMetadataError } from '../../iceberg/schema.js';
import { s3tErrors } from './errors.js';

export type MetadataPlan = NewTablePlan;

const invalid = (message: string) => s3tErrors.badRequest(`Invalid Iceberg metadata: ${message}`);

/** The flat `schema` (primitive fields, ids optional) as an Iceberg struct with ids 1…N filled in. */
function flatSchema(flat: S3T.SchemaField[]): Record<string, unknown> {
  const given = new Set<number>();
  for (const f of flat) {
    if (f.id === undefined) continue;
    if (!Number.isInteger(f.id) || f.id < 0) throw invalid(`field '${f.name}' must have a non-negative integer id`);
    if (given.has(f.id)) throw invalid(`field id ${f.id} is used more than once`);
    given.add(f.id);
  }
  let next = 1;
  const fields = flat.map((f, i) => {
    const name = f.name ?? '';
    if (name === '') throw invalid(`field ${i + 1} of schema needs a name`);
    let id = f.id;
    if (id === undefined) {
      while (given.has(next)) next++;
      id = next++;
    }
    const rawType = f.type ?? '';
    if (/[<>{}]/.test(rawType) || /^(struct|list|map)\b/i.test(rawType.trim())) {
      throw invalid(`type '${rawType}' of field '${name}' is not a primitive type; use schemaV2 for nested types`);
    }
    return { id, name, required: f.required ?? false, type: rawType };
  });
  return { type: 'struct', 'schema-id': 0, fields };
}

/** Validates `metadata.iceberg` and computes everything the metadata file holds except its location. */
export function planTableMetadata(iceberg: S3T.IcebergMetadata): MetadataPlan {
  if (iceberg.schema && iceberg.schemaV2) throw invalid('specify either schema or schemaV2, not both');
  const v2 = iceberg.schemaV2;
  const schema = v2
    ? {
        type: 'struct',
        'schema-id': v2.schemaId ?? 0,
        'identifier-field-ids': v2.identifierFieldIds,
        fields: v2.fields,
      }
    : flatSchema(iceberg.schema?.fields ?? []);
  const spec = iceberg.partitionSpec;
  const order = iceberg.writeOrder;
  try {
    return planNewTable({
      schema,
      'partition-spec': spec && {
        'spec-id': spec.specId ?? 0,
        fields: (spec.fields ?? []).map((p) => ({
          'source-id': p.sourceId,
          transform: p.transform,
          name: p.name,
          'field-id': p.fieldId,
        })),
      },
      'write-order': order && {
        'order-id': order.orderId,
        fields: (order.fields ?? []).map((s) => ({
          'source-id': s.sourceId,
          transform: s.transform,
          direction: s.direction,
          'null-order': s.nullOrder,
        })),
      },
      properties: iceberg.properties,
    });
  } catch (err) {
    if (err instanceof InvalidMetadataError) throw invalid(err.message);
    throw err;
  }
}
