/**
 * A crash in the middle of a maintenance job: `overcast start` with a data directory, a
 * partitioned table with many small files, a maintenance run killed (`kill -9`) while compaction
 * writes its files; after a restart on the same directory the table reads the same rows, the
 * interrupted job is reported and runs again to success, and what the killed run had written
 * (unreferenced) leaves the warehouse through unreferenced file removal — the clock kept too.
 */
import type { ChildProcess } from 'node:child_process';
import { S3TablesClient } from '@aws-sdk/client-s3tables';
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { readManifest, readManifestList } from '../../src/iceberg/manifests.js';
import { redirectS3Fetch } from '../helpers/iceberg-table.js';
import { startCliServer } from '../helpers/cli-server.js';
import { s3FileIO } from '../helpers/s3-file-io.js';
import { tempDir, type TestServer } from '../helpers/server.js';
import { admin, advance, append, byId, icebirdRows, jobStatus, reload, rowsOf, runMaintenance, tableWithData, warehouseKeys, type DataTable } from './helpers.js';

const dir = tempDir('overcast-crash-');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  dir.cleanup();
});

interface Started {
  child: ChildProcess;
  t: TestServer;
  output: () => string;
}

async function start(): Promise<Started> {
  const server = await startCliServer(['--port', '0', '--data-dir', dir.path, '--log-level', 'debug', '--maintenance-interval', 'off']);
  children.push(server.child);
  const { child, endpoint } = server;
  const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
  const clientConfig = { endpoint, region: 'us-east-1', credentials, forcePathStyle: true as const };
  const t = { endpoint, region: 'us-east-1', credentials, clientConfig, env: {}, server: undefined as never, stop: async () => {} };
  return { child, t, output: server.output };
}

/** Keys of the warehouse the table's metadata references (metadata files, lists, manifests, live files). */
async function referencedKeys(io: ReturnType<typeof s3FileIO>, table: DataTable): Promise<Set<string>> {
  const prefix = `${table.metadata.location}/`;
  const keys = new Set<string>([table.metadataLocation, ...table.metadata['metadata-log'].map((e) => e['metadata-file'])]);
  for (const s of table.metadata.snapshots) {
    keys.add(s['manifest-list']);
    for (const m of await readManifestList(io, s['manifest-list'])) {
      keys.add(m.manifest_path);
      for (const e of (await readManifest(io, m)).entries) if (e.status !== 2) keys.add(e.data_file.file_path);
    }
  }
  return new Set([...keys].map((k) => k.slice(prefix.length)));
}

describe('a crash during maintenance', () => {
  it('leaves the table readable, and the interrupted job runs again after a restart', async () => {
    let server = await start();
    let io = s3FileIO(server.t);
    let s3t = new S3TablesClient({ ...server.t.clientConfig, maxAttempts: 1 });
    let restore = redirectS3Fetch(server.t.endpoint);
    let { table } = await tableWithData(server.t, io, s3t, { appends: 0, partitioned: true });
    const rows = [];
    for (let i = 0; i < 3; i++) {
      const batch = rowsOf(i * 40, (i + 1) * 40, (k) => `p${k % 8}`);
      table = await append(server.t, io, table, batch);
      rows.push(...batch);
    }
    await advance(server.t, '1h');

    // Kill -9 as soon as compaction has rewritten its first bin (eight are due).
    void admin(server.t, 'maintenance/run', { tableArn: table.arn }).catch(() => undefined);
    const deadline = Date.now() + 20_000;
    while (!/compaction of table \S+ rewrote a bin/.test(server.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    server.child.kill('SIGKILL');
    await new Promise((r) => server.child.once('exit', r));
    restore();

    server = await start();
    io = s3FileIO(server.t);
    s3t = new S3TablesClient({ ...server.t.clientConfig, maxAttempts: 1 });
    restore = redirectS3Fetch(server.t.endpoint);
    try {
      table = await reload(io, s3t, table);
      expect(await icebirdRows(table)).toEqual([...rows].sort(byId));
      const status = (await jobStatus(s3t, table)).icebergCompaction.status;
      if (status === 'Not_Yet_Run') expect(server.output()).toMatch(/maintenance job\(s\) were interrupted/);
      else expect(status).toBe('Successful');
      // The clock survived the restart.
      const clock = (await (await fetch(`${server.t.endpoint}/_overcast/clock`)).json()) as { offsetMs: number };
      expect(clock.offsetMs).toBe(3_600_000);

      const report = await runMaintenance(server.t, table.arn);
      expect(report.tables[0].jobs.icebergCompaction.status).toBe('Successful');
      table = await reload(io, s3t, table);
      expect(await icebirdRows(table)).toEqual([...rows].sort(byId));
      expect((await jobStatus(s3t, table)).icebergCompaction.status).toBe('Successful');

      // What the killed run wrote is unreferenced: gone from the warehouse after unreferencedDays.
      await advance(server.t, '3d1h');
      await runMaintenance(server.t, table.arn);
      table = await reload(io, s3t, table);
      const referenced = await referencedKeys(io, table);
      const s3 = new S3Client({ ...server.t.clientConfig, maxAttempts: 1 });
      for (const key of await warehouseKeys(s3, table.metadata.location)) expect(referenced.has(key), key).toBe(true);
      expect(await icebirdRows(table)).toEqual([...rows].sort(byId));
    } finally {
      restore();
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
    }
  });
});
