/**
 * Transform `AWS::LanguageExtensions`, applied locally: expands `Fn::ForEach::<Loop>` in
 * Conditions, Resources, Outputs and anywhere inside resources and outputs (`${Id}` in keys and
 * values, `&{Id}` for keys with the item's non-alphanumeric characters dropped, `{Ref: Id}` →
 * the item; loops nest), and folds what can be known before provisioning: Fn::Length,
 * Fn::ToJsonString, Fn::FindInMap with DefaultValue or computed keys, and intrinsic functions
 * inside Ref and Fn::GetAtt. What depends on resources or conditions stays for the resolver.
 * The result is GetTemplate's Processed stage.
 */
import { formatError } from './errors.js';
import { resolveRaw, STATIC_SCOPE } from './intrinsics.js';
import type { ResolveContext, TemplateDoc } from './types.js';
import { clone, intrinsicName, isObject, NO_VALUE, scalarString } from './values.js';

export const LANGUAGE_EXTENSIONS = 'AWS::LanguageExtensions';
const FOR_EACH = 'Fn::ForEach::';

/** The transforms a template declares, in order. */
export function declaredTransforms(doc: TemplateDoc): string[] {
  const t: unknown = doc.Transform;
  if (t === undefined) return [];
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.map((x) => (typeof x === 'string' ? x : isObject(x) ? String(x.Name) : String(x)));
  if (isObject(t) && typeof t.Name === 'string') return [t.Name];
  return [String(t)];
}

export function usesLanguageExtensions(doc: TemplateDoc): boolean {
  return declaredTransforms(doc).includes(LANGUAGE_EXTENSIONS);
}

type StaticContext = Omit<ResolveContext, 'section'>;

function substitute(value: unknown, id: string, item: string): unknown {
  if (typeof value === 'string') return substituteText(value, id, item);
  if (Array.isArray(value)) return value.map((v) => substitute(v, id, item));
  if (isObject(value)) {
    if (intrinsicName(value) === 'Ref' && value.Ref === id) return item;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[substituteText(k, id, item)] = substitute(v, id, item);
    return out;
  }
  return value;
}

function substituteText(text: string, id: string, item: string): string {
  if (!text.includes(id)) return text;
  return text.split('${' + id + '}').join(item).split('&{' + id + '}').join(item.replace(/[^A-Za-z0-9]/g, ''));
}

function loopItems(loop: string, collection: unknown, ctx: StaticContext): string[] {
  let list: unknown = collection;
  if (!Array.isArray(collection)) {
    try {
      list = resolveRaw(collection, STATIC_SCOPE, { ...ctx, conditions: {}, section: 'Resources' });
    } catch {
      throw formatError(`${FOR_EACH}${loop}: the collection must be a list or a function that returns a list of strings known before provisioning`);
    }
  }
  if (!Array.isArray(list)) throw formatError(`${FOR_EACH}${loop}: the collection must be a list of strings`);
  return list.map((x) => {
    const v = Array.isArray(x) || isObject(x) ? resolveRaw(x, STATIC_SCOPE, { ...ctx, conditions: {} }) : x;
    const s = scalarString(v);
    if (s === undefined) throw formatError(`${FOR_EACH}${loop}: every member of the collection must be a string`);
    return s;
  });
}

/** Expands ForEach keys of one object (recursively into its values), preserving key order. */
function expandObject(obj: Record<string, unknown>, ctx: StaticContext, depth: number): Record<string, unknown> {
  if (depth > 50) throw formatError('Fn::ForEach loops are nested too deeply');
  const out: Record<string, unknown> = {};
  const put = (key: string, value: unknown, loop?: string) => {
    if (key in out) throw formatError(`${loop ? FOR_EACH + loop : 'Fn::ForEach'} generates the duplicate key ${key}`);
    out[key] = value;
  };
  for (const [key, value] of Object.entries(obj)) {
    if (!key.startsWith(FOR_EACH)) {
      put(key, expandValue(value, ctx, depth));
      continue;
    }
    const loop = key.slice(FOR_EACH.length);
    if (!Array.isArray(value) || value.length !== 3 || typeof value[0] !== 'string' || !isObject(value[2])) {
      throw formatError(`${key} requires a list of three elements: an identifier, a collection and a fragment`);
    }
    const [id, collection, fragment] = value as [string, unknown, Record<string, unknown>];
    for (const fk of Object.keys(fragment)) {
      if (!fk.startsWith(FOR_EACH) && !fk.includes('${' + id + '}') && !fk.includes('&{' + id + '}')) {
        throw formatError(`${key}: the key ${fk} must contain \${${id}} or &{${id}}`);
      }
    }
    for (const item of loopItems(loop, collection, ctx)) {
      const generated = expandObject(substitute(fragment, id, item) as Record<string, unknown>, ctx, depth + 1);
      for (const [gk, gv] of Object.entries(generated)) put(gk, gv, loop);
    }
  }
  return out;
}

function expandValue(value: unknown, ctx: StaticContext, depth: number): unknown {
  if (Array.isArray(value)) return value.map((v) => expandValue(v, ctx, depth));
  if (isObject(value)) return expandObject(value, ctx, depth);
  return value;
}

/** Replaces a function call by its value when it can be known now; leaves it otherwise. */
function tryFold(value: unknown, ctx: StaticContext): unknown {
  try {
    const v = resolveRaw(value, STATIC_SCOPE, { ...ctx, conditions: {}, section: 'Resources' });
    return v === NO_VALUE ? value : v;
  } catch {
    return value;
  }
}

function fold(value: unknown, ctx: StaticContext): unknown {
  if (Array.isArray(value)) return value.map((v) => fold(v, ctx));
  if (!isObject(value)) return value;
  const name = intrinsicName(value);
  if (name === 'Fn::Length' || name === 'Fn::ToJsonString') {
    const folded = tryFold(value, ctx);
    if (folded !== value) return folded;
    return { [name]: fold(value[name], ctx) };
  }
  if (name === 'Fn::FindInMap') {
    const arg = value[name];
    if (Array.isArray(arg) && (arg.length === 4 || arg.slice(0, 3).some((k) => typeof k !== 'string'))) {
      const folded = tryFold(value, ctx);
      if (folded !== value) return folded;
    }
    return { [name]: fold(arg, ctx) };
  }
  if (name === 'Ref' && !(typeof value.Ref === 'string')) {
    const target = tryFold(value.Ref, ctx);
    return { Ref: typeof target === 'string' ? target : fold(value.Ref, ctx) };
  }
  if (name === 'Fn::GetAtt' && Array.isArray(value[name])) {
    return { [name]: (value[name] as unknown[]).map((p) => (typeof p === 'string' ? p : tryFold(p, ctx))) };
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = fold(v, ctx);
  return out;
}

/**
 * Applies AWS::LanguageExtensions to a template (the document is not modified). `ctx` supplies
 * parameter values, pseudo parameters and mappings for loop collections and folding.
 */
export function applyLanguageExtensions(doc: TemplateDoc, ctx: StaticContext): TemplateDoc {
  const out = clone(doc);
  const transforms = declaredTransforms(doc).filter((t) => t !== LANGUAGE_EXTENSIONS);
  if (transforms.length === 0) delete out.Transform;
  else out.Transform = transforms.length === 1 ? transforms[0]! : transforms;
  for (const section of ['Conditions', 'Resources', 'Outputs'] as const) {
    const value = out[section];
    if (!isObject(value)) continue;
    const expanded = expandObject(value, ctx, 0);
    out[section] = (section === 'Conditions' ? expanded : fold(expanded, ctx)) as never;
  }
  const resources = isObject(out.Resources) ? out.Resources : {};
  for (const res of Object.values(resources)) {
    if (!isObject(res)) continue;
    for (const attr of ['DeletionPolicy', 'UpdateReplacePolicy'] as const) {
      if (isObject(res[attr])) res[attr] = tryFold(res[attr], ctx);
    }
  }
  return out;
}
