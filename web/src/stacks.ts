/**
 * Stacks: the list (status colours, deleted stacks on request, one page at a time), a stack's
 * page — overview with parameters, outputs and tags; resources linking to their own pages; events
 * that arrive live over the stack's event stream while an operation runs; the resource graph; the
 * template as deployed; change sets; the last update's diff — and a resource's own page with its
 * status reason. Deleting a stack asks first.
 */
import { apiUrl, get, send, type Page } from './api.js';
import { badge, formatDate, h, pretty, replace, type Child } from './dom.js';
import { renderGraph, type Graph } from './graph.js';
import { resourceHref, setQuery, to, type ResourceLink } from './links.js';
import { announce, code, confirmAction, crumbs, errorBox, kv, paged, table, tabs } from './ui.js';

interface StackSummary {
  name: string;
  id: string;
  status: string;
  reason?: string;
  description?: string;
  created?: string;
  updated?: string;
  deleted?: string;
}

interface Stack {
  StackId: string;
  StackName: string;
  StackStatus: string;
  StackStatusReason?: string;
  Description?: string;
  CreationTime?: string;
  LastUpdatedTime?: string;
  DeletionTime?: string;
  Parameters?: { ParameterKey: string; ParameterValue?: string; ResolvedValue?: string }[];
  Outputs?: { OutputKey: string; OutputValue?: string; Description?: string; ExportName?: string }[];
  Tags?: { Key: string; Value: string }[];
  Capabilities?: string[];
  EnableTerminationProtection?: boolean;
  ParentId?: string;
  RootId?: string;
  DisableRollback?: boolean;
}

interface ResourceItem {
  logicalId: string;
  physicalId?: string;
  type: string;
  status: string;
  reason?: string;
  updated?: string;
  link?: ResourceLink;
}

export interface StackEvent {
  seq: number;
  id: string;
  timestamp: string;
  logicalId: string;
  physicalId?: string;
  type: string;
  status: string;
  reason?: string;
}

/** The stack page's live stream, closed when the page is left. */
let stream: EventSource | undefined;

export function closeStream(): void {
  stream?.close();
  stream = undefined;
}

export function stacksView(root: HTMLElement, query: URLSearchParams): void {
  const deleted = query.get('deleted') === '1';
  const toggle = h('label', { class: 'inline' }, h('input', { type: 'checkbox', checked: deleted, onchange: (e: Event) => {
    setQuery({ deleted: (e.target as HTMLInputElement).checked ? '1' : undefined });
    stacksView(root, new URLSearchParams((e.target as HTMLInputElement).checked ? 'deleted=1' : ''));
  } }), ' Show deleted stacks');
  replace(
    root,
    h('h1', {}, 'Stacks'),
    toggle,
    paged<StackSummary>(
      (next) => get<Page<StackSummary>>(['stacks'], { next, deleted: deleted ? '1' : undefined }),
      (items) =>
        table(
          ['Name', 'Status', 'Created', 'Updated', 'Description'],
          items.map((s) => [
            h('a', { href: to.stack(s.deleted ? s.id : s.name) }, s.name),
            h('span', {}, badge(s.status), s.reason ? h('div', { class: 'reason' }, s.reason) : null),
            formatDate(s.created),
            formatDate(s.deleted ?? s.updated),
            s.description ?? '',
          ]),
          'Stacks, newest first',
        ),
      'Stacks',
    ),
  );
}

function eventRow(e: StackEvent): HTMLElement {
  return h(
    'tr',
    { 'data-seq': e.seq },
    h('td', {}, formatDate(e.timestamp)),
    h('td', {}, e.logicalId),
    h('td', {}, e.type),
    h('td', {}, badge(e.status)),
    h('td', { class: 'reason' }, e.reason ?? ''),
  );
}

function eventsTable(events: StackEvent[]): { el: HTMLElement; body: HTMLTableSectionElement } {
  const body = h('tbody', { 'aria-live': 'polite', 'aria-relevant': 'additions' }, events.map(eventRow));
  const el = h('table', { class: 'grid events' }, h('caption', {}, 'Events, newest first'), h('thead', {}, h('tr', {}, ['Time', 'Logical id', 'Type', 'Status', 'Reason'].map((x) => h('th', { scope: 'col' }, x)))), body);
  return { el, body };
}

function resourcesTable(stack: string, items: ResourceItem[]): HTMLElement {
  return table(
    ['Logical id', 'Physical id', 'Type', 'Status', 'Reason'],
    items.map((r) => {
      const href = resourceHref(r.link);
      return [
        h('a', { href: to.resource(stack, r.logicalId) }, r.logicalId),
        r.physicalId ? (href ? h('a', { href, class: 'mono' }, r.physicalId) : h('span', { class: 'mono' }, r.physicalId)) : '—',
        r.type,
        badge(r.status),
        h('span', { class: 'reason' }, r.reason ?? ''),
      ];
    }),
    'Resources',
  );
}

export async function stackView(root: HTMLElement, name: string, query: URLSearchParams): Promise<void> {
  const { stack, deleted, lastEventSeq } = await get<{ stack: Stack; deleted: boolean; lastEventSeq: number }>(['stacks', name]);
  // Deleted stacks are only found by id from here on.
  const ref = deleted ? stack.StackId : stack.StackName;
  const status = h('span', { id: 'stack-status' }, badge(stack.StackStatus));
  const reason = h('p', { class: 'reason', id: 'stack-reason' }, stack.StackStatusReason ?? '');
  const live = h('span', { class: 'live', 'aria-live': 'polite' });
  const actions = h('div', { class: 'actions' });
  if (!deleted) {
    actions.appendChild(
      h('button', { type: 'button', class: 'danger', onclick: async () => {
        const ok = await confirmAction(`Delete stack ${stack.StackName}?`, h('p', {}, 'Every resource the stack created is deleted (except those retained by their DeletionPolicy).'), 'Delete stack');
        if (!ok) return;
        try {
          await send('DELETE', ['stacks', stack.StackId]);
          announce(`Deleting ${stack.StackName}`);
        } catch (err) {
          actions.appendChild(errorBox(err));
        }
      } }, 'Delete stack'),
    );
  }
  // Listeners the tabs register for live events (the events list, refreshes of resources and graph).
  const listeners = new Set<(e: StackEvent) => void>();
  const seen = { last: lastEventSeq };
  closeStream();
  if (typeof EventSource !== 'undefined') {
    stream = new EventSource(apiUrl(['stacks', stack.StackId, 'events', 'stream'], { after: String(lastEventSeq) }));
    stream.addEventListener('open', () => (live.textContent = 'Live'));
    stream.addEventListener('error', () => (live.textContent = 'Reconnecting…'));
    stream.addEventListener('stack-event', (m) => {
      const e = JSON.parse((m as MessageEvent<string>).data) as StackEvent;
      if (e.seq <= seen.last) return;
      seen.last = e.seq;
      for (const l of listeners) l(e);
    });
    stream.addEventListener('stack-status', (m) => {
      const s = JSON.parse((m as MessageEvent<string>).data) as { status: string; reason?: string | null };
      replace(status, badge(s.status));
      reason.textContent = s.reason ?? '';
    });
  }
  const debounced = (fn: () => void) => {
    let timer: number | undefined;
    return () => {
      clearTimeout(timer);
      timer = window.setTimeout(fn, 150);
    };
  };

  const tabList = [
    { id: 'overview', label: 'Overview', render: (p: HTMLElement) => replace(p, overview(stack)) },
    {
      id: 'resources',
      label: 'Resources',
      render: (p: HTMLElement) => {
        const draw = () => replace(p, paged<ResourceItem>((next) => get(['stacks', ref, 'resources'], { next }), (items) => resourcesTable(ref, items), 'Resources'));
        draw();
        const redraw = debounced(draw);
        listeners.add(() => p.isConnected && redraw());
      },
    },
    {
      id: 'events',
      label: 'Events',
      render: async (p: HTMLElement) => {
        const first = await get<Page<StackEvent>>(['stacks', ref, 'events']);
        const t = eventsTable(first.items);
        let next = first.next;
        const more = h('button', { type: 'button', disabled: !next }, 'Older events');
        more.addEventListener('click', async () => {
          const page = await get<Page<StackEvent>>(['stacks', ref, 'events'], { before: next });
          page.items.forEach((e) => t.body.appendChild(eventRow(e)));
          next = page.next;
          more.disabled = !next;
        });
        listeners.add((e) => {
          if (t.body.querySelector(`tr[data-seq="${e.seq}"]`)) return;
          t.body.insertBefore(eventRow(e), t.body.firstChild);
        });
        replace(p, t.el, h('div', { class: 'pager' }, more));
      },
    },
    {
      id: 'graph',
      label: 'Graph',
      render: async (p: HTMLElement) => {
        const draw = async () => replace(p, renderGraph(await get<Graph>(['stacks', ref, 'graph']), (id) => to.resource(ref, id)));
        await draw();
        const redraw = debounced(() => void draw());
        listeners.add(() => p.isConnected && redraw());
      },
    },
    { id: 'template', label: 'Template', render: async (p: HTMLElement) => templateTab(p, ref) },
    { id: 'change-sets', label: 'Change sets', render: (p: HTMLElement) => changeSetsTab(p, ref) },
    { id: 'last-update', label: 'Last update', render: async (p: HTMLElement) => lastUpdateTab(p, ref) },
  ];
  replace(
    root,
    crumbs(['Stacks', to.stacks()], [stack.StackName, undefined]),
    h('h1', {}, stack.StackName, ' ', status, ' ', live),
    reason,
    actions,
    tabs(tabList, query.get('tab') ?? undefined, (tab) => setQuery({ tab })),
  );
}

function overview(s: Stack): Child {
  return [
    kv([
      ['Stack id', h('span', { class: 'mono' }, s.StackId)],
      ['Description', s.Description ?? '—'],
      ['Created', formatDate(s.CreationTime)],
      ['Last updated', formatDate(s.LastUpdatedTime)],
      ['Deleted', s.DeletionTime ? formatDate(s.DeletionTime) : '—'],
      ['Termination protection', s.EnableTerminationProtection ? 'enabled' : 'disabled'],
      ['Rollback on failure', s.DisableRollback ? 'disabled' : 'enabled'],
      ['Capabilities', (s.Capabilities ?? []).join(', ') || '—'],
      ['Parent stack', s.ParentId ? h('a', { href: to.stack(s.ParentId) }, s.ParentId) : '—'],
    ]),
    h('h2', {}, 'Parameters'),
    table(['Key', 'Value', 'Resolved value'], (s.Parameters ?? []).map((p) => [p.ParameterKey, p.ParameterValue ?? '', p.ResolvedValue ?? ''])),
    h('h2', {}, 'Outputs'),
    table(['Key', 'Value', 'Description', 'Export name'], (s.Outputs ?? []).map((o) => [o.OutputKey, h('span', { class: 'mono' }, o.OutputValue ?? ''), o.Description ?? '', o.ExportName ?? ''])),
    h('h2', {}, 'Tags'),
    table(['Key', 'Value'], (s.Tags ?? []).map((t) => [t.Key, t.Value])),
  ];
}

async function templateTab(p: HTMLElement, ref: string): Promise<void> {
  const t = await get<{ body: string; format: string; processed?: string }>(['stacks', ref, 'template']);
  replace(
    p,
    h('p', {}, `As deployed (${t.format.toUpperCase()}).`),
    code(t.body, 'Template'),
    t.processed ? [h('h2', {}, 'Processed (transforms applied)'), code(t.processed, 'Processed template')] : null,
  );
}

interface ChangeSetSummary {
  ChangeSetName: string;
  Status: string;
  ExecutionStatus: string;
  StatusReason?: string;
  CreationTime?: string;
  Description?: string;
}

function changeSetsTab(p: HTMLElement, ref: string): void {
  replace(
    p,
    paged<ChangeSetSummary>(
      (next) => get(['stacks', ref, 'change-sets'], { next }),
      (items) =>
        table(
          ['Name', 'Status', 'Execution', 'Created', 'Reason'],
          items.map((c) => [h('a', { href: to.changeSet(ref, c.ChangeSetName) }, c.ChangeSetName), badge(c.Status), c.ExecutionStatus, formatDate(c.CreationTime), c.StatusReason ?? '']),
          'Change sets',
        ),
      'Change sets',
    ),
  );
}

interface Change {
  ResourceChange?: {
    Action?: string;
    LogicalResourceId?: string;
    PhysicalResourceId?: string;
    ResourceType?: string;
    Replacement?: string;
    Scope?: string[];
    Details?: { Target?: { Name?: string; Attribute?: string; RequiresRecreation?: string; BeforeValue?: string; AfterValue?: string }; ChangeSource?: string; CausingEntity?: string }[];
  };
}

export async function changeSetView(root: HTMLElement, stack: string, name: string): Promise<void> {
  const { changeSet: cs } = await get<{ changeSet: { ChangeSetName: string; StackName: string; Status: string; ExecutionStatus: string; StatusReason?: string; Description?: string; CreationTime?: string; Changes?: Change[] } }>(['stacks', stack, 'change-sets', name]);
  const rows = (cs.Changes ?? []).map((c) => {
    const r = c.ResourceChange ?? {};
    const details = (r.Details ?? []).map((d) =>
      h('li', {}, `${d.Target?.Attribute ?? ''} ${d.Target?.Name ?? ''}`.trim(), d.Target?.RequiresRecreation ? ` (recreation: ${d.Target.RequiresRecreation})` : '', d.CausingEntity ? ` ← ${d.CausingEntity}` : '', d.Target?.BeforeValue !== undefined || d.Target?.AfterValue !== undefined ? h('div', { class: 'mono small' }, `${d.Target?.BeforeValue ?? '∅'} → ${d.Target?.AfterValue ?? '∅'}`) : null),
    );
    return [
      h('span', { class: `action action-${(r.Action ?? '').toLowerCase()}` }, r.Action ?? ''),
      r.LogicalResourceId ?? '',
      r.ResourceType ?? '',
      r.Replacement ? h('span', { class: r.Replacement === 'True' ? 'replace' : '' }, r.Replacement) : '—',
      details.length ? h('ul', { class: 'details' }, details) : '',
    ];
  });
  replace(
    root,
    crumbs(['Stacks', to.stacks()], [cs.StackName, to.stack(stack, 'change-sets')], [cs.ChangeSetName, undefined]),
    h('h1', {}, `Change set ${cs.ChangeSetName} `, badge(cs.Status)),
    kv([
      ['Execution status', cs.ExecutionStatus],
      ['Reason', cs.StatusReason ?? '—'],
      ['Description', cs.Description ?? '—'],
      ['Created', formatDate(cs.CreationTime)],
    ]),
    table(['Action', 'Logical id', 'Type', 'Replacement', 'Details'], rows, 'Changes'),
  );
}

interface ResourceDiff {
  logicalId: string;
  type: string;
  action: string;
  replacement: boolean;
  changes: { path: string; before?: unknown; after?: unknown }[];
  after?: unknown;
}

async function lastUpdateTab(p: HTMLElement, ref: string): Promise<void> {
  const d = await get<{ found: boolean; startedAt?: string; outcome?: string; resources: ResourceDiff[]; truncated?: boolean }>(['stacks', ref, 'last-update']);
  if (!d.found) return replace(p, h('p', {}, 'This stack has not been updated since it was created.'));
  const show = (v: unknown) => (v === undefined ? '∅' : typeof v === 'string' ? v : pretty(v));
  replace(
    p,
    h('p', {}, 'Update started ', formatDate(d.startedAt), ', ended ', badge(d.outcome), d.truncated ? ' (older events were beyond the scan limit; some values are missing)' : ''),
    table(
      ['Action', 'Logical id', 'Type', 'Replacement', 'Property changes'],
      d.resources.map((r) => [
        h('span', { class: `action action-${r.action.toLowerCase()}` }, r.action),
        r.logicalId,
        r.type,
        r.replacement ? h('span', { class: 'replace' }, 'Replaced') : '—',
        r.action === 'Add'
          ? code(pretty(r.after ?? {}), `Properties of ${r.logicalId}`)
          : h('ul', { class: 'details' }, r.changes.map((c) => h('li', {}, h('span', { class: 'mono' }, c.path), ': ', h('del', {}, show(c.before)), ' → ', h('ins', {}, show(c.after))))),
      ]),
      'Resources the last update changed',
    ),
  );
}

export async function resourceView(root: HTMLElement, stack: string, logicalId: string): Promise<void> {
  const { resource: r, link, events, lastFailure } = await get<{ resource: { StackName: string; LogicalResourceId: string; PhysicalResourceId?: string; ResourceType: string; ResourceStatus: string; ResourceStatusReason?: string; LastUpdatedTimestamp?: string; Metadata?: string; Description?: string }; link?: ResourceLink; events: StackEvent[]; lastFailure?: StackEvent }>(['stacks', stack, 'resources', logicalId]);
  const href = resourceHref(link);
  // After a rollback the resource is DELETE_COMPLETE and its own reason is gone: its failure is in its events.
  const why = r.ResourceStatusReason ?? lastFailure?.reason;
  replace(
    root,
    crumbs(['Stacks', to.stacks()], [r.StackName, to.stack(stack, 'resources')], [r.LogicalResourceId, undefined]),
    h('h1', {}, r.LogicalResourceId, ' ', badge(r.ResourceStatus)),
    why
      ? h('div', { class: 'status-reason', role: 'note' }, h('strong', {}, r.ResourceStatusReason ? 'Status reason: ' : `${lastFailure!.status} at ${formatDate(lastFailure!.timestamp)}: `), h('span', { id: 'resource-reason' }, why))
      : null,
    kv([
      ['Type', r.ResourceType],
      ['Physical id', r.PhysicalResourceId ? (href ? h('a', { href, class: 'mono' }, r.PhysicalResourceId) : h('span', { class: 'mono' }, r.PhysicalResourceId)) : '—'],
      ['Last updated', formatDate(r.LastUpdatedTimestamp)],
      ['Description', r.Description ?? '—'],
    ]),
    r.Metadata && r.Metadata !== '{}' ? [h('h2', {}, 'Metadata'), code(r.Metadata, 'Metadata')] : null,
    h('h2', {}, 'Events'),
    eventsTable(events).el,
  );
}
