/**
 * summary / validationSummary / requiredCapabilities: what GetTemplateSummary and
 * ValidateTemplate report, and the capability rules behind InsufficientCapabilitiesException.
 */
import { describe, expect, it } from 'vitest';
import {
  missingCapabilities,
  requiredCapabilities,
  summary,
  validationSummary,
  type TemplateDoc,
} from '../../../src/services/cloudformation/template/index.js';

const doc: TemplateDoc = {
  AWSTemplateFormatVersion: '2010-09-09',
  Description: 'lake',
  Metadata: { 'AWS::CloudFormation::Interface': { ParameterGroups: [] } },
  Parameters: {
    Env: { Type: 'String', Default: 'dev', AllowedValues: ['dev', 'prod'], Description: 'stage' },
    Secret: { Type: 'String', NoEcho: 'true' },
    Port: { Type: 'Number', Default: 443 },
  },
  Resources: {
    Bucket: { Type: 'AWS::S3::Bucket' },
    Other: { Type: 'AWS::S3::Bucket' },
    Tables: { Type: 'AWS::S3Tables::TableBucket', Properties: { TableBucketName: 't' } },
  },
};

describe('summary', () => {
  it('reports parameters, types, version, description, metadata and identifiers', () => {
    expect(summary(doc)).toEqual({
      Parameters: [
        { ParameterKey: 'Env', DefaultValue: 'dev', ParameterType: 'String', NoEcho: false, Description: 'stage', ParameterConstraints: { AllowedValues: ['dev', 'prod'] } },
        { ParameterKey: 'Secret', ParameterType: 'String', NoEcho: true, ParameterConstraints: {} },
        { ParameterKey: 'Port', DefaultValue: '443', ParameterType: 'Number', NoEcho: false, ParameterConstraints: {} },
      ],
      Capabilities: [],
      ResourceTypes: ['AWS::S3::Bucket', 'AWS::S3Tables::TableBucket'],
      DeclaredTransforms: [],
      ResourceIdentifierSummaries: [
        { ResourceType: 'AWS::S3::Bucket', LogicalResourceIds: ['Bucket', 'Other'], ResourceIdentifiers: ['BucketName'] },
        { ResourceType: 'AWS::S3Tables::TableBucket', LogicalResourceIds: ['Tables'], ResourceIdentifiers: ['TableBucketARN'] },
      ],
      Version: '2010-09-09',
      Description: 'lake',
      Metadata: '{"AWS::CloudFormation::Interface":{"ParameterGroups":[]}}',
    });
    expect(validationSummary(doc)).toEqual({
      Parameters: [
        { ParameterKey: 'Env', DefaultValue: 'dev', NoEcho: false, Description: 'stage' },
        { ParameterKey: 'Secret', NoEcho: true },
        { ParameterKey: 'Port', DefaultValue: '443', NoEcho: false },
      ],
      Capabilities: [],
      DeclaredTransforms: [],
      Description: 'lake',
    });
  });
  it('validates before summarising', () => {
    expect(() => summary({ Resources: { B: { Type: 'AWS::Nope::Nope' } } })).toThrow('Template format error: Unrecognized resource types: [AWS::Nope::Nope]');
  });
});

describe('capabilities', () => {
  it('IAM resources need CAPABILITY_IAM; named ones CAPABILITY_NAMED_IAM', () => {
    const iam: TemplateDoc = { Resources: { R: { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: {} } }, P: { Type: 'AWS::IAM::ManagedPolicy', Properties: { PolicyDocument: {} } } } };
    expect(requiredCapabilities(iam)).toEqual({ capabilities: ['CAPABILITY_IAM'], reason: 'The following resource(s) require capabilities: [AWS::IAM::Role, AWS::IAM::ManagedPolicy]' });
    const named: TemplateDoc = { Resources: { R: { Type: 'AWS::IAM::Role', Properties: { RoleName: 'r', AssumeRolePolicyDocument: {} } } } };
    expect(requiredCapabilities(named).capabilities).toEqual(['CAPABILITY_NAMED_IAM']);
    expect(summary(named).CapabilitiesReason).toBe('The following resource(s) require capabilities: [AWS::IAM::Role]');
  });
  it('transforms need CAPABILITY_AUTO_EXPAND unless through a change set', () => {
    const le = { Transform: 'AWS::LanguageExtensions', Resources: { 'Fn::ForEach::R': ['N', ['A', 'B'], { 'Role${N}': { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: {} } } }] } } as unknown as TemplateDoc;
    expect(requiredCapabilities(le).capabilities).toEqual(['CAPABILITY_IAM', 'CAPABILITY_AUTO_EXPAND']);
    expect(requiredCapabilities(le, { viaChangeSet: true }).capabilities).toEqual(['CAPABILITY_IAM']);
    expect(summary(le).DeclaredTransforms).toEqual(['AWS::LanguageExtensions']);
    expect(summary(le).ResourceTypes).toEqual(['AWS::IAM::Role']);
  });
  it('words the missing capabilities as AWS does; NAMED_IAM covers IAM', () => {
    const e = missingCapabilities(['CAPABILITY_IAM'], [])!;
    expect(e.name).toBe('InsufficientCapabilitiesException');
    expect(e.message).toBe('Requires capabilities : [CAPABILITY_IAM]');
    expect(missingCapabilities(['CAPABILITY_IAM'], ['CAPABILITY_NAMED_IAM'])).toBeUndefined();
    expect(missingCapabilities(['CAPABILITY_NAMED_IAM'], ['CAPABILITY_IAM'])!.message).toBe('Requires capabilities : [CAPABILITY_NAMED_IAM]');
  });
});
