/**
 * YAML templates: the `yaml` package configured as CloudFormation reads YAML — YAML 1.1 scalars
 * (`yes`/`on` are booleans) without the timestamp, binary, omap, pairs and set tags (so
 * `2010-09-09` stays a string), no merge keys, and every short-form tag (`!Ref`, `!GetAtt`,
 * `!Sub`, … and the rule functions) in scalar, sequence and mapping form, expanded to the long
 * JSON form. Anchors, aliases, unknown tags, duplicate keys and multiple documents are refused.
 * Deep nesting is refused by a lexer pass before the recursive composer runs (the composer
 * overflows the stack near 800 levels and has crashed the process on far deeper input).
 * The `yaml` package is loaded by the first YAML template, not with the template layer: it is
 * most of that layer's loading time, and JSON templates never need it (a synchronous require
 * rooted at the package, so it works the same from the ES module and the CommonJS build).
 */
import type { CollectionTag, ScalarTag, Tags, YAMLMap, YAMLSeq } from 'yaml';
import { requireOnDemand } from '../../../on-demand.js';
import { formatError } from './errors.js';
import type { AwsError } from '../../../wire/errors.js';

let yamlModule: typeof import('yaml') | undefined;

function yaml(): typeof import('yaml') {
  return (yamlModule ??= requireOnDemand<typeof import('yaml')>('yaml'));
}

/** Nesting deeper than this is refused (real templates nest a few dozen levels at most). */
export const MAX_NESTING_DEPTH = 200;

/** Short forms whose long form keeps the bare name; every other tag becomes `Fn::<Name>`. */
const BARE = new Set(['Ref', 'Condition']);

const SHORT_FORMS = [
  'Ref',
  'Condition',
  'GetAtt',
  'Sub',
  'Join',
  'Select',
  'Split',
  'If',
  'Equals',
  'And',
  'Or',
  'Not',
  'FindInMap',
  'GetAZs',
  'ImportValue',
  'Base64',
  'Cidr',
  'Transform',
  'Contains',
  'EachMemberEquals',
  'EachMemberIn',
  'RefAll',
  'ValueOf',
  'ValueOfAll',
] as const;

function longName(name: string): string {
  return BARE.has(name) ? name : `Fn::${name}`;
}

function cfnTags(): Tags {
  const tags: Tags = [];
  for (const name of SHORT_FORMS) {
    const key = longName(name);
    const scalar: ScalarTag = {
      tag: `!${name}`,
      resolve(value: string) {
        // `!GetAtt Res.Attr` splits at the first dot only: `!GetAtt Stack.Outputs.Name` → [Stack, Outputs.Name].
        if (name === 'GetAtt') {
          const dot = value.indexOf('.');
          return { [key]: dot < 0 ? [value] : [value.slice(0, dot), value.slice(dot + 1)] };
        }
        return { [key]: value };
      },
    };
    // Collections stay YAML nodes (wrapped in a one-key map) so aliases can be found before
    // anything is converted, and conversion happens once, in toJS.
    const wrap = (coll: YAMLMap | YAMLSeq): YAMLMap => {
      const { Pair, Scalar, YAMLMap } = yaml();
      const map = new YAMLMap();
      map.items.push(new Pair(new Scalar(key), coll));
      return map;
    };
    const seq: CollectionTag = { tag: `!${name}`, collection: 'seq', resolve: wrap as CollectionTag['resolve'] };
    const map: CollectionTag = { tag: `!${name}`, collection: 'map', resolve: wrap as CollectionTag['resolve'] };
    tags.push(scalar, seq, map);
  }
  return tags;
}

const REFUSED_TAGS = new Set([
  'tag:yaml.org,2002:timestamp',
  'tag:yaml.org,2002:binary',
  'tag:yaml.org,2002:omap',
  'tag:yaml.org,2002:pairs',
  'tag:yaml.org,2002:set',
  'tag:yaml.org,2002:merge',
  'tag:yaml.org,2002:bool',
]);

/** YAML 1.1 booleans as CloudFormation reads them: the `yaml` package also takes `y`/`n`, which stay strings here. */
const boolTags: ScalarTag[] = [
  { tag: 'tag:yaml.org,2002:bool', default: true, test: /^(?:[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/, resolve: () => true },
  { tag: 'tag:yaml.org,2002:bool', default: true, test: /^(?:[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/, resolve: () => false },
];

/**
 * YAML 1.1 decimal integers: `0` or no leading zero (`012345678901`, an account id, is not an
 * integer in YAML 1.1 and stays text — the `yaml` package would read 12345678901). Integers too
 * large for a double stay text so no digit is lost.
 */
const decimalInt: ScalarTag = {
  tag: 'tag:yaml.org,2002:int',
  default: true,
  test: /^[-+]?(?:0|[1-9][0-9_]*)$/,
  resolve(source: string) {
    const n = Number(source.replace(/_/g, ''));
    return Number.isSafeInteger(n) ? n : source;
  },
};

let cfnTagList: Tags | undefined;

function customTags(defaults: Tags): Tags {
  const kept = defaults.filter((t) => {
    const tag = typeof t === 'string' ? t : t.tag;
    if (REFUSED_TAGS.has(tag)) return false;
    // YAML 1.1 sexagesimal numbers (`1:30` → 90) come with the timestamp module; templates write
    // times as `12:30` and mean the text, so they stay strings.
    if (typeof t === 'object' && (t as { format?: string }).format === 'TIME') return false;
    return !(typeof t === 'object' && tag === 'tag:yaml.org,2002:int' && !(t as { format?: string }).format);
  });
  return [...kept.slice(0, 1), ...boolTags, decimalInt, ...kept.slice(1), ...(cfnTagList ??= cfnTags())];
}

const OPTIONS = {
  version: '1.1' as const,
  merge: false,
  resolveKnownTags: false,
  uniqueKeys: true,
  customTags,
  prettyErrors: false,
};

function notWellFormed(line: number, col: number): AwsError {
  return formatError(`YAML not well-formed. (line ${line}, column ${col})`);
}

/** Flow nesting measured on lexemes (quoted scalars are single lexemes), aborting early. */
function flowDepthExceeded(source: string): number | undefined {
  let depth = 0;
  let offset = 0;
  for (const lexeme of new (yaml().Lexer)().lex(source)) {
    if (lexeme === '[' || lexeme === '{') {
      if (++depth > MAX_NESTING_DEPTH) return offset;
    } else if (lexeme === ']' || lexeme === '}') {
      depth = Math.max(0, depth - 1);
    }
    offset += lexeme.length;
  }
  return undefined;
}

interface CstToken {
  offset?: number;
  value?: unknown;
  items?: Array<{ key?: unknown; value?: unknown }>;
}

/** Block and flow nesting measured on the CST, iteratively. */
function cstDepthExceeded(tokens: CstToken[]): number | undefined {
  const stack: Array<[CstToken, number]> = tokens.map((t) => [t, 1]);
  while (stack.length) {
    const [token, depth] = stack.pop()!;
    if (depth > MAX_NESTING_DEPTH + 2) return token.offset ?? 0;
    if (token.value && typeof token.value === 'object') stack.push([token.value as CstToken, depth + 1]);
    if (token.items) {
      for (const item of token.items) {
        if (item.key && typeof item.key === 'object') stack.push([item.key as CstToken, depth + 1]);
        if (item.value && typeof item.value === 'object') stack.push([item.value as CstToken, depth + 1]);
      }
    }
  }
  return undefined;
}

/** 1-based line and column of a character offset, as AWS reports them. */
export function linePos(source: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, source.length);
  for (let i = source.indexOf('\n'); i >= 0 && i < end; i = source.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, col: end - lineStart + 1 };
}

/** Parses a YAML template into plain JSON values; throws the AWS format error on any problem. */
export function parseYamlTemplate(source: string): unknown {
  const pos = (offset: number): AwsError => {
    const p = linePos(source, offset);
    return notWellFormed(p.line, p.col);
  };
  const { Composer, isAlias, isNode, Parser, visit } = yaml();
  const flowAt = flowDepthExceeded(source);
  if (flowAt !== undefined) throw pos(flowAt);
  const tokens = [...new Parser().parse(source)];
  const deepAt = cstDepthExceeded(tokens as CstToken[]);
  if (deepAt !== undefined) throw pos(deepAt);
  let docs;
  try {
    docs = [...new Composer(OPTIONS).compose(tokens, true, source.length)];
  } catch (err) {
    if (err instanceof RangeError) throw notWellFormed(1, 1);
    throw err;
  }
  if (docs.length === 0) return null;
  if (docs.length > 1) throw pos(docs[1]!.range[0]);
  const doc = docs[0]!;
  const problem =
    doc.errors[0] ?? doc.warnings.find((w) => w.code === 'TAG_RESOLVE_FAILED' || w.code === 'BAD_COLLECTION_TYPE');
  if (problem) throw pos(problem.pos[0]);
  let aliasAt: number | undefined;
  visit(doc, (_key, node) => {
    if (isAlias(node) || (isNode(node) && (node as { anchor?: string }).anchor)) {
      aliasAt = (node as { range?: [number, number, number] }).range?.[0] ?? 0;
      return visit.BREAK;
    }
    return undefined;
  });
  if (aliasAt !== undefined) throw pos(aliasAt);
  try {
    return doc.toJS({ maxAliasCount: 0 });
  } catch (err) {
    if (err instanceof RangeError) throw notWellFormed(1, 1);
    throw err;
  }
}
