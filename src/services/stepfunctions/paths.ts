/**
 * The data flow of the States Language: reference paths (`$`, `$.a.b`, `$.list[0]`, `$['a b']`,
 * and `$$.…` into the context object), InputPath / OutputPath selection, ResultPath placement,
 * and payload templates (Parameters, ResultSelector) whose `key.$` fields take a path's value.
 * Intrinsic functions (`States.Format(…)` …) are not evaluated: a template using one fails the
 * execution with States.Runtime, saying so.
 */

/** An error the execution fails with (`Error` and `Cause` as Step Functions reports them). */
export class StatesError extends Error {
  readonly error: string;
  override readonly cause: string;

  constructor(error: string, cause: string) {
    super(`${error}: ${cause}`);
    this.error = error;
    this.cause = cause;
  }
}

const STEP = /^(?:\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\])/;

function steps(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  let rest = path.slice(1);
  while (rest.length) {
    const m = STEP.exec(rest);
    if (!m) throw new StatesError('States.Runtime', `Overcast cannot evaluate the path '${path}': it reads only $, $.field, $.list[n] and $['field'] steps`);
    out.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? m[3])!);
    rest = rest.slice(m[0].length);
  }
  return out;
}

/** The value `path` selects from `data` (or from `context` for `$$…`); States.Runtime when absent. */
export function select(data: unknown, path: string, context?: unknown): unknown {
  let from = data;
  let p = path;
  if (path.startsWith('$$')) {
    from = context;
    p = path.slice(1);
  }
  if (!p.startsWith('$')) throw new StatesError('States.Runtime', `Invalid path '${path}': paths start with $`);
  let value: unknown = from;
  for (const step of steps(p)) {
    if (value === null || typeof value !== 'object' || !(step in (value as object))) {
      throw new StatesError('States.Runtime', `The JSONPath '${path}' could not be found in the input '${JSON.stringify(data)}'`);
    }
    value = (value as Record<string | number, unknown>)[step];
  }
  return value;
}

/** InputPath / OutputPath: `null` gives `{}`, undefined keeps the data. */
export function applyPath(data: unknown, path: string | null | undefined, context: unknown): unknown {
  if (path === null) return {};
  if (path === undefined || path === '$') return data;
  return select(data, path, context);
}

/** ResultPath: `null` keeps the input, `$` (the default) replaces it, `$.a.b` places the result there. */
export function placeResult(input: unknown, result: unknown, path: string | null | undefined): unknown {
  if (path === null) return input;
  if (path === undefined || path === '$') return result;
  const keys = steps(path);
  const root: unknown = structuredClone(input ?? {});
  if (root === null || typeof root !== 'object') throw new StatesError('States.ResultPathMatchFailure', `Unable to apply ResultPath '${path}' to input ${JSON.stringify(input)}`);
  let at = root as Record<string | number, unknown>;
  keys.forEach((key, i) => {
    if (i === keys.length - 1) at[key] = result;
    else {
      if (at[key] === null || typeof at[key] !== 'object') at[key] = {};
      at = at[key] as Record<string | number, unknown>;
    }
  });
  return root;
}

/** A payload template (Parameters, ResultSelector) filled from `data` and the context object. */
export function fillTemplate(template: unknown, data: unknown, context: unknown): unknown {
  if (Array.isArray(template)) return template.map((t) => fillTemplate(t, data, context));
  if (template === null || typeof template !== 'object') return template;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(template)) {
    if (!key.endsWith('.$')) {
      out[key] = fillTemplate(value, data, context);
      continue;
    }
    if (typeof value !== 'string' || !value.startsWith('$')) {
      throw new StatesError('States.Runtime', `Overcast does not evaluate intrinsic functions (field '${key}': ${JSON.stringify(value)})`);
    }
    out[key.slice(0, -2)] = select(data, value, context);
  }
  return out;
}
