/**
 * Turning newly written data and delete files into a snapshot, as the Java library's fast append
 * and row delta do (`SnapshotProducer`, `SnapshotSummary`): one manifest per partition spec and
 * content (entries ADDED with the snapshot id, sequence numbers left null to inherit), a manifest
 * list carrying the branch head's manifests after the new ones, and the `Snapshot` for a REST
 * `add-snapshot` update — a 63-bit random id, the parent on the branch, sequence number = last + 1,
 * the schema id, Java's summary (added counts, changed partitions, running totals) and the v3
 * row-lineage fields. Nothing is committed here: the caller sends the snapshot to the catalog.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { DataFile, ManifestEntry, ManifestFile, PartitionSpec, Snapshot, TableMetadata } from './types.js';
import type { FileIO } from './file-io.js';
import { readManifestList, writeManifest, writeManifestList } from './manifests.js';
import { partitionType, refSnapshot, schemaById, specById } from './model.js';
import { tupleKey } from './values.js';

export type Operation = Snapshot['summary']['operation'];

/** A file written for a snapshot, with the spec it was partitioned by. */
export interface NewFile {
  file: DataFile;
  specId: number;
}

export interface CommitOptions {
  /** Branch whose head is the parent (default `main`). */
  branch?: string;
  snapshotId?: bigint;
  timestampMs?: number;
  /** The id in the names of the files this commit writes (default a random UUID). */
  commitId?: string;
  /** Extra summary properties (engine name, …). */
  summary?: Record<string, string>;
}

export interface CommitResult {
  snapshot: Snapshot;
  /** The new manifests as the list records them (sequence numbers assigned). */
  manifests: ManifestFile[];
  /** Every manifest of the snapshot (new ones first). */
  allManifests: ManifestFile[];
  manifestList: string;
  /** Every location written (data, delete, manifest and list files). */
  written: string[];
}

/** Java's snapshot ids: a random UUID's halves XORed, masked to 63 bits; never one the table has. */
export function newSnapshotId(metadata?: TableMetadata): bigint {
  const taken = new Set(metadata?.snapshots.map((s) => s['snapshot-id']));
  for (;;) {
    const b = randomBytes(16);
    const id = (b.readBigUInt64BE(0) ^ b.readBigUInt64BE(8)) & 0x7fffffffffffffffn;
    if (id !== 0n && !taken.has(id)) return id;
  }
}

/** Where metadata files go (`write.metadata.path`, else `<location>/metadata`). */
export function metadataDir(metadata: TableMetadata): string {
  return dirProperty(metadata, 'write.metadata.path', 'metadata');
}

/** Where data files go (`write.data.path`, else `<location>/data`). */
export function dataDir(metadata: TableMetadata): string {
  return dirProperty(metadata, 'write.data.path', 'data');
}

function dirProperty(metadata: TableMetadata, key: string, fallback: string): string {
  const value = metadata.properties?.[key];
  const base = metadata.location.replace(/\/+$/, '');
  if (!value) return `${base}/${fallback}`;
  return /^[a-z0-9]+:\/\//i.test(value) ? value.replace(/\/+$/, '') : `${base}/${value.replace(/^\/+|\/+$/g, '')}`;
}

/** Writes the manifests and manifest list for `files` on top of the branch head and returns the snapshot. */
export async function commitFiles(
  io: FileIO,
  metadata: TableMetadata,
  operation: Operation,
  files: { data?: NewFile[]; deletes?: NewFile[]; written?: string[] },
  options: CommitOptions = {},
): Promise<CommitResult> {
  const formatVersion = metadata['format-version'];
  if (formatVersion < 2) throw new Error('writing to format version 1 tables is not supported');
  const snapshotId = options.snapshotId ?? newSnapshotId(metadata);
  const commitId = options.commitId ?? randomUUID();
  const parent = refSnapshot(metadata, options.branch ?? 'main');
  const sequenceNumber = metadata['last-sequence-number'] + 1;
  const schema = schemaById(metadata, metadata['current-schema-id']);
  const dir = metadataDir(metadata);
  const written = [...(files.written ?? [])];

  const newManifests: ManifestFile[] = [];
  const groups: { content: 'data' | 'deletes'; list: NewFile[] }[] = [
    { content: 'data', list: files.data ?? [] },
    { content: 'deletes', list: files.deletes ?? [] },
  ];
  for (const { content, list } of groups) {
    for (const [specId, specFiles] of bySpec(list)) {
      const location = `${dir}/${commitId}-m${newManifests.length}.avro`;
      const entries: ManifestEntry[] = specFiles.map((file) => ({
        status: 1,
        snapshot_id: snapshotId,
        sequence_number: null,
        file_sequence_number: null,
        data_file: file,
      }));
      const spec = specById(metadata, specId);
      newManifests.push(await writeManifest(io, location, { schema, spec, formatVersion, content, snapshotId, entries }));
      written.push(location);
    }
  }

  const inherited = parent ? await readManifestList(io, parent['manifest-list']) : [];
  const manifestList = `${dir}/snap-${snapshotId}-1-${commitId}.avro`;
  const firstRowId = formatVersion >= 3 ? (metadata['next-row-id'] ?? 0) : undefined;
  const { manifests: all, addedRows } = await writeManifestList(io, manifestList, {
    snapshotId,
    parentSnapshotId: parent?.['snapshot-id'] ?? null,
    sequenceNumber,
    formatVersion,
    firstRowId,
    manifests: [...newManifests, ...inherited],
  });
  written.push(manifestList);

  const snapshot: Snapshot = {
    'snapshot-id': snapshotId,
    ...(parent ? { 'parent-snapshot-id': parent['snapshot-id'] } : {}),
    'sequence-number': sequenceNumber,
    'timestamp-ms': options.timestampMs ?? Date.now(),
    'manifest-list': manifestList,
    summary: summarize(metadata, operation, files, parent, options.summary),
    'schema-id': schema['schema-id'],
  };
  if (formatVersion >= 3) {
    snapshot['first-row-id'] = firstRowId;
    snapshot['added-rows'] = addedRows;
  }
  return { snapshot, manifests: all.slice(0, newManifests.length), allManifests: all, manifestList, written };
}

function bySpec(files: readonly NewFile[]): Map<number, DataFile[]> {
  const out = new Map<number, DataFile[]>();
  for (const f of files) {
    const list = out.get(f.specId) ?? [];
    list.push(f.file);
    out.set(f.specId, list);
  }
  return out;
}

/** Java's `SnapshotSummary` for added files, with totals carried from the parent's summary. */
function summarize(
  metadata: TableMetadata,
  operation: Operation,
  files: { data?: NewFile[]; deletes?: NewFile[] },
  parent: Snapshot | undefined,
  extra: Record<string, string> = {},
): Snapshot['summary'] {
  let addedFiles = 0;
  let addedRecords = 0;
  let addedSize = 0;
  let addedDeleteFiles = 0;
  let posFiles = 0;
  let eqFiles = 0;
  let posDeletes = 0;
  let eqDeletes = 0;
  const partitions = new Set<string>();
  const specs = new Map<number, PartitionSpec>();
  for (const { file, specId } of [...(files.data ?? []), ...(files.deletes ?? [])]) {
    addedSize += file.file_size_in_bytes;
    if (file.content === 0) {
      addedFiles++;
      addedRecords += file.record_count;
    } else {
      addedDeleteFiles++;
      if (file.content === 1) (posFiles++, (posDeletes += file.record_count));
      else (eqFiles++, (eqDeletes += file.record_count));
    }
    if (!specs.has(specId)) specs.set(specId, specById(metadata, specId));
    const fields = partitionType(specs.get(specId)!, schemaById(metadata, metadata['current-schema-id']));
    partitions.add(`${specId}/${tupleKey(fields.map((f) => file.partition[f.name]))}`);
  }
  const s: Record<string, string> = { operation, ...extra };
  const set = (key: string, n: number) => {
    if (n > 0) s[key] = String(n);
  };
  set('added-data-files', addedFiles);
  set('added-equality-delete-files', eqFiles);
  set('added-position-delete-files', posFiles);
  set('added-delete-files', addedDeleteFiles);
  set('added-records', addedRecords);
  set('added-files-size', addedSize);
  set('added-position-deletes', posDeletes);
  set('added-equality-deletes', eqDeletes);
  s['changed-partition-count'] = String(partitions.size);

  // Without a parent the totals start at zero; a parent without a total leaves it out (Java `updateTotal`).
  const previous = parent ? (parent.summary ?? {}) : undefined;
  const total = (key: string, added: number) => {
    const before = previous ? previous[key] : '0';
    if (before === undefined) return;
    const n = Number(before) + added;
    if (Number.isFinite(n) && n >= 0) s[key] = String(n);
  };
  total('total-records', addedRecords);
  total('total-files-size', addedSize);
  total('total-data-files', addedFiles);
  total('total-delete-files', addedDeleteFiles);
  total('total-position-deletes', posDeletes);
  total('total-equality-deletes', eqDeletes);
  return s as Snapshot['summary'];
}
