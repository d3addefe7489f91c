/**
 * The dashboard's building blocks: headings with breadcrumbs, key/value tables, tabs that keep
 * the arrow-key behaviour of the ARIA tab pattern, paged tables that fetch one page at a time with
 * the API's tokens (Previous walks back through the tokens already seen), a confirmation dialog
 * for anything destructive, errors shown where the content would be, and code blocks.
 */
import { ApiError, type Page } from './api.js';
import { h, replace, type Child } from './dom.js';

export function crumbs(...items: [string, string | undefined][]): HTMLElement {
  return h(
    'nav',
    { class: 'crumbs', 'aria-label': 'Breadcrumb' },
    h('ol', {}, items.map(([label, href], i) => h('li', {}, href && i < items.length - 1 ? h('a', { href }, label) : h('span', { 'aria-current': i === items.length - 1 ? 'page' : undefined }, label)))),
  );
}

export function kv(rows: [string, Child][]): HTMLElement {
  return h('table', { class: 'kv' }, h('tbody', {}, rows.map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, v ?? '—')))));
}

export function table(headers: string[], rows: Child[][], caption?: string): HTMLElement {
  return h(
    'table',
    { class: 'grid' },
    caption ? h('caption', {}, caption) : null,
    h('thead', {}, h('tr', {}, headers.map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, rows.length ? rows.map((r) => h('tr', {}, r.map((c) => h('td', {}, c)))) : h('tr', {}, h('td', { colspan: headers.length, class: 'empty' }, 'Nothing here.'))),
  );
}

export function code(text: string, label: string): HTMLElement {
  return h('pre', { class: 'code', tabindex: 0, 'aria-label': label }, h('code', {}, text));
}

export function errorBox(err: unknown): HTMLElement {
  const e = err as Error;
  const title = err instanceof ApiError ? `${err.code} (${err.status})` : 'Error';
  return h('div', { class: 'error', role: 'alert' }, h('strong', {}, title), ' ', e?.message ?? String(err));
}

export function loading(): HTMLElement {
  return h('p', { class: 'loading', role: 'status' }, 'Loading…');
}

export interface Tab {
  id: string;
  label: string;
  render: (panel: HTMLElement) => void | Promise<void>;
}

/** ARIA tabs: arrow keys move between tabs, the chosen tab is remembered in the location's `tab`. */
export function tabs(list: Tab[], selected: string | undefined, onSelect: (id: string) => void): HTMLElement {
  const panel = h('div', { class: 'tabpanel', role: 'tabpanel', tabindex: 0 });
  const buttons = list.map((t) =>
    h('button', { type: 'button', role: 'tab', id: `tab-${t.id}`, 'aria-controls': 'tabpanel', 'aria-selected': 'false', tabindex: -1, onclick: () => choose(t.id, true) }, t.label),
  );
  const bar = h('div', { class: 'tabs', role: 'tablist' }, buttons);
  bar.addEventListener('keydown', (e) => {
    const i = buttons.findIndex((b) => b === document.activeElement);
    if (i < 0) return;
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const next = buttons[(i + step + buttons.length) % buttons.length]!;
    next.focus();
    next.click();
  });
  panel.id = 'tabpanel';
  const choose = (id: string, user: boolean) => {
    const t = list.find((x) => x.id === id) ?? list[0]!;
    buttons.forEach((b, i) => {
      const on = list[i] === t;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
    });
    panel.setAttribute('aria-labelledby', `tab-${t.id}`);
    replace(panel, loading());
    if (user) onSelect(t.id);
    Promise.resolve(t.render(panel)).catch((err) => replace(panel, errorBox(err)));
  };
  choose(selected ?? list[0]!.id, false);
  return h('div', { class: 'tabbed' }, bar, panel);
}

/** A list read page by page with the API's tokens; `render` draws one page. */
export function paged<T>(load: (token: string | undefined) => Promise<Page<T>>, render: (items: T[]) => Child, label: string): HTMLElement {
  const body = h('div', {});
  const prev = h('button', { type: 'button', disabled: true }, '← Previous');
  const next = h('button', { type: 'button', disabled: true }, 'Next →');
  const status = h('span', { class: 'page-no', 'aria-live': 'polite' });
  const tokens: (string | undefined)[] = [undefined];
  let at = 0;
  const show = async () => {
    replace(body, loading());
    prev.disabled = next.disabled = true;
    try {
      const page = await load(tokens[at]);
      replace(body, render(page.items));
      tokens[at + 1] = page.next;
      prev.disabled = at === 0;
      next.disabled = !page.next;
      status.textContent = `Page ${at + 1}`;
    } catch (err) {
      replace(body, errorBox(err));
    }
  };
  prev.addEventListener('click', () => {
    at = Math.max(0, at - 1);
    void show();
  });
  next.addEventListener('click', () => {
    if (!tokens[at + 1]) return;
    at++;
    void show();
  });
  void show();
  return h('section', { class: 'paged', 'aria-label': label }, body, h('div', { class: 'pager' }, prev, status, next));
}

/** Asks before a destructive action; resolves true when the person confirms. */
export function confirmAction(title: string, message: Child, action: string): Promise<boolean> {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'confirm', 'aria-labelledby': 'confirm-title' });
    const done = (ok: boolean) => {
      dialog.close();
      dialog.remove();
      resolve(ok);
    };
    const cancel = h('button', { type: 'button', onclick: () => done(false) }, 'Cancel');
    replace(
      dialog,
      h('h2', { id: 'confirm-title' }, title),
      h('div', {}, message),
      h('div', { class: 'actions' }, cancel, h('button', { type: 'button', class: 'danger', onclick: () => done(true) }, action)),
    );
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      done(false);
    });
    document.body.appendChild(dialog);
    dialog.showModal();
    cancel.focus();
  });
}

/** A short message in the page's live region (screen readers announce it). */
export function announce(text: string): void {
  const region = document.getElementById('announcer');
  if (region) region.textContent = text;
}
