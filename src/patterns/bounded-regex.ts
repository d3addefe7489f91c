/**
 * Regular expressions a client writes (a template parameter's or an SSM parameter's
 * AllowedPattern), run under a time limit: `(a+)+$` needs no wildcard to stall the server for
 * minutes on forty characters.
 */
import { Script, createContext } from 'node:vm';

// Made on the first pattern rather than at import: a context is a new global object, a few
// milliseconds that a stack without AllowedPattern (most of them) should not pay.
let sandbox: { context: object; script: Script } | undefined;

/** How long one client-written regular expression may run before the server gives up on it. */
const REGEX_TIME_LIMIT_MS = 100;

/**
 * `new RegExp(pattern, flags).test(value)` given at most REGEX_TIME_LIMIT_MS; undefined when it
 * ran out of time (callers treat that as no match). Throws SyntaxError for an invalid pattern.
 */
export function boundedRegexTest(pattern: string, value: string, flags = ''): boolean | undefined {
  sandbox ??= { context: createContext(Object.create(null) as object), script: new Script('new RegExp(pattern, flags).test(value)') };
  const { context, script } = sandbox;
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
