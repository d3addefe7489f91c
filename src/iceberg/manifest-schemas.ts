/**
 * The Avro schemas of manifests (`manifest_entry` with its `data_file` struct) and manifest lists
 * (`manifest_file`) for format versions 2 and 3 (spec, "Manifests" and "Manifest Lists"), defined
 * as Iceberg structs with the spec's field ids and converted by `avro-schema.ts`, so they come out
 * field for field as the Java writer's `V2Metadata`/`V3Metadata` schemas: `data_file` is record
 * `r2`, the partition tuple `r102` (one optional field per partition field, typed by the
 * transform's result), metric maps arrays of `k117_v118`… records.
 */
import type { NestedField } from './types.js';
import { structToAvro } from './avro-schema.js';
import type { AvroSchemaJson } from './avro.js';
import type { PartitionTypeField } from './model.js';

const req = (id: number, name: string, type: NestedField['type']): NestedField => ({ id, name, required: true, type });
const opt = (id: number, name: string, type: NestedField['type']): NestedField => ({ id, name, required: false, type });
const intToLong = (keyId: number, valueId: number, valueType = 'long'): NestedField['type'] => ({
  type: 'map',
  'key-id': keyId,
  key: 'int',
  'value-id': valueId,
  value: valueType,
  'value-required': true,
});
const listOf = (elementId: number, element: NestedField['type']): NestedField['type'] => ({
  type: 'list',
  'element-id': elementId,
  element,
  'element-required': true,
});

/** Snapshot-id fields: `manifest_entry.snapshot_id` and `manifest_file.added_snapshot_id`. */
export const SNAPSHOT_ID_FIELDS = new Set([1, 503]);

/** The `data_file` struct (field 2) for a partition type. */
function dataFileFields(partition: readonly PartitionTypeField[], formatVersion: number): NestedField[] {
  const partitionStruct = partition.map(({ id, name, type }) => opt(id, name, type));
  const fields: NestedField[] = [
    req(134, 'content', 'int'),
    req(100, 'file_path', 'string'),
    req(101, 'file_format', 'string'),
    req(102, 'partition', { type: 'struct', fields: partitionStruct }),
    req(103, 'record_count', 'long'),
    req(104, 'file_size_in_bytes', 'long'),
    opt(108, 'column_sizes', intToLong(117, 118)),
    opt(109, 'value_counts', intToLong(119, 120)),
    opt(110, 'null_value_counts', intToLong(121, 122)),
    opt(137, 'nan_value_counts', intToLong(138, 139)),
    opt(125, 'lower_bounds', intToLong(126, 127, 'binary')),
    opt(128, 'upper_bounds', intToLong(129, 130, 'binary')),
    opt(131, 'key_metadata', 'binary'),
    opt(132, 'split_offsets', listOf(133, 'long')),
    opt(135, 'equality_ids', listOf(136, 'int')),
    opt(140, 'sort_order_id', 'int'),
  ];
  if (formatVersion >= 3) fields.push(opt(142, 'first_row_id', 'long'));
  fields.push(opt(143, 'referenced_data_file', 'string'));
  if (formatVersion >= 3) fields.push(opt(144, 'content_offset', 'long'), opt(145, 'content_size_in_bytes', 'long'));
  return fields;
}

function manifestEntryFields(partition: readonly PartitionTypeField[], formatVersion: number): NestedField[] {
  return [
    req(0, 'status', 'int'),
    opt(1, 'snapshot_id', 'long'),
    opt(3, 'sequence_number', 'long'),
    opt(4, 'file_sequence_number', 'long'),
    req(2, 'data_file', { type: 'struct', fields: dataFileFields(partition, formatVersion) }),
  ];
}

export function manifestEntrySchema(partition: readonly PartitionTypeField[], formatVersion: number): AvroSchemaJson {
  return structToAvro(manifestEntryFields(partition, formatVersion), 'manifest_entry');
}

function manifestFileFields(formatVersion: number): NestedField[] {
  const summary: NestedField['type'] = {
    type: 'struct',
    fields: [req(509, 'contains_null', 'boolean'), opt(518, 'contains_nan', 'boolean'), opt(510, 'lower_bound', 'binary'), opt(511, 'upper_bound', 'binary')],
  };
  const fields = [
    req(500, 'manifest_path', 'string'),
    req(501, 'manifest_length', 'long'),
    req(502, 'partition_spec_id', 'int'),
    req(517, 'content', 'int'),
    req(515, 'sequence_number', 'long'),
    req(516, 'min_sequence_number', 'long'),
    req(503, 'added_snapshot_id', 'long'),
    req(504, 'added_files_count', 'int'),
    req(505, 'existing_files_count', 'int'),
    req(506, 'deleted_files_count', 'int'),
    req(512, 'added_rows_count', 'long'),
    req(513, 'existing_rows_count', 'long'),
    req(514, 'deleted_rows_count', 'long'),
    opt(507, 'partitions', listOf(508, summary)),
    opt(519, 'key_metadata', 'binary'),
  ];
  if (formatVersion >= 3) fields.push(opt(520, 'first_row_id', 'long'));
  return fields;
}

export function manifestListSchema(formatVersion: number): AvroSchemaJson {
  return structToAvro(manifestFileFields(formatVersion), 'manifest_file');
}
