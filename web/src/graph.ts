/**
 * The resource graph as SVG: resources in columns by dependency depth (what a resource needs is
 * to its left), ordered within a column by the average row of what they depend on, coloured by
 * status; each edge says how the dependent names its dependency (Ref, GetAtt, Sub, DependsOn).
 * Nodes are links, reachable with the keyboard; the same graph is listed as a table beneath for
 * screen readers and for reading edge by edge.
 */
import { badge, h, statusClass, svg } from './dom.js';
import { resourceHref, type ResourceLink } from './links.js';
import { table } from './ui.js';

export interface Graph {
  nodes: { id: string; type: string; status: string; reason?: string; physicalId?: string; link?: ResourceLink; failure?: { status: string; reason?: string } }[];
  edges: { from: string; to: string; kinds: string[] }[];
}

const W = 210;
const H = 50;
const GAP_X = 90;
const GAP_Y = 22;
const PAD = 16;

/** Column of each node: the length of the longest chain of dependencies below it. */
function columns(g: Graph): Map<string, number> {
  const deps = new Map<string, string[]>(g.nodes.map((n) => [n.id, []]));
  for (const e of g.edges) deps.get(e.from)?.push(e.to);
  const col = new Map<string, number>();
  const visiting = new Set<string>();
  const depth = (id: string): number => {
    const known = col.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0; // a cycle (the template would not deploy): cut it
    visiting.add(id);
    const d = Math.max(-1, ...(deps.get(id) ?? []).map(depth)) + 1;
    visiting.delete(id);
    col.set(id, d);
    return d;
  };
  g.nodes.forEach((n) => depth(n.id));
  return col;
}

export function layout(g: Graph): { pos: Map<string, { x: number; y: number }>; width: number; height: number } {
  const col = columns(g);
  const byCol: string[][] = [];
  for (const n of g.nodes) (byCol[col.get(n.id)!] ??= []).push(n.id);
  const row = new Map<string, number>();
  const deps = new Map<string, string[]>();
  for (const e of g.edges) (deps.get(e.from) ?? deps.set(e.from, []).get(e.from)!).push(e.to);
  byCol.forEach((ids, c) => {
    if (c > 0) {
      const weight = (id: string) => {
        const rows = (deps.get(id) ?? []).map((d) => row.get(d)).filter((r): r is number => r !== undefined);
        return rows.length ? rows.reduce((a, b) => a + b, 0) / rows.length : Number.MAX_SAFE_INTEGER;
      };
      ids.sort((a, b) => weight(a) - weight(b));
    }
    ids.forEach((id, i) => row.set(id, i));
  });
  const pos = new Map<string, { x: number; y: number }>();
  for (const [id, c] of col) pos.set(id, { x: PAD + c * (W + GAP_X), y: PAD + row.get(id)! * (H + GAP_Y) });
  const cols = byCol.length;
  const rows = Math.max(1, ...byCol.map((ids) => ids?.length ?? 0));
  return { pos, width: PAD * 2 + cols * W + Math.max(0, cols - 1) * GAP_X, height: PAD * 2 + rows * H + (rows - 1) * GAP_Y };
}

const short = (type: string) => type.replace(/^AWS::/, '');
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function renderGraph(g: Graph, hrefOf: (id: string) => string): HTMLElement {
  if (!g.nodes.length) return h('p', {}, 'The template declares no resources.');
  const { pos, width, height } = layout(g);
  const edges = g.edges.map((e) => {
    const a = pos.get(e.to)!; // the dependency, on the left
    const b = pos.get(e.from)!;
    const x1 = a.x + W;
    const y1 = a.y + H / 2;
    const x2 = b.x;
    const y2 = b.y + H / 2;
    const mx = (x1 + x2) / 2;
    const backwards = x2 <= x1;
    const d = backwards
      ? `M ${a.x + W / 2} ${a.y + H} C ${a.x + W / 2} ${a.y + H + 40}, ${b.x + W / 2} ${b.y + H + 40}, ${b.x + W / 2} ${b.y + H}`
      : `M ${x1} ${y1} C ${mx} ${y1}, ${mx} ${y2}, ${x2} ${y2}`;
    return svg(
      'g',
      { class: 'edge', 'data-from': e.from, 'data-to': e.to },
      svg('path', { d, 'marker-end': 'url(#arrow)' }),
      svg('text', { x: mx, y: (y1 + y2) / 2 - 4, 'text-anchor': 'middle' }, e.kinds.join(', ')),
    );
  });
  const nodes = g.nodes.map((n) => {
    const p = pos.get(n.id)!;
    const failed = n.failure ? `, ${n.failure.status}${n.failure.reason ? `: ${n.failure.reason}` : ''}` : '';
    const label = `${n.id}, ${n.type}, ${n.status}${n.reason ? `: ${n.reason}` : ''}${failed}`;
    // A resource that failed stays red after its rollback deleted it: the failure is what matters.
    const cls = n.failure ? 'st-bad' : statusClass(n.status);
    return svg(
      'a',
      { href: hrefOf(n.id), class: `node ${cls}`, 'data-id': n.id, 'aria-label': label },
      svg('title', {}, label),
      svg('rect', { x: p.x, y: p.y, width: W, height: H, rx: 6 }),
      svg('text', { x: p.x + 10, y: p.y + 20, class: 'node-id' }, clip(n.id, 24)),
      svg('text', { x: p.x + 10, y: p.y + 38, class: 'node-type' }, clip(`${short(n.type)} · ${n.failure ? `${n.failure.status} → ${n.status}` : n.status}`, 31)),
    );
  });
  const picture = svg(
    'svg',
    { class: 'graph', width, height: height + 40, viewBox: `0 0 ${width} ${height + 40}`, role: 'group', 'aria-label': 'Resource graph' },
    svg('defs', {}, svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse' }, svg('path', { d: 'M 0 0 L 10 5 L 0 10 z' }))),
    edges,
    nodes,
  );
  const physical = (n: Graph['nodes'][number]) => {
    const href = resourceHref(n.link);
    return n.physicalId ? (href ? h('a', { href, class: 'mono' }, n.physicalId) : h('span', { class: 'mono' }, n.physicalId)) : '—';
  };
  return h(
    'div',
    { class: 'graph-view' },
    h('p', { class: 'legend' }, 'Arrows run from a dependency to the resource that needs it, labelled with how it is referenced.'),
    h('div', { class: 'graph-scroll' }, picture),
    table(
      ['Resource', 'Status', 'Depends on', 'Physical id'],
      g.nodes.map((n) => [
        h('a', { href: hrefOf(n.id) }, n.id),
        h('span', {}, n.failure ? [badge(n.failure.status), ' → '] : null, badge(n.status), n.failure?.reason || n.reason ? h('div', { class: 'reason' }, n.failure?.reason ?? n.reason) : null),
        h('ul', { class: 'deps' }, g.edges.filter((e) => e.from === n.id).map((e) => h('li', {}, `${e.to} (${e.kinds.join(', ')})`))),
        physical(n),
      ]),
      'Resources and their dependencies',
    ),
  );
}
