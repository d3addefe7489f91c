/**
 * The Iceberg table model as JSON carries it (Iceberg table spec, "Appendix C: JSON
 * serialization", format versions 2 and 3): types, schemas, partition specs, sort orders,
 * snapshots, refs, statistics and the table metadata document, with the spec's kebab-case keys,
 * so a metadata.json read from a warehouse or a REST commit body is one of these without
 * mapping. Also the manifest-list and manifest records (spec, "Manifests" and "Manifest Lists")
 * in the snake_case names their Avro schemas use.
 *
 * Snapshot ids are `bigint` everywhere: writers draw them from 63 random bits (pyiceberg and Java
 * XOR the halves of a UUID), beyond a double's 53, so `json.ts` parses and writes them losslessly.
 */

type PrimitiveType = string;

export interface StructType {
  type: 'struct';
  fields: NestedField[];
}

export interface ListType {
  type: 'list';
  'element-id': number;
  element: IcebergType;
  'element-required': boolean;
}

export interface MapType {
  type: 'map';
  'key-id': number;
  key: IcebergType;
  'value-id': number;
  value: IcebergType;
  'value-required': boolean;
}

export type IcebergType = PrimitiveType | StructType | ListType | MapType;

export interface NestedField {
  id: number;
  name: string;
  required: boolean;
  type: IcebergType;
  doc?: string;
  'initial-default'?: unknown;
  'write-default'?: unknown;
}

export interface Schema extends StructType {
  'schema-id': number;
  'identifier-field-ids'?: number[];
}

export interface PartitionField {
  'source-id': number;
  /** v3 multi-argument transforms name several sources. */
  'source-ids'?: number[];
  'field-id': number;
  name: string;
  transform: string;
}

export interface PartitionSpec {
  'spec-id': number;
  fields: PartitionField[];
}

export interface SortField {
  transform: string;
  'source-id': number;
  'source-ids'?: number[];
  direction: 'asc' | 'desc';
  'null-order': 'nulls-first' | 'nulls-last';
}

export interface SortOrder {
  'order-id': number;
  fields: SortField[];
}

export interface Snapshot {
  'snapshot-id': bigint;
  'parent-snapshot-id'?: bigint | null;
  'sequence-number'?: number;
  'timestamp-ms': number;
  'manifest-list': string;
  summary: { operation: 'append' | 'replace' | 'overwrite' | 'delete'; [key: string]: string };
  'schema-id'?: number;
  /** v3 row lineage. */
  'first-row-id'?: number;
  'added-rows'?: number;
  'key-id'?: string;
}

export interface SnapshotRef {
  'snapshot-id': bigint;
  type: 'branch' | 'tag';
  'min-snapshots-to-keep'?: number;
  'max-snapshot-age-ms'?: number;
  'max-ref-age-ms'?: number;
}

interface BlobMetadata {
  type: string;
  'snapshot-id': bigint;
  'sequence-number': number;
  fields: number[];
  properties?: Record<string, string>;
}

export interface StatisticsFile {
  'snapshot-id': bigint;
  'statistics-path': string;
  'file-size-in-bytes': number;
  'file-footer-size-in-bytes': number;
  'key-metadata'?: string;
  'blob-metadata': BlobMetadata[];
}

export interface PartitionStatisticsFile {
  'snapshot-id': bigint;
  'statistics-path': string;
  'file-size-in-bytes': number;
}

export interface EncryptionKey {
  'key-id': string;
  'encrypted-key-metadata': string;
  'encrypted-by-id'?: string;
  properties?: Record<string, string>;
}

export interface SnapshotLogEntry {
  'snapshot-id': bigint;
  'timestamp-ms': number;
}

interface MetadataLogEntry {
  'metadata-file': string;
  'timestamp-ms': number;
}

export interface TableMetadata {
  'format-version': number;
  'table-uuid': string;
  location: string;
  'last-sequence-number': number;
  'last-updated-ms': number;
  'last-column-id': number;
  schemas: Schema[];
  'current-schema-id': number;
  'partition-specs': PartitionSpec[];
  'default-spec-id': number;
  'last-partition-id': number;
  properties: Record<string, string>;
  /** -1 (v1/v2 writers) or null (v3) when the table has no snapshot. */
  'current-snapshot-id'?: bigint | null;
  snapshots: Snapshot[];
  'snapshot-log': SnapshotLogEntry[];
  'metadata-log': MetadataLogEntry[];
  'sort-orders': SortOrder[];
  'default-sort-order-id': number;
  refs: Record<string, SnapshotRef>;
  statistics: StatisticsFile[];
  'partition-statistics': PartitionStatisticsFile[];
  /** v3 row lineage. */
  'next-row-id'?: number;
  'encryption-keys'?: EncryptionKey[];
}

/** A manifest list entry (Avro record `manifest_file`). */
export interface ManifestFile {
  manifest_path: string;
  manifest_length: number;
  partition_spec_id: number;
  /** 0 data, 1 deletes. */
  content: 0 | 1;
  sequence_number: number;
  min_sequence_number: number;
  added_snapshot_id: bigint;
  added_files_count: number;
  existing_files_count: number;
  deleted_files_count: number;
  added_rows_count: number;
  existing_rows_count: number;
  deleted_rows_count: number;
  partitions?: FieldSummary[] | null;
  key_metadata?: Uint8Array | null;
  /** v3. */
  first_row_id?: number | null;
}

export interface FieldSummary {
  contains_null: boolean;
  contains_nan?: boolean | null;
  lower_bound?: Uint8Array | null;
  upper_bound?: Uint8Array | null;
}

/** A data or delete file as a manifest entry describes it (Avro record `data_file`). */
export interface DataFile {
  /** 0 data, 1 position deletes, 2 equality deletes. */
  content: 0 | 1 | 2;
  file_path: string;
  file_format: 'PARQUET' | 'AVRO' | 'ORC' | 'PUFFIN';
  /** Partition values by partition field name, in the spec's order. */
  partition: Record<string, unknown>;
  record_count: number;
  file_size_in_bytes: number;
  column_sizes?: Map<number, number> | null;
  value_counts?: Map<number, number> | null;
  null_value_counts?: Map<number, number> | null;
  nan_value_counts?: Map<number, number> | null;
  lower_bounds?: Map<number, Uint8Array> | null;
  upper_bounds?: Map<number, Uint8Array> | null;
  key_metadata?: Uint8Array | null;
  split_offsets?: number[] | null;
  equality_ids?: number[] | null;
  sort_order_id?: number | null;
  /** v3. */
  first_row_id?: number | null;
  referenced_data_file?: string | null;
  content_offset?: number | null;
  content_size_in_bytes?: number | null;
}

/** A manifest entry (Avro record `manifest_entry`); null numbers are inherited from the manifest list. */
export interface ManifestEntry {
  /** 0 existing, 1 added, 2 deleted. */
  status: 0 | 1 | 2;
  snapshot_id: bigint | null;
  sequence_number: number | null;
  file_sequence_number: number | null;
  data_file: DataFile;
}
