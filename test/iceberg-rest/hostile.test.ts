/**
 * The hostile-input sweep over the Iceberg REST catalog: every route and method with bodies that
 * are not JSON, JSON of the wrong shape, and valid requests with each member replaced by values of
 * the wrong type, out of range, enormous, empty or odd; paths with odd percent-encoding. Each
 * answer is below 500 in Iceberg's error shape, a refused commit leaves the table's pointer where
 * it was, and the server stays healthy.
 */
import { GetTableMetadataLocationCommand } from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import { makeBucket, makeNamespace } from '../s3tables/helpers.js';
import { catalog, prefixOf, raw, SIMPLE_SCHEMA } from './helpers.js';

let arn: string;
let ns: string;

it.beforeAll(async ({ server: t, s3tables: s3t }) => {
  arn = await makeBucket(s3t);
  ns = await makeNamespace(s3t, arn);
  await catalog(t, arn).createTable({ namespace: [ns] }, { name: 'target', schema: SIMPLE_SCHEMA as never });
  await catalog(t, arn).createTable({ namespace: [ns] }, { name: 'renamed', schema: SIMPLE_SCHEMA as never });
});

type Json = Record<string, unknown>;

const ODD_VALUES: unknown[] = [
  null, true, 0, -1, 1.5, 2 ** 31, -(2 ** 63), 1e308, '', 'x', 'é\u0000\u001f\ud83d\ude00', 'a'.repeat(70_000), [], [null], {}, { a: { b: { c: [] } } },
];

/** Every way to spoil one member of `value`: each leaf and object replaced by each odd value, and removed. */
function mutations(value: unknown, path: string[] = []): { path: string; body: unknown }[] {
  const out: { path: string; body: unknown }[] = [];
  const walk = (node: unknown, at: string[]) => {
    for (const odd of ODD_VALUES) out.push({ path: at.join('.'), body: setAt(value, at, odd) });
    out.push({ path: `${at.join('.')} (removed)`, body: setAt(value, at, undefined) });
    if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node as Json)) walk(v, [...at, k]);
    }
  };
  for (const [k, v] of Object.entries(value as Json)) walk(v, [...path, k]);
  return out;
}

function setAt(value: unknown, path: string[], replacement: unknown): unknown {
  const copy = structuredClone(value) as Json;
  let node = copy as Json;
  for (const key of path.slice(0, -1)) node = node[key] as Json;
  const last = path[path.length - 1]!;
  if (replacement === undefined) delete node[last];
  else node[last] = replacement;
  return copy;
}

const MALFORMED = ['', '{', '[', 'null', '"text"', '42', '{"a":}', '\u0000', '{"requirements": [], "updates": [}', '{"__proto__": {"polluted": 1}}', `${'['.repeat(5000)}${']'.repeat(5000)}`];

function checkAnswer(res: { status: number; json: any; text: string }, what: string): void {
  expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
  if (res.status >= 400 && res.text !== '') {
    expect(Object.keys(res.json ?? {}), what).toEqual(['error']);
    expect(res.json.error.code, what).toBe(res.status);
  }
}

describe('hostile-input sweep: Iceberg REST catalog', () => {
  it('answers every mutation of every request below 500, and a refused commit changes nothing', async ({ server: t, s3tables: s3t }) => {
    const p = prefixOf(arn);
    const table = `${p}/namespaces/${ns}/tables/target`;
    const valid: [string, string, Json][] = [
      ['POST', `${p}/namespaces`, { namespace: ['fuzz_ns'], properties: {} }],
      ['POST', `${p}/namespaces/${ns}/tables`, { name: 'fuzz_t', schema: SIMPLE_SCHEMA, 'partition-spec': { 'spec-id': 0, fields: [] }, 'write-order': { 'order-id': 0, fields: [] }, properties: {} }],
      ['POST', `${p}/tables/rename`, { source: { namespace: [ns], name: 'renamed' }, destination: { namespace: [ns], name: 'renamed' } }],
      [
        'POST',
        table,
        {
          requirements: [{ type: 'assert-current-schema-id', 'current-schema-id': 0 }],
          updates: [
            { action: 'set-properties', updates: { k: 'v' } },
            { action: 'add-schema', schema: { type: 'struct', 'schema-id': 1, fields: [{ id: 1, name: 'id', type: 'long', required: true }] } },
            { action: 'add-snapshot', snapshot: { 'snapshot-id': 5, 'sequence-number': 1, 'timestamp-ms': 1, 'manifest-list': 's3://x/m.avro', summary: { operation: 'append' } } },
            { action: 'set-snapshot-ref', 'ref-name': 'b', type: 'branch', 'snapshot-id': 5 },
          ],
        },
      ],
    ];
    const pointer = async () => (await s3t.send(new GetTableMetadataLocationCommand({ tableBucketARN: arn, namespace: ns, name: 'target' }))).versionToken;
    let requests = 0;
    for (const [method, path, body] of valid) {
      for (const m of mutations(body)) {
        const before = path === table ? await pointer() : undefined;
        const res = await raw(t, method, path, m.body === undefined ? undefined : JSON.stringify(m.body));
        requests++;
        checkAnswer(res, `${method} ${path} ${m.path}`);
        if (before !== undefined && res.status >= 400) expect(await pointer(), `${m.path} changed the table`).toBe(before);
      }
      for (const text of MALFORMED) {
        const res = await raw(t, method, path, text);
        requests++;
        checkAnswer(res, `${method} ${path} ${JSON.stringify(text.slice(0, 20))}`);
      }
    }
    for (const path of [`${p}/namespaces/%`, `${p}/namespaces/%E0%A4%A`, `${p}/namespaces/${'%41'.repeat(3000)}`, `${p}//tables`, `${encodeURIComponent(`${arn}/extra`)}/namespaces`, `${p}/namespaces/${ns}/tables/%2e%2e`]) {
      for (const method of ['GET', 'HEAD', 'DELETE', 'POST']) {
        const res = await raw(t, method, path, method === 'POST' ? '{}' : undefined);
        requests++;
        checkAnswer(res, `${method} ${path}`);
      }
    }
    expect(requests).toBeGreaterThan(1000);
    expect(({} as Json).polluted).toBeUndefined();
    const health = await fetch(`${t.endpoint}/_overcast/health`);
    expect(health.status).toBe(200);
  });
});
