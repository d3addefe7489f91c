/**
 * The dashboard's entry: reads the server's context (defaults, the accounts and regions that hold
 * data, the version), draws the header with the navigation and the account/region picker, and
 * renders the view the location's hash names, again on every hash change.
 */
import { adminView } from './admin.js';
import { currentPlace, get, initPlace, setPlace, type Place } from './api.js';
import { h, replace } from './dom.js';
import { currentRoute, to } from './links.js';
import { bucketsView, bucketView, objectView } from './s3.js';
import { changeSetView, closeStream, resourceView, stacksView, stackView } from './stacks.js';
import { tableView } from './table.js';
import { namespaceView, tableBucketsView, tableBucketView } from './tables.js';
import { errorBox, loading } from './ui.js';

interface Context {
  version: string;
  defaultAccount: string;
  defaultRegion: string;
  places: Place[];
  store: string;
}

const main = document.getElementById('main') as HTMLElement;

async function render(): Promise<void> {
  closeStream();
  const { parts, query } = currentRoute();
  const [section, a, b, c] = parts;
  updateNav(section ?? 'stacks');
  replace(main, loading());
  try {
    if (!section || section === 'stacks') {
      if (a === undefined) return stacksView(main, query);
      if (b === 'resources' && c !== undefined) return await resourceView(main, a, c);
      if (b === 'change-sets' && c !== undefined) return await changeSetView(main, a, c);
      return await stackView(main, a, query);
    }
    if (section === 'tables') {
      if (a === undefined) return tableBucketsView(main);
      if (b !== undefined) return namespaceView(main, a, b);
      return await tableBucketView(main, a);
    }
    if (section === 'table' && a !== undefined) return await tableView(main, a, query);
    if (section === 's3') {
      if (a === undefined) return bucketsView(main);
      if (b === 'object') return await objectView(main, a, query.get('key') ?? '');
      return await bucketView(main, a, query.get('prefix') ?? '');
    }
    if (section === 'admin') return await adminView(main, () => (location.hash = to.stacks()));
    replace(main, h('h1', {}, 'Not found'), h('p', {}, 'Nothing lives at this address. ', h('a', { href: to.stacks() }, 'Go to the stacks.')));
  } catch (err) {
    replace(main, errorBox(err));
  } finally {
    const heading = main.querySelector('h1');
    if (heading) document.title = `${heading.textContent} · Overcast`;
  }
}

function updateNav(section: string): void {
  const active = section === 'table' ? 'tables' : section;
  for (const a of document.querySelectorAll<HTMLAnchorElement>('#nav a')) {
    if (a.dataset.section === active) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

function placePicker(ctx: Context): HTMLElement {
  const place = currentPlace();
  const account = h('input', { id: 'account', value: place.account, inputmode: 'numeric', pattern: '\\d{12}', size: 13, list: 'known-accounts', required: true });
  const region = h('input', { id: 'region', value: place.region, size: 14, list: 'known-regions', required: true });
  const form = h(
    'form',
    { class: 'place', 'aria-label': 'Account and region' },
    h('label', { for: 'account' }, 'Account'),
    account,
    h('label', { for: 'region' }, 'Region'),
    region,
    h('button', { type: 'submit' }, 'Switch'),
    h('datalist', { id: 'known-accounts' }, [...new Set([ctx.defaultAccount, ...ctx.places.map((p) => p.account)])].map((x) => h('option', { value: x }))),
    h('datalist', { id: 'known-regions' }, [...new Set([ctx.defaultRegion, ...ctx.places.map((p) => p.region)])].map((x) => h('option', { value: x }))),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!form.reportValidity()) return;
    setPlace({ account: account.value.trim(), region: region.value.trim() });
    void render();
  });
  return form;
}

async function start(): Promise<void> {
  let ctx: Context;
  try {
    ctx = await get<Context>(['context']);
  } catch (err) {
    replace(main, errorBox(err));
    return;
  }
  initPlace({ account: ctx.defaultAccount, region: ctx.defaultRegion });
  const header = document.getElementById('top') as HTMLElement;
  header.appendChild(placePicker(ctx));
  const version = document.getElementById('version');
  if (version) version.textContent = `Overcast ${ctx.version} · ${ctx.store} store`;
  window.addEventListener('hashchange', () => void render());
  await render();
}

void start();
