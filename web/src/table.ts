/**
 * A table's page: its schema as a tree (structs, lists and maps unfold), partition spec and sort
 * order with source columns named, properties, snapshots with their summaries (operation,
 * files and records added and deleted, the engine that committed when it says), the metadata
 * history, maintenance configuration and job status, policies, and a preview of its rows — the
 * current snapshot or, by time travel, any older one.
 */
import { get } from './api.js';
import { formatDate, h, pretty, replace, type Child } from './dom.js';
import { setQuery, to } from './links.js';
import { code, crumbs, kv, table, tabs } from './ui.js';

type IcebergType = string | { type: 'struct'; fields: Field[] } | { type: 'list'; 'element-id': number; element: IcebergType; 'element-required': boolean } | { type: 'map'; 'key-id': number; key: IcebergType; 'value-id': number; value: IcebergType; 'value-required': boolean };
interface Field {
  id: number;
  name: string;
  required: boolean;
  type: IcebergType;
  doc?: string;
}
interface Schema {
  'schema-id': number;
  fields: Field[];
  'identifier-field-ids'?: number[];
}
interface Snapshot {
  'snapshot-id': string;
  'parent-snapshot-id'?: string;
  'timestamp-ms': number;
  'sequence-number'?: number;
  'schema-id'?: number;
  summary?: Record<string, string>;
  'manifest-list'?: string;
}
interface Metadata {
  formatVersion: number;
  tableUuid: string;
  location: string;
  lastUpdated: number;
  currentSchemaId: number;
  schemas: Schema[];
  defaultSpecId: number;
  partitionSpecs: { 'spec-id': number; fields: { 'source-id': number; 'field-id': number; name: string; transform: string }[] }[];
  defaultSortOrderId: number;
  sortOrders: { 'order-id': number; fields: { 'source-id': number; transform: string; direction: string; 'null-order': string }[] }[];
  properties: Record<string, string>;
  currentSnapshotId: string | null;
  refs: Record<string, { 'snapshot-id': string; type: string }>;
  snapshotCount: number;
  snapshots: Snapshot[];
  snapshotLog: { 'snapshot-id': string; 'timestamp-ms': number }[];
  metadataLog: { 'metadata-file': string; 'timestamp-ms': number }[];
}
interface TableDetail {
  table: { name: string; tableARN: string; namespace: string[]; type: string; format: string; versionToken: string; metadataLocation?: string; warehouseLocation: string; createdAt: string; createdBy: string; modifiedAt: string; modifiedBy: string; ownerAccountId: string; managedByService?: string };
  bucketArn: string;
  warehouseBucket?: string;
  metadata?: Metadata;
  maintenance?: unknown;
  jobStatus?: Record<string, { status?: string; lastRunTimestamp?: string; failureMessage?: string }>;
  policy?: string;
  bucketPolicy?: string;
  encryption?: unknown;
  storageClass?: unknown;
  replication?: unknown;
  replicationStatus?: unknown;
  recordExpiration?: unknown;
}
interface Preview {
  snapshotId: string | null;
  schemaId: number;
  columns: { id: number; name: string; type: string }[];
  rows: unknown[][];
  more: boolean;
  filesRead: number;
  filesTotal: number;
}

function typeLabel(t: IcebergType): string {
  if (typeof t === 'string') return t;
  if (t.type === 'list') return 'list';
  if (t.type === 'map') return 'map';
  return 'struct';
}

/** One field with its nested fields beneath it (native disclosure: keyboard and screen readers). */
function fieldItem(f: { id: number; name: string; required: boolean; type: IcebergType; doc?: string }, identifier: Set<number>): HTMLElement {
  const head: Child[] = [
    h('span', { class: 'field-name' }, f.name),
    ' ',
    h('span', { class: 'field-type' }, typeLabel(f.type)),
    ' ',
    h('span', { class: f.required ? 'req' : 'opt' }, f.required ? 'required' : 'optional'),
    h('span', { class: 'field-id' }, ` id ${f.id}`),
    identifier.has(f.id) ? h('span', { class: 'ident' }, ' identifier') : null,
    f.doc ? h('span', { class: 'doc' }, ` — ${f.doc}`) : null,
  ];
  const t = f.type;
  let children: HTMLElement[] = [];
  if (typeof t !== 'string') {
    if (t.type === 'struct') children = t.fields.map((c) => fieldItem(c, identifier));
    else if (t.type === 'list') children = [fieldItem({ id: t['element-id'], name: 'element', required: t['element-required'], type: t.element }, identifier)];
    else children = [fieldItem({ id: t['key-id'], name: 'key', required: true, type: t.key }, identifier), fieldItem({ id: t['value-id'], name: 'value', required: t['value-required'], type: t.value }, identifier)];
  }
  if (!children.length) return h('li', { class: 'field' }, head);
  return h('li', { class: 'field' }, h('details', { open: true }, h('summary', {}, head), h('ul', {}, children)));
}

export function schemaTree(schema: Schema): HTMLElement {
  const identifier = new Set(schema['identifier-field-ids'] ?? []);
  return h('ul', { class: 'schema-tree', 'aria-label': `Schema ${schema['schema-id']}` }, schema.fields.map((f) => fieldItem(f, identifier)));
}

function columnName(m: Metadata, id: number): string {
  const walk = (fields: Field[], path: string): string | undefined => {
    for (const f of fields) {
      const name = path ? `${path}.${f.name}` : f.name;
      if (f.id === id) return name;
      if (typeof f.type !== 'string' && f.type.type === 'struct') {
        const inner = walk(f.type.fields, name);
        if (inner) return inner;
      }
    }
    return undefined;
  };
  for (const s of [...m.schemas].reverse()) {
    const found = walk(s.fields, '');
    if (found) return found;
  }
  return `#${id}`;
}

const summaryOf = (s: Snapshot, key: string) => s.summary?.[key] ?? '—';
/** Counts a summary leaves out are zero (writers omit deleted-* when nothing was deleted). */
const countOf = (s: Snapshot, key: string) => s.summary?.[key] ?? '0';

function snapshotsTab(d: TableDetail, m: Metadata, openPreview: (id: string) => void): Child {
  const snaps = [...m.snapshots].reverse();
  const engine = (s: Snapshot) => [s.summary?.['engine-name'], s.summary?.['engine-version'], s.summary?.['app-id']].filter(Boolean).join(' ') || '—';
  return [
    h('p', {}, `${m.snapshotCount} snapshot(s)`, m.snapshotCount > m.snapshots.length ? `, the newest ${m.snapshots.length} shown` : '', '. Refs: ', Object.entries(m.refs).map(([k, r]) => `${k} → ${r['snapshot-id']} (${r.type})`).join('; ') || 'none'),
    table(
      ['Snapshot', 'Committed', 'Operation', 'Files +/−', 'Records +/−', 'Total records', 'Schema', 'Committed by', ''],
      snaps.map((s) => [
        h('span', { class: 'mono' }, s['snapshot-id'], s['snapshot-id'] === m.currentSnapshotId ? h('span', { class: 'badge st-good' }, 'current') : null),
        formatDate(s['timestamp-ms']),
        summaryOf(s, 'operation'),
        `+${countOf(s, 'added-data-files')} / −${countOf(s, 'deleted-data-files')}`,
        `+${countOf(s, 'added-records')} / −${countOf(s, 'deleted-records')}`,
        summaryOf(s, 'total-records'),
        String(s['schema-id'] ?? '—'),
        engine(s),
        h('button', { type: 'button', onclick: () => openPreview(s['snapshot-id']), 'aria-label': `Preview rows of snapshot ${s['snapshot-id']}` }, 'Preview'),
      ]),
      'Snapshots, newest first',
    ),
    h('h2', {}, 'Metadata history'),
    table(
      ['Written', 'Metadata file'],
      [...m.metadataLog.map((e) => [formatDate(e['timestamp-ms']), h('span', { class: 'mono' }, e['metadata-file'])]), [formatDate(m.lastUpdated), h('span', { class: 'mono' }, `${d.table.metadataLocation ?? ''} (current; last committed by ${d.table.modifiedBy})`)]].reverse(),
      'Metadata files, newest first',
    ),
  ];
}

async function previewTab(p: HTMLElement, arn: string, m: Metadata | undefined, chosen: string | undefined): Promise<void> {
  if (!m) return replace(p, h('p', {}, 'The table has no metadata yet.'));
  const select = h('select', { id: 'snapshot-select' }, h('option', { value: '' }, `Current (${m.currentSnapshotId ?? 'no snapshot'})`), [...m.snapshots].reverse().map((s) => h('option', { value: s['snapshot-id'], selected: s['snapshot-id'] === chosen }, `${s['snapshot-id']} — ${formatDate(s['timestamp-ms'])} — ${summaryOf(s, 'operation')}`)));
  const out = h('div', {});
  const load = async () => {
    const snapshot = select.value || undefined;
    setQuery({ snapshot });
    replace(out, h('p', { role: 'status' }, 'Reading…'));
    const pv = await get<Preview>(['tables', arn, 'preview'], { snapshot });
    replace(
      out,
      h('p', { role: 'status', id: 'preview-status' }, `Snapshot ${pv.snapshotId ?? '—'} (schema ${pv.schemaId}): ${pv.rows.length} row(s) shown${pv.more ? ', more exist' : ''}; ${pv.filesRead} of ${pv.filesTotal} data file(s) read.`),
      table(pv.columns.map((c) => `${c.name} (${c.type})`), pv.rows.map((r) => r.map((v) => (v === null ? h('span', { class: 'null' }, 'null') : typeof v === 'object' ? h('span', { class: 'mono' }, JSON.stringify(v)) : String(v)))), 'Rows'),
    );
  };
  select.addEventListener('change', () => void load().catch((err: Error) => replace(out, h('div', { class: 'error', role: 'alert' }, err.message))));
  replace(p, h('div', { class: 'filter' }, h('label', { for: 'snapshot-select' }, 'Snapshot (time travel)'), select), out);
  await load();
}

export async function tableView(root: HTMLElement, arn: string, query: URLSearchParams): Promise<void> {
  const d = await get<TableDetail>(['tables', arn]);
  const m = d.metadata;
  const t = d.table;
  const schema = m?.schemas.find((s) => s['schema-id'] === m.currentSchemaId);
  let tabsEl: HTMLElement;
  const openPreview = (id: string) => {
    setQuery({ tab: 'data', snapshot: id });
    tabsEl.replaceWith((tabsEl = build('data', id)));
  };
  const build = (tab: string | undefined, snapshot: string | undefined) =>
    tabs(
      [
        { id: 'schema', label: 'Schema', render: (p) => replace(p, schema ? [schemaTree(schema), m!.schemas.length > 1 ? h('p', {}, `${m!.schemas.length} schemas in the history; current is ${m!.currentSchemaId}.`) : null] : h('p', {}, 'No schema yet.')) },
        {
          id: 'partitioning',
          label: 'Partitioning & sort',
          render: (p) =>
            replace(
              p,
              m
                ? [
                    h('h2', {}, `Partition spec ${m.defaultSpecId}`),
                    table(['Field', 'Source column', 'Transform', 'Field id'], (m.partitionSpecs.find((s) => s['spec-id'] === m.defaultSpecId)?.fields ?? []).map((f) => [f.name, columnName(m, f['source-id']), f.transform, String(f['field-id'])]), 'Partition fields'),
                    h('h2', {}, `Sort order ${m.defaultSortOrderId}`),
                    table(['Source column', 'Transform', 'Direction', 'Nulls'], (m.sortOrders.find((s) => s['order-id'] === m.defaultSortOrderId)?.fields ?? []).map((f) => [columnName(m, f['source-id']), f.transform, f.direction, f['null-order']]), 'Sort fields'),
                  ]
                : h('p', {}, 'No metadata yet.'),
            ),
        },
        { id: 'properties', label: 'Properties', render: (p) => replace(p, table(['Property', 'Value'], Object.entries(m?.properties ?? {}).map(([k, v]) => [k, v]), 'Table properties')) },
        { id: 'snapshots', label: 'Snapshots', render: (p) => replace(p, m ? snapshotsTab(d, m, openPreview) : h('p', {}, 'No metadata yet.')) },
        { id: 'data', label: 'Data preview', render: (p) => previewTab(p, arn, m, snapshot) },
        {
          id: 'maintenance',
          label: 'Maintenance',
          render: (p) =>
            replace(
              p,
              h('h2', {}, 'Job status'),
              table(['Job', 'Status', 'Last run', 'Failure'], Object.entries(d.jobStatus ?? {}).map(([k, v]) => [k, v.status ?? '—', formatDate(v.lastRunTimestamp), v.failureMessage ?? ''])),
              h('h2', {}, 'Configuration'),
              code(pretty(d.maintenance ?? {}), 'Maintenance configuration'),
              d.recordExpiration ? [h('h2', {}, 'Record expiration'), code(pretty(d.recordExpiration), 'Record expiration')] : null,
            ),
        },
        {
          id: 'policies',
          label: 'Policies',
          render: (p) =>
            replace(
              p,
              h('h2', {}, 'Table policy'),
              d.policy ? code(pretty(JSON.parse(d.policy)), 'Table policy') : h('p', {}, 'No table policy.'),
              h('h2', {}, 'Table bucket policy'),
              d.bucketPolicy ? code(pretty(JSON.parse(d.bucketPolicy)), 'Table bucket policy') : h('p', {}, 'No table bucket policy.'),
              h('h2', {}, 'Encryption and storage'),
              code(pretty({ encryption: d.encryption, storageClass: d.storageClass, replication: d.replication, replicationStatus: d.replicationStatus }), 'Encryption, storage class and replication'),
            ),
        },
      ],
      tab,
      (id) => setQuery({ tab: id, snapshot: undefined }),
    );
  tabsEl = build(query.get('tab') ?? undefined, query.get('snapshot') ?? undefined);
  const bucketName = d.bucketArn.slice(d.bucketArn.lastIndexOf('/') + 1);
  replace(
    root,
    crumbs(['Table buckets', to.tableBuckets()], [bucketName, to.tableBucket(d.bucketArn)], [t.namespace[0]!, to.namespace(d.bucketArn, t.namespace[0]!)], [t.name, undefined]),
    h('h1', {}, `Table ${t.name}`),
    kv([
      ['ARN', h('span', { class: 'mono' }, t.tableARN)],
      ['Format', `${t.format}${m ? ` v${m.formatVersion}` : ''} (${t.type})`],
      ['Warehouse', d.warehouseBucket ? h('a', { href: to.bucket(d.warehouseBucket), id: 'warehouse-link' }, t.warehouseLocation) : t.warehouseLocation],
      ['Metadata location', h('span', { class: 'mono' }, t.metadataLocation ?? '—')],
      ['Version token', h('span', { class: 'mono' }, t.versionToken)],
      ['Created', `${formatDate(t.createdAt)} by ${t.createdBy}`],
      ['Modified', `${formatDate(t.modifiedAt)} by ${t.modifiedBy}`],
      ['Managed by', t.managedByService ?? '—'],
    ]),
    tabsEl,
  );
}
