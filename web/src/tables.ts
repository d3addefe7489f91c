/**
 * S3 Tables lists: table buckets, a bucket's configuration with its namespaces and tables, and a
 * namespace's tables — each a page at a time with the API's continuation tokens, with a name
 * prefix filter (a bucket may hold a hundred thousand tables; nothing loads them all).
 */
import { get, type Page } from './api.js';
import { formatDate, h, pretty, replace } from './dom.js';
import { to } from './links.js';
import { code, crumbs, kv, paged, table } from './ui.js';

interface TableBucket {
  arn: string;
  name: string;
  ownerAccountId: string;
  createdAt: string;
  type?: string;
}

interface Namespace {
  namespace: string[];
  createdAt: string;
  createdBy: string;
}

interface TableSummary {
  name: string;
  namespace: string[];
  tableARN: string;
  type: string;
  createdAt: string;
  modifiedAt: string;
}

/** A prefix box that re-renders the list under it. */
function filtered(label: string, render: (prefix: string) => HTMLElement): HTMLElement {
  const id = `prefix-${label.replace(/\W+/g, '-').toLowerCase()}`;
  const input = h('input', { id, type: 'search', placeholder: 'prefix', autocomplete: 'off' });
  const holder = h('div', {}, render(''));
  let timer: number | undefined;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = window.setTimeout(() => replace(holder, render(input.value)), 250);
  });
  return h('div', {}, h('div', { class: 'filter' }, h('label', { for: id }, `${label} starting with`), input), holder);
}

export function tableBucketsView(root: HTMLElement): void {
  replace(
    root,
    h('h1', {}, 'Table buckets'),
    filtered('Table buckets', (prefix) =>
      paged<TableBucket>(
        (next) => get(['table-buckets'], { next, prefix }),
        (items) => table(['Name', 'Type', 'Owner', 'Created', 'ARN'], items.map((b) => [h('a', { href: to.tableBucket(b.arn) }, b.name), b.type ?? 'customer', b.ownerAccountId, formatDate(b.createdAt), h('span', { class: 'mono' }, b.arn)]), 'Table buckets'),
        'Table buckets',
      ),
    ),
  );
}

function tablesList(arn: string, namespace: string | undefined): HTMLElement {
  return filtered('Tables', (prefix) =>
    paged<TableSummary>(
      (next) => get(['table-buckets', arn, 'tables'], { next, prefix, namespace }),
      (items) =>
        table(
          ['Table', 'Namespace', 'Type', 'Created', 'Modified'],
          items.map((t) => [h('a', { href: to.table(t.tableARN) }, t.name), h('a', { href: to.namespace(arn, t.namespace[0]!) }, t.namespace[0]!), t.type, formatDate(t.createdAt), formatDate(t.modifiedAt)]),
          'Tables',
        ),
      'Tables',
    ),
  );
}

export async function tableBucketView(root: HTMLElement, arn: string): Promise<void> {
  const d = await get<{ bucket: { name: string; arn: string; ownerAccountId: string; createdAt: string; tableBucketId?: string; type?: string }; encryption?: unknown; storageClass?: unknown; maintenance?: unknown; policy?: string; replication?: unknown; metrics?: unknown }>(['table-buckets', arn]);
  replace(
    root,
    crumbs(['Table buckets', to.tableBuckets()], [d.bucket.name, undefined]),
    h('h1', {}, d.bucket.name),
    kv([
      ['ARN', h('span', { class: 'mono' }, d.bucket.arn)],
      ['Owner', d.bucket.ownerAccountId],
      ['Created', formatDate(d.bucket.createdAt)],
      ['Encryption', d.encryption ? pretty(d.encryption) : '—'],
      ['Storage class', d.storageClass ? pretty(d.storageClass) : '—'],
    ]),
    h('h2', {}, 'Namespaces'),
    filtered('Namespaces', (prefix) =>
      paged<Namespace>(
        (next) => get(['table-buckets', arn, 'namespaces'], { next, prefix }),
        (items) => table(['Namespace', 'Created', 'Created by'], items.map((n) => [h('a', { href: to.namespace(arn, n.namespace[0]!) }, n.namespace[0]!), formatDate(n.createdAt), n.createdBy]), 'Namespaces'),
        'Namespaces',
      ),
    ),
    h('h2', {}, 'Tables'),
    tablesList(arn, undefined),
    h('h2', {}, 'Maintenance configuration'),
    code(pretty(d.maintenance ?? {}), 'Maintenance configuration'),
    h('h2', {}, 'Bucket policy'),
    d.policy ? code(pretty(JSON.parse(d.policy)), 'Bucket policy') : h('p', {}, 'No policy.'),
    d.replication ? [h('h2', {}, 'Replication'), code(pretty(d.replication), 'Replication')] : null,
  );
}

export function namespaceView(root: HTMLElement, arn: string, namespace: string): void {
  const bucket = arn.slice(arn.lastIndexOf('/') + 1);
  replace(root, crumbs(['Table buckets', to.tableBuckets()], [bucket, to.tableBucket(arn)], [namespace, undefined]), h('h1', {}, `Namespace ${namespace}`), tablesList(arn, namespace));
}

export type { Page };
