/**
 * Reading untyped resolved property values (for the providers of types without a typed mapping:
 * the S3 bucket's configuration appliers, stored resources): scalars that templates may write as
 * strings, tag lists as maps, policy documents as the API's JSON text, and whether two values are
 * the same JSON.
 */

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A property as a number (templates may carry numbers as strings); undefined when absent. */
export function num(v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  return typeof v === 'number' ? v : Number(v);
}

/** A property as a boolean (`"true"`/`"false"` strings included); undefined when absent. */
export function bool(v: unknown): boolean | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  return typeof v === 'boolean' ? v : String(v).toLowerCase() === 'true';
}

/** A property as a string (numbers and booleans stringified); undefined when absent. */
export function str(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** A policy document property as the API's JSON text (templates give it as an object or a string). */
export function policyText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Whether two resolved property values are the same JSON. */
export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** CloudFormation's `Tags: [{Key, Value}]` (or a map) as a map. */
export function tagMap(tags: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(tags)) {
    for (const t of tags as { Key?: unknown; Value?: unknown }[]) if (t && t.Key !== undefined) out[String(t.Key)] = str(t.Value) ?? '';
  } else if (isObject(tags)) {
    for (const [k, v] of Object.entries(tags)) out[k] = str(v) ?? '';
  }
  return out;
}
