/**
 * The settings a new table bucket or table has until configured (S3 User Guide: "Maintenance for
 * table buckets", "Maintenance for tables", "Specifying server-side encryption…"; reference §4.3).
 */

export const DEFAULT_ENCRYPTION = { sseAlgorithm: 'AES256' } as const;
export const DEFAULT_STORAGE_CLASS = 'STANDARD';

export function defaultBucketMaintenance(): Record<string, unknown> {
  return {
    icebergUnreferencedFileRemoval: {
      status: 'enabled',
      settings: { icebergUnreferencedFileRemoval: { unreferencedDays: 3, nonCurrentDays: 10 } },
    },
  };
}

export function defaultTableMaintenance(): Record<string, unknown> {
  return {
    icebergCompaction: {
      status: 'enabled',
      settings: { icebergCompaction: { targetFileSizeMB: 512, strategy: 'auto' } },
    },
    icebergSnapshotManagement: {
      status: 'enabled',
      settings: { icebergSnapshotManagement: { minSnapshotsToKeep: 1, maxSnapshotAgeHours: 120 } },
    },
  };
}
