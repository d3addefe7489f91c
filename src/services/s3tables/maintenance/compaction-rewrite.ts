/**
 * The CPU-bound half of compaction, with no access to the store: given one bin's data files and
 * the delete files that may apply to them (their bytes included), read every row with its deletes
 * applied and projected onto the current schema, regroup by the current spec's partitions, order
 * the rows (sort or z-order), and write Parquet files of about the target size with the project's
 * writer (field ids, types, nulls and metrics). It runs in a worker thread when the compiled
 * worker is there (compaction-worker.ts), so parsing and writing large files never hold up
 * requests; in the same thread otherwise (tests running the TypeScript sources).
 */
import { groupByPartition } from '../../../iceberg/append.js';
import type { FileIO } from '../../../iceberg/file-io.js';
import { defaultSpec, schemaById } from '../../../iceberg/model.js';
import { writeParquet, type WrittenParquet } from '../../../iceberg/parquet-writer.js';
import { DeletePlan, readDataFile, type LiveFile } from '../../../iceberg/scan.js';
import type { SortOrder, TableMetadata } from '../../../iceberg/types.js';
import { outputCount, sortRows, zOrderRows, type CompactionSettings } from './compaction-plan.js';

export interface BinTask {
  metadata: TableMetadata;
  files: LiveFile[];
  /** Delete files that may apply to the bin's files. */
  deletes: LiveFile[];
  /** Bytes of every file above, by location. */
  bytes: Map<string, Uint8Array>;
  binBytes: number;
  strategy: 'binpack' | 'sort' | 'z-order';
  order?: SortOrder;
  settings: CompactionSettings;
}

export interface BinOutput {
  /** The partition's path under the data directory (`category=a`), '' when unpartitioned. */
  path: string;
  /** Partition values in the current spec's order. */
  values: unknown[];
  parquet: WrittenParquet;
}

function memoryIO(bytes: Map<string, Uint8Array>): FileIO {
  return {
    async read(location) {
      const b = bytes.get(location);
      if (!b) throw new Error(`${location} was not handed to the compaction`);
      return b;
    },
    async write() {
      throw new Error('compaction rewrites write through the caller');
    },
  };
}

export async function rewriteBinRows(task: BinTask): Promise<BinOutput[]> {
  const { metadata } = task;
  const io = memoryIO(task.bytes);
  const schema = schemaById(metadata, metadata['current-schema-id']);
  const plan = new DeletePlan(io, metadata, task.deletes);
  const readSchema = plan.extendSchema(schema);
  const rows: Record<string, unknown>[] = [];
  for (const file of task.files) {
    for (const r of await readDataFile(io, file, readSchema, schema, plan)) rows.push(r);
  }
  const spec = defaultSpec(metadata);
  const out: BinOutput[] = [];
  for (const group of groupByPartition(rows, spec, schema)) {
    let groupRows = group.rows;
    if (task.strategy === 'sort') groupRows = sortRows(groupRows, task.order!, schema);
    else if (task.strategy === 'z-order') groupRows = zOrderRows(groupRows, task.order!, schema);
    const share = rows.length ? (task.binBytes * groupRows.length) / rows.length : 0;
    const count = Math.min(outputCount(share, task.settings), Math.max(1, groupRows.length));
    const per = Math.ceil(groupRows.length / count);
    for (let i = 0; i < groupRows.length; i += per) {
      const parquet = writeParquet(schema, groupRows.slice(i, i + per), { properties: metadata.properties, sortOrder: task.order });
      out.push({ path: group.path, values: group.values, parquet });
    }
  }
  return out;
}
