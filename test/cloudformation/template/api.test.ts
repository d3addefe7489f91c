/**
 * The template layer through the real API: ValidateTemplate and GetTemplateSummary with
 * @aws-sdk/client-cloudformation against an in-process Overcast — summaries of JSON and YAML
 * templates, and AWS's ValidationError wording for broken ones.
 */
import { CreateStackCommand, GetTemplateSummaryCommand, ValidateTemplateCommand } from '@aws-sdk/client-cloudformation';
import { describe, expect, it } from '../../helpers/fixture.js';
import { failure } from '../../helpers/errors.js';

const yaml = `AWSTemplateFormatVersion: 2010-09-09
Description: lake stack
Parameters:
  Env:
    Type: String
    Default: dev
    AllowedValues: [dev, prod]
  Secret:
    Type: String
    NoEcho: true
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  Tables:
    Type: AWS::S3Tables::TableBucket
    Properties:
      TableBucketName: !Sub 'lake-\${Env}'
  Role:
    Type: AWS::IAM::Role
    Properties:
      RoleName: !If [IsProd, lake-prod, !Ref AWS::NoValue]
      AssumeRolePolicyDocument: {Version: '2012-10-17', Statement: []}
Outputs:
  Arn:
    Value: !GetAtt Tables.TableBucketARN
    Export:
      Name: !Sub '\${AWS::StackName}-tables'
`;

describe('ValidateTemplate', () => {
  it('summarises a YAML template with short forms', async ({ cloudformation: cfn }) => {
    const out = await cfn.send(new ValidateTemplateCommand({ TemplateBody: yaml }));
    expect(out.Description).toBe('lake stack');
    expect(out.Parameters).toEqual([
      { ParameterKey: 'Env', DefaultValue: 'dev', NoEcho: false },
      { ParameterKey: 'Secret', NoEcho: true },
    ]);
    expect(out.Capabilities).toEqual(['CAPABILITY_NAMED_IAM']);
    expect(out.CapabilitiesReason).toBe('The following resource(s) require capabilities: [AWS::IAM::Role]');
  });
  it('answers AWS’s errors for broken templates', async ({ cloudformation: cfn }) => {
    const cases: Array<[string, string]> = [
      ['{"Resources": {"B": {"Type": "AWS::S3::Bucket"}', 'Template format error: JSON not well-formed. (line 1, column 48)'],
      ['Resources:\n  B: [1, 2\n', ''],
      ['{"Resources": {"B": {"Type": "AWS::Nope::Thing"}}}', 'Template format error: Unrecognized resource types: [AWS::Nope::Thing]'],
      ['{"Resources": {}}', 'Template format error: At least one Resources member must be defined.'],
      ['{"Parameters": {"P": {}}, "Resources": {"B": {"Type": "AWS::S3::Bucket"}}}', 'Template format error: Every Parameters object must contain a Type member.'],
      ['{"Resources": {"B": {"Type": "AWS::S3::Bucket", "Properties": {"BucketName": {"Ref": "Nope"}}}}}', 'Template format error: Unresolved resource dependencies [Nope] in the Resources block of the template'],
      ['{"Resources": {"A": {"Type": "AWS::SQS::Queue", "DependsOn": "B"}, "B": {"Type": "AWS::SQS::Queue", "DependsOn": "A"}}}', 'Circular dependency between resources: [A, B]'],
      ['Resources:\n  B:\n    Type: AWS::S3::Bucket\nOutputs:\n  O:\n    Value: !GetAtt B.Nope\n', 'Template error: resource B does not support attribute type Nope in Fn::GetAtt'],
    ];
    for (const [body, message] of cases) {
      const e = await failure(cfn.send(new ValidateTemplateCommand({ TemplateBody: body })));
      expect(e.name).toBe('ValidationError');
      expect(e.status).toBe(400);
      if (message) expect(e.message).toBe(message);
      else expect(e.message).toMatch(/^Template format error: YAML not well-formed\. \(line \d+, column \d+\)$/);
    }
  });
});

describe('GetTemplateSummary', () => {
  it('reports parameters with types and constraints, resource types and identifiers', async ({ cloudformation: cfn }) => {
    const out = await cfn.send(new GetTemplateSummaryCommand({ TemplateBody: yaml }));
    expect(out.Version).toBe('2010-09-09');
    expect(out.Parameters).toEqual([
      { ParameterKey: 'Env', DefaultValue: 'dev', ParameterType: 'String', NoEcho: false, ParameterConstraints: { AllowedValues: ['dev', 'prod'] } },
      { ParameterKey: 'Secret', ParameterType: 'String', NoEcho: true, ParameterConstraints: {} },
    ]);
    expect(out.ResourceTypes).toEqual(['AWS::S3Tables::TableBucket', 'AWS::IAM::Role']);
    expect(out.Capabilities).toEqual(['CAPABILITY_NAMED_IAM']);
    expect(out.ResourceIdentifierSummaries).toEqual(
      expect.arrayContaining([{ ResourceType: 'AWS::S3Tables::TableBucket', LogicalResourceIds: ['Tables'], ResourceIdentifiers: ['TableBucketARN'] }]),
    );
  });
});

describe('CreateStack refusals from the template layer', () => {
  it('refuses bad parameter values and missing capabilities without creating a stack', async ({ cloudformation: cfn }) => {
    let e = await failure(cfn.send(new CreateStackCommand({ StackName: 'tpl-params', TemplateBody: yaml, Parameters: [{ ParameterKey: 'Env', ParameterValue: 'qa' }, { ParameterKey: 'Secret', ParameterValue: 's' }], Capabilities: ['CAPABILITY_NAMED_IAM'] })));
    expect(e).toMatchObject({ name: 'ValidationError', message: "Parameter 'Env' must be one of AllowedValues" });
    e = await failure(cfn.send(new CreateStackCommand({ StackName: 'tpl-params', TemplateBody: yaml, Capabilities: ['CAPABILITY_NAMED_IAM'] })));
    expect(e).toMatchObject({ name: 'ValidationError', message: 'Parameters: [Secret] must have values' });
    e = await failure(cfn.send(new CreateStackCommand({ StackName: 'tpl-params', TemplateBody: yaml, Parameters: [{ ParameterKey: 'Secret', ParameterValue: 's' }] })));
    expect(e).toMatchObject({ name: 'InsufficientCapabilitiesException', message: 'Requires capabilities : [CAPABILITY_NAMED_IAM]' });
  });
});
