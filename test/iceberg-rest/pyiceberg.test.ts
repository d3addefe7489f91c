/**
 * pyiceberg against the catalog, configured as the AWS guide configures it for S3 Tables (REST,
 * SigV4, signing name s3tables) with only the endpoint changed: a table's whole life with data
 * written and read by pyarrow through Overcast's S3 (table_life.py). Optional: it runs when
 * OVERCAST_PYICEBERG_PYTHON names an interpreter that has pyiceberg and pyarrow, and is skipped
 * otherwise — CI installs neither.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from '../helpers/fixture.js';
import { makeBucket } from '../s3tables/helpers.js';

const python = process.env.OVERCAST_PYICEBERG_PYTHON;
const script = fileURLToPath(new URL('./pyiceberg/table_life.py', import.meta.url));

if (!python) {
  console.info('pyiceberg suite skipped: set OVERCAST_PYICEBERG_PYTHON to a python with pyiceberg and pyarrow to run it.');
}

describe.skipIf(!python)('pyiceberg REST catalog with SigV4 (OVERCAST_PYICEBERG_PYTHON)', () => {
  it('creates, appends, evolves, time-travels, conflicts, renames and purges a table', async ({ server: t, s3tables }) => {
    const arn = await makeBucket(s3tables);
    const { stdout } = await promisify(execFile)(python!, [script, t.endpoint, arn], {
      env: { ...t.env, AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' },
      timeout: 120_000,
    });
    const out = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(out.namespaces).toEqual([['sales']]);
    expect(out.location).toMatch(/^s3:\/\/[a-z0-9-]+--table-s3$/);
    expect(out.rows).toEqual([
      { id: 1, name: 'a', score: null },
      { id: 2, name: 'b', score: null },
      { id: 3, name: 'c', score: null },
      { id: 4, name: 'd', score: 9.5 },
    ]);
    expect(out.first_snapshot_rows).toEqual([1, 2, 3]);
    expect(out.snapshots).toBe(2);
    expect(out.stale_commit).toBe('CommitFailedException');
    expect(out.count_after_retry).toBe(6);
    expect(out.renamed_rows).toBe(6);
    expect(out.old_exists).toBe(false);
    expect(out.plain_drop).toBe('BadRequestError');
    expect(out.after_purge_exists).toBe(false);
  });
});
