/**
 * `AWS::Lambda::Function` and `AWS::Lambda::LayerVersion` through the CloudFormation API: an
 * update that drops settings puts Lambda's defaults back, one that changes only tags leaves the
 * configuration (and its RevisionId) alone, and a layer published from an S3 object — named by its
 * logical ID, Ref and GetAtt its version ARN — serves the function that uses it, is replaced by a
 * new version when its content changes, and goes with the stack.
 */
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  UpdateStackCommand,
  type CloudFormationClient,
  type Stack,
} from '@aws-sdk/client-cloudformation';
import { GetFunctionConfigurationCommand, InvokeCommand, LambdaClient, ListLayersCommand, ListLayerVersionsCommand } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from '../../helpers/fixture.js';

const ROLE = 'arn:aws:iam::000000000000:role/r';
const ACCOUNT_LAYER = 'arn:aws:lambda:us-east-1:000000000000:layer';

/** Polls the stack (by name or id) until no operation is in progress. */
async function settled(cfn: CloudFormationClient, stack: string): Promise<Stack> {
  for (let i = 0; i < 600; i++) {
    const s = (await cfn.send(new DescribeStacksCommand({ StackName: stack }))).Stacks![0]!;
    if (!s.StackStatus!.endsWith('_IN_PROGRESS')) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${stack} did not settle`);
}

async function deploy(cfn: CloudFormationClient, name: string, body: object, update = false): Promise<Record<string, string>> {
  const input = { StackName: name, TemplateBody: JSON.stringify(body) };
  await cfn.send(update ? new UpdateStackCommand(input) : new CreateStackCommand(input));
  const stack = await settled(cfn, name);
  expect(stack.StackStatus, stack.StackStatusReason).toBe(update ? 'UPDATE_COMPLETE' : 'CREATE_COMPLETE');
  return Object.fromEntries((stack.Outputs ?? []).map((o) => [o.OutputKey!, o.OutputValue!]));
}

async function destroy(cfn: CloudFormationClient, name: string): Promise<void> {
  const id = (await cfn.send(new DescribeStacksCommand({ StackName: name }))).Stacks![0]!.StackId!;
  await cfn.send(new DeleteStackCommand({ StackName: name }));
  expect((await settled(cfn, id)).StackStatus).toBe('DELETE_COMPLETE');
}

function fnTemplate(props: Record<string, unknown>): object {
  return {
    Resources: {
      Fn: {
        Type: 'AWS::Lambda::Function',
        Properties: { FunctionName: 'cfn-configured', Runtime: 'nodejs20.x', Handler: 'index.handler', Role: ROLE, Code: { ZipFile: 'exports.handler = async () => 1;' }, ...props },
      },
    },
  };
}

describe('AWS::Lambda::Function updates', () => {
  it('an update that drops settings puts Lambda’s defaults back; a tag-only update keeps the configuration', async ({ server, cloudformation }) => {
    const lambda = new LambdaClient({ ...server.clientConfig, maxAttempts: 1 });
    const rich = {
      Description: 'rich',
      Timeout: 20,
      MemorySize: 256,
      EphemeralStorage: { Size: 1024 },
      TracingConfig: { Mode: 'Active' },
      LoggingConfig: { LogFormat: 'JSON', ApplicationLogLevel: 'DEBUG', LogGroup: '/custom/group' },
      KmsKeyArn: 'arn:aws:kms:us-east-1:000000000000:key/1234abcd-12ab-34cd-56ef-1234567890ab',
      DeadLetterConfig: { TargetArn: 'arn:aws:sqs:us-east-1:000000000000:dlq' },
    };
    await deploy(cloudformation, 'fn-config', fnTemplate(rich));
    const before = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'cfn-configured' }));
    expect(before).toMatchObject({
      Timeout: 20,
      MemorySize: 256,
      EphemeralStorage: { Size: 1024 },
      TracingConfig: { Mode: 'Active' },
      LoggingConfig: { LogFormat: 'JSON', ApplicationLogLevel: 'DEBUG', SystemLogLevel: 'INFO', LogGroup: '/custom/group' },
      KMSKeyArn: rich.KmsKeyArn,
      DeadLetterConfig: { TargetArn: rich.DeadLetterConfig.TargetArn },
    });

    await deploy(cloudformation, 'fn-config', fnTemplate({}), true);
    const reset = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'cfn-configured' }));
    expect(reset).toMatchObject({
      Description: '',
      Timeout: 3,
      MemorySize: 128,
      EphemeralStorage: { Size: 512 },
      TracingConfig: { Mode: 'PassThrough' },
      LoggingConfig: { LogFormat: 'Text', LogGroup: '/aws/lambda/cfn-configured' },
    });
    expect(reset.LoggingConfig).not.toHaveProperty('ApplicationLogLevel');
    expect(reset).not.toHaveProperty('KMSKeyArn');
    expect(reset).not.toHaveProperty('DeadLetterConfig');

    await deploy(cloudformation, 'fn-config', fnTemplate({ Tags: [{ Key: 'team', Value: 'data' }] }), true);
    const tagged = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'cfn-configured' }));
    expect(tagged.RevisionId).toBe(reset.RevisionId);
    await destroy(cloudformation, 'fn-config');
  });
});

describe('AWS::Lambda::LayerVersion', () => {
  const layerZip = (text: string) => zipSync({ 'nodejs/node_modules/greeting/index.js': strToU8(`module.exports = ${JSON.stringify(text)};`) });

  function template(key: string): object {
    return {
      Resources: {
        Shared: {
          Type: 'AWS::Lambda::LayerVersion',
          Properties: { Content: { S3Bucket: 'cfn-layers', S3Key: key }, CompatibleRuntimes: ['nodejs20.x'], Description: 'greetings' },
        },
        Fn: {
          Type: 'AWS::Lambda::Function',
          Properties: {
            FunctionName: 'cfn-layered',
            Runtime: 'nodejs20.x',
            Handler: 'index.handler',
            Role: ROLE,
            Code: { ZipFile: 'exports.handler = async () => require("greeting");' },
            Layers: [{ Ref: 'Shared' }],
          },
        },
      },
      Outputs: { Ref: { Value: { Ref: 'Shared' } }, Arn: { Value: { 'Fn::GetAtt': ['Shared', 'LayerVersionArn'] } } },
    };
  }

  it('publishes the layer under its logical ID; the function runs with it; new content is a new version; delete removes it', async ({ server, cloudformation, s3 }) => {
    const lambda = new LambdaClient({ ...server.clientConfig, maxAttempts: 1 });
    const call = async () => JSON.parse(Buffer.from((await lambda.send(new InvokeCommand({ FunctionName: 'cfn-layered' }))).Payload!).toString());
    await s3.send(new CreateBucketCommand({ Bucket: 'cfn-layers' }));
    await s3.send(new PutObjectCommand({ Bucket: 'cfn-layers', Key: 'one.zip', Body: layerZip('hello') }));
    await s3.send(new PutObjectCommand({ Bucket: 'cfn-layers', Key: 'two.zip', Body: layerZip('bonjour') }));

    const out = await deploy(cloudformation, 'layered', template('one.zip'));
    expect(out).toEqual({ Ref: `${ACCOUNT_LAYER}:Shared:1`, Arn: `${ACCOUNT_LAYER}:Shared:1` });
    expect(await call()).toBe('hello');

    const next = await deploy(cloudformation, 'layered', template('two.zip'), true);
    expect(next.Ref).toBe(`${ACCOUNT_LAYER}:Shared:2`);
    expect(await call()).toBe('bonjour');
    // The replaced version is deleted in cleanup.
    const versions = await lambda.send(new ListLayerVersionsCommand({ LayerName: 'Shared' }));
    expect(versions.LayerVersions?.map((v) => [v.Version, v.Description])).toEqual([[2, 'greetings']]);

    await destroy(cloudformation, 'layered');
    expect((await lambda.send(new ListLayersCommand({}))).Layers).toEqual([]);
  });
});
