/**
 * Applying a commit to table metadata as the Java reference's `TableMetadata.Builder` does, once
 * its requirements hold (requirements.ts): each update applied in order — schema, spec and sort-order ids reused for an identical one or the highest
 * plus one, `-1` meaning "the one added last", `last-column-id` computed across nested fields,
 * sequence numbers and v3 row ids checked and advanced, refs with the snapshot log, removals that
 * drop dangling refs and statistics, and on build the metadata log (trimmed to
 * `write.metadata.previous-versions-max`) and `last-updated-ms`. Nothing is mutated: the builder
 * copies what it changes. Invalid updates throw `InvalidMetadataError` (a client's 400); stale
 * ones that a retry with fresh metadata may fix throw `CommitFailedError` (409).
 *
 * apply is one long function on purpose: one case per update action of the REST spec.
 */
import { randomUUID } from 'node:crypto';
import {
  checkPartitionFields,
  checkSchema,
  checkSortFields,
  InvalidMetadataError,
  PARTITION_ID_BASE,
  type CheckedSchema,
} from './schema.js';
import type {
  PartitionSpec,
  Schema,
  Snapshot,
  SnapshotLogEntry,
  SnapshotRef,
  SortOrder,
  TableMetadata,
} from './types.js';
import type { TableUpdate } from './updates.js';

import { CommitFailedError } from './requirements.js';

export { CommitFailedError };

/** The highest format version Overcast writes (the Java library's SUPPORTED_TABLE_FORMAT_VERSION is 3 too). */
const SUPPORTED_FORMAT_VERSION = 3;
const MAIN = 'main';
const PREVIOUS_VERSIONS_MAX_DEFAULT = 100;

const invalid = (message: string) => new InvalidMetadataError(message);

export function emptyMetadata(location: string, nowMs: number, formatVersion = 2): TableMetadata {
  return {
    'format-version': formatVersion,
    'table-uuid': randomUUID(),
    location,
    'last-sequence-number': 0,
    'last-updated-ms': nowMs,
    'last-column-id': 0,
    schemas: [],
    'current-schema-id': -1,
    'partition-specs': [],
    'default-spec-id': -1,
    'last-partition-id': PARTITION_ID_BASE - 1,
    properties: {},
    'current-snapshot-id': formatVersion >= 3 ? null : -1n,
    snapshots: [],
    'snapshot-log': [],
    'metadata-log': [],
    'sort-orders': [],
    'default-sort-order-id': -1,
    refs: {},
    statistics: [],
    'partition-statistics': [],
    ...(formatVersion >= 3 ? { 'next-row-id': 0 } : {}),
  };
}

/** Canonical text of a value for structural comparison (bigints included). */
function canon(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x));
}

function sameRef(a: SnapshotRef, b: SnapshotRef): boolean {
  return canon(a) === canon(b);
}

export class MetadataBuilder {
  private m: TableMetadata;
  private changes = 0;
  private lastAddedSchemaId: number | undefined;
  private lastAddedSpecId: number | undefined;
  private lastAddedOrderId: number | undefined;
  /** Ids added by this commit: finding one again keeps it "the last added" (Java's isNewSchema/isNewSpec/isNewOrder). */
  private readonly added = { schema: new Set<number>(), spec: new Set<number>(), order: new Set<number>() };
  private readonly addedSnapshots = new Set<bigint>();
  private readonly mainRefSets: bigint[] = [];
  private removedSnapshots = false;
  private lastUpdatedMs: number | undefined;

  /**
   * @param previousLocation the metadata file `base` was read from (goes into the metadata log);
   *   undefined for a table being created.
   */
  constructor(
    private readonly base: TableMetadata,
    private readonly nowMs: number,
    private readonly previousLocation?: string,
  ) {
    this.m = { ...base };
  }

  get changed(): boolean {
    return this.changes > 0;
  }

  private schemaById(id: number): Schema | undefined {
    return this.m.schemas.find((s) => s['schema-id'] === id);
  }

  private currentSchema(): CheckedSchema {
    const schema = this.schemaById(this.m['current-schema-id']);
    if (!schema) throw invalid('Cannot bind a spec or sort order: the table has no current schema');
    return checkSchema(schema, SUPPORTED_FORMAT_VERSION);
  }

  apply(u: TableUpdate): void {
    switch (u.action) {
      case 'assign-uuid':
        if (u.uuid !== this.m['table-uuid']) this.set({ 'table-uuid': u.uuid });
        return;
      case 'upgrade-format-version':
        return this.upgradeFormatVersion(u['format-version']);
      case 'add-schema':
        this.addSchema(u.schema, u['last-column-id']);
        return;
      case 'set-current-schema':
        return this.setCurrentSchema(u['schema-id']);
      case 'add-spec':
        this.addSpec(u.spec);
        return;
      case 'set-default-spec':
        return this.setDefault('spec', u['spec-id']);
      case 'add-sort-order':
        this.addSortOrder(u['sort-order']);
        return;
      case 'set-default-sort-order':
        return this.setDefault('sort order', u['sort-order-id']);
      case 'add-snapshot':
        return this.addSnapshot(u.snapshot);
      case 'set-snapshot-ref':
        return this.setRef(u['ref-name'], this.refOf(u));
      case 'remove-snapshots':
        return this.removeSnapshots(new Set(u['snapshot-ids']));
      case 'remove-snapshot-ref':
        return this.removeRef(u['ref-name']);
      case 'set-location':
        if (u.location !== this.m.location) this.set({ location: u.location });
        return;
      case 'set-properties':
        if (Object.keys(u.updates).length > 0) this.set({ properties: { ...this.m.properties, ...u.updates } });
        return;
      case 'remove-properties': {
        if (u.removals.length === 0) return;
        const properties = { ...this.m.properties };
        for (const k of u.removals) delete properties[k];
        this.set({ properties });
        return;
      }
      case 'set-statistics': {
        const id = u.statistics['snapshot-id'];
        this.set({ statistics: [...this.m.statistics.filter((s) => s['snapshot-id'] !== id), u.statistics] });
        return;
      }
      case 'remove-statistics':
        if (this.m.statistics.some((s) => s['snapshot-id'] === u['snapshot-id'])) {
          this.set({ statistics: this.m.statistics.filter((s) => s['snapshot-id'] !== u['snapshot-id']) });
        }
        return;
      case 'set-partition-statistics': {
        const file = u['partition-statistics'];
        const rest = this.m['partition-statistics'].filter((s) => s['snapshot-id'] !== file['snapshot-id']);
        this.set({ 'partition-statistics': [...rest, file] });
        return;
      }
      case 'remove-partition-statistics':
        if (this.m['partition-statistics'].some((s) => s['snapshot-id'] === u['snapshot-id'])) {
          this.set({ 'partition-statistics': this.m['partition-statistics'].filter((s) => s['snapshot-id'] !== u['snapshot-id']) });
        }
        return;
      case 'remove-partition-specs': {
        const ids = new Set(u['spec-ids']);
        if (ids.has(this.m['default-spec-id'])) throw invalid('Cannot remove the default partition spec');
        if (ids.size > 0) this.set({ 'partition-specs': this.m['partition-specs'].filter((s) => !ids.has(s['spec-id'])) });
        return;
      }
      case 'remove-schemas': {
        const ids = new Set(u['schema-ids']);
        if (ids.has(this.m['current-schema-id'])) throw invalid('Cannot remove the current schema');
        if (ids.size > 0) this.set({ schemas: this.m.schemas.filter((s) => !ids.has(s['schema-id'])) });
        return;
      }
      case 'add-encryption-key': {
        const keys = this.m['encryption-keys'] ?? [];
        if (!keys.some((k) => k['key-id'] === u['encryption-key']['key-id'])) {
          this.set({ 'encryption-keys': [...keys, u['encryption-key']] });
        }
        return;
      }
      case 'remove-encryption-key': {
        const keys = this.m['encryption-keys'] ?? [];
        if (keys.some((k) => k['key-id'] === u['key-id'])) this.set({ 'encryption-keys': keys.filter((k) => k['key-id'] !== u['key-id']) });
      }
    }
  }

  private set(patch: Partial<TableMetadata>): void {
    this.m = { ...this.m, ...patch };
    this.changes++;
  }

  private upgradeFormatVersion(version: number): void {
    const current = this.m['format-version'];
    if (version > SUPPORTED_FORMAT_VERSION) {
      throw invalid(`Cannot upgrade table to unsupported format version: v${version} (supported: v${SUPPORTED_FORMAT_VERSION})`);
    }
    if (version < current) throw invalid(`Cannot downgrade v${current} table to v${version}`);
    if (version === current) return;
    this.set({ 'format-version': version, ...(version >= 3 && this.m['next-row-id'] === undefined ? { 'next-row-id': 0 } : {}) });
  }

  private addSchema(raw: unknown, givenLastColumnId: number | undefined): number {
    const checked = checkSchema(raw, this.m['format-version']);
    const lastColumnId = this.m['last-column-id'];
    const newLast = givenLastColumnId ?? Math.max(lastColumnId, checked.highestFieldId);
    if (newLast < lastColumnId) throw invalid(`Invalid last column ID: ${newLast} < ${lastColumnId} (previous last column ID)`);
    if (newLast < checked.highestFieldId) {
      throw invalid(`Invalid last column ID: ${newLast} < ${checked.highestFieldId} (highest field ID of the schema)`);
    }
    const shape = (s: Schema) => canon([s.fields, s['identifier-field-ids'] ?? []]);
    const wanted = shape(checked.schema);
    let id = this.m['current-schema-id'];
    let found: Schema | undefined;
    for (const s of this.m.schemas) {
      if (shape(s) === wanted) {
        found = s;
        id = s['schema-id'];
        break;
      }
      if (s['schema-id'] >= id) id = s['schema-id'] + 1;
    }
    if (!found && this.m.schemas.length === 0) id = Math.max(0, id);
    if (found && newLast === lastColumnId) {
      this.lastAddedSchemaId = this.added.schema.has(id) ? id : undefined;
      return id;
    }
    const schema: Schema = { ...checked.schema, 'schema-id': id };
    this.set({ 'last-column-id': newLast, ...(found ? {} : { schemas: [...this.m.schemas, schema] }) });
    this.lastAddedSchemaId = id;
    this.added.schema.add(id);
    return id;
  }

  private setCurrentSchema(schemaId: number): void {
    if (schemaId === -1) {
      if (this.lastAddedSchemaId === undefined) throw invalid('Cannot set last added schema: no schema has been added');
      return this.setCurrentSchema(this.lastAddedSchemaId);
    }
    if (this.m['current-schema-id'] === schemaId) return;
    if (!this.schemaById(schemaId)) throw invalid(`Cannot set current schema to unknown schema: ${schemaId}`);
    this.set({ 'current-schema-id': schemaId });
  }

  private addSpec(raw: Record<string, unknown>): number {
    const checked = this.currentSchema();
    const fields = checkPartitionFields(raw.fields, checked, this.m['last-partition-id']);
    const wanted = canon(fields);
    let id = 0;
    for (const s of this.m['partition-specs']) {
      if (canon(s.fields) === wanted) {
        this.lastAddedSpecId = this.added.spec.has(s['spec-id']) ? s['spec-id'] : undefined;
        return s['spec-id'];
      }
      if (id <= s['spec-id']) id = s['spec-id'] + 1;
    }
    const spec: PartitionSpec = { 'spec-id': id, fields };
    this.set({
      'partition-specs': [...this.m['partition-specs'], spec],
      'last-partition-id': Math.max(this.m['last-partition-id'], ...fields.map((f) => f['field-id'])),
    });
    this.lastAddedSpecId = id;
    this.added.spec.add(id);
    return id;
  }

  private addSortOrder(raw: Record<string, unknown>): number {
    const fields = checkSortFields(raw.fields, this.currentSchema());
    const wanted = canon(fields);
    let id = 1;
    for (const o of this.m['sort-orders']) {
      if (canon(o.fields) === wanted) {
        this.lastAddedOrderId = this.added.order.has(o['order-id']) ? o['order-id'] : undefined;
        return o['order-id'];
      }
      if (id <= o['order-id']) id = o['order-id'] + 1;
    }
    if (fields.length === 0) id = 0;
    const order: SortOrder = { 'order-id': id, fields };
    this.set({ 'sort-orders': [...this.m['sort-orders'], order] });
    this.lastAddedOrderId = id;
    this.added.order.add(id);
    return id;
  }

  private setDefault(kind: 'spec' | 'sort order', id: number): void {
    const last = kind === 'spec' ? this.lastAddedSpecId : this.lastAddedOrderId;
    if (id === -1) {
      if (last === undefined) throw invalid(`Cannot set last added ${kind}: no ${kind} has been added`);
      return this.setDefault(kind, last);
    }
    const key = kind === 'spec' ? 'default-spec-id' : 'default-sort-order-id';
    if (this.m[key] === id) return;
    const exists =
      kind === 'spec' ? this.m['partition-specs'].some((s) => s['spec-id'] === id) : this.m['sort-orders'].some((o) => o['order-id'] === id);
    if (!exists) throw invalid(`Cannot set default ${kind === 'spec' ? 'partition spec' : 'sort order'} to unknown ${kind}: ${id}`);
    this.set({ [key]: id } as Partial<TableMetadata>);
  }

  private addSnapshot(snapshot: Snapshot): void {
    const m = this.m;
    if (m.schemas.length === 0) throw invalid('Attempting to add a snapshot before a schema is added');
    if (m['partition-specs'].length === 0) throw invalid('Attempting to add a snapshot before a partition spec is added');
    if (m['sort-orders'].length === 0) throw invalid('Attempting to add a snapshot before a sort order is added');
    const id = snapshot['snapshot-id'];
    if (m.snapshots.some((s) => s['snapshot-id'] === id)) throw invalid(`Snapshot already exists for id: ${id}`);
    const seq = snapshot['sequence-number'] ?? 0;
    const parent = snapshot['parent-snapshot-id'];
    if (m['format-version'] > 1 && !(seq > m['last-sequence-number'] || parent === undefined || parent === null)) {
      throw new CommitFailedError(
        `Validation failed, please retry: Cannot add snapshot with sequence number ${seq} older than last sequence number ${m['last-sequence-number']}`,
      );
    }
    const patch: Partial<TableMetadata> = { snapshots: [...m.snapshots, snapshot], 'last-sequence-number': seq };
    if (m['format-version'] >= 3) {
      const nextRowId = m['next-row-id'] ?? 0;
      if (snapshot['first-row-id'] === undefined) throw invalid('Cannot add a snapshot: first-row-id is null');
      if (snapshot['first-row-id'] < nextRowId) {
        throw new CommitFailedError(
          `Validation failed, please retry: Cannot add a snapshot, first-row-id is behind table next-row-id: ${snapshot['first-row-id']} < ${nextRowId}`,
        );
      }
      patch['next-row-id'] = nextRowId + (snapshot['added-rows'] ?? 0);
    }
    this.set(patch);
    this.addedSnapshots.add(id);
  }

  private refOf(u: Extract<TableUpdate, { action: 'set-snapshot-ref' }>): SnapshotRef {
    const ref: SnapshotRef = { 'snapshot-id': u['snapshot-id'], type: u.type };
    const min = u['min-snapshots-to-keep'];
    const maxSnapshotAge = u['max-snapshot-age-ms'];
    const maxRefAge = u['max-ref-age-ms'];
    if (u.type === 'tag' && min !== undefined) throw invalid('Tags do not support setting minSnapshotsToKeep');
    if (u.type === 'tag' && maxSnapshotAge !== undefined) throw invalid('Tags do not support setting maxSnapshotAgeMs');
    if (min !== undefined && min <= 0) throw invalid('Min snapshots to keep must be greater than 0');
    if (maxSnapshotAge !== undefined && maxSnapshotAge <= 0) throw invalid('Max snapshot age must be greater than 0 ms');
    if (maxRefAge !== undefined && maxRefAge <= 0) throw invalid('Max reference age must be greater than 0');
    if (min !== undefined) ref['min-snapshots-to-keep'] = min;
    if (maxSnapshotAge !== undefined) ref['max-snapshot-age-ms'] = maxSnapshotAge;
    if (maxRefAge !== undefined) ref['max-ref-age-ms'] = maxRefAge;
    return ref;
  }

  private setRef(name: string, ref: SnapshotRef): void {
    const existing = this.m.refs[name];
    if (existing && sameRef(existing, ref)) return;
    const snapshot = this.m.snapshots.find((s) => s['snapshot-id'] === ref['snapshot-id']);
    if (!snapshot) throw invalid(`Cannot set ${name} to unknown snapshot: ${ref['snapshot-id']}`);
    if (name === MAIN && ref.type !== 'branch') throw invalid('Cannot set main to a tag, it must be a branch');
    const patch: Partial<TableMetadata> = { refs: { ...this.m.refs, [name]: ref } };
    if (name === MAIN) {
      this.lastUpdatedMs ??= this.nowMs;
      // A rollback to an existing snapshot is logged at the time of the change.
      const at = this.addedSnapshots.has(ref['snapshot-id']) ? snapshot['timestamp-ms'] : this.lastUpdatedMs;
      patch['current-snapshot-id'] = ref['snapshot-id'];
      patch['snapshot-log'] = [...this.m['snapshot-log'], { 'timestamp-ms': at, 'snapshot-id': ref['snapshot-id'] }];
      this.mainRefSets.push(ref['snapshot-id']);
    }
    this.set(patch);
  }

  private removeRef(name: string): void {
    const patch: Partial<TableMetadata> = {};
    if (name === MAIN) patch['current-snapshot-id'] = -1n;
    if (this.m.refs[name]) {
      const refs = { ...this.m.refs };
      delete refs[name];
      patch.refs = refs;
      this.set(patch);
    } else if (name === MAIN) {
      this.m = { ...this.m, ...patch };
    }
  }

  private removeSnapshots(ids: Set<bigint>): void {
    const kept = this.m.snapshots.filter((s) => !ids.has(s['snapshot-id']));
    if (kept.length === this.m.snapshots.length) return;
    this.removedSnapshots = true;
    this.set({
      snapshots: kept,
      statistics: this.m.statistics.filter((s) => !ids.has(s['snapshot-id'])),
      'partition-statistics': this.m['partition-statistics'].filter((s) => !ids.has(s['snapshot-id'])),
    });
    const live = new Set(kept.map((s) => s['snapshot-id']));
    for (const [name, ref] of Object.entries(this.m.refs)) if (!live.has(ref['snapshot-id'])) this.removeRef(name);
  }

  /** The snapshot log without intermediate snapshots of this commit, and cut before any removed snapshot. */
  private snapshotLog(current: bigint | null): SnapshotLogEntry[] {
    const intermediate = new Set(this.mainRefSets.filter((id) => this.addedSnapshots.has(id) && id !== current));
    if (intermediate.size === 0 && !this.removedSnapshots) return this.m['snapshot-log'];
    const live = new Set(this.m.snapshots.map((s) => s['snapshot-id']));
    let log: SnapshotLogEntry[] = [];
    for (const entry of this.m['snapshot-log']) {
      if (live.has(entry['snapshot-id'])) {
        if (!intermediate.has(entry['snapshot-id'])) log.push(entry);
      } else if (this.removedSnapshots) {
        log = [];
      }
    }
    return log;
  }

  /** The new metadata, or undefined when nothing changed (no commit is needed). */
  build(): TableMetadata | undefined {
    if (this.changes === 0) return undefined;
    const m = { ...this.m };
    const current = m['current-snapshot-id'] ?? -1n;
    const hasCurrent = current !== -1n && m.snapshots.some((s) => s['snapshot-id'] === current);
    m['current-snapshot-id'] = hasCurrent ? current : m['format-version'] >= 3 ? null : -1n;
    m['snapshot-log'] = this.snapshotLog(hasCurrent ? current : null);
    for (const s of m.snapshots) {
      if ((s['sequence-number'] ?? 0) > m['last-sequence-number']) {
        throw invalid(`Invalid snapshot with sequence number ${s['sequence-number']} greater than last sequence number ${m['last-sequence-number']}`);
      }
    }
    if (m.schemas.length > 0 && !this.schemaById(m['current-schema-id'])) throw invalid('The table has no current schema');
    if (this.previousLocation !== undefined) {
      const max = Math.max(1, Number(m.properties['write.metadata.previous-versions-max'] ?? PREVIOUS_VERSIONS_MAX_DEFAULT) || PREVIOUS_VERSIONS_MAX_DEFAULT);
      const log = m['metadata-log'].length >= max ? m['metadata-log'].slice(m['metadata-log'].length - max + 1) : [...m['metadata-log']];
      log.push({ 'timestamp-ms': this.base['last-updated-ms'], 'metadata-file': this.previousLocation });
      m['metadata-log'] = log;
    }
    m['last-updated-ms'] = this.lastUpdatedMs ?? this.nowMs;
    return m;
  }
}
