import type { Runtime } from '../../../server/runtime.js';
export interface DestinationReport { destinationTableBucketArn: string; status: string }
export async function replicateTable(_rt: Runtime, _tableId: string): Promise<DestinationReport[]> { return []; }
