/**
 * Building the page safely: `h()` creates elements whose text is always a text node and whose
 * attributes are set one by one, so whatever a user put in a stack name, an object key or a
 * property value is shown as text and never parsed as HTML (nothing here touches innerHTML). Plus
 * the small formatters every view uses: dates, sizes, and the colour class of a status.
 */
export type Child = Node | string | number | null | undefined | false | Child[];
export type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg(tag: string, attrs: Attrs = {}, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

export function formatDate(v: unknown): string {
  if (v === undefined || v === null || v === '') return '—';
  const d = new Date(typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : (v as string | number));
  if (Number.isNaN(d.getTime())) return String(v);
  return d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

export function formatBytes(n: unknown): string {
  const v = Number(n);
  if (!Number.isFinite(v)) return '—';
  if (v < 1024) return `${v} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let x = v / 1024;
  let i = 0;
  while (x >= 1024 && i < units.length - 1) {
    x /= 1024;
    i++;
  }
  return `${x.toFixed(x < 10 ? 1 : 0)} ${units[i]}`;
}

/** The colour class of a CloudFormation (or other) status. */
export function statusClass(status: string | undefined): string {
  const s = status ?? '';
  if (s === 'DELETE_COMPLETE' || s === 'NOT_CREATED' || s === 'DELETE_SKIPPED') return 'st-gone';
  if (s.endsWith('_FAILED') || s.includes('ROLLBACK') || s === 'Failed' || s === 'failed') return 'st-bad';
  if (s.endsWith('_IN_PROGRESS') || s === 'Pending' || s === 'pending') return 'st-busy';
  if (s.endsWith('_COMPLETE') || s === 'Successful' || s === 'enabled' || s === 'completed') return 'st-good';
  return 'st-other';
}

export function badge(status: string | undefined): HTMLElement {
  return h('span', { class: `badge ${statusClass(status)}` }, status ?? '—');
}

/** Pretty JSON of any value (64-bit ids arrive as text already). */
export function pretty(v: unknown): string {
  return JSON.stringify(v, null, 2) ?? 'null';
}
