/**
 * Copying a source table's files into a replica's warehouse, every path rewritten, as S3 Tables
 * replication does (S3 User Guide, "How S3 Tables replication works": data files, delete files,
 * manifests, manifest lists and statistics, with "every file path" pointing at the replica):
 * a path of the source warehouse keeps its key under the replica's. Data files and statistics
 * are copied as they are (through CopyObject, once: files never change after they are written);
 * manifest lists and manifests are decoded and written again with the new paths and lengths;
 * position delete files, whose rows name data files, are rewritten with the new paths and fresh
 * metrics. A path outside the source warehouse fails replication.
 */
import { parseIcebergJson } from '../../../iceberg/json.js';
import {
  decodeManifest,
  decodeManifestList,
  encodeManifest,
  encodeManifestList,
} from '../../../iceberg/manifests.js';
import { openFile, readParquet } from '../../../iceberg/parquet-reader.js';
import { writeParquet } from '../../../iceberg/parquet-writer.js';
import { POSITION_DELETE_SCHEMA } from '../../../iceberg/scan.js';
import type { DataFile, ManifestFile, PartitionSpec, Schema, Snapshot, TableMetadata } from '../../../iceberg/types.js';
import type { Ctx } from '../../../runtime/runtime.js';
import { copyObject } from '../../s3/provider.js';
import { yieldNow } from './yield-now.js';
import type { StoreFileIO } from './store-io.js';

export class ReplicationError extends Error {}

/** Maps locations of the source warehouse to the replica's. */
export class PathMap {
  private readonly from: RegExp;

  constructor(
    private readonly sourceBucket: string,
    private readonly replicaBucket: string,
  ) {
    this.from = new RegExp(`^s3[an]?://${sourceBucket.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/|$)`);
  }

  map(location: string): string {
    if (!this.from.test(location)) throw new ReplicationError(`The source table references ${location}, outside its warehouse s3://${this.sourceBucket}.`);
    return location.replace(this.from, `s3://${this.replicaBucket}$1`);
  }

  mapOptional(location: string | null | undefined): string | null | undefined {
    return location ? this.map(location) : location;
  }
}

function keyOf(location: string): { bucket: string; key: string } {
  const m = /^s3[an]?:\/\/([^/]+)\/(.+)$/.exec(location)!;
  return { bucket: m[1]!, key: m[2]! };
}

export interface CopyStats {
  copiedFiles: number;
  copiedBytes: number;
}

/** Copies what the given source snapshots need into the replica warehouse (files already there are kept). */
export async function copySnapshots(
  ctx: Ctx,
  io: StoreFileIO,
  source: TableMetadata,
  snapshots: readonly Snapshot[],
  paths: PathMap,
  stats: CopyStats,
): Promise<void> {
  for (const snapshot of snapshots) {
    const listTarget = paths.map(snapshot['manifest-list']);
    if (io.exists(listTarget)) continue;
    const list = decodeManifestList(await io.read(snapshot['manifest-list']));
    const rewritten: ManifestFile[] = [];
    for (const manifest of list.manifests) {
      const target = paths.map(manifest.manifest_path);
      // A manifest written once (by this run or an earlier one) is the same for every snapshot.
      const length = io.size(target) ?? (await copyManifest(ctx, io, manifest, target, paths, stats));
      rewritten.push({ ...manifest, manifest_path: target, manifest_length: length });
      await yieldNow();
    }
    const meta = list.metadata;
    const parent = meta['parent-snapshot-id'];
    const { bytes } = encodeManifestList({
      snapshotId: snapshot['snapshot-id'],
      parentSnapshotId: parent && parent !== 'null' ? BigInt(parent) : null,
      sequenceNumber: Number(meta['sequence-number'] ?? snapshot['sequence-number'] ?? 0),
      formatVersion: Number(meta['format-version'] ?? source['format-version']),
      ...(meta['first-row-id'] !== undefined ? { firstRowId: Number(meta['first-row-id']) } : {}),
      manifests: rewritten,
    });
    await io.write(listTarget, bytes);
    stats.copiedFiles++;
    stats.copiedBytes += bytes.length;
  }
  for (const s of [...(source.statistics ?? []), ...(source['partition-statistics'] ?? [])]) {
    if (snapshots.some((x) => x['snapshot-id'] === s['snapshot-id'])) await copyFile(ctx, io, s['statistics-path'], paths, stats);
  }
}

/** Writes a manifest again with replica paths (its content files copied first); its new length. */
async function copyManifest(ctx: Ctx, io: StoreFileIO, manifest: ManifestFile, target: string, paths: PathMap, stats: CopyStats): Promise<number> {
  const decoded = decodeManifest(await io.read(manifest.manifest_path));
  const entries = [];
  for (const entry of decoded.entries) {
    let file: DataFile = { ...entry.data_file, file_path: paths.map(entry.data_file.file_path) };
    if (entry.data_file.referenced_data_file) file.referenced_data_file = paths.map(entry.data_file.referenced_data_file);
    // DELETED entries name files a later snapshot no longer has: nothing to copy for them.
    if (entry.status !== 2) {
      if (file.content === 1 && file.file_format === 'PARQUET') file = await copyPositionDeletes(io, entry.data_file, file, paths, stats);
      else await copyFile(ctx, io, entry.data_file.file_path, paths, stats);
    }
    entries.push({ ...entry, data_file: file });
  }
  const schema = parseIcebergJson(decoded.metadata.schema ?? '{"type":"struct","fields":[]}') as Schema;
  const spec: PartitionSpec = { 'spec-id': decoded.specId, fields: parseIcebergJson(decoded.metadata['partition-spec'] ?? '[]') as PartitionSpec['fields'] };
  const { bytes } = encodeManifest({
    schema,
    spec,
    formatVersion: decoded.formatVersion,
    content: decoded.content,
    snapshotId: manifest.added_snapshot_id,
    entries,
  });
  await io.write(target, bytes);
  stats.copiedFiles++;
  stats.copiedBytes += bytes.length;
  return bytes.length;
}

/** Copies one file byte for byte unless the replica has it already. */
async function copyFile(ctx: Ctx, io: StoreFileIO, location: string, paths: PathMap, stats: CopyStats): Promise<void> {
  const target = paths.map(location);
  if (io.exists(target)) return;
  const from = keyOf(location);
  const to = keyOf(target);
  const source = `${from.bucket}/${from.key.split('/').map(encodeURIComponent).join('/')}`;
  await copyObject(ctx, { Bucket: to.bucket, Key: to.key, CopySource: source });
  stats.copiedFiles++;
}

/** A position delete file with its rows' data file paths rewritten; the entry's new description. */
async function copyPositionDeletes(io: StoreFileIO, original: DataFile, mapped: DataFile, paths: PathMap, stats: CopyStats): Promise<DataFile> {
  const rows = await readParquet(await openFile(io, original.file_path, original.file_size_in_bytes), POSITION_DELETE_SCHEMA);
  const written = writeParquet(
    POSITION_DELETE_SCHEMA,
    rows.map((r) => ({ file_path: paths.map(r.file_path as string), pos: r.pos })),
    { metricsMode: () => ({ kind: 'full' }) },
  );
  if (!io.exists(mapped.file_path)) {
    await io.write(mapped.file_path, written.bytes);
    stats.copiedFiles++;
    stats.copiedBytes += written.bytes.length;
  }
  return { ...mapped, file_size_in_bytes: written.bytes.length, ...written.metrics, split_offsets: written.splitOffsets };
}
