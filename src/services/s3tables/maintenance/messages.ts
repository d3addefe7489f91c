/**
 * The failure messages of maintenance jobs, exactly as AWS documents them (S3 User Guide, "S3
 * Tables maintenance job status"), and the error a job throws to end with one of them.
 */

export const FAILURE = {
  refs: 'Iceberg Snapshot management does not currently support user defined tags or references.',
  expireProperties:
    "Iceberg table maintenance configuration is incompatible with 'history.expire.max-snapshot-age-ms' and 'history.expire.min-snapshots-to-keep' table properties.",
  gcDisabled:
    "Iceberg snapshot management and unreferenced file removal is not supported when the 'gc.enabled' table property is false. Ensure that this property is unset or explicitly set to true.",
  validation:
    'Encountered Iceberg validation exception when trying to read table. Ensure that your table is readable, adheres to the Iceberg specification, and contains only S3 paths that begin with your S3 Table alias.',
  outOfDate: 'Failed to commit because of out of date metadata. Maintenance will be retried at the next available opportunity.',
  internal: 'Internal error',
} as const;

/** Ends a job as `Failed` with one of AWS's messages. */
export class JobFailure extends Error {
  constructor(message: string, readonly why?: string) {
    super(message);
  }
}
