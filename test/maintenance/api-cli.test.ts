/**
 * The clock and the trigger from the outside: the in-process API (`advanceClock`, `runMaintenance`
 * of `startOvercast()`, whose in-memory server runs no maintenance by itself), a server with the
 * schedule on running due jobs by itself (and only when due), and the `overcast clock` /
 * `overcast maintenance run` commands against a running server, including their refusals of bad
 * input.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GetTableMaintenanceJobStatusCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOvercast, type Overcast } from '../../src/index.js';
import { s3FileIO } from '../helpers/s3-file-io.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventually } from '../s3tables/helpers.js';
import { reload, tableWithData } from './helpers.js';

const run = promisify(execFile);

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'overcast.js');

let overcast: Overcast;
let s3t: S3TablesClient;
let server: TestServer;
beforeAll(async () => {
  overcast = await startOvercast({ warm: false, logLevel: 'error' });
  s3t = new S3TablesClient({ ...overcast.clientConfig, maxAttempts: 1 });
  // The helpers take a TestServer: the same endpoint and settings.
  server = { server: overcast.server, endpoint: overcast.endpoint, region: overcast.region, credentials: overcast.credentials, clientConfig: overcast.clientConfig, env: overcast.env, stop: overcast.stop };
});
afterAll(async () => overcast.stop());

describe('in-process API', () => {
  it('advances the clock and runs maintenance, and nothing runs unless asked', async () => {
    const io = s3FileIO(server);
    let { table } = await tableWithData(server, io, s3t, { appends: 3, compaction: false });
    await new Promise((r) => setTimeout(r, 200));
    expect((await s3t.send(new GetTableMaintenanceJobStatusCommand(table.id))).status?.icebergSnapshotManagement?.status).toBe('Not_Yet_Run');

    const before = Date.now();
    const clock = await overcast.advanceClock('121h');
    expect(clock.offsetMs).toBe(121 * 3_600_000);
    expect(clock.now.getTime()).toBeGreaterThanOrEqual(before + clock.offsetMs);
    const report = await overcast.runMaintenance({ tableArn: table.arn });
    expect(report.tables).toHaveLength(1);
    expect(report.tables[0]!.jobs.icebergSnapshotManagement).toMatchObject({ status: 'Successful', expiredSnapshots: 2 });
    table = await reload(io, s3t, table);
    expect(table.metadata.snapshots).toHaveLength(1);

    await expect(overcast.advanceClock('-1h')).rejects.toThrow(/Invalid duration/);
    await expect(overcast.advanceClock(0)).rejects.toThrow(/Invalid duration/);
    await expect(overcast.runMaintenance({ tableArn: 'arn:nope' })).rejects.toThrow(/Invalid table ARN/);
    expect((await overcast.runMaintenance({ tableArn: `${table.id.tableBucketARN}/table/00000000-0000-4000-8000-000000000000` })).tables).toEqual([]);
  });
});

describe('the schedule', () => {
  it('runs the jobs that are due by itself, and not again until they are due', async () => {
    const s = await startTestServer({ maintenanceIntervalMs: 150 });
    try {
      const client = new S3TablesClient({ ...s.clientConfig, maxAttempts: 1 });
      const io = s3FileIO(s);
      let { table } = await tableWithData(s, io, client, { appends: 3, compaction: false });
      const status = async () => (await client.send(new GetTableMaintenanceJobStatusCommand(table.id))).status!;
      expect(await eventually(async () => (await status()).icebergSnapshotManagement?.status === 'Successful')).toBe(true);
      const first = (await status()).icebergSnapshotManagement!.lastRunTimestamp!.getTime();
      // Snapshot management is due once a day of Overcast time: a few passes later it has not run again.
      await new Promise((r) => setTimeout(r, 600));
      expect((await status()).icebergSnapshotManagement!.lastRunTimestamp!.getTime()).toBe(first);
      expect((await reload(io, client, table)).metadata.snapshots).toHaveLength(3);
      // A day and more later it is due, and the old snapshots go.
      const res = await fetch(`${s.endpoint}/_overcast/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance: '6d' }) });
      expect(res.status).toBe(200);
      expect(await eventually(async () => (await reload(io, client, table)).metadata.snapshots.length === 1)).toBe(true);
      table = await reload(io, client, table);
      expect((await status()).icebergSnapshotManagement!.lastRunTimestamp!.getTime()).toBeGreaterThan(first + 5 * 86_400_000);
    } finally {
      await s.stop();
    }
  });
});

describe('overcast clock and overcast maintenance', () => {
  it('show and move the clock, run maintenance for one table, and refuse bad input', async () => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, AWS_ENDPOINT_URL: overcast.endpoint };
    const shown = await run(process.execPath, [BIN, 'clock'], { env });
    expect(shown.stdout).toMatch(/^Overcast's clock: \d{4}-\d\d-\d\dT.* \(121 h ahead of the wall clock\)\n$/);
    const moved = await run(process.execPath, [BIN, 'clock', 'advance', '1d12h'], { env });
    expect(moved.stdout).toContain('(157 h ahead of the wall clock)');
    await expect(run(process.execPath, [BIN, 'clock', 'advance', 'soon'], { env })).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Invalid duration') });
    await expect(run(process.execPath, [BIN, 'clock', 'backwards'], { env })).rejects.toMatchObject({ code: 2 });

    const io = s3FileIO(server);
    const { table } = await tableWithData(server, io, s3t, { appends: 2 });
    const out = await run(process.execPath, [BIN, 'maintenance', 'run', '--table', table.arn], { env });
    expect(out.stdout).toContain(`${table.id.namespace}.${table.id.name}  ${table.arn}`);
    expect(out.stdout).toMatch(/icebergCompaction\s+Successful\s+strategy=binpack rewrittenFiles=2 addedFiles=1/);
    expect(out.stdout).toMatch(/icebergSnapshotManagement\s+Successful/);
    const json = await run(process.execPath, [BIN, 'maintenance', 'run', '--table', table.arn, '--json'], { env });
    expect(JSON.parse(json.stdout).tables[0].tableArn).toBe(table.arn);
    await expect(run(process.execPath, [BIN, 'maintenance', 'run', '--table', 'bad'], { env })).rejects.toMatchObject({ code: 2 });
    await expect(run(process.execPath, [BIN, 'maintenance'], { env })).rejects.toMatchObject({ code: 2 });
    const closed = await freePort();
    await expect(
      run(process.execPath, [BIN, 'maintenance', 'run'], { env: { ...env, AWS_ENDPOINT_URL: `http://127.0.0.1:${closed}` } }),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('cannot reach Overcast') });
  });
});
