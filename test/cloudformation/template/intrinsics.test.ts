/**
 * resolveValue: every intrinsic function and pseudo parameter with AWS's semantics and error
 * messages, resolved against a template prepared with prepareTemplate and a scope standing in
 * for the resources the engine has created.
 */
import { describe, expect, it } from 'vitest';
import {
  prepareTemplate,
  resolveContext,
  resolveValue,
  type ResolveContext,
  type TemplateDoc,
} from '../../../src/services/cloudformation/template/index.js';
import { expectError, makeEnv, tableScope } from './helpers.js';

const base: TemplateDoc = {
  Parameters: {
    Name: { Type: 'String', Default: 'alpha' },
    Count: { Type: 'Number', Default: '3' },
    Zones: { Type: 'CommaDelimitedList', Default: 'a, b ,c' },
    Ports: { Type: 'List<Number>', Default: '80,443' },
  },
  Mappings: {
    Region: { 'us-east-1': { Ami: 'ami-1', Sizes: ['s', 'm'] }, 'eu-west-1': { Ami: 'ami-2' } },
  },
  Conditions: {
    IsUsEast1: { 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] },
    IsProd: { 'Fn::Equals': [{ Ref: 'Name' }, 'prod'] },
  },
  Resources: {
    Bucket: { Type: 'AWS::S3::Bucket' },
    Queue: { Type: 'AWS::SQS::Queue' },
    Prod: { Type: 'AWS::SNS::Topic', Condition: 'IsProd' },
    Nested: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: 'https://example.com/t.json' } },
  },
};

function context(options: Parameters<typeof makeEnv>[0] = {}, doc: TemplateDoc = base, languageExtensions = false): ResolveContext {
  const d = languageExtensions ? { ...doc, Transform: 'AWS::LanguageExtensions' } : doc;
  const env = makeEnv(options);
  return resolveContext(prepareTemplate(d, [], env), env);
}

const ctx = context({ exports: { 'shared-vpc': 'vpc-123' }, notificationArns: ['arn:aws:sns:us-east-1:123456789012:t'] });
const scope = tableScope({ Bucket: { Arn: 'arn:aws:s3:::bucket-id', List: ['x', 'y'] } });
const resolve = (v: unknown, c: ResolveContext = ctx) => resolveValue(v, scope, c);

describe('Ref', () => {
  it('resolves parameters of every shape', () => {
    expect(resolve({ Ref: 'Name' })).toBe('alpha');
    expect(resolve({ Ref: 'Count' })).toBe('3');
    expect(resolve({ Ref: 'Zones' })).toEqual(['a', 'b', 'c']);
    expect(resolve({ Ref: 'Ports' })).toEqual(['80', '443']);
  });
  it('resolves every pseudo parameter', () => {
    expect(resolve({ Ref: 'AWS::AccountId' })).toBe('123456789012');
    expect(resolve({ Ref: 'AWS::Region' })).toBe('us-east-1');
    expect(resolve({ Ref: 'AWS::StackName' })).toBe('demo');
    expect(resolve({ Ref: 'AWS::StackId' })).toBe('arn:aws:cloudformation:us-east-1:123456789012:stack/demo/11111111-2222-3333-4444-555555555555');
    expect(resolve({ Ref: 'AWS::Partition' })).toBe('aws');
    expect(resolve({ Ref: 'AWS::URLSuffix' })).toBe('amazonaws.com');
    expect(resolve({ Ref: 'AWS::NotificationARNs' })).toEqual(['arn:aws:sns:us-east-1:123456789012:t']);
    expect(resolve({ A: { Ref: 'AWS::NoValue' }, B: 1 })).toEqual({ B: 1 });
    expect(resolve({ Ref: 'AWS::NoValue' })).toBeUndefined();
  });
  it('derives partition and URL suffix from the region', () => {
    const cn = context({ region: 'cn-north-1' });
    expect(resolve({ Ref: 'AWS::Partition' }, cn)).toBe('aws-cn');
    expect(resolve({ Ref: 'AWS::URLSuffix' }, cn)).toBe('amazonaws.com.cn');
    expect(resolve({ Ref: 'AWS::Partition' }, context({ region: 'us-gov-west-1' }))).toBe('aws-us-gov');
  });
  it('resolves resources through the scope', () => {
    expect(resolve({ Ref: 'Bucket' })).toBe('Bucket-id');
  });
  it('refuses conditioned-out and unknown targets', () => {
    expectError(() => resolve({ Ref: 'Prod' }), 'Template format error: Unresolved resource dependencies [Prod] in the Resources block of the template');
    expectError(() => resolve({ Ref: 'Nope' }), 'Template format error: Unresolved resource dependencies [Nope] in the Resources block of the template');
    expectError(() => resolve({ Ref: 'Nope' }, { ...ctx, section: 'Outputs' }), 'Template format error: Unresolved resource dependencies [Nope] in the Outputs block of the template');
    expectError(() => resolve({ Ref: ['Bucket'] }), 'Template error: every Ref object must have a single String value.');
  });
});

describe('Fn::GetAtt', () => {
  it('resolves both forms', () => {
    expect(resolve({ 'Fn::GetAtt': ['Bucket', 'Arn'] })).toBe('arn:aws:s3:::bucket-id');
    expect(resolve({ 'Fn::GetAtt': 'Bucket.Arn' })).toBe('arn:aws:s3:::bucket-id');
    expect(resolve({ 'Fn::GetAtt': ['Nested', 'Outputs.Name'] })).toBe('Nested.Outputs.Name-value');
  });
  it('accepts Ref in the attribute name', () => {
    const c = context({}, { ...base, Parameters: { ...base.Parameters, Attr: { Type: 'String', Default: 'Arn' } } });
    expect(resolve({ 'Fn::GetAtt': ['Bucket', { Ref: 'Attr' }] }, c)).toBe('arn:aws:s3:::bucket-id');
  });
  it('refuses malformed calls and undefined resources', () => {
    const msg = 'Template error: every Fn::GetAtt object requires two non-empty parameters, the resource name and the resource attribute';
    expectError(() => resolve({ 'Fn::GetAtt': ['Bucket'] }), msg);
    expectError(() => resolve({ 'Fn::GetAtt': 'Bucket' }), msg);
    expectError(() => resolve({ 'Fn::GetAtt': ['Bucket', ''] }), msg);
    expectError(() => resolve({ 'Fn::GetAtt': ['Nope', 'Arn'] }), 'Template error: instance of Fn::GetAtt references undefined resource Nope');
    expectError(() => resolve({ 'Fn::GetAtt': ['Prod', 'TopicArn'] }), 'Template format error: Unresolved resource dependencies [Prod] in the Resources block of the template');
  });
});

describe('Fn::Sub', () => {
  it('substitutes parameters, pseudo parameters, resources and attributes', () => {
    expect(resolve({ 'Fn::Sub': '${Name}-${AWS::Region}-${Bucket}-${Bucket.Arn}' })).toBe('alpha-us-east-1-Bucket-id-arn:aws:s3:::bucket-id');
  });
  it('takes a variable map whose values may be functions', () => {
    expect(resolve({ 'Fn::Sub': ['${A}/${B}/${Name}', { A: { Ref: 'Bucket' }, B: 7 }] })).toBe('Bucket-id/7/alpha');
  });
  it('keeps ${!Literal} literal and lone ${ as text', () => {
    expect(resolve({ 'Fn::Sub': '${!Name} and ${!AWS::Region} cost $5 ${' })).toBe('${Name} and ${AWS::Region} cost $5 ${');
  });
  it('refuses bad variables and non-string values', () => {
    expectError(() => resolve({ 'Fn::Sub': '${a b}' }), 'Template error: variable names in Fn::Sub syntax must contain only alphanumeric characters, underscores, periods, and colons');
    expectError(() => resolve({ 'Fn::Sub': '${Zones}' }), 'Template error: variable Zones in Fn::Sub expression does not resolve to a string');
    expectError(() => resolve({ 'Fn::Sub': '${Nope}' }), 'Template format error: Unresolved resource dependencies [Nope] in the Resources block of the template');
    expectError(() => resolve({ 'Fn::Sub': '${Nope.Arn}' }), 'Template error: instance of Fn::Sub references invalid resource attribute Nope.Arn');
    expectError(
      () => resolve({ 'Fn::Sub': ['x', 'y'] }),
      "Template error: One or more Fn::Sub intrinsic functions don't specify expected arguments. Specify a string as first argument, and an optional second argument to specify a mapping of values to replace in the string",
    );
  });
});

describe('Join, Select, Split', () => {
  it('joins lists, dropping NoValue items', () => {
    expect(resolve({ 'Fn::Join': ['-', ['a', { Ref: 'Name' }, 3, true, { 'Fn::If': ['IsProd', 'p', { Ref: 'AWS::NoValue' }] }]] })).toBe('a-alpha-3-true');
    expect(resolve({ 'Fn::Join': [',', { Ref: 'Zones' }] })).toBe('a,b,c');
    expect(resolve({ 'Fn::Join': ['', []] })).toBe('');
    const msg = 'Template error: every Fn::Join object requires two parameters, (1) a string delimiter and (2) a list of strings to be joined or a function that returns a list of strings (such as Fn::GetAZs) to be joined.';
    expectError(() => resolve({ 'Fn::Join': ['-'] }), msg);
    expectError(() => resolve({ 'Fn::Join': ['-', 'abc'] }), msg);
    expectError(() => resolve({ 'Fn::Join': ['-', [['nested']]] }), msg);
  });
  it('selects by index, also from functions, and refuses out-of-range indexes', () => {
    expect(resolve({ 'Fn::Select': [1, { Ref: 'Zones' }] })).toBe('b');
    expect(resolve({ 'Fn::Select': ['0', ['x', 'y']] })).toBe('x');
    expect(resolve({ 'Fn::Select': [{ Ref: 'Count' }, ['a', 'b', 'c', 'd']] })).toBe('d');
    expectError(() => resolve({ 'Fn::Select': [5, ['a']] }), 'Template error: Fn::Select cannot select nonexistent value at index 5');
    expectError(() => resolve({ 'Fn::Select': [-1, ['a']] }), 'Template error: Fn::Select cannot select nonexistent value at index -1');
    expectError(() => resolve({ 'Fn::Select': ['x', ['a']] }), 'Template error: Fn::Select requires a list argument with a valid index value as its first element');
    expectError(() => resolve({ 'Fn::Select': [0, 'a'] }), 'Template error: Fn::Select requires a list argument with two elements: an integer index and a list');
  });
  it('splits strings', () => {
    expect(resolve({ 'Fn::Split': [',', 'a,b,,c'] })).toEqual(['a', 'b', '', 'c']);
    expect(resolve({ 'Fn::Select': [2, { 'Fn::Split': ['|', { 'Fn::Sub': 'x|${Name}|z' }] }] })).toBe('z');
    expectError(() => resolve({ 'Fn::Split': [','] }), 'Template error: every Fn::Split object requires two parameters, (1) a string delimiter and (2) a string to be split or a function that returns a string to be split.');
  });
});

describe('conditions in values', () => {
  it('Fn::If picks a branch; NoValue removes keys and list items', () => {
    expect(resolve({ 'Fn::If': ['IsUsEast1', 'east', 'other'] })).toBe('east');
    expect(resolve({ 'Fn::If': ['IsProd', 'prod', 'dev'] })).toBe('dev');
    expect(resolve({ P: { 'Fn::If': ['IsProd', 'x', { Ref: 'AWS::NoValue' }] }, L: ['a', { 'Fn::If': ['IsProd', 'b', { Ref: 'AWS::NoValue' }] }] })).toEqual({ L: ['a'] });
    // The branch not taken is not evaluated (it references a conditioned-out resource).
    expect(resolve({ 'Fn::If': ['IsProd', { Ref: 'Prod' }, 'none'] })).toBe('none');
    expectError(() => resolve({ 'Fn::If': ['Nope', 'a', 'b'] }), 'Template error: unresolved condition dependency Nope in Fn::If');
    expectError(() => resolve({ 'Fn::If': ['IsProd', 'a'] }), 'Template error: Fn::If requires a list argument with three elements');
  });
  it('Equals, And, Or, Not, Condition', () => {
    expect(resolve({ 'Fn::Equals': [{ Ref: 'Count' }, 3] })).toBe(true);
    expect(resolve({ 'Fn::And': [{ Condition: 'IsUsEast1' }, { 'Fn::Not': [{ Condition: 'IsProd' }] }] })).toBe(true);
    expect(resolve({ 'Fn::Or': [{ Condition: 'IsProd' }, { 'Fn::Equals': ['a', 'b'] }] })).toBe(false);
    expectError(() => resolve({ 'Fn::And': [{ Condition: 'IsProd' }] }), 'Template error: every Fn::And object requires a list of at least 2 and at most 10 boolean parameters.');
    expectError(() => resolve({ 'Fn::Or': Array(11).fill({ Condition: 'IsProd' }) }), 'Template error: every Fn::Or object requires a list of at least 2 and at most 10 boolean parameters.');
    expectError(() => resolve({ 'Fn::Not': [] }), 'Template error: Fn::Not requires a list argument with one element');
  });
});

describe('Fn::FindInMap', () => {
  it('looks up values (strings and lists) with computed keys', () => {
    expect(resolve({ 'Fn::FindInMap': ['Region', { Ref: 'AWS::Region' }, 'Ami'] })).toBe('ami-1');
    expect(resolve({ 'Fn::FindInMap': ['Region', 'us-east-1', 'Sizes'] })).toEqual(['s', 'm']);
  });
  it('refuses missing maps and keys', () => {
    expectError(() => resolve({ 'Fn::FindInMap': ['Region', 'eu-west-1', 'Sizes'] }), 'Template error: Unable to get mapping for Region::eu-west-1::Sizes');
    expectError(() => resolve({ 'Fn::FindInMap': ['Nope', 'a', 'b'] }), "Template error: Mapping named 'Nope' is not present in the 'Mappings' section of template.");
    expectError(() => resolve({ 'Fn::FindInMap': ['Region', 'us-east-1'] }), 'Template error: every Fn::FindInMap object requires three parameters, the map name, map key and the attribute for return value');
    expectError(() => resolve({ 'Fn::FindInMap': ['Region', 'x', 'y', { DefaultValue: 'd' }] }), 'Template error: every Fn::FindInMap object requires three parameters, the map name, map key and the attribute for return value');
  });
  it('takes a DefaultValue with LanguageExtensions', () => {
    const le = context({}, base, true);
    expect(resolve({ 'Fn::FindInMap': ['Region', 'ap-south-1', 'Ami', { DefaultValue: 'ami-default' }] }, le)).toBe('ami-default');
    expect(resolve({ 'Fn::FindInMap': ['Region', 'us-east-1', 'Ami', { DefaultValue: 'ami-default' }] }, le)).toBe('ami-1');
    expect(resolve({ 'Fn::FindInMap': ['Nope', 'x', 'y', { DefaultValue: ['l'] }] }, le)).toEqual(['l']);
  });
});

describe('GetAZs, ImportValue, Base64, Cidr', () => {
  it('GetAZs: the current region for an empty string', () => {
    expect(resolve({ 'Fn::GetAZs': '' })).toEqual(['us-east-1a', 'us-east-1b', 'us-east-1c']);
    expect(resolve({ 'Fn::GetAZs': { Ref: 'AWS::Region' } })).toEqual(['us-east-1a', 'us-east-1b', 'us-east-1c']);
    expect(resolve({ 'Fn::GetAZs': 'eu-west-9' })).toEqual([]);
    expect(resolve({ 'Fn::Select': [0, { 'Fn::GetAZs': '' }] })).toBe('us-east-1a');
  });
  it('ImportValue reads exports and refuses missing ones', () => {
    expect(resolve({ 'Fn::ImportValue': 'shared-vpc' })).toBe('vpc-123');
    expect(resolve({ 'Fn::ImportValue': { 'Fn::Sub': 'shared-${Suffix}' } }, { ...ctx, parameters: { ...ctx.parameters, Suffix: 'vpc' } })).toBe('vpc-123');
    expectError(() => resolve({ 'Fn::ImportValue': 'missing' }), 'No export named missing found');
  });
  it('Base64 encodes UTF-8', () => {
    expect(resolve({ 'Fn::Base64': 'héllo' })).toBe(Buffer.from('héllo').toString('base64'));
    expect(resolve({ 'Fn::Base64': { 'Fn::Sub': '#!/bin/sh\necho ${Name}' } })).toBe(Buffer.from('#!/bin/sh\necho alpha').toString('base64'));
  });
  it('Cidr carves IPv4 and IPv6 subnets', () => {
    expect(resolve({ 'Fn::Cidr': ['10.0.0.0/16', 3, 8] })).toEqual(['10.0.0.0/24', '10.0.1.0/24', '10.0.2.0/24']);
    expect(resolve({ 'Fn::Cidr': ['192.168.0.0/24', '4', '6'] })).toEqual(['192.168.0.0/26', '192.168.0.64/26', '192.168.0.128/26', '192.168.0.192/26']);
    expect(resolve({ 'Fn::Cidr': ['10.1.2.3/16', 2, 5] })).toEqual(['10.1.0.0/27', '10.1.0.32/27']);
    expect(resolve({ 'Fn::Cidr': ['2600:1f16:abc:1200::/56', 3, 64] })).toEqual(['2600:1f16:abc:1200::/64', '2600:1f16:abc:1201::/64', '2600:1f16:abc:1202::/64']);
    expect(resolve({ 'Fn::Cidr': ['::/0', 2, 127] })).toEqual(['::/1', '8000::/1']);
    expectError(() => resolve({ 'Fn::Cidr': ['10.0.0.0/24', 5, 6] }), /^Template error: Fn::Cidr cannot carve 5/);
    expectError(() => resolve({ 'Fn::Cidr': ['10.0.0.0/16', 0, 8] }), 'Template error: Fn::Cidr count must be between 1 and 256');
    expectError(() => resolve({ 'Fn::Cidr': ['10.0.0/16', 1, 8] }), 'Template error: Fn::Cidr IP block 10.0.0/16 is not a valid CIDR block');
  });
});

describe('LanguageExtensions functions', () => {
  const le = context({}, base, true);
  it('Fn::Length and Fn::ToJsonString', () => {
    expect(resolve({ 'Fn::Length': { Ref: 'Zones' } }, le)).toBe(3);
    expect(resolve({ 'Fn::Length': [1, 2, { Ref: 'Bucket' }] }, le)).toBe(3);
    expect(resolve({ 'Fn::ToJsonString': { A: { Ref: 'Name' }, B: [1, { Ref: 'Bucket' }] } }, le)).toBe('{"A":"alpha","B":[1,"Bucket-id"]}');
  });
  it('intrinsic functions inside Ref and GetAtt', () => {
    expect(resolve({ Ref: { 'Fn::Sub': 'Buck${Suffix}' } }, { ...le, parameters: { ...le.parameters, Suffix: 'et' } })).toBe('Bucket-id');
    expect(resolve({ 'Fn::GetAtt': [{ 'Fn::Join': ['', ['Buck', 'et']] }, 'Arn'] }, le)).toBe('arn:aws:s3:::bucket-id');
  });
  it('are unsupported without the transform', () => {
    expectError(() => resolve({ 'Fn::Length': [1] }), /^Template format error: Encountered unsupported function: Fn::Length Supported functions are: \[Fn::Base64, /);
    expectError(() => resolve({ 'Fn::ToJsonString': {} }), /unsupported function: Fn::ToJsonString/);
  });
});

describe('unsupported functions and dynamic references', () => {
  it('refuses unknown functions and rule functions outside Rules', () => {
    expectError(() => resolve({ 'Fn::Nope': 1 }), /^Template format error: Encountered unsupported function: Fn::Nope Supported functions are: \[.*Fn::Cidr\]$/);
    expectError(() => resolve({ 'Fn::Contains': [['a'], 'a'] }), /unsupported function: Fn::Contains/);
  });
  it('resolves {{resolve:ssm:…}} and refuses other services', () => {
    const c = context({ ssm: { '/app/name': 'from-ssm', '/app/name:2': 'v2' } });
    expect(resolve({ A: 'x-{{resolve:ssm:/app/name}}-y', B: ['{{resolve:ssm:/app/name:2}}'] }, c)).toEqual({ A: 'x-from-ssm-y', B: ['v2'] });
    expect(resolve({ 'Fn::Sub': '{{resolve:ssm:/app/${Part}}}' }, { ...c, parameters: { ...c.parameters, Part: 'name' } })).toBe('from-ssm');
    expectError(() => resolve('{{resolve:ssm:/missing}}', c), 'Unable to fetch parameters [/missing] from parameter store for this account.');
    expectError(() => resolve('{{resolve:secretsmanager:db:SecretString:password}}', c), /^Dynamic references to secretsmanager are not supported by Overcast/);
    expectError(() => resolve('{{resolve:ssm-secure:/p}}', c), /^Dynamic references to ssm-secure are not supported by Overcast/);
  });
});
