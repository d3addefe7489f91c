/**
 * WAL checkpoints between requests: after a burst of writes and a moment without any, the store's
 * write-ahead log is checkpointed and emptied, so the checkpoint SQLite would otherwise run inside
 * a later commit (fsyncs and all) does not land on a request; and what was written is all there
 * after a restart.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { GetTableCommand } from '@aws-sdk/client-s3tables';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, tempDir } from '../helpers/server.js';
import { clients, eventually, makeBucket, makeNamespace, makeTable } from '../s3tables/helpers.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const SCHEMA = { iceberg: { schema: { fields: [{ name: 'id', type: 'long', required: true }] } } };

describe('WAL checkpoints', () => {
  it('empties the log once writes pause, and keeps every write', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    let t = await startTestServer({ dataDir: dir.path });
    cleanups.push(() => t.stop());
    const { s3t } = clients(t);
    const bucketArn = await makeBucket(s3t);
    const namespace = await makeNamespace(s3t, bucketArn);
    const tables: string[] = [];
    for (let i = 0; i < 20; i++) tables.push((await makeTable(s3t, { tableBucketARN: bucketArn, namespace, metadata: SCHEMA })).tableArn);
    const wal = join(dir.path, 'overcast.db-wal');
    expect(statSync(wal).size).toBeGreaterThan(0);
    expect(await eventually(async () => statSync(wal).size === 0, 3000)).toBe(true);

    await t.stop();
    t = await startTestServer({ dataDir: dir.path });
    for (const tableArn of tables) {
      const got = await clients(t).s3t.send(new GetTableCommand({ tableArn }));
      expect(got.metadataLocation).toMatch(/\.metadata\.json$/);
    }
  });
});
