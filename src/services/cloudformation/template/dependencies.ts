/**
 * The dependency graph: which logical ids a value references (Ref, Fn::GetAtt in both forms,
 * Fn::Sub in both forms including `${Res.Attr}`, never `${!Literal}`), the edges of each resource
 * (those plus DependsOn), a stable topological order (template order among independent
 * resources) and cycle detection naming the members of the cycle, in AWS's message.
 */
import { circularDependency } from './errors.js';
import { parseSub, subArgs } from './sub.js';
import type { ResourceDeclaration } from './types.js';
import { intrinsicName, isObject, pushAll, pushValues } from './values.js';

/**
 * Logical ids (and parameter or pseudo names — callers filter) referenced by `value`. With
 * `conditions`, only the branch of each Fn::If that is taken counts (AWS orders resources by
 * live references only; an Fn::If on a condition missing from `conditions` counts neither);
 * without, both branches do.
 */
export function referencedIds(value: unknown, conditions?: Record<string, boolean>, out = new Set<string>()): Set<string> {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
      continue;
    }
    if (!isObject(v)) continue;
    const name = intrinsicName(v);
    const arg = name ? v[name] : undefined;
    if (name === 'Ref') {
      if (typeof arg === 'string') out.add(arg);
      else stack.push(arg);
    } else if (name === 'Fn::GetAtt') {
      if (typeof arg === 'string') out.add(arg.split('.')[0]!);
      else if (Array.isArray(arg)) {
        if (typeof arg[0] === 'string') out.add(arg[0]);
        pushAll(stack, arg);
      }
    } else if (name === 'Fn::Sub') {
      const args = subArgs(arg);
      if (!args) {
        stack.push(arg);
        continue;
      }
      let parts: ReturnType<typeof parseSub> = [];
      try {
        parts = parseSub(args.template);
      } catch {
        // a malformed variable is reported by validation
      }
      for (const p of parts) {
        if (!('variable' in p) || p.variable in args.vars || p.variable.startsWith('AWS::')) continue;
        out.add(p.variable.split('.')[0]!);
      }
      pushValues(stack, args.vars);
    } else if (name === 'Fn::If' && conditions && Array.isArray(arg)) {
      // A condition not in `conditions` is not known yet: neither branch counts.
      if (typeof arg[0] === 'string' && arg[0] in conditions) stack.push(conditions[arg[0]] ? arg[1] : arg[2]);
    } else {
      pushValues(stack, v);
    }
  }
  return out;
}

export function dependsOnList(decl: ResourceDeclaration): string[] {
  const d = decl.DependsOn;
  if (typeof d === 'string') return [d];
  if (Array.isArray(d)) return d.filter((x): x is string => typeof x === 'string');
  return [];
}

/** The parts of a resource whose references order it after other resources. */
export function referencingParts(decl: ResourceDeclaration): unknown[] {
  return [decl.Properties, decl.Metadata, decl.UpdatePolicy, decl.CreationPolicy, decl.DeletionPolicy, decl.UpdateReplacePolicy];
}

/** Each resource's dependencies among `ids` (DependsOn first, then references, no duplicates). */
export function dependencyEdges(
  resources: Record<string, ResourceDeclaration>,
  ids: ReadonlySet<string>,
  conditions?: Record<string, boolean>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [id, decl] of Object.entries(resources)) {
    if (!ids.has(id)) continue;
    const deps = new Set<string>();
    for (const d of dependsOnList(decl)) if (ids.has(d)) deps.add(d);
    const refs = new Set<string>();
    for (const part of referencingParts(decl)) referencedIds(part, conditions, refs);
    for (const r of refs) if (ids.has(r)) deps.add(r);
    out[id] = [...deps];
  }
  return out;
}

/** A binary min-heap of template positions. */
class MinHeap {
  private readonly a: number[] = [];
  get size(): number {
    return this.a.length;
  }
  push(v: number): void {
    const a = this.a;
    a.push(v);
    for (let i = a.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (a[p]! <= a[i]!) break;
      [a[p], a[i]] = [a[i]!, a[p]!];
      i = p;
    }
  }
  pop(): number {
    const a = this.a;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]! < a[m]!) m = l;
        if (r < a.length && a[r]! < a[m]!) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i]!, a[m]!];
        i = m;
      }
    }
    return top;
  }
}

/**
 * Dependencies first; among resources free to go, template order. Throws `Circular dependency
 * between resources: [A, B]` naming the resources on cycles (in template order).
 */
export function topologicalOrder(ids: string[], edges: Record<string, string[]>): string[] {
  const index = new Map(ids.map((id, i) => [id, i]));
  const pending = ids.map((id) => (edges[id] ?? []).filter((d) => index.has(d)).length);
  const dependents: number[][] = ids.map(() => []);
  ids.forEach((id, i) => {
    for (const d of edges[id] ?? []) {
      const j = index.get(d);
      if (j !== undefined) dependents[j]!.push(i);
    }
  });
  const heap = new MinHeap();
  pending.forEach((n, i) => n === 0 && heap.push(i));
  const order: string[] = [];
  while (heap.size) {
    const i = heap.pop();
    order.push(ids[i]!);
    for (const j of dependents[i]!) if (--pending[j]! === 0) heap.push(j);
  }
  if (order.length === ids.length) return order;
  // Left over: cycle members and what hangs off them; peel the resources nothing left depends on.
  const left = new Set(ids.filter((_, i) => pending[i]! > 0));
  for (let changed = true; changed; ) {
    changed = false;
    for (const id of left) {
      const i = index.get(id)!;
      if (!dependents[i]!.some((j) => left.has(ids[j]!))) {
        left.delete(id);
        changed = true;
      }
    }
  }
  throw circularDependency(ids.filter((id) => left.has(id)));
}
