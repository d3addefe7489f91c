/**
 * The dashboard's locations: every view is a hash route (`#/stacks/<name>`, `#/table/<arn>`, …)
 * with its parameters percent-encoded, so any stack name, ARN or object key makes a valid link.
 */
export interface ResourceLink {
  kind: 'table-bucket' | 'namespace' | 'table' | 's3-bucket' | 'stack';
  arn?: string;
  namespace?: string;
  bucket?: string;
  stack?: string;
}

const e = encodeURIComponent;

function withQuery(path: string, params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

export const to = {
  stacks: () => '#/stacks',
  stack: (name: string, tab?: string) => withQuery(`#/stacks/${e(name)}`, { tab }),
  resource: (stack: string, logicalId: string) => `#/stacks/${e(stack)}/resources/${e(logicalId)}`,
  changeSet: (stack: string, name: string) => `#/stacks/${e(stack)}/change-sets/${e(name)}`,
  tableBuckets: () => '#/tables',
  tableBucket: (arn: string) => `#/tables/${e(arn)}`,
  namespace: (arn: string, ns: string) => `#/tables/${e(arn)}/${e(ns)}`,
  table: (arn: string, tab?: string, snapshot?: string) => withQuery(`#/table/${e(arn)}`, { tab, snapshot }),
  s3: () => '#/s3',
  bucket: (name: string, prefix?: string) => withQuery(`#/s3/${e(name)}`, { prefix }),
  object: (bucket: string, key: string) => withQuery(`#/s3/${e(bucket)}/object`, { key }),
  admin: () => '#/admin',
};

export function resourceHref(link: ResourceLink | undefined): string | undefined {
  if (!link) return undefined;
  switch (link.kind) {
    case 'table-bucket':
      return to.tableBucket(link.arn!);
    case 'namespace':
      return to.namespace(link.arn!, link.namespace!);
    case 'table':
      return to.table(link.arn!);
    case 's3-bucket':
      return to.bucket(link.bucket!);
    case 'stack':
      return to.stack(link.stack!);
  }
}

export interface Route {
  parts: string[];
  query: URLSearchParams;
}

export function currentRoute(): Route {
  const hash = location.hash.replace(/^#\/?/, '');
  const q = hash.indexOf('?');
  const path = q < 0 ? hash : hash.slice(0, q);
  const parts = path
    .split('/')
    .filter((p) => p !== '')
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  return { parts, query: new URLSearchParams(q < 0 ? '' : hash.slice(q + 1)) };
}

/** Changes the location's query (e.g. the chosen tab) without a new history entry or a re-render. */
export function setQuery(params: Record<string, string | undefined>): void {
  const { parts, query } = currentRoute();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) query.delete(k);
    else query.set(k, v);
  }
  const path = `#/${parts.map(e).join('/')}`;
  const s = query.toString();
  history.replaceState(null, '', s ? `${path}?${s}` : path);
}
