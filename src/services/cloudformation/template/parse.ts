/**
 * `parseTemplate`: a template body (JSON or YAML) into a TemplateDoc. JSON is tried first, as
 * AWS and the CLI do; a body that starts with `{` is JSON only, so a malformed JSON template gets
 * the JSON error with its line and column rather than a YAML reading of it.
 * Whatever the syntax, the result is bounded: nesting deeper than MAX_NESTING_DEPTH or more than
 * MAX_NODES values is refused before any recursive code walks it.
 *
 * jsonErrorOffset is one long function on purpose: a single-pass JSON scanner.
 */
import { formatError } from './errors.js';
import type { TemplateDoc } from './types.js';
import { linePos, MAX_NESTING_DEPTH, parseYamlTemplate } from './yaml.js';

export { MAX_NESTING_DEPTH } from './yaml.js';

/** More values than this in one template are refused (a 1 MB template holds far fewer). */
export const MAX_NODES = 1_000_000;

function jsonError(source: string, offset: number) {
  const p = linePos(source, offset);
  return formatError(`JSON not well-formed. (line ${p.line}, column ${p.col})`);
}

const WS = new Set([' ', '\t', '\n', '\r']);

/** The offset of the first JSON syntax error (iterative; only called once JSON.parse failed). */
function jsonErrorOffset(s: string): number {
  let i = 0;
  const ws = () => {
    while (i < s.length && WS.has(s[i]!)) i++;
  };
  const str = (): boolean => {
    if (s[i] !== '"') return false;
    i++;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '"') {
        i++;
        return true;
      }
      if (c === '\\') {
        const n = s[i + 1];
        if (n === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) return false;
          i += 6;
        } else if (n !== undefined && '"\\/bfnrt'.includes(n)) i += 2;
        else return false;
      } else if (c < ' ') return false;
      else i++;
    }
    return false;
  };
  const scalar = (): boolean => {
    if (s[i] === '"') return str();
    for (const lit of ['true', 'false', 'null']) {
      if (s.startsWith(lit, i)) {
        i += lit.length;
        return true;
      }
    }
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(s.slice(i, i + 400));
    if (!m) return false;
    i += m[0].length;
    return true;
  };
  // Stack of open containers: '{' or '['.
  const stack: string[] = [];
  ws();
  for (;;) {
    // Expect a value.
    ws();
    if (s[i] === '{' || s[i] === '[') {
      const open = s[i]!;
      i++;
      ws();
      if ((open === '{' && s[i] === '}') || (open === '[' && s[i] === ']')) {
        i++;
      } else {
        stack.push(open);
        if (open === '{') {
          if (!str()) return i;
          ws();
          if (s[i] !== ':') return i;
          i++;
        }
        continue;
      }
    } else if (!scalar()) return i;
    // After a value: close containers or continue with a comma.
    for (;;) {
      ws();
      const top = stack[stack.length - 1];
      if (top === undefined) return i < s.length ? i : s.length;
      if (s[i] === ',') {
        i++;
        if (top === '{') {
          ws();
          if (!str()) return i;
          ws();
          if (s[i] !== ':') return i;
          i++;
        }
        break;
      }
      if ((top === '{' && s[i] === '}') || (top === '[' && s[i] === ']')) {
        stack.pop();
        i++;
        continue;
      }
      return i;
    }
  }
}

/** Iterative bounds check: depth and value count. Returns a message when exceeded. */
function boundsProblem(value: unknown): string | undefined {
  // Two parallel stacks rather than a pair per value: this visits every value of every template.
  const values: unknown[] = [value];
  const depths: number[] = [1];
  let count = 0;
  while (values.length) {
    const v = values.pop();
    const depth = depths.pop()!;
    if (++count > MAX_NODES) return `the template has more than ${MAX_NODES} values`;
    if (depth > MAX_NESTING_DEPTH) return `the template is nested more than ${MAX_NESTING_DEPTH} levels deep`;
    if (Array.isArray(v)) {
      for (const x of v) {
        values.push(x);
        depths.push(depth + 1);
      }
    } else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      for (const k in o) {
        if (!Object.hasOwn(o, k)) continue;
        values.push(o[k]);
        depths.push(depth + 1);
      }
    }
  }
  return undefined;
}

/**
 * Parses a template body. Throws `ValidationError` with AWS's wording:
 * `Template format error: JSON not well-formed. (line L, column C)` /
 * `Template format error: YAML not well-formed. (line L, column C)`.
 * A body that is not a mapping at the top is answered like a template without resources.
 */
export function parseTemplate(body: string): TemplateDoc {
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  let value: unknown;
  // A body starting with `{` is JSON to AWS; anything else is tried as JSON, then YAML.
  if (/^\s*\{/.test(text)) {
    try {
      value = JSON.parse(text);
    } catch {
      throw jsonError(text, jsonErrorOffset(text));
    }
  } else {
    let parsed = false;
    try {
      value = JSON.parse(text);
      parsed = true;
    } catch {
      // not JSON
    }
    if (!parsed) value = parseYamlTemplate(text);
  }
  const problem = boundsProblem(value);
  if (problem) throw formatError(problem);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw formatError('At least one Resources member must be defined.');
  }
  return value as TemplateDoc;
}
