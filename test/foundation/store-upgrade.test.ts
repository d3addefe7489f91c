/**
 * A data directory written before cloudformation-003 and s3tables-002 upgrades in place: resource
 * rows and table configurations survive the move to rowid tables, their keys stay unique, and a
 * resource row of an S3 Tables table (~1.3 KB) now fits in its b-tree page instead of taking an
 * overflow page of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MetadataStore } from '../../src/store/database.js';
import { MIGRATIONS } from '../../src/store/schema/index.js';

const NEW = new Set(['cloudformation-003', 's3tables-002']);
const dirs: string[] = [];

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'overcast-upgrade-'));
  dirs.push(d);
  return d;
}

const STACK = 'arn:aws:cloudformation:us-east-1:000000000000:stack/s/0b6b1c52-6d1f-4c1e-9a4e-6d3c5c1f2a10';
const DATA = JSON.stringify({ type: 'AWS::S3Tables::Table', props: { TableName: 't', padding: 'x'.repeat(1200) } });

function insertResource(store: MetadataStore, logicalId: string, seq: number): void {
  store.db
    .prepare(
      `INSERT INTO cfn_resources (stack_id, logical_id, seq, type, physical_id, status, status_reason, updated_at, data, pending)
       VALUES (?, ?, ?, 'AWS::S3Tables::Table', ?, 'CREATE_COMPLETE', NULL, 1, ?, NULL)`,
    )
    .run(STACK, logicalId, seq, `arn:aws:s3tables:us-east-1:000000000000:bucket/b/table/${logicalId}`, DATA);
}

function insertConfig(store: MetadataStore, id: string): void {
  store.db
    .prepare(
      `INSERT INTO s3t_table_configs (id, encryption, storage_class, maintenance, tags)
       VALUES (?, '{"sseAlgorithm":"AES256"}', 'STANDARD', '{}', '{}')`,
    )
    .run(id);
}

describe('store upgrade', () => {
  it('moves resources and table configurations to rowid tables, keeping rows and keys', () => {
    const dir = tempDir();
    const old = new MetadataStore({ dataDir: dir });
    old.migrate(MIGRATIONS.filter((m) => !NEW.has(m.id)));
    for (let i = 0; i < 5; i++) insertResource(old, `T${i}`, i);
    old.db.prepare("UPDATE cfn_resources SET drift = '{\"status\":\"IN_SYNC\"}' WHERE logical_id = 'T1'").run();
    insertConfig(old, 'id-1');
    insertConfig(old, 'id-2');
    old.close();

    const store = new MetadataStore({ dataDir: dir });
    try {
      store.migrate(MIGRATIONS);
      const applied = (store.db.prepare('SELECT id FROM _migrations').all() as { id: string }[]).map((r) => r.id);
      expect(applied).toEqual(expect.arrayContaining([...NEW]));
      const sqlOf = (name: string) =>
        (store.db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").get(name) as { sql: string }).sql;
      expect(sqlOf('cfn_resources')).not.toMatch(/WITHOUT ROWID/);
      expect(sqlOf('s3t_table_configs')).not.toMatch(/WITHOUT ROWID/);

      const rows = store.db.prepare('SELECT logical_id, seq, data, drift FROM cfn_resources WHERE stack_id = ? ORDER BY seq').all(STACK) as {
        logical_id: string;
        seq: number;
        data: string;
        drift: string | null;
      }[];
      expect(rows.map((r) => r.logical_id)).toEqual(['T0', 'T1', 'T2', 'T3', 'T4']);
      expect(rows.every((r) => r.data === DATA)).toBe(true);
      expect(rows[1]!.drift).toBe('{"status":"IN_SYNC"}');
      expect(() => insertResource(store, 'T0', 9)).toThrow(/UNIQUE/);

      const configs = store.db.prepare('SELECT id, encryption FROM s3t_table_configs ORDER BY id').all();
      expect(configs).toEqual([
        { id: 'id-1', encryption: '{"sseAlgorithm":"AES256"}' },
        { id: 'id-2', encryption: '{"sseAlgorithm":"AES256"}' },
      ]);
      expect(() => insertConfig(store, 'id-1')).toThrow(/UNIQUE/);

      // The indexes the repositories read by are back.
      const indexes = (store.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'cfn_resources'").all() as { name: string }[]).map(
        (r) => r.name,
      );
      expect(indexes).toEqual(expect.arrayContaining(['cfn_resources_by_order', 'cfn_resources_by_physical']));
    } finally {
      store.close();
    }
  });

  it('keeps a resource row of a table in its page, without an overflow page', () => {
    const store = new MetadataStore({ dataDir: tempDir() });
    try {
      store.migrate(MIGRATIONS);
      for (let i = 0; i < 30; i++) insertResource(store, `T${i}`, i);
      const pages = store.db
        .prepare("SELECT pagetype, count(*) AS n FROM dbstat WHERE name = 'cfn_resources' GROUP BY pagetype")
        .all() as { pagetype: string; n: number }[];
      expect(pages.find((p) => p.pagetype === 'overflow')).toBeUndefined();
      // 30 rows of ~1.4 KB: two or three to a leaf page.
      expect(pages.filter((p) => p.pagetype === 'leaf').reduce((n, p) => n + p.n, 0)).toBeLessThanOrEqual(15);
    } finally {
      store.close();
    }
  });
});
