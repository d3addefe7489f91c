/**
 * Matching against patterns a client supplies, without letting one pattern stall the server:
 * wildcards (`*`, `?` — S3 CORS origins and headers, stack-policy resources) are matched in
 * linear passes instead of being compiled to backtracking regular expressions, where
 * `*a*a*a*…b` against a long value takes minutes; and regular expressions a client writes (a
 * template parameter's or an SSM parameter's AllowedPattern) run under a time limit, since
 * `(a+)+$` needs no wildcard to take minutes on forty characters.
 */
import { Script, createContext } from 'node:vm';

export interface WildcardOptions {
  /** Whether `?` matches any one character (else it is literal). */
  questionMark?: boolean;
  caseInsensitive?: boolean;
}

/**
 * Whether `value` matches `pattern`, where `*` is any run of characters: the greedy two-pointer
 * walk, which backtracks only to the last `*`, so the cost is at most the product of the lengths.
 */
export function wildcardMatch(pattern: string, value: string, options: WildcardOptions = {}): boolean {
  const p = options.caseInsensitive ? pattern.toLowerCase() : pattern;
  const v = options.caseInsensitive ? value.toLowerCase() : value;
  let pi = 0;
  let vi = 0;
  let star = -1;
  let resume = 0;
  while (vi < v.length) {
    if (pi < p.length && p[pi] === '*') {
      star = pi++;
      resume = vi;
    } else if (pi < p.length && (p[pi] === v[vi] || (options.questionMark && p[pi] === '?'))) {
      pi++;
      vi++;
    } else if (star >= 0) {
      pi = star + 1;
      vi = ++resume;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === '*') pi++;
  return pi === p.length;
}

const context = createContext(Object.create(null) as object);
const script = new Script('new RegExp(pattern, flags).test(value)');

/** How long one client-written regular expression may run before the server gives up on it. */
export const REGEX_TIME_LIMIT_MS = 100;

/**
 * `new RegExp(pattern, flags).test(value)` given at most REGEX_TIME_LIMIT_MS; undefined when it
 * ran out of time (callers treat that as no match). Throws SyntaxError for an invalid pattern.
 */
export function boundedRegexTest(pattern: string, value: string, flags = ''): boolean | undefined {
  Object.assign(context, { pattern, flags, value });
  try {
    return script.runInContext(context, { timeout: REGEX_TIME_LIMIT_MS }) as boolean;
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined;
    // A SyntaxError from the other realm: rethrow as this realm's, so `instanceof` works.
    if ((err as Error).name === 'SyntaxError') throw new SyntaxError((err as Error).message);
    throw err;
  }
}
