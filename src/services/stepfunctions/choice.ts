/**
 * Choice rules of the States Language: the data-test comparators (String*, Numeric*, Boolean*,
 * Timestamp*, each also in its `…Path` form, IsPresent / IsNull / IsString / IsNumeric /
 * IsBoolean / IsTimestamp, StringMatches) and the And / Or / Not combinators. A rule with no
 * comparator Overcast knows fails the execution with States.Runtime, naming it.
 */
import { select, StatesError } from './paths.js';

type Rule = Record<string, unknown>;

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

function present(data: unknown, path: string, context: unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: select(data, path, context) };
  } catch {
    return { ok: false };
  }
}

function wildcard(value: string, pattern: string): boolean {
  const re = pattern.replace(/\\\*|\*|[.+?^${}()|[\]\\]/g, (m) => (m === '*' ? '.*' : m === '\\*' ? '\\*' : `\\${m}`));
  return new RegExp(`^${re}$`, 's').test(value);
}

function compare(op: string, value: unknown, against: unknown): boolean {
  const kind = /^(String|Numeric|Boolean|Timestamp)/.exec(op)?.[1];
  const test = op.slice(kind?.length ?? 0);
  const typed = (v: unknown): v is string | number | boolean =>
    kind === 'String' ? typeof v === 'string' : kind === 'Numeric' ? typeof v === 'number' : kind === 'Boolean' ? typeof v === 'boolean' : typeof v === 'string' && TIMESTAMP.test(v);
  if (!typed(value) || !typed(against)) return false;
  const a = kind === 'Timestamp' ? Date.parse(value as string) : value;
  const b = kind === 'Timestamp' ? Date.parse(against as string) : against;
  switch (test) {
    case 'Equals':
      return a === b;
    case 'LessThan':
      return a < b;
    case 'GreaterThan':
      return a > b;
    case 'LessThanEquals':
      return a <= b;
    case 'GreaterThanEquals':
      return a >= b;
    default:
      throw new StatesError('States.Runtime', `Overcast does not evaluate the Choice comparator ${op}`);
  }
}

/** Whether `rule` holds for `data`. */
export function matches(rule: Rule, data: unknown, context: unknown): boolean {
  if (Array.isArray(rule.And)) return (rule.And as Rule[]).every((r) => matches(r, data, context));
  if (Array.isArray(rule.Or)) return (rule.Or as Rule[]).some((r) => matches(r, data, context));
  if (rule.Not && typeof rule.Not === 'object') return !matches(rule.Not as Rule, data, context);
  const variable = rule.Variable;
  if (typeof variable !== 'string') throw new StatesError('States.Runtime', 'A Choice rule has no Variable');
  const found = present(data, variable, context);
  for (const [op, operand] of Object.entries(rule)) {
    if (op === 'Variable' || op === 'Next' || op === 'Comment') continue;
    if (op === 'IsPresent') return found.ok === operand;
    if (!found.ok) return false;
    const v = found.value;
    switch (op) {
      case 'IsNull':
        return (v === null) === operand;
      case 'IsString':
        return (typeof v === 'string') === operand;
      case 'IsNumeric':
        return (typeof v === 'number') === operand;
      case 'IsBoolean':
        return (typeof v === 'boolean') === operand;
      case 'IsTimestamp':
        return (typeof v === 'string' && TIMESTAMP.test(v)) === operand;
      case 'StringMatches':
        return typeof v === 'string' && typeof operand === 'string' && wildcard(v, operand);
    }
    if (op.endsWith('Path')) return compare(op.slice(0, -4), v, select(data, String(operand), context));
    return compare(op, v, operand);
  }
  throw new StatesError('States.Runtime', `A Choice rule on ${variable} has no comparator`);
}
