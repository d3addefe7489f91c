/**
 * The library against the Iceberg spec's own vectors: Appendix B hash values for every type it
 * lists, Appendix D single-value encodings (and their inverse), the transform examples of
 * "Partition Transforms" and "Truncate Transform Details", and the partition paths and human
 * strings the Java library writes.
 */
import { describe, expect, it } from 'vitest';
import { fromBytes, toBytes } from '../../src/iceberg/conversions.js';
import { applyTransform, hashValue, humanString, javaFloatString, murmur3, partitioner, urlEncode } from '../../src/iceberg/transforms.js';
import { compareStrings, compareValues, decimalString, unscaled } from '../../src/iceberg/values.js';
import type { Schema } from '../../src/iceberg/types.js';

const micros = (iso: string, extraMicros = 0n): bigint => BigInt(Date.parse(iso)) * 1000n + extraMicros;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('Appendix B: 32-bit hash', () => {
  it('hashes every bucketable type to the spec test values', () => {
    expect(hashValue('int', 34)).toBe(2017239379);
    expect(hashValue('long', 34n)).toBe(2017239379);
    expect(hashValue('decimal(4, 2)', '14.20')).toBe(-500754589);
    expect(hashValue('date', new Date('2017-11-16T00:00:00Z'))).toBe(-653330422);
    expect(hashValue('time', BigInt((22 * 3600 + 31 * 60 + 8) * 1e6))).toBe(-662762989);
    expect(hashValue('timestamp', micros('2017-11-16T22:31:08Z'))).toBe(-2047944441);
    expect(hashValue('timestamp', micros('2017-11-16T22:31:08Z', 1n))).toBe(-1207196810);
    expect(hashValue('timestamptz', micros('2017-11-16T14:31:08-08:00'))).toBe(-2047944441);
    expect(hashValue('timestamptz', micros('2017-11-16T14:31:08-08:00', 1n))).toBe(-1207196810);
    expect(hashValue('timestamp_ns', micros('2017-11-16T22:31:08Z') * 1000n)).toBe(-2047944441);
    expect(hashValue('timestamp_ns', micros('2017-11-16T22:31:08Z') * 1000n + 1001n)).toBe(-1207196810);
    expect(hashValue('timestamptz_ns', micros('2017-11-16T14:31:08-08:00') * 1000n + 1001n)).toBe(-1207196810);
    expect(hashValue('string', 'iceberg')).toBe(1210000089);
    expect(hashValue('uuid', 'f79c3e09-677c-4bbd-a479-3f349cb785e7')).toBe(1488055340);
    expect(hashValue('fixed[4]', Uint8Array.of(0, 1, 2, 3))).toBe(-188683207);
    expect(hashValue('binary', Uint8Array.of(0, 1, 2, 3))).toBe(-188683207);
  });

  it('hashes the not-bucketable types as the second table says', () => {
    expect(hashValue('boolean', true)).toBe(1392991556);
    expect(hashValue('float', 1)).toBe(-142385009);
    expect(hashValue('float', 0)).toBe(1669671676);
    expect(hashValue('float', -0)).toBe(1669671676);
    expect(hashValue('double', 1)).toBe(-142385009);
    expect(hashValue('double', -0)).toBe(1669671676);
  });

  it('is Murmur3 x86_32 with seed 0 on raw bytes (all tail lengths)', () => {
    expect(murmur3(new Uint8Array(0))).toBe(0);
    // Reference values of MurmurHash3_x86_32(seed 0).
    expect(murmur3(new TextEncoder().encode('a'))).toBe(1009084850);
    expect(murmur3(new TextEncoder().encode('ab'))).toBe(-1681926305);
    expect(murmur3(new TextEncoder().encode('abc'))).toBe(-1277324294);
    expect(murmur3(new TextEncoder().encode('abcd'))).toBe(1139631978);
    expect(murmur3(new TextEncoder().encode('abcde'))).toBe(-392455434);
  });
});

describe('Appendix D: binary single-value serialization', () => {
  const cases: [string, unknown, string][] = [
    ['boolean', true, '01'],
    ['boolean', false, '00'],
    ['int', 34, '22000000'],
    ['int', -1, 'ffffffff'],
    ['long', 34n, '2200000000000000'],
    ['float', 1, '0000803f'],
    ['double', 1, '000000000000f03f'],
    ['date', new Date('2017-11-16T00:00:00Z'), '4e440000'],
    ['time', 81068000000n, '008307e012000000'],
    ['timestamp', 1510871468000000n, '00c3262d215e0500'],
    ['timestamptz_ns', 1510871468000000001n, '01b8695f98b1f714'],
    ['string', 'iceberg', '69636562657267'],
    ['uuid', 'f79c3e09-677c-4bbd-a479-3f349cb785e7', 'f79c3e09677c4bbda4793f349cb785e7'],
    ['fixed[4]', Uint8Array.of(0, 1, 2, 3), '00010203'],
    ['binary', Uint8Array.of(0xff), 'ff'],
    ['decimal(4, 2)', '14.20', '058c'],
    ['decimal(9, 2)', '-0.01', 'ff'],
    ['decimal(9, 2)', '1.28', '0080'],
    ['decimal(9, 2)', '0.00', '00'],
  ];
  it.each(cases)('%s %s ⇄ %s', (type, value, bytes) => {
    const enc = toBytes(type, value);
    expect(hex(enc)).toBe(bytes);
    expect(fromBytes(type, enc)).toEqual(value);
  });

  it('reads a long or double written before promotion (4 bytes)', () => {
    expect(fromBytes('long', toBytes('int', -5))).toBe(-5n);
    expect(fromBytes('double', toBytes('float', 1.5))).toBe(1.5);
  });

  it('decimal strings keep the scale and refuse extra digits', () => {
    expect(unscaled('14.2', 2)).toBe(1420n);
    expect(unscaled('-0.5', 3)).toBe(-500n);
    expect(unscaled(3.1, 2)).toBe(310n);
    expect(decimalString(-5n, 3)).toBe('-0.005');
    expect(decimalString(2n, -20)).toBe('2E+20');
    expect(() => unscaled('1.234', 2)).toThrow(/fraction digits/);
  });
});

describe('Partition transforms', () => {
  it('truncates as the spec examples show', () => {
    expect(applyTransform('truncate[10]', 'int', 1)).toBe(0);
    expect(applyTransform('truncate[10]', 'int', -1)).toBe(-10);
    expect(applyTransform('truncate[10]', 'long', -1n)).toBe(-10n);
    expect(applyTransform('truncate[50]', 'decimal(9, 2)', '10.65')).toBe('10.50');
    expect(applyTransform('truncate[3]', 'string', 'iceberg')).toBe('ice');
    // Code points, not UTF-16 units: the emoji counts once.
    expect(applyTransform('truncate[2]', 'string', 'a😀b')).toBe('a😀');
    expect(applyTransform('truncate[3]', 'binary', Uint8Array.of(1, 2, 3, 4, 5))).toEqual(Uint8Array.of(1, 2, 3));
  });

  it('buckets by the masked hash modulo N', () => {
    // (2017239379 & MAX_INT) % 16
    expect(applyTransform('bucket[16]', 'int', 34)).toBe(2017239379 % 16);
    expect(applyTransform('bucket[16]', 'string', 'iceberg')).toBe(1210000089 % 16);
    expect(applyTransform('bucket[100]', 'decimal(4, 2)', '14.20')).toBe((-500754589 & 0x7fffffff) % 100);
    expect(applyTransform('bucket[16]', 'long', null)).toBeNull();
  });

  it('extracts years, months, days and hours from 1970, flooring before the epoch', () => {
    const ts = micros('2017-11-16T22:31:08Z');
    expect(applyTransform('year', 'timestamp', ts)).toBe(47);
    expect(applyTransform('month', 'timestamptz', ts)).toBe(47 * 12 + 10);
    expect(applyTransform('day', 'timestamp', ts)).toEqual(new Date('2017-11-16T00:00:00Z'));
    expect(applyTransform('hour', 'timestamp', ts)).toBe(Math.floor(Date.parse('2017-11-16T22:31:08Z') / 3_600_000));
    expect(applyTransform('day', 'date', new Date('2017-11-16T00:00:00Z'))).toEqual(new Date('2017-11-16T00:00:00Z'));
    expect(applyTransform('year', 'timestamp', -1n)).toBe(-1);
    expect(applyTransform('month', 'timestamp', -1n)).toBe(-1);
    expect(applyTransform('day', 'timestamp', -1n)).toEqual(new Date('1969-12-31T00:00:00Z'));
    expect(applyTransform('hour', 'timestamp', -1n)).toBe(-1);
    expect(applyTransform('day', 'timestamp_ns', ts * 1000n)).toEqual(new Date('2017-11-16T00:00:00Z'));
    expect(applyTransform('void', 'string', 'x')).toBeNull();
  });

  it('writes partition paths as Java does', () => {
    const schema: Schema = {
      type: 'struct',
      'schema-id': 0,
      fields: [
        { id: 1, name: 'ts', required: false, type: 'timestamptz' },
        { id: 2, name: 'cat egory', required: false, type: 'string' },
        { id: 3, name: 'id', required: true, type: 'long' },
        { id: 4, name: 'bin', required: false, type: 'binary' },
      ],
    };
    const p = partitioner(
      {
        'spec-id': 0,
        fields: [
          { 'source-id': 1, 'field-id': 1000, name: 'ts_day', transform: 'day' },
          { 'source-id': 1, 'field-id': 1001, name: 'ts_hour', transform: 'hour' },
          { 'source-id': 1, 'field-id': 1002, name: 'ts', transform: 'identity' },
          { 'source-id': 2, 'field-id': 1003, name: 'cat egory', transform: 'identity' },
          { 'source-id': 3, 'field-id': 1004, name: 'id_bucket', transform: 'bucket[16]' },
          { 'source-id': 4, 'field-id': 1005, name: 'bin', transform: 'identity' },
          { 'source-id': 1, 'field-id': 1006, name: 'ts_month', transform: 'month' },
        ],
      },
      schema,
    );
    const values = p.values({ ts: micros('2017-11-16T22:31:08Z', 500n), 'cat egory': 'a/b c+é', id: 34n, bin: Uint8Array.of(0xfb, 0xff) });
    expect(p.path(values)).toBe(
      'ts_day=2017-11-16/ts_hour=2017-11-16-22/ts=2017-11-16T22%3A31%3A08.0005%2B00%3A00/cat+egory=a%2Fb+c%2B%C3%A9/id_bucket=3/bin=%2B%2F8%3D/ts_month=2017-11',
    );
    expect(p.path(p.values({ ts: null, 'cat egory': null, id: 1n, bin: null }))).toMatch(/^ts_day=null\/ts_hour=null\/ts=null\/cat\+egory=null\//);
  });

  it('formats human strings of times and floats as Java', () => {
    expect(humanString({ transform: 'identity', type: 'time' }, 81068000000n)).toBe('22:31:08');
    expect(humanString({ transform: 'identity', type: 'time' }, 81060000000n)).toBe('22:31');
    expect(humanString({ transform: 'identity', type: 'time' }, 81068500000n)).toBe('22:31:08.500');
    expect(humanString({ transform: 'identity', type: 'timestamp' }, 1510871460000000n)).toBe('2017-11-16T22:31:00');
    expect(javaFloatString(1, false)).toBe('1.0');
    expect(javaFloatString(0.1, true)).toBe('0.1');
    expect(javaFloatString(Math.fround(0.1), true)).toBe('0.1');
    expect(javaFloatString(1e7, false)).toBe('1.0E7');
    expect(javaFloatString(1.5e-5, false)).toBe('1.5E-5');
    expect(urlEncode("a*b-c_d.e~f!g'h(i)j k")).toBe('a*b-c_d.e%7Ef%21g%27h%28i%29j+k');
  });
});

describe('value order', () => {
  it('orders strings by code point and floats with -0 before +0', () => {
    expect(compareStrings('\uffff', '😀')).toBeLessThan(0);
    expect('\uffff' < '😀').toBe(false);
    expect(compareValues('double', -0, 0)).toBeLessThan(0);
    expect(compareValues('double', 0, -0)).toBeGreaterThan(0);
    expect(compareValues('decimal(9, 2)', '-1.00', '0.50')).toBeLessThan(0);
    expect(compareValues('uuid', '00000000-0000-0000-0000-000000000001', 'f0000000-0000-0000-0000-000000000000')).toBeLessThan(0);
  });
});
