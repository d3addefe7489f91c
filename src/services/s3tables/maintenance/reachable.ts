/**
 * What a table's metadata references, as Iceberg's orphan-file action counts it (Java
 * `ReachableFileUtil`, `DeleteOrphanFilesSparkAction`): the current metadata.json and every file of
 * its `metadata-log`, table and partition statistics files, and for each snapshot its manifest list,
 * the manifests it lists and the live (ADDED or EXISTING) data and delete files of those manifests.
 * Manifests and manifest lists never change once written, so a run decodes each once (the cache
 * keeps only the paths). Locations compare as `bucket/key` (`s3a://`, `s3n://` are `s3://`).
 */
import type { FileIO } from '../../../iceberg/file-io.js';
import { readManifest, readManifestList } from '../../../iceberg/manifests.js';
import type { ManifestFile, Snapshot, TableMetadata } from '../../../iceberg/types.js';
import { yieldNow } from './yield-now.js';

/** `bucket/key` of an S3 location, or undefined for anything else. */
function locationKey(location: string): string | undefined {
  const m = /^s3[an]?:\/\/([^/]+)\/(.+)$/.exec(location);
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/** Decoded manifest lists and manifests of one run, as paths. */
export class ManifestCache {
  private readonly lists = new Map<string, ManifestFile[]>();
  private readonly content = new Map<string, string[]>();
  /** Files decoded so far (the run yields to requests between them, time-sliced). */
  decoded = 0;

  constructor(private readonly io: FileIO) {}

  async list(location: string): Promise<ManifestFile[]> {
    let l = this.lists.get(location);
    if (!l) {
      l = await readManifestList(this.io, location);
      this.lists.set(location, l);
      await this.tick();
    }
    return l;
  }

  /** The live content files (data and deletes) a manifest lists. */
  async liveContent(manifest: ManifestFile): Promise<string[]> {
    let c = this.content.get(manifest.manifest_path);
    if (!c) {
      const decoded = await readManifest(this.io, manifest);
      c = decoded.entries.filter((e) => e.status !== 2).map((e) => e.data_file.file_path);
      this.content.set(manifest.manifest_path, c);
      await this.tick();
    }
    return c;
  }

  private async tick(): Promise<void> {
    this.decoded++;
    await yieldNow();
  }
}

export interface Reach {
  /** Every referenced location, as `bucket/key`. */
  keys: Set<string>;
  /** Referenced locations that are not S3 locations (a table AWS maintenance refuses). */
  invalid: string[];
}

function add(reach: Reach, location: string | undefined | null): void {
  if (!location) return;
  const key = locationKey(location);
  if (key) reach.keys.add(key);
  else reach.invalid.push(location);
}

/** Adds what the given snapshots reference: manifest lists, manifests, live content files, statistics. */
export async function addSnapshotFiles(reach: Reach, metadata: TableMetadata, snapshots: readonly Snapshot[], cache: ManifestCache): Promise<void> {
  const ids = new Set(snapshots.map((s) => s['snapshot-id']));
  for (const s of metadata.statistics ?? []) if (ids.has(s['snapshot-id'])) add(reach, s['statistics-path']);
  for (const s of metadata['partition-statistics'] ?? []) if (ids.has(s['snapshot-id'])) add(reach, s['statistics-path']);
  const seen = new Set<string>();
  for (const snapshot of snapshots) {
    add(reach, snapshot['manifest-list']);
    for (const manifest of await cache.list(snapshot['manifest-list'])) {
      if (seen.has(manifest.manifest_path)) continue;
      seen.add(manifest.manifest_path);
      add(reach, manifest.manifest_path);
      for (const path of await cache.liveContent(manifest)) add(reach, path);
    }
  }
}

/** Everything the table's current metadata references, `metadataLocation` (the file itself) included. */
export async function reachableFromMetadata(metadata: TableMetadata, metadataLocation: string, cache: ManifestCache): Promise<Reach> {
  const reach: Reach = { keys: new Set(), invalid: [] };
  add(reach, metadataLocation);
  for (const entry of metadata['metadata-log'] ?? []) add(reach, entry['metadata-file']);
  for (const s of metadata.statistics ?? []) add(reach, s['statistics-path']);
  for (const s of metadata['partition-statistics'] ?? []) add(reach, s['statistics-path']);
  await addSnapshotFiles(reach, metadata, metadata.snapshots ?? [], cache);
  return reach;
}
