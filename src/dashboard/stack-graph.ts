/**
 * A stack's resource graph for the dashboard: one node per resource the template declares (with
 * the status, reason and physical id the stack records, or NOT_CREATED), and one edge per
 * dependency the engine orders by — the template layer's own `dependencyEdges` — labelled with
 * how the dependent names its dependency: Ref, GetAtt, Sub or DependsOn (a reference inside a
 * condition branch or a Sub variable may carry several labels).
 */
import * as T from '../services/cloudformation/template/index.js';
import type { ResourceLink } from './resource-links.js';

type EdgeKind = 'Ref' | 'GetAtt' | 'Sub' | 'DependsOn';

interface GraphNode {
  id: string;
  type: string;
  status: string;
  reason?: string;
  physicalId?: string;
  link?: ResourceLink;
  /** The failure of the stack's last operation at this resource (a rollback may have deleted it since). */
  failure?: { status: string; reason?: string };
}

interface GraphEdge {
  /** The dependent resource. */
  from: string;
  /** The resource it depends on. */
  to: string;
  kinds: EdgeKind[];
}

export interface ResourceState {
  status: string;
  reason?: string;
  physicalId?: string;
  link?: ResourceLink;
  failure?: { status: string; reason?: string };
}

const { isObject } = T;

/** The labelled references of one resource declaration: target id → how it is referenced. */
function referenceKinds(decl: Record<string, unknown>): Map<string, Set<EdgeKind>> {
  const out = new Map<string, Set<EdgeKind>>();
  const add = (id: string, kind: EdgeKind) => {
    let s = out.get(id);
    if (!s) out.set(id, (s = new Set()));
    s.add(kind);
  };
  const dependsOn = decl.DependsOn;
  for (const d of typeof dependsOn === 'string' ? [dependsOn] : Array.isArray(dependsOn) ? dependsOn : []) {
    if (typeof d === 'string') add(d, 'DependsOn');
  }
  T.walkObjects([decl.Properties, decl.Metadata, decl.UpdatePolicy, decl.CreationPolicy], (v) => {
    const name = T.intrinsicName(v);
    if (name !== 'Ref' && name !== 'Fn::GetAtt' && name !== 'Fn::Sub') return undefined;
    const kind: EdgeKind = name === 'Ref' ? 'Ref' : name === 'Fn::GetAtt' ? 'GetAtt' : 'Sub';
    // The engine's own reading of the one intrinsic, so the labels name what it orders by.
    for (const id of T.referencedIds({ [name]: v[name] })) add(id, kind);
    if (name === 'Fn::Sub' && Array.isArray(v[name])) return [v[name][1]];
    return name === 'Ref' ? [] : [v[name]];
  });
  return out;
}

/** Nodes and labelled edges of a template body, with each resource's state where the stack has one. */
export function stackGraph(templateBody: string, states: Map<string, ResourceState>): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const doc = T.parseTemplate(templateBody) as { Resources?: Record<string, unknown> };
  const resources = isObject(doc.Resources) ? doc.Resources : {};
  const decls: Record<string, T.ResourceDeclaration> = {};
  for (const [id, d] of Object.entries(resources)) if (isObject(d)) decls[id] = d as unknown as T.ResourceDeclaration;
  const ids = new Set(Object.keys(decls));
  const deps = T.dependencyEdges(decls, ids);
  const nodes: GraphNode[] = [...ids].map((id) => {
    const state = states.get(id);
    const type = typeof decls[id]!.Type === 'string' ? (decls[id]!.Type as string) : 'Unknown';
    return { id, type, ...state, status: state?.status ?? 'NOT_CREATED' };
  });
  const edges: GraphEdge[] = [];
  for (const [from, targets] of Object.entries(deps)) {
    const kinds = referenceKinds(decls[from] as unknown as Record<string, unknown>);
    for (const to of targets) edges.push({ from, to, kinds: [...(kinds.get(to) ?? new Set<EdgeKind>(['Ref']))] });
  }
  return { nodes, edges };
}
