/**
 * Attacks on query-protocol (CloudFormation, STS) form bodies: list members indexed `member.0`,
 * `member.-1`, with gaps, given both as a list and as a scalar, or 10,000 times; missing, unknown,
 * repeated actions and versions; duplicated scalars; broken percent-encoding; deep dotted keys;
 * JSON or plain-text bodies; the whole request moved into a GET query string.
 */
import type { ServiceModel } from '../../src/model/service-model.js';
import { parseQuery } from '../../src/wire/http.js';
import type { BodyAttack } from './sweep.js';
import type { RawRequest } from './support.js';
import { formBody } from './wire-requests.js';

/** The first top-level list member of an operation's input (its wire name), if any. */
function listMember(model: ServiceModel, operation: string): string | undefined {
  const op = model.operations[operation]!;
  if (!op.input) return undefined;
  for (const [name, ref] of Object.entries(model.shapes[op.input.shape]!.members ?? {})) {
    if (model.shapes[ref.shape]!.type === 'list') return ref.locationName ?? name;
  }
  return undefined;
}

function firstScalar(model: ServiceModel, operation: string): string {
  const op = model.operations[operation]!;
  const shape = op.input ? model.shapes[op.input.shape]! : undefined;
  for (const [name, ref] of Object.entries(shape?.members ?? {})) {
    if (model.shapes[ref.shape]!.type === 'string') return ref.locationName ?? name;
  }
  return 'Unknown';
}

function rewrite(req: RawRequest, edit: (pairs: [string, string][]) => [string, string][] | string): RawRequest {
  const pairs = parseQuery(String(req.body ?? ''));
  const out = edit(pairs);
  return { ...req, body: typeof out === 'string' ? out : formBody(out) };
}

export function queryAttacks(model: ServiceModel): BodyAttack[] {
  const withList = (label: string, items: (list: string) => [string, string][]): BodyAttack => ({
    label,
    apply: (req, operation) => {
      const list = listMember(model, operation) ?? 'Zz';
      return rewrite(req, (pairs) => [...pairs.filter(([k]) => k !== list && !k.startsWith(`${list}.`)), ...items(list)]);
    },
  });
  return [
    withList('list member.0', (l) => [[`${l}.member.0`, 'x']]),
    withList('list member.-1', (l) => [[`${l}.member.-1`, 'x']]),
    withList('list with gaps', (l) => [[`${l}.member.1`, 'a'], [`${l}.member.5`, 'b']]),
    withList('list and scalar', (l) => [[l, 'x'], [`${l}.member.1`, 'y']]),
    withList('list huge index', (l) => [[`${l}.member.99999999999999999999`, 'x']]),
    withList('list named index', (l) => [[`${l}.member.first`, 'x'], [`${l}.member.1.`, 'y']]),
    withList('list 10000 members', (l) => Array.from({ length: 10_000 }, (_, i): [string, string] => [`${l}.member.${i + 1}`, `v${i}`])),
    withList('list members of members', (l) => [[`${l}.member.1.member.1.member.1`, 'x'], [`${l}.member.1.Key`, 'k']]),
    { label: 'no Action', apply: (req) => rewrite(req, (pairs) => pairs.filter(([k]) => k !== 'Action')) },
    { label: 'unknown Action', apply: (req) => rewrite(req, (pairs) => pairs.map(([k, v]) => [k, k === 'Action' ? 'NoSuchAction' : v])) },
    { label: 'empty Action', apply: (req) => rewrite(req, (pairs) => pairs.map(([k, v]) => [k, k === 'Action' ? '' : v])) },
    { label: 'two Actions', apply: (req) => rewrite(req, (pairs) => [['Action', 'ListExports'], ...pairs]) },
    { label: 'wrong Version', apply: (req) => rewrite(req, (pairs) => pairs.map(([k, v]) => [k, k === 'Version' ? '1999-01-01' : v])) },
    { label: 'no Version', apply: (req) => rewrite(req, (pairs) => pairs.filter(([k]) => k !== 'Version')) },
    {
      label: 'duplicate scalar',
      apply: (req, operation) => rewrite(req, (pairs) => [...pairs, [firstScalar(model, operation), 'second'], [firstScalar(model, operation), '']]),
    },
    { label: 'bad percent-encoding', apply: (req) => rewrite(req, (pairs) => `${formBody(pairs)}&Zz=%ZZ%&%E0%A4=%FF%FE&%=%`) },
    { label: 'deep dotted key', apply: (req) => rewrite(req, (pairs) => `${formBody(pairs)}&${'a.'.repeat(5_000)}b=1`) },
    { label: 'dots only keys', apply: (req) => rewrite(req, (pairs) => `${formBody(pairs)}&.=1&..=2&...member.1=3&=4&&&`) },
    { label: '1 MB value', apply: (req, operation) => rewrite(req, (pairs) => [...pairs, [firstScalar(model, operation), 'v'.repeat(1024 * 1024)]]) },
    { label: 'JSON body', apply: (req) => ({ ...req, headers: { ...req.headers, 'content-type': 'application/json' }, body: '{"Action":"ListExports"}' }) },
    { label: 'text/plain content type', apply: (req) => ({ ...req, headers: { ...req.headers, 'content-type': 'text/plain' } }) },
    { label: 'no content type', apply: (req) => ({ ...req, headers: { ...req.headers, 'content-type': '' } }) },
    { label: 'truncated form', apply: (req) => ({ ...req, body: String(req.body).slice(0, Math.floor(String(req.body).length / 2)) }) },
    { label: 'empty body', apply: (req) => ({ ...req, body: '' }) },
    { label: 'as GET query', apply: (req) => ({ method: 'GET', path: `/?${String(req.body)}`, headers: { authorization: req.headers!.authorization! } }) },
    { label: 'PUT method', apply: (req) => ({ ...req, method: 'PUT' }) },
    { label: 'DELETE method', apply: (req) => ({ ...req, method: 'DELETE' }) },
  ];
}
