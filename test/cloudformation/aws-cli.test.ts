/**
 * The `aws` CLI v1 against Overcast, as users run it: `cloudformation deploy` with parameter
 * overrides (change sets and waiters, a second deploy with nothing to change, a big template
 * uploaded to Overcast's S3 and read back through TemplateURL), `create-stack` + `wait
 * stack-create-complete`, `update-stack` + `wait stack-update-complete`, `describe-stack-events`,
 * `delete-stack` + `wait stack-delete-complete`. The waiters poll every 5–30 s, so finishing before
 * the first poll is what keeps each command at the CLI's own start-up time.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '../helpers/fixture.js';
import { tempDir } from '../helpers/server.js';
import { aws } from './support.js';

let dir: { path: string; cleanup: () => void };
it.beforeAll(async () => {
  dir = tempDir();
});
it.afterAll(() => dir.cleanup());

/** A 30 s waiter sleep would blow this; the CLI itself starts in about a second. */
const NO_SLEEP_MS = 12_000;

const yamlTemplate = `AWSTemplateFormatVersion: 2010-09-09
Description: deployed by the aws CLI
Parameters:
  Env:
    Type: String
    AllowedValues: [dev, prod]
  Greeting:
    Type: String
    Default: hello
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  Param:
    Type: AWS::SSM::Parameter
    Properties:
      Name: !Sub /cli/\${Env}/greeting
      Type: String
      Value: !If [IsProd, !Sub '\${Greeting} production', !Ref Greeting]
  Handle:
    Type: AWS::CloudFormation::WaitConditionHandle
Outputs:
  ParamName:
    Value: !Ref Param
    Export:
      Name: !Sub \${AWS::StackName}-param
`;

describe('aws cloudformation deploy', () => {
  it('deploys with --parameter-overrides, then finds nothing to change, then updates', async ({ server: t }) => {
    const file = join(dir.path, 'stack.yaml');
    writeFileSync(file, yamlTemplate);
    const first = await aws(t, ['cloudformation', 'deploy', '--template-file', file, '--stack-name', 'cli-deploy', '--parameter-overrides', 'Env=dev']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Successfully created/updated stack - cli-deploy');
    expect(first.ms).toBeLessThan(NO_SLEEP_MS);

    const param = await aws(t, ['ssm', 'get-parameter', '--name', '/cli/dev/greeting']);
    expect(JSON.parse(param.stdout).Parameter.Value).toBe('hello');

    const again = await aws(t, [
      'cloudformation',
      'deploy',
      '--template-file',
      file,
      '--stack-name',
      'cli-deploy',
      '--parameter-overrides',
      'Env=dev',
      '--no-fail-on-empty-changeset',
    ]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes to deploy');
    expect(again.ms).toBeLessThan(NO_SLEEP_MS);

    const prod = await aws(t, [
      'cloudformation',
      'deploy',
      '--template-file',
      file,
      '--stack-name',
      'cli-deploy',
      '--parameter-overrides',
      'Env=prod',
      'Greeting=hi',
      '--tags',
      'owner=cli',
    ]);
    expect(prod.stderr + prod.stdout).not.toMatch(/error|failed/i);
    expect(prod.code).toBe(0);
    expect(prod.ms).toBeLessThan(NO_SLEEP_MS);
    expect(JSON.parse((await aws(t, ['ssm', 'get-parameter', '--name', '/cli/prod/greeting'])).stdout).Parameter.Value).toBe('hi production');
    // The parameter was replaced (its Name changed): the old one went in cleanup.
    expect((await aws(t, ['ssm', 'get-parameter', '--name', '/cli/dev/greeting'])).code).not.toBe(0);
    // --tags are stack tags, which reach the parameter beside CloudFormation's system tags.
    const listed = await aws(t, ['ssm', 'list-tags-for-resource', '--resource-type', 'Parameter', '--resource-id', '/cli/prod/greeting']);
    expect(JSON.parse(listed.stdout).TagList).toEqual(
      expect.arrayContaining([
        { Key: 'owner', Value: 'cli' },
        { Key: 'aws:cloudformation:logical-id', Value: 'Param' },
      ]),
    );

    const described = JSON.parse((await aws(t, ['cloudformation', 'describe-stacks', '--stack-name', 'cli-deploy'])).stdout);
    expect(described.Stacks[0]).toMatchObject({
      StackStatus: 'UPDATE_COMPLETE',
      Description: 'deployed by the aws CLI',
      Outputs: [{ OutputKey: 'ParamName', OutputValue: '/cli/prod/greeting', ExportName: 'cli-deploy-param' }],
    });
    expect(described.Stacks[0].Parameters).toEqual(
      expect.arrayContaining([
        { ParameterKey: 'Env', ParameterValue: 'prod' },
        { ParameterKey: 'Greeting', ParameterValue: 'hi' },
      ]),
    );
    // GetTemplate returns the YAML exactly as submitted.
    const template = JSON.parse((await aws(t, ['cloudformation', 'get-template', '--stack-name', 'cli-deploy', '--template-stage', 'Original'])).stdout);
    expect(template.TemplateBody).toBe(yamlTemplate);
  });

  it('deploys a template over 51,200 bytes through --s3-bucket, read back from Overcast S3 by TemplateURL', async ({ server: t }) => {
    expect((await aws(t, ['s3', 'mb', 's3://cli-artifacts'])).code).toBe(0);
    const resources: Record<string, unknown> = {};
    for (let i = 0; i < 200; i++) {
      resources[`Handle${i}`] = { Type: 'AWS::CloudFormation::WaitConditionHandle', Metadata: { note: 'x'.repeat(250) } };
    }
    const body = JSON.stringify({ Resources: resources }, null, 2);
    expect(Buffer.byteLength(body)).toBeGreaterThan(51_200);
    const file = join(dir.path, 'big.json');
    writeFileSync(file, body);
    const out = await aws(t, ['cloudformation', 'deploy', '--template-file', file, '--stack-name', 'cli-big', '--s3-bucket', 'cli-artifacts']);
    expect(out.stderr).toMatch(/^\s*Uploading to [0-9a-f]+\.template/);
    expect(out.stderr).not.toMatch(/error/i);
    expect(out.code).toBe(0);
    const resourcesOut = JSON.parse((await aws(t, ['cloudformation', 'list-stack-resources', '--stack-name', 'cli-big'])).stdout);
    expect(resourcesOut.StackResourceSummaries).toHaveLength(200);
  });
});

describe('create-stack / update-stack / delete-stack with the waiters', () => {
  it('runs each command and its waiter without the waiter ever sleeping', async ({ server: t }) => {
    const file = join(dir.path, 'simple.json');
    const v1 = { Resources: { P: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/cli/simple', Type: 'String', Value: 'v1' } } } };
    writeFileSync(file, JSON.stringify(v1));
    const created = await aws(t, ['cloudformation', 'create-stack', '--stack-name', 'cli-simple', '--template-body', `file://${file}`]);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout).StackId).toMatch(/:stack\/cli-simple\//);
    const wait = await aws(t, ['cloudformation', 'wait', 'stack-create-complete', '--stack-name', 'cli-simple']);
    expect(wait.code).toBe(0);
    expect(wait.ms).toBeLessThan(NO_SLEEP_MS);

    writeFileSync(file, JSON.stringify({ Resources: { P: { ...v1.Resources.P, Properties: { ...v1.Resources.P.Properties, Value: 'v2' } } } }));
    expect((await aws(t, ['cloudformation', 'update-stack', '--stack-name', 'cli-simple', '--template-body', `file://${file}`])).code).toBe(0);
    const waitUpdate = await aws(t, ['cloudformation', 'wait', 'stack-update-complete', '--stack-name', 'cli-simple']);
    expect(waitUpdate.code).toBe(0);
    expect(waitUpdate.ms).toBeLessThan(NO_SLEEP_MS);
    expect(JSON.parse((await aws(t, ['ssm', 'get-parameter', '--name', '/cli/simple'])).stdout).Parameter.Value).toBe('v2');

    const noop = await aws(t, ['cloudformation', 'update-stack', '--stack-name', 'cli-simple', '--template-body', `file://${file}`]);
    expect(noop.code).toBe(255);
    expect(noop.stderr).toContain('An error occurred (ValidationError) when calling the UpdateStack operation: No updates are to be performed.');

    const events = JSON.parse((await aws(t, ['cloudformation', 'describe-stack-events', '--stack-name', 'cli-simple'])).stdout).StackEvents;
    expect(events[0]).toMatchObject({ LogicalResourceId: 'cli-simple', ResourceStatus: 'UPDATE_COMPLETE', ResourceType: 'AWS::CloudFormation::Stack' });
    expect(events.at(-1)).toMatchObject({ ResourceStatus: 'CREATE_IN_PROGRESS', ResourceStatusReason: 'User Initiated' });

    expect((await aws(t, ['cloudformation', 'delete-stack', '--stack-name', 'cli-simple'])).code).toBe(0);
    const waitDelete = await aws(t, ['cloudformation', 'wait', 'stack-delete-complete', '--stack-name', 'cli-simple']);
    expect(waitDelete.code).toBe(0);
    expect(waitDelete.ms).toBeLessThan(NO_SLEEP_MS);
    expect((await aws(t, ['ssm', 'get-parameter', '--name', '/cli/simple'])).code).not.toBe(0);

    const missing = await aws(t, ['cloudformation', 'describe-stacks', '--stack-name', 'cli-simple']);
    expect(missing.code).toBe(255);
    expect(missing.stderr).toContain('An error occurred (ValidationError) when calling the DescribeStacks operation: Stack with id cli-simple does not exist');
  });

  it('makes the create waiter fail at once on a rollback', async ({ server: t }) => {
    const file = join(dir.path, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({ Resources: { Q: { Type: 'AWS::SQS::Queue', Properties: { NoSuchProperty: 1 } } } }),
    );
    expect((await aws(t, ['cloudformation', 'create-stack', '--stack-name', 'cli-bad', '--template-body', `file://${file}`])).code).toBe(0);
    const wait = await aws(t, ['cloudformation', 'wait', 'stack-create-complete', '--stack-name', 'cli-bad']);
    expect(wait.code).toBe(255);
    expect(wait.stderr).toContain('Waiter StackCreateComplete failed');
    expect(wait.ms).toBeLessThan(NO_SLEEP_MS);
    const events = JSON.parse((await aws(t, ['cloudformation', 'describe-stack-events', '--stack-name', 'cli-bad'])).stdout).StackEvents;
    const failed = events.find((e: { ResourceStatus: string }) => e.ResourceStatus === 'CREATE_FAILED');
    expect(failed.ResourceStatusReason).toContain('extraneous key [NoSuchProperty] is not permitted');
  });
});
