/**
 * The `replace` snapshot of a compaction, as Java's `BaseRewriteFiles` writes it: every manifest of
 * the branch head that lists a rewritten data file (or a delete file no longer needed) is written
 * again — those entries DELETED by the new snapshot, the other live ones EXISTING with their
 * snapshot ids and sequence numbers, earlier DELETED entries dropped — untouched manifests are
 * carried over as they are, and the new files go into a manifest of their own as ADDED entries
 * whose data sequence number is the starting snapshot's (Java's `use-starting-sequence-number`:
 * an equality delete committed while compaction ran still applies to them). The summary is
 * Java's for a replace (added/deleted data files and records, removed delete files, sizes,
 * changed partitions, manifest counts) with totals carried from the head.
 *
 * writeReplaceSnapshot is one long function on purpose: the replace snapshot is written in the
 * order the Java reference writes it (manifests, list, summary, metadata).
 */
import type { LiveFile } from '../../../iceberg/scan.js';
import { parseIcebergJson } from '../../../iceberg/json.js';
import { encodeManifest, readManifest, readManifestList, writeManifest, writeManifestList } from '../../../iceberg/manifests.js';
import { partitionType, schemaById, specById } from '../../../iceberg/model.js';
import { metadataDir, newSnapshotId, type NewFile } from '../../../iceberg/snapshot-producer.js';
import type { FileIO } from '../../../iceberg/file-io.js';
import type { DataFile, ManifestEntry, ManifestFile, PartitionSpec, Schema, Snapshot, TableMetadata } from '../../../iceberg/types.js';
import { tupleKey } from '../../../iceberg/values.js';

export interface Rewrite {
  added: NewFile[];
  removedData: LiveFile[];
  removedDeletes: LiveFile[];
  /** The sequence number of the snapshot compaction started from: the new files' data sequence number. */
  startSequence: number;
}

interface ReplaceCommit {
  snapshot: Snapshot;
  /** Manifests and the manifest list written for it. */
  written: string[];
}

/** Writes the manifests and manifest list of the replace snapshot; `step` is awaited between manifests. */
export async function writeReplaceSnapshot(
  io: FileIO,
  metadata: TableMetadata,
  head: Snapshot,
  rewrite: Rewrite,
  commitId: string,
  step: () => Promise<void> = async () => {},
): Promise<ReplaceCommit> {
  const formatVersion = metadata['format-version'];
  const snapshotId = newSnapshotId(metadata);
  const sequenceNumber = metadata['last-sequence-number'] + 1;
  const schema = schemaById(metadata, metadata['current-schema-id']);
  const dir = metadataDir(metadata);
  const removed = new Set([...rewrite.removedData, ...rewrite.removedDeletes].map((f) => f.file.file_path));
  const written: string[] = [];
  let count = 0;
  const nextManifest = () => `${dir}/${commitId}-m${count++}.avro`;

  const added: ManifestFile[] = [];
  const bySpec = new Map<number, DataFile[]>();
  for (const f of rewrite.added) bySpec.set(f.specId, [...(bySpec.get(f.specId) ?? []), f.file]);
  for (const [specId, files] of bySpec) {
    const entries: ManifestEntry[] = files.map((file) => ({
      status: 1,
      snapshot_id: snapshotId,
      sequence_number: rewrite.startSequence,
      file_sequence_number: null,
      data_file: file,
    }));
    const location = nextManifest();
    added.push(await writeManifest(io, location, { schema, spec: specById(metadata, specId), formatVersion, content: 'data', snapshotId, entries }));
    written.push(location);
  }

  const kept: ManifestFile[] = [];
  let replaced = 0;
  for (const manifest of await readManifestList(io, head['manifest-list'])) {
    const decoded = await readManifest(io, manifest);
    const live = decoded.entries.filter((e) => e.status !== 2);
    if (!live.some((e) => removed.has(e.data_file.file_path))) {
      kept.push(manifest);
      await step();
      continue;
    }
    replaced++;
    const entries: ManifestEntry[] = live.map((e) =>
      removed.has(e.data_file.file_path) ? { ...e, status: 2, snapshot_id: snapshotId } : { ...e, status: 0 },
    );
    const headerSchema = decoded.metadata.schema ? (parseIcebergJson(decoded.metadata.schema) as Schema) : schema;
    const spec: PartitionSpec = decoded.metadata['partition-spec']
      ? { 'spec-id': decoded.specId, fields: parseIcebergJson(decoded.metadata['partition-spec']) as PartitionSpec['fields'] }
      : specById(metadata, manifest.partition_spec_id);
    const { bytes, summary } = encodeManifest({ schema: headerSchema, spec, formatVersion, content: decoded.content, snapshotId, entries });
    const location = nextManifest();
    await io.write(location, bytes);
    written.push(location);
    kept.push({ manifest_path: location, manifest_length: bytes.length, ...summary });
    await step();
  }

  const manifestList = `${dir}/snap-${snapshotId}-1-${commitId}.avro`;
  const firstRowId = formatVersion >= 3 ? (metadata['next-row-id'] ?? 0) : undefined;
  const { addedRows } = await writeManifestList(io, manifestList, {
    snapshotId,
    parentSnapshotId: head['snapshot-id'],
    sequenceNumber,
    formatVersion,
    firstRowId,
    manifests: [...added, ...kept],
  });
  written.push(manifestList);
  const snapshot: Snapshot = {
    'snapshot-id': snapshotId,
    'parent-snapshot-id': head['snapshot-id'],
    'sequence-number': sequenceNumber,
    'timestamp-ms': Date.now(),
    'manifest-list': manifestList,
    summary: summarize(metadata, head, rewrite, { created: added.length + replaced, kept: kept.length - replaced, replaced }),
    'schema-id': schema['schema-id'],
  };
  if (formatVersion >= 3) {
    snapshot['first-row-id'] = firstRowId;
    snapshot['added-rows'] = addedRows;
  }
  return { snapshot, written };
}

function summarize(
  metadata: TableMetadata,
  head: Snapshot,
  rewrite: Rewrite,
  manifests: { created: number; kept: number; replaced: number },
): Snapshot['summary'] {
  const schema = schemaById(metadata, metadata['current-schema-id']);
  const names = new Map<number, string[]>();
  const partitions = new Set<string>();
  const partitionOf = (specId: number, file: DataFile) => {
    if (!names.has(specId)) names.set(specId, partitionType(specById(metadata, specId), schema).map((p) => p.name));
    partitions.add(`${specId}/${tupleKey(names.get(specId)!.map((n) => file.partition[n]))}`);
  };
  const n = { addedFiles: 0, addedRecords: 0, addedSize: 0, deletedFiles: 0, deletedRecords: 0, removedSize: 0 };
  const d = { files: 0, posFiles: 0, eqFiles: 0, posRecords: 0, eqRecords: 0 };
  for (const { file, specId } of rewrite.added) {
    n.addedFiles++;
    n.addedRecords += file.record_count;
    n.addedSize += file.file_size_in_bytes;
    partitionOf(specId, file);
  }
  for (const { file, specId } of rewrite.removedData) {
    n.deletedFiles++;
    n.deletedRecords += file.record_count;
    n.removedSize += file.file_size_in_bytes;
    partitionOf(specId, file);
  }
  for (const { file } of rewrite.removedDeletes) {
    d.files++;
    n.removedSize += file.file_size_in_bytes;
    if (file.content === 1) (d.posFiles++, (d.posRecords += file.record_count));
    else (d.eqFiles++, (d.eqRecords += file.record_count));
  }
  const s: Record<string, string> = { operation: 'replace' };
  const set = (key: string, v: number) => {
    if (v > 0) s[key] = String(v);
  };
  set('added-data-files', n.addedFiles);
  set('deleted-data-files', n.deletedFiles);
  set('removed-equality-delete-files', d.eqFiles);
  set('removed-position-delete-files', d.posFiles);
  set('removed-delete-files', d.files);
  set('added-records', n.addedRecords);
  set('deleted-records', n.deletedRecords);
  set('added-files-size', n.addedSize);
  set('removed-files-size', n.removedSize);
  set('removed-position-deletes', d.posRecords);
  set('removed-equality-deletes', d.eqRecords);
  s['changed-partition-count'] = String(partitions.size);
  s['manifests-created'] = String(manifests.created);
  s['manifests-kept'] = String(manifests.kept);
  s['manifests-replaced'] = String(manifests.replaced);
  // Java `SnapshotProducer.updateTotal`: only when the head carried the total; never negative.
  const previous = head.summary ?? {};
  const total = (key: string, delta: number) => {
    if (previous[key] === undefined) return;
    const v = Number(previous[key]) + delta;
    if (Number.isFinite(v) && v >= 0) s[key] = String(v);
  };
  total('total-records', n.addedRecords - n.deletedRecords);
  total('total-files-size', n.addedSize - n.removedSize);
  total('total-data-files', n.addedFiles - n.deletedFiles);
  total('total-delete-files', -d.files);
  total('total-position-deletes', -d.posRecords);
  total('total-equality-deletes', -d.eqRecords);
  return s as Snapshot['summary'];
}
