/**
 * Fn::Sub strings: splitting `text ${Var} text ${Res.Attr} ${!Literal}` into literal parts and
 * variables. `${!Name}` is the escape for a literal `${Name}`; a `${` without a closing brace
 * stays text. Variable names are checked with AWS's rule and message. Used by the resolver and
 * by the dependency graph (a `${Res}` or `${Res.Attr}` is a dependency on Res).
 */
import { templateError } from './errors.js';

type SubPart = { text: string } | { variable: string };

const VARIABLE = /^[A-Za-z0-9_.:]+$/;

export function parseSub(template: string): SubPart[] {
  const parts: SubPart[] = [];
  let text = '';
  let i = 0;
  while (i < template.length) {
    const start = template.indexOf('${', i);
    if (start < 0) break;
    const end = template.indexOf('}', start + 2);
    if (end < 0) break;
    text += template.slice(i, start);
    const inner = template.slice(start + 2, end);
    if (inner.startsWith('!')) {
      text += '${' + inner.slice(1) + '}';
    } else {
      if (!VARIABLE.test(inner)) {
        throw templateError(
          'variable names in Fn::Sub syntax must contain only alphanumeric characters, underscores, periods, and colons',
        );
      }
      if (text) parts.push({ text });
      text = '';
      parts.push({ variable: inner });
    }
    i = end + 1;
  }
  text += template.slice(i);
  if (text) parts.push({ text });
  return parts;
}

/** The `[template, variables]` of a Fn::Sub argument, or undefined when its shape is wrong. */
export function subArgs(arg: unknown): { template: string; vars: Record<string, unknown> } | undefined {
  if (typeof arg === 'string') return { template: arg, vars: {} };
  if (
    Array.isArray(arg) &&
    arg.length === 2 &&
    typeof arg[0] === 'string' &&
    typeof arg[1] === 'object' &&
    arg[1] !== null &&
    !Array.isArray(arg[1])
  ) {
    return { template: arg[0], vars: arg[1] as Record<string, unknown> };
  }
  return undefined;
}

export const SUB_SHAPE_MESSAGE =
  "One or more Fn::Sub intrinsic functions don't specify expected arguments. Specify a string as first argument, and an optional second argument to specify a mapping of values to replace in the string";
