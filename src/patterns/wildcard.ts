/**
 * Wildcards a client supplies (`*`, `?` — S3 CORS origins and headers, stack-policy resources),
 * matched in linear passes instead of being compiled to backtracking regular expressions, where
 * `*a*a*a*…b` against a long value takes minutes.
 */

interface WildcardOptions {
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
