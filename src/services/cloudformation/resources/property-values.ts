/**
 * Reading resolved property values outside the typed ones: scalars of stored resources (whose
 * types Overcast does not run, so no typed interface exists), policy documents as the API's JSON
 * text, and whether two values are the same JSON.
 */

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
