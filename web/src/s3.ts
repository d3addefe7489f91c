/**
 * S3: the account's buckets and the table warehouses (marked, each linked to its table), an
 * object browser that walks prefixes like folders a page at a time, and an object's page with its
 * metadata, tags, the text of a small textual object, a download link, and deletion after asking.
 */
import { apiUrl, get, send, type Page } from './api.js';
import { formatBytes, formatDate, h, pretty, replace } from './dom.js';
import { to } from './links.js';
import { announce, code, confirmAction, crumbs, errorBox, kv, paged, table } from './ui.js';

interface Bucket {
  name: string;
  created: string;
  region?: string;
  table?: { arn: string; name: string; namespace: string; account: string };
}

export function bucketsView(root: HTMLElement): void {
  const list = (warehouses: boolean) =>
    paged<Bucket>(
      (next) => get(['s3', 'buckets'], { next, warehouses: warehouses ? '1' : undefined }),
      (items) =>
        table(
          warehouses ? ['Warehouse bucket', 'Table', 'Created'] : ['Bucket', 'Region', 'Created'],
          items.map((b) => [
            h('a', { href: to.bucket(b.name) }, b.name, warehouses ? h('span', { class: 'badge st-other' }, 'warehouse') : null),
            warehouses ? (b.table ? h('a', { href: to.table(b.table.arn) }, `${b.table.namespace}.${b.table.name}`) : '—') : (b.region ?? '—'),
            formatDate(b.created),
          ]),
          warehouses ? 'S3 Tables warehouses in this region' : 'Buckets of this account',
        ),
      warehouses ? 'Warehouses' : 'Buckets',
    );
  replace(root, h('h1', {}, 'S3'), h('h2', {}, 'Buckets'), list(false), h('h2', {}, 'Table warehouses'), h('p', {}, 'Each S3 Tables table keeps its data and metadata files in a warehouse bucket of its own, owned by the service (ListBuckets does not show them).'), list(true));
}

interface Listing {
  prefixes: string[];
  objects: { key: string; size: number; modified: string; etag?: string; storageClass?: string }[];
  next?: string;
}

export async function bucketView(root: HTMLElement, bucket: string, prefix: string): Promise<void> {
  const info = await get<{ name: string; warehouseOf?: { arn: string; name: string; namespace: string } }>(['s3', 'buckets', bucket]);
  const parts = prefix.split('/').filter(Boolean);
  const trail: [string, string | undefined][] = [['S3', to.s3()], [bucket, to.bucket(bucket)]];
  parts.forEach((p, i) => trail.push([`${p}/`, to.bucket(bucket, `${parts.slice(0, i + 1).join('/')}/`)]));
  trail[trail.length - 1] = [trail[trail.length - 1]![0], undefined];
  replace(
    root,
    crumbs(...trail),
    h('h1', {}, bucket, info.warehouseOf ? h('span', { class: 'badge st-other' }, 'warehouse') : null),
    info.warehouseOf ? h('p', {}, 'Warehouse of table ', h('a', { href: to.table(info.warehouseOf.arn) }, `${info.warehouseOf.namespace}.${info.warehouseOf.name}`), '. Its files belong to the table: change them through the table.') : null,
    paged<Listing['objects'][number] | { prefix: string }>(
      async (next) => {
        const l = await get<Listing>(['s3', 'buckets', bucket, 'objects'], { prefix, next });
        return { items: [...l.prefixes.map((p) => ({ prefix: p })), ...l.objects], next: l.next };
      },
      (items) =>
        table(
          ['Name', 'Size', 'Last modified', 'ETag'],
          items.map((o) =>
            'prefix' in o
              ? [h('a', { href: to.bucket(bucket, o.prefix), class: 'folder' }, o.prefix.slice(prefix.length)), '—', '—', '']
              : [h('a', { href: to.object(bucket, o.key) }, o.key.slice(prefix.length)), formatBytes(o.size), formatDate(o.modified), h('span', { class: 'mono' }, o.etag ?? '')],
          ),
          prefix ? `Objects under ${prefix}` : 'Objects',
        ),
      'Objects',
    ),
  );
}

interface ObjectInfo {
  bucket: string;
  key: string;
  head: Record<string, unknown> & { ContentLength?: number; ContentType?: string; ETag?: string; LastModified?: string; Metadata?: Record<string, string> };
  tags: { Key: string; Value: string }[];
  text?: string;
}

export async function objectView(root: HTMLElement, bucket: string, key: string): Promise<void> {
  const o = await get<ObjectInfo>(['s3', 'buckets', bucket, 'object'], { key });
  const folder = key.includes('/') ? key.slice(0, key.lastIndexOf('/') + 1) : '';
  const actions = h('div', { class: 'actions' });
  const del = h('button', { type: 'button', class: 'danger' }, 'Delete object');
  del.addEventListener('click', async () => {
    const ok = await confirmAction('Delete this object?', h('p', {}, 'The object ', h('code', {}, key), ' is deleted from ', h('code', {}, bucket), '. This cannot be undone.'), 'Delete object');
    if (!ok) return;
    try {
      await send('DELETE', ['s3', 'buckets', bucket, 'object'], {}, { key });
      announce('Object deleted');
      location.hash = to.bucket(bucket, folder || undefined);
    } catch (err) {
      actions.appendChild(errorBox(err));
    }
  });
  actions.append(h('a', { class: 'button', href: apiUrl(['s3', 'buckets', bucket, 'download'], { key }), download: key.slice(key.lastIndexOf('/') + 1) || 'object' }, 'Download'), del);
  const { Metadata, ...rest } = o.head;
  replace(
    root,
    crumbs(['S3', to.s3()], [bucket, to.bucket(bucket)], ...(folder ? [[folder, to.bucket(bucket, folder)] as [string, string]] : []), [key.slice(folder.length), undefined]),
    h('h1', { class: 'object-key' }, key),
    actions,
    kv([
      ['Size', formatBytes(o.head.ContentLength)],
      ['Content type', o.head.ContentType ?? '—'],
      ['ETag', h('span', { class: 'mono' }, o.head.ETag ?? '—')],
      ['Last modified', formatDate(o.head.LastModified)],
    ]),
    h('h2', {}, 'User metadata'),
    table(['Key', 'Value'], Object.entries(Metadata ?? {}).map(([k, v]) => [k, v])),
    h('h2', {}, 'Tags'),
    table(['Key', 'Value'], o.tags.map((t) => [t.Key, t.Value])),
    h('h2', {}, 'All headers'),
    code(pretty(rest), 'Object headers'),
    o.text !== undefined ? [h('h2', {}, 'Content'), code(o.text, 'Object content')] : null,
  );
}

export type { Page };
