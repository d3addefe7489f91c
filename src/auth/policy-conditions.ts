/**
 * The Condition block of an IAM policy statement, as AWS documents it ("IAM JSON policy elements:
 * Condition operators", "Multivalued context keys"): String*, Numeric*, Date*, Bool, BinaryEquals,
 * IpAddress / NotIpAddress, Arn*, Null, each with `…IfExists`, and the `ForAnyValue:` /
 * `ForAllValues:` set qualifiers. Every operator is one row of a table: how a policy value matches
 * a request value, and whether the operator is negated. Key names are case-insensitive, values of
 * a key in the policy are OR'ed, keys and operators are AND'ed. A key the request lacks makes a
 * positive operator false and a negated one true; `IfExists` makes both true.
 */
import { BlockList, isIP } from 'node:net';
import { wildcardMatch as match } from '../patterns/wildcard.js';

const wildcardMatch = (pattern: string, value: string) => match(pattern, value, { questionMark: true });

/** Condition keys of a request, lower-cased names; a multivalued key is an array. */
export type ContextKeys = Readonly<Record<string, string | readonly string[] | undefined>>;

type Matcher = (policyValue: string, requestValue: string) => boolean;

interface Operator {
  match: Matcher;
  negated: boolean;
}

const num = (text: string): number => (/^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : Number.NaN);
const date = (text: string): number => (/^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text));

function ipMatch(cidr: string, address: string): boolean {
  const ip = address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
  const family = isIP(ip);
  if (!family) return false;
  const [base, bits] = cidr.split('/');
  const baseFamily = isIP(base ?? '');
  if (!baseFamily || baseFamily !== family) return false;
  const list = new BlockList();
  const type = family === 4 ? 'ipv4' : 'ipv6';
  list.addSubnet(base!, bits === undefined ? (family === 4 ? 32 : 128) : Number(bits), type);
  return list.check(ip, type);
}

/** `arn:partition:service:region:account:resource`, each part matched with wildcards. */
function arnLike(pattern: string, value: string): boolean {
  const p = pattern.split(':');
  const v = value.split(':');
  if (p.length < 6 || v.length < 6) return wildcardMatch(pattern, value);
  const head = (parts: string[]) => [...parts.slice(0, 5), parts.slice(5).join(':')];
  const [hp, hv] = [head(p), head(v)];
  return hp.every((part, i) => wildcardMatch(part, hv[i]!));
}

const compare = (cmp: (a: number, b: number) => boolean, parse: (t: string) => number): Matcher => (p, r) => {
  const [a, b] = [parse(r), parse(p)];
  return !Number.isNaN(a) && !Number.isNaN(b) && cmp(a, b);
};

const OPERATORS: Record<string, Operator> = {
  stringequals: { match: (p, r) => p === r, negated: false },
  stringnotequals: { match: (p, r) => p === r, negated: true },
  stringequalsignorecase: { match: (p, r) => p.toLowerCase() === r.toLowerCase(), negated: false },
  stringnotequalsignorecase: { match: (p, r) => p.toLowerCase() === r.toLowerCase(), negated: true },
  stringlike: { match: (p, r) => wildcardMatch(p, r), negated: false },
  stringnotlike: { match: (p, r) => wildcardMatch(p, r), negated: true },
  numericequals: { match: compare((a, b) => a === b, num), negated: false },
  numericnotequals: { match: compare((a, b) => a === b, num), negated: true },
  numericlessthan: { match: compare((a, b) => a < b, num), negated: false },
  numericlessthanequals: { match: compare((a, b) => a <= b, num), negated: false },
  numericgreaterthan: { match: compare((a, b) => a > b, num), negated: false },
  numericgreaterthanequals: { match: compare((a, b) => a >= b, num), negated: false },
  dateequals: { match: compare((a, b) => a === b, date), negated: false },
  datenotequals: { match: compare((a, b) => a === b, date), negated: true },
  datelessthan: { match: compare((a, b) => a < b, date), negated: false },
  datelessthanequals: { match: compare((a, b) => a <= b, date), negated: false },
  dategreaterthan: { match: compare((a, b) => a > b, date), negated: false },
  dategreaterthanequals: { match: compare((a, b) => a >= b, date), negated: false },
  bool: { match: (p, r) => p.toLowerCase() === r.toLowerCase(), negated: false },
  binaryequals: { match: (p, r) => p === r, negated: false },
  ipaddress: { match: ipMatch, negated: false },
  notipaddress: { match: ipMatch, negated: true },
  arnequals: { match: arnLike, negated: false },
  arnlike: { match: arnLike, negated: false },
  arnnotequals: { match: arnLike, negated: true },
  arnnotlike: { match: arnLike, negated: true },
};

function asList(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
}

/** Whether one `operator: {key: values}` entry holds for the request. An unknown operator never holds. */
function entryHolds(operatorName: string, key: string, policyValues: string[], keys: ContextKeys): boolean {
  let name = operatorName.toLowerCase();
  let set: 'any' | 'all' | undefined;
  if (name.startsWith('foranyvalue:')) [set, name] = ['any', name.slice(12)];
  else if (name.startsWith('forallvalues:')) [set, name] = ['all', name.slice(13)];
  const ifExists = name.endsWith('ifexists');
  if (ifExists) name = name.slice(0, -'ifexists'.length);
  const raw = keys[key.toLowerCase()];
  const present = raw !== undefined && !(Array.isArray(raw) && raw.length === 0);
  if (name === 'null') {
    const wantAbsent = policyValues.some((v) => v.toLowerCase() === 'true');
    return wantAbsent ? !present : present;
  }
  const op = OPERATORS[name];
  if (!op) return false;
  const values = raw === undefined ? [] : Array.isArray(raw) ? (raw as string[]) : [raw as string];
  const matchesAny = (r: string) => policyValues.some((p) => op.match(p, r));
  if (set === 'all') {
    if (!present) return true;
    return values.every((r) => (op.negated ? !matchesAny(r) : matchesAny(r)));
  }
  if (set === 'any') {
    if (!present) return false;
    return values.some((r) => (op.negated ? !matchesAny(r) : matchesAny(r)));
  }
  if (!present) return ifExists || op.negated;
  // A single-valued operator on a multivalued key compares its first value, as AWS does for such keys.
  const r = values[0]!;
  return op.negated ? !matchesAny(r) : matchesAny(r);
}

/** Whether a statement's whole Condition block holds (every operator, every key). */
export function conditionHolds(condition: unknown, keys: ContextKeys, substitute: (text: string) => string): boolean {
  if (condition === undefined) return true;
  if (!condition || typeof condition !== 'object') return false;
  for (const [operator, block] of Object.entries(condition as Record<string, unknown>)) {
    if (!block || typeof block !== 'object') return false;
    for (const [key, values] of Object.entries(block as Record<string, unknown>)) {
      if (!entryHolds(operator, key, asList(values).map(substitute), keys)) return false;
    }
  }
  return true;
}
