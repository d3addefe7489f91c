// The lossless JSON of Iceberg documents: stringifyIcebergJson must write what JSON.stringify
// writes for every plain value (it replaces it on the commit path), plus bigints digit for digit
// and RawJson fragments verbatim; parseIcebergJson must read 64-bit snapshot ids exactly.
import { describe, expect, it } from 'vitest';
import { parseIcebergJson, RawJson, stringifyIcebergJson } from '../../src/iceberg/json.js';

const plain: unknown[] = [
  null,
  true,
  0,
  -0,
  1.5e300,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  'quote " backslash \\ newline \n tab \t nul \u0000 emoji 🧊 lone \ud800',
  [],
  {},
  [1, undefined, () => 1, Symbol('s'), 'x'],
  { a: 1, b: undefined, c: () => 1, d: [null, { e: 'f' }], '2': 'int-like key first', 'k"ey': 'escaped key' },
  { at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), nested: { toJSON: () => ({ replaced: true }) } },
  Object.assign(Object.create({ inherited: 1 }), { own: 2 }),
];

describe('stringifyIcebergJson', () => {
  it.each(plain.map((v) => [v]))('writes %j as JSON.stringify does', (value) => {
    expect(stringifyIcebergJson(value)).toBe(JSON.stringify(value));
  });

  it('writes bigints digit for digit and RawJson verbatim', () => {
    const id = 9_223_372_036_854_775_807n;
    const text = stringifyIcebergJson({ 'snapshot-id': id, ids: [-id, 1n], metadata: new RawJson('{"raw":[1,2]}') });
    expect(text).toBe('{"snapshot-id":9223372036854775807,"ids":[-9223372036854775807,1],"metadata":{"raw":[1,2]}}');
  });

  it('writes as JSON.stringify does past the keys it remembers (a table with thousands of properties)', () => {
    const properties = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`p.${i}"\\`, `v${i}`]));
    for (let round = 0; round < 2; round++) expect(stringifyIcebergJson({ properties })).toBe(JSON.stringify({ properties }));
  });

  it('refuses a value JSON cannot hold', () => {
    expect(() => stringifyIcebergJson(undefined)).toThrow(TypeError);
  });

  it('writes RawJson inside arrays, and a bigint that fits a double as that number', () => {
    const text = stringifyIcebergJson({ list: [new RawJson('"raw"'), 3], small: -1n, edge: -9_007_199_254_740_993n });
    expect(text).toBe('{"list":["raw",3],"small":-1,"edge":-9007199254740993}');
  });

  it('round-trips 64-bit snapshot ids through parseIcebergJson', () => {
    const doc = { 'current-snapshot-id': 4_611_686_018_427_387_905n, snapshots: [{ 'snapshot-id': 3n, 'parent-snapshot-id': 4_611_686_018_427_387_905n }], 'snapshot-ids': [7n] };
    expect(parseIcebergJson(stringifyIcebergJson(doc))).toEqual(doc);
  });
});
