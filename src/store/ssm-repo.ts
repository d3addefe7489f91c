/**
 * SSM Parameter Store's rows: typed reads and writes of parameters (current state) and their
 * retained versions over the metadata store. Lookups are by primary key; listings are index range
 * scans starting after the last name returned (by name for prefixes and recursive paths, by
 * parent for one hierarchy level), so a page costs the page.
 */
import type { MetadataStore } from './database.js';
import { upperBound } from './s3-repo.js';

/** The fields every version of a parameter carries. */
export interface ParameterFields {
  version: number;
  type: string;
  description: string | null;
  key_id: string | null;
  allowed_pattern: string | null;
  tier: string;
  policies: string | null;
  data_type: string;
  last_modified: number;
  last_modified_user: string;
  value: string;
}

export interface ParameterRow extends ParameterFields {
  account: string;
  region: string;
  name: string;
  parent: string;
  /** JSON object of tag key → value, in insertion order. */
  tags: string;
}

export interface VersionRow extends ParameterFields {
  account: string;
  region: string;
  name: string;
  /** JSON array of label strings. */
  labels: string;
}

const FIELD_NAMES = [
  'version',
  'type',
  'description',
  'key_id',
  'allowed_pattern',
  'tier',
  'policies',
  'data_type',
  'last_modified',
  'last_modified_user',
  'value',
] as const satisfies readonly (keyof ParameterFields)[];
const FIELDS = FIELD_NAMES.join(', ');
const FIELD_SLOTS = FIELD_NAMES.map(() => '?').join(', ');

/** The values of FIELDS, in order, for an INSERT. */
function fieldValues(row: ParameterFields): unknown[] {
  return FIELD_NAMES.map((f) => row[f]);
}

export class SsmRepo {
  constructor(private readonly store: MetadataStore) {}

  get(account: string, region: string, name: string): ParameterRow | undefined {
    return this.store
      .stmt('SELECT * FROM ssm_parameters WHERE account = ? AND region = ? AND name = ?')
      .get(account, region, name) as ParameterRow | undefined;
  }

  /** Inserts the parameter or replaces its current state. */
  put(row: ParameterRow): void {
    this.store
      .stmt(
        `INSERT OR REPLACE INTO ssm_parameters (account, region, name, parent, tags, ${FIELDS})
         VALUES (?, ?, ?, ?, ?, ${FIELD_SLOTS})`,
      )
      .run(row.account, row.region, row.name, row.parent, row.tags, ...fieldValues(row));
  }

  setTags(account: string, region: string, name: string, tags: string): void {
    this.store
      .stmt('UPDATE ssm_parameters SET tags = ? WHERE account = ? AND region = ? AND name = ?')
      .run(tags, account, region, name);
  }

  /** Deletes the parameter and its history; true when it existed. */
  delete(account: string, region: string, name: string): boolean {
    const res = this.store
      .stmt('DELETE FROM ssm_parameters WHERE account = ? AND region = ? AND name = ?')
      .run(account, region, name);
    this.store
      .stmt('DELETE FROM ssm_parameter_versions WHERE account = ? AND region = ? AND name = ?')
      .run(account, region, name);
    return res.changes > 0;
  }

  /** Parameters whose name starts with `prefix`, after `after`, in name order. */
  listByPrefix(account: string, region: string, prefix: string, after: string, limit: number): ParameterRow[] {
    return this.store
      .stmt(
        `SELECT * FROM ssm_parameters WHERE account = ? AND region = ? AND name > ? AND name >= ? AND name < ?
         ORDER BY name LIMIT CAST(? AS INTEGER)`,
      )
      .all(account, region, after, prefix, upperBound(prefix), limit) as ParameterRow[];
  }

  /** Parameters directly under `parent` (one hierarchy level), after `after`, in name order. */
  listByParent(account: string, region: string, parent: string, after: string, limit: number): ParameterRow[] {
    return this.store
      .stmt(
        `SELECT * FROM ssm_parameters WHERE account = ? AND region = ? AND parent = ? AND name > ?
         ORDER BY name LIMIT CAST(? AS INTEGER)`,
      )
      .all(account, region, parent, after, limit) as ParameterRow[];
  }

  insertVersion(row: VersionRow): void {
    this.store
      .stmt(
        `INSERT INTO ssm_parameter_versions (account, region, name, labels, ${FIELDS})
         VALUES (?, ?, ?, ?, ${FIELD_SLOTS})`,
      )
      .run(row.account, row.region, row.name, row.labels, ...fieldValues(row));
  }

  getVersion(account: string, region: string, name: string, version: number): VersionRow | undefined {
    return this.store
      .stmt('SELECT * FROM ssm_parameter_versions WHERE account = ? AND region = ? AND name = ? AND version = ?')
      .get(account, region, name, version) as VersionRow | undefined;
  }

  /** Versions after `afterVersion`, oldest first. */
  listVersions(account: string, region: string, name: string, afterVersion: number, limit: number): VersionRow[] {
    return this.store
      .stmt(
        `SELECT * FROM ssm_parameter_versions WHERE account = ? AND region = ? AND name = ? AND version > ?
         ORDER BY version LIMIT CAST(? AS INTEGER)`,
      )
      .all(account, region, name, afterVersion, limit) as VersionRow[];
  }

  countVersions(account: string, region: string, name: string): number {
    const row = this.store
      .stmt('SELECT COUNT(*) AS n FROM ssm_parameter_versions WHERE account = ? AND region = ? AND name = ?')
      .get(account, region, name) as { n: number };
    return row.n;
  }

  deleteVersion(account: string, region: string, name: string, version: number): void {
    this.store
      .stmt('DELETE FROM ssm_parameter_versions WHERE account = ? AND region = ? AND name = ? AND version = ?')
      .run(account, region, name, version);
  }

  setLabels(account: string, region: string, name: string, version: number, labels: string[]): void {
    this.store
      .stmt('UPDATE ssm_parameter_versions SET labels = ? WHERE account = ? AND region = ? AND name = ? AND version = ?')
      .run(JSON.stringify(labels), account, region, name, version);
  }
}
