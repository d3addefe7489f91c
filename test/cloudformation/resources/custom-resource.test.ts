/**
 * Custom resources with a Lambda ServiceToken, through the CloudFormation API: an inline
 * (`ZipFile`) Node.js function that answers with AWS's `cfn-response` module and records every
 * request it gets in S3, so the test sees the protocol from the provider's side — Create without
 * a physical id and with every property a string, Update with OldResourceProperties, a new
 * physical id meaning replacement (the old one deleted in cleanup), Delete on stack delete,
 * `Data` behind Fn::GetAtt (masked in outputs when the response says NoEcho), FAILED with its Reason in the events and the rollback, no answer
 * within ServiceTimeout, and an SNS ServiceToken refused with a clear message.
 */
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  UpdateStackCommand,
  type CloudFormationClient,
  type Parameter,
} from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { allEvents, cfnClient } from '../support.js';

const LOG_BUCKET = 'cr-requests';

const HANDLER = `
const response = require('cfn-response');
const { S3Client, PutObjectCommand } = require('@aws-sdk/client-s3');
const s3 = new S3Client({});
exports.handler = async (event, context) => {
  const key = String(Date.now()).padStart(15, '0') + '-' + event.RequestId;
  await s3.send(new PutObjectCommand({ Bucket: '${LOG_BUCKET}', Key: key, Body: JSON.stringify(event) }));
  const p = event.ResourceProperties;
  if (p.Mode === 'silent' && event.RequestType !== 'Delete') return;
  if (p.Mode === 'fail' && event.RequestType !== 'Delete') {
    await new Promise((done) => { context.done = done; response.send(event, context, response.FAILED, {}, event.PhysicalResourceId); });
    return;
  }
  const data = { Echo: p.Value, NumType: typeof p.Num, Nested: typeof p.List[0] };
  const noEcho = p.Mode === 'secret';
  await new Promise((done) => { context.done = done; response.send(event, context, response.SUCCESS, data, p.Id, noEcho); });
};`;

function template(serviceToken: unknown = { 'Fn::GetAtt': ['Fn', 'Arn'] }, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    Parameters: { Id: { Type: 'String', Default: 'first' }, Mode: { Type: 'String', Default: 'ok' } },
    Resources: {
      Fn: {
        Type: 'AWS::Lambda::Function',
        Properties: { Runtime: 'nodejs20.x', Handler: 'index.handler', Role: 'arn:aws:iam::000000000000:role/r', Timeout: 30, Code: { ZipFile: HANDLER } },
      },
      Thing: {
        Type: 'Custom::Thing',
        Properties: { ServiceToken: serviceToken, Id: { Ref: 'Id' }, Mode: { Ref: 'Mode' }, Value: 'hello', Num: 5, List: [true], ...extra },
      },
    },
    Outputs: {
      Echo: { Value: { 'Fn::GetAtt': ['Thing', 'Echo'] } },
      NumType: { Value: { 'Fn::GetAtt': ['Thing', 'NumType'] } },
      Nested: { Value: { 'Fn::GetAtt': ['Thing', 'Nested'] } },
      Ref: { Value: { Ref: 'Thing' } },
    },
  });
}

let t: TestServer;
let cfn: CloudFormationClient;
let s3: S3Client;
let seen = 0;

/** The requests the function received since the last call, oldest first. */
async function newRequests(): Promise<Record<string, any>[]> {
  const keys = ((await s3.send(new ListObjectsV2Command({ Bucket: LOG_BUCKET }))).Contents ?? []).map((o) => o.Key!).sort();
  const fresh = keys.slice(seen);
  seen = keys.length;
  return Promise.all(
    fresh.map(async (Key) => JSON.parse(await (await s3.send(new GetObjectCommand({ Bucket: LOG_BUCKET, Key }))).Body!.transformToString())),
  );
}

/** Polls until the stack is no longer in progress; returns its status and outputs. */
async function settled(name: string): Promise<{ status: string; outputs: Record<string, string> }> {
  for (let i = 0; i < 600; i++) {
    const s = (await cfn.send(new DescribeStacksCommand({ StackName: name }))).Stacks![0]!;
    if (!s.StackStatus!.endsWith('_IN_PROGRESS')) {
      return { status: s.StackStatus!, outputs: Object.fromEntries((s.Outputs ?? []).map((o) => [o.OutputKey!, o.OutputValue!])) };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not settle`);
}

const params = (id: string, mode = 'ok'): Parameter[] => [
  { ParameterKey: 'Id', ParameterValue: id },
  { ParameterKey: 'Mode', ParameterValue: mode },
];

beforeAll(async () => {
  t = await startTestServer();
  cfn = cfnClient(t);
  s3 = new S3Client({ ...t.clientConfig, maxAttempts: 1 });
  await s3.send(new CreateBucketCommand({ Bucket: LOG_BUCKET }));
});

afterAll(async () => {
  await t?.stop();
});

describe('custom resources backed by a Lambda function', () => {
  it('Create: the request as CloudFormation sends it; Data behind Fn::GetAtt; the physical id behind Ref', async () => {
    await cfn.send(new CreateStackCommand({ StackName: 'cr', TemplateBody: template(), Parameters: params('first') }));
    const s = await settled('cr');
    expect(s.status, JSON.stringify((await allEvents(cfn, 'cr')).map((e) => e.ResourceStatusReason))).toBe('CREATE_COMPLETE');
    expect(s.outputs).toEqual({ Echo: 'hello', NumType: 'string', Nested: 'string', Ref: 'first' });
    const [create, ...rest] = await newRequests();
    expect(rest).toEqual([]);
    expect(create).toMatchObject({
      RequestType: 'Create',
      ResourceType: 'Custom::Thing',
      LogicalResourceId: 'Thing',
      StackId: expect.stringMatching(/^arn:aws:cloudformation:us-east-1:000000000000:stack\/cr\//),
      RequestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      ServiceToken: expect.stringMatching(/^arn:aws:lambda:us-east-1:000000000000:function:cr-Fn-/),
      ResourceProperties: { Id: 'first', Value: 'hello', Num: '5', List: ['true'], ServiceToken: expect.any(String) },
    });
    expect(create).not.toHaveProperty('PhysicalResourceId');
    expect(create).not.toHaveProperty('OldResourceProperties');
  });

  it('Update returning a new physical id is a replacement: the old one gets a Delete in cleanup', async () => {
    await cfn.send(new UpdateStackCommand({ StackName: 'cr', TemplateBody: template(), Parameters: params('second') }));
    const s = await settled('cr');
    expect(s.status).toBe('UPDATE_COMPLETE');
    expect(s.outputs.Ref).toBe('second');
    const requests = await newRequests();
    expect(requests.map((r) => [r.RequestType, r.PhysicalResourceId])).toEqual([
      ['Update', 'first'],
      ['Delete', 'first'],
    ]);
    expect(requests[0]!.OldResourceProperties).toMatchObject({ Id: 'first', Num: '5' });
    expect(requests[0]!.ResourceProperties).toMatchObject({ Id: 'second' });
    expect(requests[1]!.ResourceProperties).toMatchObject({ Id: 'first' });
    const events = await allEvents(cfn, 'cr');
    expect(events.some((e) => e.LogicalResourceId === 'Thing' && e.ResourceStatus === 'DELETE_COMPLETE' && e.PhysicalResourceId === 'first')).toBe(true);
  });

  it('FAILED fails the resource with the provider’s Reason and rolls the update back', async () => {
    await cfn.send(new UpdateStackCommand({ StackName: 'cr', TemplateBody: template(), Parameters: params('second', 'fail') }));
    const s = await settled('cr');
    expect(s.status).toBe('UPDATE_ROLLBACK_COMPLETE');
    const failed = (await allEvents(cfn, 'cr')).find((e) => e.LogicalResourceId === 'Thing' && e.ResourceStatus === 'UPDATE_FAILED');
    expect(failed?.ResourceStatusReason).toMatch(
      /^Received response status \[FAILED\] from custom resource\. Message returned: See the details in CloudWatch Log Stream: .+ \(RequestId: [0-9a-f-]{36}\)$/,
    );
    // The rollback sends the previous properties back as an Update.
    const requests = await newRequests();
    expect(requests.map((r) => [r.RequestType, r.ResourceProperties.Mode])).toEqual([
      ['Update', 'fail'],
      ['Update', 'ok'],
    ]);
    expect(s.outputs.Ref).toBe('second');
  });

  it('deleting the stack sends Delete with the current physical id', async () => {
    await cfn.send(new DeleteStackCommand({ StackName: 'cr' }));
    for (let i = 0; i < 300; i++) {
      const left = (await cfn.send(new DescribeStacksCommand({}))).Stacks ?? [];
      if (!left.some((x) => x.StackName === 'cr')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await newRequests()).map((r) => [r.RequestType, r.PhysicalResourceId])).toEqual([['Delete', 'second']]);
  });

  it('no response within ServiceTimeout fails the resource with AWS’s message', async () => {
    // ServiceTimeout 2 s, not the default hour: the test's own time limit would end it first.
    await cfn.send(new CreateStackCommand({ StackName: 'silent', TemplateBody: template(undefined, { ServiceTimeout: 2 }), Parameters: params('x', 'silent') }));
    const s = await settled('silent');
    expect(s.status).toBe('ROLLBACK_COMPLETE');
    const failed = (await allEvents(cfn, 'silent')).find((e) => e.LogicalResourceId === 'Thing' && e.ResourceStatus === 'CREATE_FAILED');
    expect(failed?.ResourceStatusReason).toMatch(/^CloudFormation did not receive a response from your Custom Resource\. Please check your logs for requestId \[[0-9a-f-]{36}\]/);
  });

  it('Fn::GetAtt of a key the response’s Data lacks fails the dependent resource', async () => {
    const body = JSON.parse(template()) as { Resources: Record<string, any>; Outputs: unknown };
    body.Resources.Needs = { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: { 'Fn::GetAtt': ['Thing', 'Missing'] } } };
    await cfn.send(new CreateStackCommand({ StackName: 'nokey', TemplateBody: JSON.stringify(body), Parameters: params('k') }));
    expect((await settled('nokey')).status).toBe('ROLLBACK_COMPLETE');
    const failed = (await allEvents(cfn, 'nokey')).find((e) => e.LogicalResourceId === 'Needs' && e.ResourceStatus === 'CREATE_FAILED');
    expect(failed?.ResourceStatusReason).toBe("CustomResource attribute error: Vendor response doesn't contain Missing key in object Thing");
    await newRequests();
  });

  it('NoEcho: outputs show the Data as asterisks, other resources get the real values', async () => {
    const body = JSON.parse(template()) as { Resources: Record<string, any>; Outputs: Record<string, unknown> };
    body.Resources.Uses = {
      Type: 'AWS::SSM::Parameter',
      Properties: { Name: 'noecho-uses', Type: 'String', Value: { 'Fn::Sub': 'got-${Thing.Echo}' } },
    };
    body.Outputs.Sub = { Value: { 'Fn::Sub': 'x-${Thing.Echo}' } };
    const secretStack = { StackName: 'secret', TemplateBody: JSON.stringify(body), Parameters: params('p', 'secret') };
    await cfn.send(new CreateStackCommand(secretStack));
    const s = await settled('secret');
    expect(s.status).toBe('CREATE_COMPLETE');
    expect(s.outputs).toEqual({ Echo: '*****', NumType: '*****', Nested: '*****', Sub: 'x-*****', Ref: 'p' });
    const ssm = new SSMClient({ ...t.clientConfig, maxAttempts: 1 });
    expect((await ssm.send(new GetParameterCommand({ Name: 'noecho-uses' }))).Parameter?.Value).toBe('got-hello');
    // The masked outputs compare equal to the stored ones: an unchanged template is no update.
    await expect(cfn.send(new UpdateStackCommand(secretStack))).rejects.toThrow('No updates are to be performed.');
    await newRequests();
  });

  it('an SNS ServiceToken fails with a message saying so', async () => {
    await cfn.send(new CreateStackCommand({ StackName: 'sns', TemplateBody: template('arn:aws:sns:us-east-1:000000000000:topic'), Parameters: params('x') }));
    expect((await settled('sns')).status).toBe('ROLLBACK_COMPLETE');
    const failed = (await allEvents(cfn, 'sns')).find((e) => e.LogicalResourceId === 'Thing' && e.ResourceStatus === 'CREATE_FAILED');
    expect(failed?.ResourceStatusReason).toContain('does not deliver custom resource requests to SNS topics');
  });
});
