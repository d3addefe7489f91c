/**
 * The drift records kept beside stack and resource rows (the latest check of each) and the
 * `DriftInformation` every stack and resource shape carries: NOT_CHECKED with no timestamp before
 * any check, as AWS reports it (cloudformation.md §2.5).
 */
import type * as CFN from '@aws-sdk/client-cloudformation';

export interface StackDriftRecord {
  status: CFN.StackDriftStatus;
  ts: number;
}

export interface ResourceDriftRecord {
  status: CFN.StackResourceDriftStatus;
  ts: number;
  type: string;
  physicalId: string;
  logicalId?: string;
  detectionId?: string;
  /** JSON texts of the compared properties. */
  expected?: string;
  actual?: string;
  differences?: CFN.PropertyDifference[];
  reason?: string;
}

export function recordOf<T>(text: string | null | undefined): T | undefined {
  return text ? (JSON.parse(text) as T) : undefined;
}

export function stackDriftInformation(drift: string | null | undefined): CFN.StackDriftInformation {
  const r = recordOf<StackDriftRecord>(drift);
  return r ? { StackDriftStatus: r.status, LastCheckTimestamp: new Date(r.ts) } : { StackDriftStatus: 'NOT_CHECKED' };
}

export function resourceDriftInformation(drift: string | null | undefined): CFN.StackResourceDriftInformation {
  const r = recordOf<ResourceDriftRecord>(drift);
  return r ? { StackResourceDriftStatus: r.status, LastCheckTimestamp: new Date(r.ts) } : { StackResourceDriftStatus: 'NOT_CHECKED' };
}
