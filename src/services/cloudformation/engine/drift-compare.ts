/**
 * Drift's comparison of one resource: the properties the stack expects (the template's, resolved)
 * against what the type's read handler returns, as CloudFormation compares them
 * (cfn-drift-import-refactor.md §1.4): only what the template writes is checked — at any depth, a
 * member the template leaves out is the service's default and never a difference, and a member the
 * service does not return equals the schema's default when the template gives exactly that;
 * scalars compare loosely (`10` ≡ `"10"`, `true` ≡ `"true"`); arrays compare by index unless their
 * order does not count (`insertionOrder: false`), where elements are matched as a multiset — tag
 * lists by Key, so a changed value is one NOT_EQUAL at `/Tags/<i>/Value`. Paths are JSON pointers
 * relative to Properties (`/Compaction/TargetFileSizeMB`); values are strings: scalars as their
 * text, objects and arrays as compact JSON, and `null` for the missing side of an ADD or a REMOVE.
 */
import type { PropertyDifference } from '@aws-sdk/client-cloudformation';
import { resourceType, typeDefinition, type PropertyInfo, type TypeSig } from '../spec/resource-types.js';
import { sameValue } from './plan.js';

interface CompareOptions {
  /** The resource type, whose schema gives defaults. */
  type: string;
  /** Paths of arrays whose order does not count (`/Tags`, `/Rules/*`-style wildcards). */
  unordered: readonly string[];
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function escapeSegment(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Whether `path` (segments) matches a pattern like `/Rules/*` + `/Transitions`. */
function matches(pattern: string, segments: readonly string[]): boolean {
  const parts = pattern.split('/').slice(1);
  return parts.length === segments.length && parts.every((p, i) => p === '*' || p === segments[i]);
}

/** The schema of the property at `segments` (array indexes skipped), for its default. */
function infoAt(type: string, segments: readonly string[]): PropertyInfo | undefined {
  let props: Record<string, PropertyInfo> | undefined = resourceType(type)?.p;
  let info: PropertyInfo | undefined;
  for (const seg of segments) {
    if (/^\d+$/.test(seg)) continue;
    info = props?.[seg];
    if (!info) return undefined;
    let t: TypeSig = info.t;
    while (typeof t === 'object' && ('arr' in t || 'map' in t)) t = 'arr' in t ? t.arr : t.map;
    props = typeof t === 'object' && 'ref' in t ? typeDefinition(t.ref)?.p : undefined;
  }
  return info;
}

function isDefault(type: string, segments: readonly string[], expected: unknown): boolean {
  const d = infoAt(type, segments)?.d;
  return d !== undefined && sameValue(d, expected);
}

function parsed(textValue: string): unknown {
  try {
    return JSON.parse(textValue) as unknown;
  } catch {
    return textValue;
  }
}

class Comparison {
  readonly out: PropertyDifference[] = [];
  constructor(private readonly opts: CompareOptions) {}

  private add(segments: readonly string[], expected: unknown, actual: unknown, kind: PropertyDifference['DifferenceType']): void {
    this.out.push({
      PropertyPath: `/${segments.map(escapeSegment).join('/')}`,
      ExpectedValue: text(expected),
      ActualValue: text(actual),
      DifferenceType: kind,
    });
  }

  value(segments: string[], e: unknown, a: unknown): void {
    if (e === undefined) return;
    if (a === undefined || a === null) {
      if (e !== null && !isDefault(this.opts.type, segments, e)) this.add(segments, e, undefined, 'REMOVE');
      return;
    }
    // A JSON document property (a policy) the template wrote as text, read back as an object.
    if (typeof e === 'string' && typeof a === 'object') e = parsed(e);
    if (Array.isArray(e) && Array.isArray(a)) {
      if (this.opts.unordered.some((p) => matches(p, segments))) this.unorderedArray(segments, e, a);
      else this.orderedArray(segments, e, a);
      return;
    }
    if (isObject(e) && isObject(a)) {
      for (const [k, v] of Object.entries(e)) this.value([...segments, k], v, a[k]);
      return;
    }
    if (isObject(e) || isObject(a) || Array.isArray(e) || Array.isArray(a) || !sameValue(e, a)) {
      this.add(segments, e, a, 'NOT_EQUAL');
    }
  }

  private orderedArray(segments: string[], e: unknown[], a: unknown[]): void {
    e.forEach((item, i) => {
      if (i < a.length) this.value([...segments, String(i)], item, a[i]);
      else this.add([...segments, String(i)], item, undefined, 'REMOVE');
    });
    for (let i = e.length; i < a.length; i++) this.add([...segments, String(i)], undefined, a[i], 'ADD');
  }

  /** Multiset matching; elements with a `Key` (tags) pair up by key first. */
  private unorderedArray(segments: string[], e: unknown[], a: unknown[]): void {
    const free = a.map((_, i) => i);
    const take = (i: number) => free.splice(free.indexOf(i), 1);
    const leftovers: number[] = [];
    e.forEach((item, i) => {
      const same = free.find((j) => this.equal(segments, item, a[j]));
      if (same !== undefined) take(same);
      else leftovers.push(i);
    });
    for (const i of leftovers) {
      const item = e[i];
      const key = isObject(item) ? item.Key : undefined;
      const byKey = key === undefined ? undefined : free.find((j) => isObject(a[j]) && sameValue((a[j] as Json).Key, key));
      if (byKey !== undefined) {
        take(byKey);
        this.value([...segments, String(i)], item, a[byKey]);
      } else this.add([...segments, String(i)], item, undefined, 'REMOVE');
    }
    for (const j of free) this.add([...segments, String(j)], undefined, a[j], 'ADD');
  }

  private equal(segments: string[], e: unknown, a: unknown): boolean {
    const trial = new Comparison(this.opts);
    trial.value(segments, e, a);
    return trial.out.length === 0;
  }
}

/** The differences between expected and actual properties (both in the template's shape). */
export function compareProperties(expected: Json, actual: Json, opts: CompareOptions): PropertyDifference[] {
  const c = new Comparison(opts);
  for (const [k, v] of Object.entries(expected)) c.value([k], v, actual[k]);
  return c.out;
}
