/**
 * Template features end to end through the engine: SSM-typed parameters resolved from Overcast's
 * SSM (ResolvedValue shown, UsePreviousValue keeping the name and re-reading the value), NoEcho,
 * a CDK-shaped template (BootstrapVersion, Rules, CDKMetadata behind a condition),
 * `AWS::LanguageExtensions` (ForEach, Length, ToJsonString, a policy from Fn::If; the processed
 * template), a stored non-S3-Tables type, and the `--strict-resources` refusal.
 */
import {
  CreateStackCommand,
  DescribeStacksCommand,
  GetTemplateCommand,
  ListStackResourcesCommand,
  UpdateStackCommand
} from '@aws-sdk/client-cloudformation';
import { GetParameterCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { describe, expect, it } from '../helpers/fixture.js';
import { startTestServer} from '../helpers/server.js';
import { allEvents, cfnClient, stackStatus, tpl } from './support.js';


async function ssmValue(ssm: SSMClient, name: string): Promise<string | undefined> {
  return (await ssm.send(new GetParameterCommand({ Name: name }))).Parameter?.Value;
}

describe('SSM-typed parameters', () => {
  it('resolves them from SSM, shows ResolvedValue, and re-reads the value on UsePreviousValue', async ({ server: t, cloudformation: cfn, ssm }) => {
    await ssm.send(new PutParameterCommand({ Name: '/app/env', Value: 'prod', Type: 'String' }));
    await ssm.send(new PutParameterCommand({ Name: '/app/zones', Value: 'a,b,c', Type: 'StringList' }));
    const body = tpl(
      {
        Out: {
          Type: 'AWS::SSM::Parameter',
          Properties: { Name: '/app/derived', Type: 'String', Value: { 'Fn::Join': ['|', [{ Ref: 'Env' }, { 'Fn::Join': ['+', { Ref: 'Zones' }] }]] } },
        },
      },
      {
        Parameters: {
          Env: { Type: 'AWS::SSM::Parameter::Value<String>', Default: '/app/env' },
          Zones: { Type: 'AWS::SSM::Parameter::Value<List<String>>', Default: '/app/zones' },
          Secret: { Type: 'String', NoEcho: true },
        },
      },
    );
    await cfn.send(new CreateStackCommand({ StackName: 'ssm-params', TemplateBody: body, Parameters: [{ ParameterKey: 'Secret', ParameterValue: 's3cr3t' }] }));
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'ssm-params' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    expect(stack.Parameters).toEqual([
      { ParameterKey: 'Env', ParameterValue: '/app/env', ResolvedValue: 'prod' },
      { ParameterKey: 'Zones', ParameterValue: '/app/zones', ResolvedValue: 'a,b,c' },
      { ParameterKey: 'Secret', ParameterValue: '****' },
    ]);
    expect(await ssmValue(ssm, '/app/derived')).toBe('prod|a+b+c');

    await ssm.send(new PutParameterCommand({ Name: '/app/env', Value: 'staging', Type: 'String', Overwrite: true }));
    await cfn.send(
      new UpdateStackCommand({
        StackName: 'ssm-params',
        UsePreviousTemplate: true,
        Parameters: [
          { ParameterKey: 'Env', UsePreviousValue: true },
          { ParameterKey: 'Zones', UsePreviousValue: true },
          { ParameterKey: 'Secret', UsePreviousValue: true },
        ],
      }),
    );
    const after = (await cfn.send(new DescribeStacksCommand({ StackName: 'ssm-params' }))).Stacks![0]!;
    expect(after.StackStatus).toBe('UPDATE_COMPLETE');
    expect(after.Parameters![0]).toEqual({ ParameterKey: 'Env', ParameterValue: '/app/env', ResolvedValue: 'staging' });
    expect(await ssmValue(ssm, '/app/derived')).toBe('staging|a+b+c');
  });

  it('refuses a stack whose SSM parameter does not exist', async ({ server: t, cloudformation: cfn, ssm }) => {
    const body = tpl(
      { H: { Type: 'AWS::CloudFormation::WaitConditionHandle' } },
      { Parameters: { V: { Type: 'AWS::SSM::Parameter::Value<String>', Default: '/does/not/exist' } } },
    );
    await expect(cfn.send(new CreateStackCommand({ StackName: 'ssm-missing', TemplateBody: body }))).rejects.toMatchObject({
      name: 'ValidationError',
      message: 'Unable to fetch parameters [/does/not/exist] from parameter store for this account.',
    });
  });

  it('deploys a CDK-shaped template: BootstrapVersion from SSM, its Rule, CDKMetadata behind a condition', async ({ server: t, cloudformation: cfn, ssm }) => {
    await ssm.send(new PutParameterCommand({ Name: '/cdk-bootstrap/hnb659fds/version', Value: '33', Type: 'String' }));
    const body = JSON.stringify({
      Resources: {
        Handle: { Type: 'AWS::CloudFormation::WaitConditionHandle' },
        CDKMetadata: {
          Type: 'AWS::CDK::Metadata',
          Properties: { Analytics: 'v2:deflate64:abc' },
          Metadata: { 'aws:cdk:path': 'App/CDKMetadata/Default' },
          Condition: 'CDKMetadataAvailable',
        },
      },
      Conditions: {
        CDKMetadataAvailable: {
          'Fn::Or': [
            { 'Fn::Or': [{ 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] }, { 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'eu-west-1'] }] },
            { 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-west-2'] },
          ],
        },
      },
      Parameters: {
        BootstrapVersion: {
          Type: 'AWS::SSM::Parameter::Value<String>',
          Default: '/cdk-bootstrap/hnb659fds/version',
          Description: 'Version of the CDK Bootstrap resources in this environment, automatically retrieved from SSM Parameter Store.',
        },
      },
      Rules: {
        CheckBootstrapVersion: {
          Assertions: [
            {
              Assert: { 'Fn::Not': [{ 'Fn::Contains': [['1', '2', '3', '4', '5'], { Ref: 'BootstrapVersion' }] }] },
              AssertDescription: "CDK bootstrap stack version 6 required. Please run 'cdk bootstrap' with a recent version of the CDK CLI.",
            },
          ],
        },
      },
    });
    await cfn.send(new CreateStackCommand({ StackName: 'cdk-shaped', TemplateBody: body }));
    expect(await stackStatus(cfn, 'cdk-shaped')).toBe('CREATE_COMPLETE');
    const ids = (await cfn.send(new ListStackResourcesCommand({ StackName: 'cdk-shaped' }))).StackResourceSummaries!.map((r) => r.LogicalResourceId);
    expect(ids.sort()).toEqual(['CDKMetadata', 'Handle']);

    await ssm.send(new PutParameterCommand({ Name: '/cdk-bootstrap/hnb659fds/version', Value: '3', Type: 'String', Overwrite: true }));
    await expect(cfn.send(new CreateStackCommand({ StackName: 'cdk-old', TemplateBody: body }))).rejects.toMatchObject({
      name: 'ValidationError',
      message: "CDK bootstrap stack version 6 required. Please run 'cdk bootstrap' with a recent version of the CDK CLI.",
    });
  });
});

describe('AWS::LanguageExtensions', () => {
  const body = JSON.stringify({
    Transform: 'AWS::LanguageExtensions',
    Parameters: { Names: { Type: 'CommaDelimitedList', Default: 'alpha,beta' }, Keep: { Type: 'String', Default: 'yes' } },
    Conditions: { KeepIt: { 'Fn::Equals': [{ Ref: 'Keep' }, 'yes'] } },
    Resources: {
      'Fn::ForEach::Params': [
        'Name',
        { Ref: 'Names' },
        {
          'Param${Name}': {
            Type: 'AWS::SSM::Parameter',
            DeletionPolicy: { 'Fn::If': ['KeepIt', 'Retain', 'Delete'] },
            Properties: { Name: { 'Fn::Sub': '/le/${Name}' }, Type: 'String', Value: { 'Fn::ToJsonString': { name: { Ref: 'Name' }, count: { 'Fn::Length': { Ref: 'Names' } } } } },
          },
        },
      ],
    },
    Outputs: { Count: { Value: { 'Fn::Length': { Ref: 'Names' } } } },
  });

  it('needs CAPABILITY_AUTO_EXPAND on CreateStack, then expands loops and functions', async ({ server: t, cloudformation: cfn, ssm }) => {
    await expect(cfn.send(new CreateStackCommand({ StackName: 'lang-ext', TemplateBody: body }))).rejects.toMatchObject({
      name: 'InsufficientCapabilitiesException',
      message: 'Requires capabilities : [CAPABILITY_AUTO_EXPAND]',
    });
    await cfn.send(new CreateStackCommand({ StackName: 'lang-ext', TemplateBody: body, Capabilities: ['CAPABILITY_AUTO_EXPAND'] }));
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'lang-ext' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    expect(stack.Outputs).toEqual([{ OutputKey: 'Count', OutputValue: '2' }]);
    const ids = (await cfn.send(new ListStackResourcesCommand({ StackName: 'lang-ext' }))).StackResourceSummaries!.map((r) => r.LogicalResourceId);
    expect(ids).toEqual(['Paramalpha', 'Parambeta']);
    expect(JSON.parse((await ssmValue(ssm, '/le/beta'))!)).toEqual({ name: 'beta', count: 2 });
    const original = await cfn.send(new GetTemplateCommand({ StackName: 'lang-ext', TemplateStage: 'Original' }));
    expect(original.TemplateBody).toBe(body);
    const processed = JSON.parse((await cfn.send(new GetTemplateCommand({ StackName: 'lang-ext' }))).TemplateBody!);
    expect(Object.keys(processed.Resources)).toEqual(['Paramalpha', 'Parambeta']);
    expect(processed).not.toHaveProperty('Transform');
  });

  it('applies a DeletionPolicy chosen by Fn::If', async ({ server: t, cloudformation: cfn, ssm }) => {
    await cfn.send(
      new UpdateStackCommand({
        StackName: 'lang-ext',
        UsePreviousTemplate: true,
        Parameters: [{ ParameterKey: 'Names', ParameterValue: 'alpha' }, { ParameterKey: 'Keep', UsePreviousValue: true }],
        Capabilities: ['CAPABILITY_AUTO_EXPAND'],
      }),
    );
    expect(await stackStatus(cfn, 'lang-ext')).toBe('UPDATE_COMPLETE');
    const events = await allEvents(cfn, 'lang-ext');
    expect(events.find((e) => e.LogicalResourceId === 'Parambeta' && e.ResourceStatus?.startsWith('DELETE'))!.ResourceStatus).toBe('DELETE_SKIPPED');
    expect(await ssmValue(ssm, '/le/beta')).toBeDefined();
  });
});

describe('stored types and strict mode', () => {
  it('stores a type Overcast does not run, saying so, with AWS-shaped attributes', async ({ server: t, cloudformation: cfn, ssm }) => {
    const body = tpl(
      { Topic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'alerts' } } },
      { Outputs: { Arn: { Value: { Ref: 'Topic' } }, Name: { Value: { 'Fn::GetAtt': ['Topic', 'TopicName'] } } } },
    );
    await cfn.send(new CreateStackCommand({ StackName: 'stored', TemplateBody: body }));
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'stored' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    expect(stack.Outputs).toEqual([
      { OutputKey: 'Arn', OutputValue: 'arn:aws:sns:us-east-1:000000000000:alerts' },
      { OutputKey: 'Name', OutputValue: 'alerts' },
    ]);
    const complete = (await allEvents(cfn, 'stored')).find((e) => e.LogicalResourceId === 'Topic' && e.ResourceStatus === 'CREATE_COMPLETE')!;
    expect(complete.ResourceStatusReason).toMatch(/not emulated by Overcast: stored, not run/);
  });

  it('refuses stored types with --strict-resources, and still runs the real ones', async ({ server: t, cloudformation: cfn, ssm }) => {
    const strict = await startTestServer({ strictResources: true });
    try {
      const c = cfnClient(strict);
      await c.send(new CreateStackCommand({ StackName: 'strict', TemplateBody: tpl({ Topic: { Type: 'AWS::SNS::Topic' } }) }));
      expect(await stackStatus(c, 'strict')).toBe('ROLLBACK_COMPLETE');
      const failed = (await allEvents(c, 'strict')).find((e) => e.ResourceStatus === 'CREATE_FAILED')!;
      expect(failed.ResourceStatusReason).toMatch(/AWS::SNS::Topic is not emulated by Overcast and --strict-resources/);
      await c.send(
        new CreateStackCommand({
          StackName: 'strict-ok',
          TemplateBody: tpl({ P: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'v' } }, M: { Type: 'AWS::CDK::Metadata' } }),
        }),
      );
      expect(await stackStatus(c, 'strict-ok')).toBe('CREATE_COMPLETE');
    } finally {
      await strict.stop();
    }
  });
});
