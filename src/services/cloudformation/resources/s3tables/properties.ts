/**
 * Shared pieces of the AWS::S3Tables::* providers: CloudFormation property shapes mapped onto the
 * S3 Tables API's (capitalised enums lowered, numbers and booleans from strings, `Tags` lists to
 * maps, resource policies serialised), tag diffs applied with TagResource/UntagResource, and the Iceberg metadata of a Table mapped onto CreateTable's
 * `metadata.iceberg` member by member, so the template yields the same metadata.json as the API.
 */
import type * as S3T from '@aws-sdk/client-s3tables';
import type { Ctx } from '../../../../server/runtime.js';
import { tagResource, untagResource } from '../../../s3tables/provider.js';
import { bool, num, str, tagMap } from '../property-schema.js';

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}

function list(v: unknown): Obj[] {
  return Array.isArray(v) ? (v.filter((x) => obj(x)) as Obj[]) : [];
}

/** Drops undefined members so inputs look like what an SDK would send. */
export function compact<T extends Obj>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export function lower(v: unknown): string | undefined {
  return str(v)?.toLowerCase();
}

export function encryption(v: unknown): S3T.EncryptionConfiguration | undefined {
  const e = obj(v);
  if (!e) return undefined;
  return compact({ sseAlgorithm: str(e.SSEAlgorithm) as S3T.SSEAlgorithm, kmsKeyArn: str(e.KMSKeyArn) });
}

export function storageClass(v: unknown): S3T.StorageClassConfiguration | undefined {
  const s = obj(v);
  if (!s || s.StorageClass === undefined) return undefined;
  return { storageClass: str(s.StorageClass) as S3T.StorageClass };
}

/** Tag changes between two `Tags` property values, applied to the resource's ARN. */
export function applyTagChanges(ctx: Ctx, arn: string, before: unknown, after: unknown): void {
  const old = tagMap(before);
  const now = tagMap(after);
  const removed = Object.keys(old).filter((k) => !(k in now));
  const changed = Object.fromEntries(Object.entries(now).filter(([k, v]) => old[k] !== v));
  if (removed.length) untagResource(ctx, { resourceArn: arn, tagKeys: removed });
  if (Object.keys(changed).length) tagResource(ctx, { resourceArn: arn, tags: changed });
}

export function tagsInput(v: unknown): Record<string, string> | undefined {
  const tags = tagMap(v);
  return Object.keys(tags).length ? tags : undefined;
}

function schemaV1(v: unknown): S3T.IcebergSchema | undefined {
  const s = obj(v);
  if (!s) return undefined;
  return {
    fields: list(s.SchemaFieldList).map((f) =>
      compact({ id: num(f.Id), name: str(f.Name), type: str(f.Type), required: bool(f.Required) }),
    ) as S3T.SchemaField[],
  };
}

function schemaV2(v: unknown): S3T.IcebergSchemaV2 | undefined {
  const s = obj(v);
  if (!s) return undefined;
  return compact({
    type: str(s.SchemaV2FieldType) as S3T.SchemaV2FieldType,
    fields: list(s.SchemaV2FieldList).map((f) =>
      compact({
        id: num(f.Id),
        name: str(f.Name),
        // A nested type (struct, list, map) arrives as a JSON object and stays one.
        type: obj(f.Type) ?? str(f.Type),
        required: bool(f.Required),
        doc: str(f.Doc),
      }),
    ) as S3T.SchemaV2Field[],
    schemaId: num(s.SchemaId),
    identifierFieldIds: Array.isArray(s.IdentifierFieldIds) ? s.IdentifierFieldIds.map((n) => num(n)!) : undefined,
  });
}

function partitionSpec(v: unknown): S3T.IcebergPartitionSpec | undefined {
  const p = obj(v);
  if (!p) return undefined;
  return compact({
    fields: list(p.Fields).map((f) =>
      compact({ sourceId: num(f.SourceId), transform: str(f.Transform), name: str(f.Name), fieldId: num(f.FieldId) }),
    ) as S3T.IcebergPartitionField[],
    specId: num(p.SpecId),
  });
}

function sortOrder(v: unknown): S3T.IcebergSortOrder | undefined {
  const o = obj(v);
  if (!o) return undefined;
  return {
    // The schema's documented default order id is 1 (0 means unsorted).
    orderId: num(o.OrderId) ?? 1,
    fields: list(o.Fields).map((f) => ({
      sourceId: num(f.SourceId),
      transform: str(f.Transform),
      direction: str(f.Direction) as S3T.IcebergSortDirection,
      nullOrder: str(f.NullOrder) as S3T.IcebergNullOrder,
    })),
  };
}

/** `IcebergMetadata` of an AWS::S3Tables::Table as CreateTable's `metadata.iceberg`. */
export function icebergMetadata(v: unknown): S3T.IcebergMetadata | undefined {
  const m = obj(v);
  if (!m) return undefined;
  const props = obj(m.TableProperties);
  return compact({
    schema: schemaV1(m.IcebergSchema),
    schemaV2: schemaV2(m.IcebergSchemaV2),
    partitionSpec: partitionSpec(m.IcebergPartitionSpec),
    writeOrder: sortOrder(m.IcebergSortOrder),
    properties: props ? Object.fromEntries(Object.entries(props).map(([k, val]) => [k, str(val) ?? ''])) : undefined,
  });
}
