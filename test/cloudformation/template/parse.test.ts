/**
 * parseTemplate: JSON first, YAML 1.1 with every short form (scalar, sequence and mapping
 * variants), no timestamp coercion, refused anchors/aliases/unknown tags/duplicate keys, AWS's
 * "not well-formed" messages with line and column, and bounded work on hostile input.
 */
import { describe, expect, it } from 'vitest';
import { parseTemplate, templateSizeError } from '../../../src/services/cloudformation/template/index.js';
import { expectError } from './helpers.js';

const yamlValue = (text: string) => (parseTemplate(`V: ${text}\n`) as Record<string, unknown>).V;

describe('JSON', () => {
  it('parses JSON templates as they are', () => {
    const doc = parseTemplate('{"AWSTemplateFormatVersion":"2010-09-09","Resources":{"B":{"Type":"AWS::S3::Bucket"}}}');
    expect(doc.Resources.B!.Type).toBe('AWS::S3::Bucket');
  });
  it('reports malformed JSON with line and column', () => {
    expectError(() => parseTemplate('{\n  "Resources": {\n    "B": tru\n  }\n}'), 'Template format error: JSON not well-formed. (line 3, column 10)');
    expectError(() => parseTemplate('{"a": 1,}'), 'Template format error: JSON not well-formed. (line 1, column 9)');
    expectError(() => parseTemplate('{"a": 1'), 'Template format error: JSON not well-formed. (line 1, column 8)');
  });
  it('answers a body that is not a mapping like a template without resources', () => {
    expectError(() => parseTemplate('"just a string"'), 'Template format error: At least one Resources member must be defined.');
    expectError(() => parseTemplate(''), 'Template format error: At least one Resources member must be defined.');
  });
});

describe('YAML scalars', () => {
  it('keeps 2010-09-09 a string and reads YAML 1.1 booleans', () => {
    const doc = parseTemplate('AWSTemplateFormatVersion: 2010-09-09\nA: yes\nB: "Yes"\nC: off\nD: y\nE: 12:30\nF: 0x1F\nG: ~\n');
    expect(doc.AWSTemplateFormatVersion).toBe('2010-09-09');
    expect(doc.A).toBe(true);
    expect(doc.B).toBe('Yes');
    expect(doc.C).toBe(false);
    expect(doc.D).toBe('y');
    expect(doc.E).toBe('12:30');
    expect(doc.F).toBe(31);
    expect(doc.G).toBeNull();
  });
  it('reads YAML 1.1 integers: no leading zeros, octal, no precision loss', () => {
    const doc = parseTemplate('A: 012345678901\nB: 123456789012\nC: 0755\nD: 1_000\nE: 12345678901234567890\nF: -0\nG: 1.50\n');
    expect(doc).toEqual({ A: '012345678901', B: 123456789012, C: 493, D: 1000, E: '12345678901234567890', F: -0, G: 1.5 });
  });
  it('does not merge keys', () => {
    expect(parseTemplate('A:\n  "<<": {b: 1}\n').A).toEqual({ '<<': { b: 1 } });
  });
});

describe('YAML short forms', () => {
  const cases: Array<[string, unknown]> = [
    ['!Ref X', { Ref: 'X' }],
    ['!Condition C', { Condition: 'C' }],
    ['!GetAtt Res.Arn', { 'Fn::GetAtt': ['Res', 'Arn'] }],
    ['!GetAtt Stack.Outputs.Name', { 'Fn::GetAtt': ['Stack', 'Outputs.Name'] }],
    ['!GetAtt [Res, Arn]', { 'Fn::GetAtt': ['Res', 'Arn'] }],
    ['!Sub "a-${X}"', { 'Fn::Sub': 'a-${X}' }],
    ['!Sub ["${A}", {A: !Ref X}]', { 'Fn::Sub': ['${A}', { A: { Ref: 'X' } }] }],
    ['!Join ["-", [a, !Ref X]]', { 'Fn::Join': ['-', ['a', { Ref: 'X' }]] }],
    ['!Select [0, !Split [",", "a,b"]]', { 'Fn::Select': [0, { 'Fn::Split': [',', 'a,b'] }] }],
    ['!If [C, a, !Ref AWS::NoValue]', { 'Fn::If': ['C', 'a', { Ref: 'AWS::NoValue' }] }],
    ['!Equals [a, b]', { 'Fn::Equals': ['a', 'b'] }],
    ['!And [!Condition A, !Condition B]', { 'Fn::And': [{ Condition: 'A' }, { Condition: 'B' }] }],
    ['!Or [!Condition A, !Condition B]', { 'Fn::Or': [{ Condition: 'A' }, { Condition: 'B' }] }],
    ['!Not [!Condition A]', { 'Fn::Not': [{ Condition: 'A' }] }],
    ['!FindInMap [M, K1, K2]', { 'Fn::FindInMap': ['M', 'K1', 'K2'] }],
    ["!GetAZs ''", { 'Fn::GetAZs': '' }],
    ['!GetAZs {Ref: AWS::Region}', { 'Fn::GetAZs': { Ref: 'AWS::Region' } }],
    ['!ImportValue shared-name', { 'Fn::ImportValue': 'shared-name' }],
    ["!ImportValue {'Fn::Sub': '${AWS::StackName}-x'}", { 'Fn::ImportValue': { 'Fn::Sub': '${AWS::StackName}-x' } }],
    ['!Base64 hello', { 'Fn::Base64': 'hello' }],
    ['!Base64 {Ref: X}', { 'Fn::Base64': { Ref: 'X' } }],
    ['!Cidr [10.0.0.0/16, 6, 5]', { 'Fn::Cidr': ['10.0.0.0/16', 6, 5] }],
    ['!Transform {Name: AWS::Include, Parameters: {Location: s3://b/k}}', { 'Fn::Transform': { Name: 'AWS::Include', Parameters: { Location: 's3://b/k' } } }],
    ['!Contains [[a, b], a]', { 'Fn::Contains': [['a', 'b'], 'a'] }],
    ['!EachMemberEquals [[a], a]', { 'Fn::EachMemberEquals': [['a'], 'a'] }],
    ['!EachMemberIn [[a], [a, b]]', { 'Fn::EachMemberIn': [['a'], ['a', 'b']] }],
    ['!RefAll AWS::EC2::VPC::Id', { 'Fn::RefAll': 'AWS::EC2::VPC::Id' }],
    ['!ValueOf [P, Tags.Name]', { 'Fn::ValueOf': ['P', 'Tags.Name'] }],
    ['!ValueOfAll [AWS::EC2::VPC::Id, Tags.Name]', { 'Fn::ValueOfAll': ['AWS::EC2::VPC::Id', 'Tags.Name'] }],
  ];
  it.each(cases)('%s', (text, expected) => {
    expect(yamlValue(text)).toEqual(expected);
  });

  it('expands scalar, sequence and mapping variants of every tag', () => {
    const names = ['Ref', 'Condition', 'GetAtt', 'Sub', 'Join', 'Select', 'Split', 'If', 'Equals', 'And', 'Or', 'Not', 'FindInMap', 'GetAZs', 'ImportValue', 'Base64', 'Cidr', 'Transform', 'Contains', 'EachMemberEquals', 'EachMemberIn', 'RefAll', 'ValueOf', 'ValueOfAll'];
    for (const n of names) {
      const key = n === 'Ref' || n === 'Condition' ? n : `Fn::${n}`;
      expect(Object.keys(yamlValue(`!${n} [a, b]`) as object)).toEqual([key]);
      expect(Object.keys(yamlValue(`!${n} {a: b}`) as object)).toEqual([key]);
      expect(Object.keys(yamlValue(`!${n} a.b`) as object)).toEqual([key]);
      // block forms
      const block = parseTemplate(`V: !${n}\n  - a\n  - b\nW: !${n}\n  k: v\n`) as Record<string, Record<string, unknown>>;
      expect(block.V![key]).toEqual(['a', 'b']);
      expect(block.W![key]).toEqual({ k: 'v' });
    }
  });

  it('refuses two short forms on one node', () => {
    expectError(() => parseTemplate('V: !Base64 !Sub x\n'), /^Template format error: YAML not well-formed\. \(line 1, column \d+\)$/);
  });
});

describe('YAML refusals', () => {
  it('refuses anchors and aliases', () => {
    expectError(() => parseTemplate('a: &x 1\nb: *x\n'), /^Template format error: YAML not well-formed\. \(line 1, column \d+\)$/);
  });
  it('refuses unknown tags and the binary/set/omap tags', () => {
    expectError(() => parseTemplate('a: !Foo x\n'), 'Template format error: YAML not well-formed. (line 1, column 4)');
    expectError(() => parseTemplate('a: !!binary aGVsbG8=\n'), 'Template format error: YAML not well-formed. (line 1, column 4)');
    expectError(() => parseTemplate('a: !!set {x}\n'), /YAML not well-formed/);
  });
  it('refuses duplicate keys', () => {
    expectError(() => parseTemplate('Resources:\n  A: 1\n  A: 2\n'), 'Template format error: YAML not well-formed. (line 3, column 3)');
  });
  it('reports syntax errors with line and column', () => {
    expectError(() => parseTemplate('Resources:\n  A: [1, 2\n'), /^Template format error: YAML not well-formed\. \(line \d+, column \d+\)$/);
  });
  it('refuses multiple documents', () => {
    expectError(() => parseTemplate('a: 1\n---\nb: 2\n'), /YAML not well-formed/);
  });
});

describe('bounded parsing', () => {
  it('refuses an alias bomb quickly', () => {
    const bomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 12; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill('*' + String.fromCharCode(96 + i)).join(',')}]`);
    const t = Date.now();
    expectError(() => parseTemplate(bomb.join('\n')), /YAML not well-formed/);
    expect(Date.now() - t).toBeLessThan(1000);
  });
  it('refuses 10,000-deep YAML and JSON nesting without a stack overflow', () => {
    const t = Date.now();
    expectError(() => parseTemplate('a: ' + '['.repeat(10_000) + ']'.repeat(10_000)), /YAML not well-formed/);
    expectError(() => parseTemplate('a:\n' + Array.from({ length: 300 }, (_, i) => ' '.repeat(i + 1) + '- x:').join('\n')), /YAML not well-formed/);
    expectError(
      () => parseTemplate('{"a":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}'),
      'Template format error: the template is nested more than 200 levels deep',
    );
    expectError(() => parseTemplate('a: ' + '['.repeat(500_000)), /YAML not well-formed/);
    expect(Date.now() - t).toBeLessThan(3000);
  });
  it('parses a 1 MB template quickly', () => {
    const resources: Record<string, unknown> = {};
    for (let i = 0, size = 0; size < 1_000_000; i++) {
      const r = { Type: 'AWS::S3::Bucket', Properties: { BucketName: { 'Fn::Sub': `b-${i}-\${AWS::Region}` }, Tags: [{ Key: 'k', Value: 'v'.repeat(50) }] } };
      resources[`Bucket${i}`] = r;
      size += JSON.stringify(r).length + 12;
    }
    const json = JSON.stringify({ Resources: resources });
    let t = Date.now();
    expect(Object.keys(parseTemplate(json).Resources).length).toBeGreaterThan(1000);
    expect(Date.now() - t).toBeLessThan(1000);
    const yaml = 'Resources:\n' + Object.entries(resources).map(([k]) => `  ${k}:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: !Sub 'b-\${AWS::Region}'\n      Tags:\n        - Key: k\n          Value: ${'v'.repeat(50)}\n`).join('');
    t = Date.now();
    expect(Object.keys(parseTemplate(yaml.slice(0, yaml.lastIndexOf('  Bucket'))).Resources).length).toBeGreaterThan(1000);
    expect(Date.now() - t).toBeLessThan(10_000);
  });
});

describe('templateSizeError', () => {
  it('accepts bodies within the limits and words the rest as AWS does', () => {
    expect(templateSizeError('TemplateBody', 'x'.repeat(51_200))).toBeUndefined();
    const e = templateSizeError('TemplateBody', 'x'.repeat(51_201))!;
    expect(e.code).toBe('ValidationError');
    expect(e.message).toMatch(/^1 validation error detected: Value '.*' at 'templateBody' failed to satisfy constraint: Member must have length less than or equal to 51200$/);
    expect(templateSizeError('TemplateURL', 'x'.repeat(1_048_576))).toBeUndefined();
    expect(templateSizeError('TemplateURL', 'x'.repeat(1_048_577))!.message).toBe('Template may not exceed 1048576 bytes in size.');
  });
});
