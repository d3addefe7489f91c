/**
 * Static validation (what ValidateTemplate, GetTemplateSummary, CreateStack and CreateChangeSet
 * run first): every §5 "Template format error" / "Template error" in AWS's words.
 */
import { describe, expect, it } from 'vitest';
import { validateTemplate, type TemplateDoc } from '../../../src/services/cloudformation/template/index.js';
import { expectError } from './helpers.js';

const bucket = { Type: 'AWS::S3::Bucket' };
const v = (doc: unknown) => () => validateTemplate(doc as TemplateDoc);

describe('sections', () => {
  it('refuses unknown top-level sections', () => {
    expectError(v({ Resources: { B: bucket }, Outptus: {}, Foo: 1 }), 'Invalid template property or properties [Outptus, Foo]');
  });
  it('refuses other template versions', () => {
    expectError(v({ AWSTemplateFormatVersion: '2010-09-10', Resources: { B: bucket } }), 'Template format error: unsupported value for AWSTemplateFormatVersion.');
  });
  it('requires at least one resource', () => {
    expectError(v({ Resources: {} }), 'Template format error: At least one Resources member must be defined.');
    expectError(v({ Parameters: {} }), 'Template format error: At least one Resources member must be defined.');
  });
  it('refuses null values with their path', () => {
    expectError(v({ Resources: { B: { Type: 'AWS::S3::Bucket', Properties: { BucketName: null } } } }), "Template format error: [/Resources/B/Properties/BucketName] 'null' values are not allowed in templates");
    expectError(v({ Resources: { B: bucket }, Outputs: null }), "Template format error: [/Outputs] 'null' values are not allowed in templates");
  });
  it('refuses transforms other than LanguageExtensions', () => {
    expectError(v({ Transform: 'AWS::Serverless-2016-10-31', Resources: { B: bucket } }), /^Template format error: Transform AWS::Serverless-2016-10-31 is not supported by Overcast/);
    expectError(v({ Transform: ['AWS::LanguageExtensions', 'AWS::Include'], Resources: { B: bucket } }), /Transform AWS::Include is not supported/);
  });
});

describe('resources', () => {
  it('requires alphanumeric logical ids', () => {
    expectError(v({ Resources: { 'my-bucket': bucket } }), 'Template format error: Resource name my-bucket is non alphanumeric.');
  });
  it('requires a Type on every resource', () => {
    expectError(v({ Resources: { B: { Properties: {} } } }), 'Template format error: [/Resources/B] Every Resources object must contain a Type member.');
  });
  it('refuses unknown resource attributes', () => {
    expectError(v({ Resources: { B: { Type: 'AWS::S3::Bucket', Propertes: {} } } }), "Invalid template resource property 'Propertes'");
  });
  it('names unrecognized resource types', () => {
    expectError(v({ Resources: { A: { Type: 'AWS::Foo::Bar' }, B: bucket, C: { Type: 'AWS::S3::Buckett' }, D: { Type: 'AWS::Foo::Bar' } } }), 'Template format error: Unrecognized resource types: [AWS::Foo::Bar, AWS::S3::Buckett]');
    expectError(v({ Resources: { F: { Type: 'AWS::Serverless::Function' } } }), 'Template format error: Unrecognized resource types: [AWS::Serverless::Function]');
  });
  it('accepts custom resources and the CDK metadata type', () => {
    const doc = { Resources: { C: { Type: 'Custom::Thing', Properties: { ServiceToken: 'arn' } }, M: { Type: 'AWS::CDK::Metadata' } } };
    expect(Object.keys(validateTemplate(doc).Resources ?? {})).toEqual(['C', 'M']);
  });
  it('reports unresolved Ref and DependsOn targets together', () => {
    expectError(
      v({ Resources: { A: { Type: 'AWS::S3::Bucket', DependsOn: ['B', 'Missing1'], Properties: { BucketName: { Ref: 'Missing2' } } }, B: bucket } }),
      'Template format error: Unresolved resource dependencies [Missing1, Missing2] in the Resources block of the template',
    );
    expectError(v({ Resources: { A: { Type: 'AWS::S3::Bucket', Properties: { BucketName: { 'Fn::Sub': '${Nope}-x' } } } } }), 'Template format error: Unresolved resource dependencies [Nope] in the Resources block of the template');
  });
  it('checks GetAtt targets and attributes against the resource specification', () => {
    expectError(v({ Resources: { A: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::GetAtt': ['Nope', 'Arn'] } } } } }), 'Template error: instance of Fn::GetAtt references undefined resource Nope');
    expectError(v({ Resources: { B: bucket, Q: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::GetAtt': ['B', 'Nope'] } } } } }), 'Template error: resource B does not support attribute type Nope in Fn::GetAtt');
    expectError(v({ Resources: { B: bucket, Q: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::Sub': '${B.Nope}' } } } } }), 'Template error: resource B does not support attribute type Nope in Fn::GetAtt');
    expectError(v({ Resources: { B: { Type: 'AWS::S3Tables::TableBucket', Properties: { TableBucketName: 'b' } }, Q: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::GetAtt': 'B.Arn' } } } } }), 'Template error: resource B does not support attribute type Arn in Fn::GetAtt');
    // Valid: spec attributes, nested-stack outputs, custom resources.
    validateTemplate({
      Resources: {
        B: bucket,
        T: { Type: 'AWS::S3Tables::TableBucket', Properties: { TableBucketName: 'b' } },
        N: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: 'https://x/y' } },
        C: { Type: 'Custom::X', Properties: { ServiceToken: 't' } },
        Q: {
          Type: 'AWS::SQS::Queue',
          Properties: { Tags: [{ Key: 'a', Value: { 'Fn::Join': ['', [{ 'Fn::GetAtt': ['B', 'Arn'] }, { 'Fn::GetAtt': 'T.TableBucketARN' }, { 'Fn::GetAtt': ['N', 'Outputs.Name'] }, { 'Fn::GetAtt': ['C', 'Anything'] }, { 'Fn::Sub': '${B.DomainName}' }]] } }] },
        },
      },
    });
  });
  it('refuses circular dependencies naming the members', () => {
    expectError(
      v({ Resources: { A: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { Ref: 'B' } } }, B: { Type: 'AWS::SQS::Queue', DependsOn: 'C' }, C: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::GetAtt': ['A', 'QueueName'] } } }, D: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { Ref: 'A' } } } } }),
      'Circular dependency between resources: [A, B, C]',
    );
    expectError(v({ Resources: { A: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::Sub': '${A}' } } } } }), 'Circular dependency between resources: [A]');
  });
  it('leaves references inside Fn::If to the evaluated conditions (no false cycles)', () => {
    expect(v({
      Parameters: { Flip: { Type: 'String', Default: 'a' } },
      Conditions: { A: { 'Fn::Equals': [{ Ref: 'Flip' }, 'a'] }, B: { 'Fn::Not': [{ Condition: 'A' }] } },
      Resources: {
        X: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::If': ['A', { Ref: 'Y' }, 'x'] } } },
        Y: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::If': ['B', { Ref: 'X' }, 'y'] } } },
      },
    })).not.toThrow();
  });
  it('checks DependsOn, Condition and the policies', () => {
    expectError(v({ Resources: { A: { Type: 'AWS::SQS::Queue', DependsOn: [{ Ref: 'B' }] } } }), 'Template format error: Every DependsOn value must be a string.');
    expectError(v({ Resources: { A: { Type: 'AWS::SQS::Queue', Condition: 'Nope' } } }), 'Template format error: Condition Nope is not defined.');
    expectError(v({ Resources: { A: { Type: 'AWS::SQS::Queue', DeletionPolicy: 'Keep' } } }), 'Template format error: Unrecognized DeletionPolicy Keep for resource A');
    expectError(v({ Resources: { A: { Type: 'AWS::SQS::Queue', UpdateReplacePolicy: 'RetainExceptOnCreate' } } }), 'Template format error: Unrecognized UpdateReplacePolicy RetainExceptOnCreate for resource A');
  });
  it('refuses unsupported functions and Fn::If on unknown conditions', () => {
    expectError(v({ Resources: { A: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::Upper': 'x' } } } } }), /^Template format error: Encountered unsupported function: Fn::Upper Supported functions are: \[/);
    expectError(v({ Resources: { A: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::If': ['Nope', 'a', 'b'] } } } } }), 'Template error: unresolved condition dependency Nope in Fn::If');
    expectError(v({ Resources: { A: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::FindInMap': ['Nope', 'a', 'b'] } } } } }), "Template error: Mapping named 'Nope' is not present in the 'Mappings' section of template.");
  });
  it('refuses a parameter and a resource of the same name', () => {
    expectError(v({ Parameters: { A: { Type: 'String' } }, Resources: { A: bucket } }), 'Template error: all resources and parameters must have unique names. Common name(s):[A]');
  });
});

describe('parameters', () => {
  it('requires a Type and known types and keys', () => {
    expectError(v({ Parameters: { P: { Default: 'x' } }, Resources: { B: bucket } }), 'Template format error: Every Parameters object must contain a Type member.');
    expectError(v({ Parameters: { P: { Type: 'Strin' } }, Resources: { B: bucket } }), 'Template format error: Unrecognized parameter type: Strin');
    expectError(v({ Parameters: { P: { Type: 'String', Defualt: 'x' } }, Resources: { B: bucket } }), "Invalid template parameter property 'Defualt'");
    expectError(v({ Parameters: { P: { Type: 'String', Default: ['x'] } }, Resources: { B: bucket } }), 'Template format error: Every Default member must be a string.');
    expectError(v({ Parameters: { 'P-1': { Type: 'String' } }, Resources: { B: bucket } }), 'Template format error: Parameter name P-1 is non alphanumeric.');
  });
});

describe('conditions', () => {
  it('refuses references to resources and undefined conditions', () => {
    expectError(v({ Conditions: { C: { 'Fn::Equals': [{ Ref: 'B' }, 'x'] } }, Resources: { B: bucket } }), 'Template format error: Unresolved dependencies [B]. Cannot reference resources in the Conditions block of the template');
    expectError(v({ Conditions: { C: { 'Fn::Not': [{ Condition: 'D' }] } }, Resources: { B: bucket } }), 'Template format error: Unresolved condition dependencies [D] in the Conditions block of the template');
    expectError(v({ Conditions: { C: 'true' }, Resources: { B: bucket } }), 'Template format error: Conditions can only be boolean operations on parameters and other conditions');
    expectError(v({ Conditions: { C: { Condition: 'D' }, D: { Condition: 'C' } }, Resources: { B: bucket } }), 'Template error: Found circular condition dependency: [C, D]');
  });
});

describe('long chains', () => {
  it('evaluates 5,000 chained conditions without recursion limits', () => {
    const Conditions: Record<string, unknown> = { C0: { 'Fn::Equals': ['a', 'a'] } };
    for (let i = 1; i < 5000; i++) Conditions[`C${i}`] = { 'Fn::Not': [{ Condition: `C${i - 1}` }] };
    validateTemplate({ Conditions, Resources: { B: { ...bucket, Condition: 'C4999' } } });
    expectError(v({ Conditions: { ...Conditions, C0: { Condition: 'C4999' } }, Resources: { B: bucket } }), /^Template error: Found circular condition dependency: \[C0, C1, C2, /);
  });
});

describe('mappings', () => {
  it('checks the shape', () => {
    expectError(v({ Mappings: { M: 'x' }, Resources: { B: bucket } }), 'Template format error: Every Mappings member M must be a map');
    expectError(v({ Mappings: { M: { K: { A: { deep: 1 } } } }, Resources: { B: bucket } }), 'Template format error: Every Mappings attribute must be a String or a List.');
  });
});

describe('outputs', () => {
  it('requires a Value and known keys', () => {
    expectError(v({ Resources: { B: bucket }, Outputs: { O: { Description: 'd' } } }), 'Template format error: Every Outputs member must contain a Value object');
    expectError(v({ Resources: { B: bucket }, Outputs: { O: { Value: 'x', Exports: { Name: 'n' } } } }), 'Template format error: Invalid outputs property : [Exports]');
    expectError(v({ Resources: { B: bucket }, Outputs: { O: { Value: ['a'] } } }), 'Template format error: The Value field of every Outputs member must evaluate to a String and not a List.');
  });
  it('reports unresolved references in the Outputs block', () => {
    expectError(v({ Resources: { B: bucket }, Outputs: { O: { Value: { Ref: 'Nope' } } } }), 'Template format error: Unresolved resource dependencies [Nope] in the Outputs block of the template');
    expectError(v({ Resources: { B: bucket }, Outputs: { O: { Value: { 'Fn::GetAtt': ['B', 'Nope'] } } } }), 'Template error: resource B does not support attribute type Nope in Fn::GetAtt');
  });
  it('refuses export names that depend on resources, imports or GetAZs', () => {
    const msg = 'Template format error: Output O is malformed.  The Name field of Export must not depend on any resources, imported values, or Fn::GetAZs.';
    expectError(v({ Resources: { B: bucket }, Outputs: { O: { Value: 'x', Export: { Name: { Ref: 'B' } } } } }), msg);
    expectError(v({ Resources: { B: bucket }, Outputs: { O: { Value: 'x', Export: { Name: { 'Fn::Sub': '${B}-name' } } } } }), msg);
    expectError(v({ Resources: { B: bucket }, Outputs: { O: { Value: 'x', Export: { Name: { 'Fn::ImportValue': 'n' } } } } }), msg);
    expectError(v({ Resources: { B: bucket }, Outputs: { O: { Value: 'x', Export: { Name: { 'Fn::Select': [0, { 'Fn::GetAZs': '' }] } } } } }), msg);
    validateTemplate({ Resources: { B: bucket }, Outputs: { O: { Value: { Ref: 'B' }, Export: { Name: { 'Fn::Sub': '${AWS::StackName}-bucket' } } } } });
  });
});
