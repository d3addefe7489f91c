/**
 * The in-process API (`startOvercast` from the package's main export) beyond the CDK example:
 * template sources (file, text, object; a template above the API's 51,200-byte body limit),
 * parameters, updates and no-change deploys, failures with and without rollback, refused
 * requests, a stack left ROLLBACK_COMPLETE deployed afresh, the CDK bootstrap-version
 * parameter, deleteStack, reset, credentials of another account, and starting without warm-up.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetTableCommand, ListTableBucketsCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeployStackError, startOvercast, type Overcast } from 'overcast';

const templates = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'templates');

let overcast: Overcast;
let ssm: SSMClient;

beforeAll(async () => {
  overcast = await startOvercast();
  ssm = new SSMClient({ ...overcast.clientConfig, maxAttempts: 1 });
});
afterAll(async () => overcast?.stop());
beforeEach(async () => overcast.reset());

function parameterTemplate(value: string, extra: Record<string, unknown> = {}): object {
  return {
    Resources: {
      Setting: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/app/setting', Type: 'String', Value: value } },
      ...extra,
    },
    Outputs: { SettingName: { Value: { Ref: 'Setting' } } },
  };
}

async function parameterValue(name: string): Promise<string | undefined> {
  return (await ssm.send(new GetParameterCommand({ Name: name }))).Parameter?.Value;
}

describe('deployStack', () => {
  it('deploys a YAML template file with parameters and returns outputs, resources and events', async () => {
    const r = await overcast.deployStack({
      stackName: 'quick-start',
      templateFile: join(templates, 'quick-start.yaml'),
      parameters: { BucketName: 'in-process-tables', NamespaceName: 'web' },
    });
    expect(r.status).toBe('CREATE_COMPLETE');
    expect(r.changed).toBe(true);
    expect(r.stackId).toMatch(/^arn:aws:cloudformation:us-east-1:000000000000:stack\/quick-start\//);
    expect(r.outputs.TableBucketArn).toBe('arn:aws:s3tables:us-east-1:000000000000:bucket/in-process-tables');
    expect(r.resources.map((x) => [x.logicalId, x.type, x.status])).toEqual([
      ['TableBucket', 'AWS::S3Tables::TableBucket', 'CREATE_COMPLETE'],
      ['Namespace', 'AWS::S3Tables::Namespace', 'CREATE_COMPLETE'],
      ['EventsTable', 'AWS::S3Tables::Table', 'CREATE_COMPLETE'],
    ]);
    expect(r.physicalResourceIds.EventsTable).toBe(r.outputs.TableArn);
    expect(r.events[0]).toMatchObject({ LogicalResourceId: 'quick-start', ResourceStatus: 'CREATE_IN_PROGRESS' });
    expect(r.events.at(-1)).toMatchObject({ LogicalResourceId: 'quick-start', ResourceStatus: 'CREATE_COMPLETE' });
    const s3t = new S3TablesClient(overcast.clientConfig);
    const table = await s3t.send(new GetTableCommand({ tableBucketARN: r.outputs.TableBucketArn, namespace: 'web', name: 'events' }));
    expect(table.tableARN).toBe(r.outputs.TableArn);
    // The stack is the CloudFormation API's own: an SDK client sees it.
    const cfn = new CloudFormationClient({ ...overcast.clientConfig, maxAttempts: 1 });
    const seen = await cfn.send(new DescribeStacksCommand({ StackName: 'quick-start' }));
    expect(seen.Stacks![0]!.Parameters).toEqual(
      expect.arrayContaining([{ ParameterKey: 'NamespaceName', ParameterValue: 'web' }]),
    );
  });

  it('updates an existing stack, and reports an unchanged one as such', async () => {
    const created = await overcast.deployStack({ stackName: 'app', template: parameterTemplate('one') });
    expect(await parameterValue('/app/setting')).toBe('one');

    const same = await overcast.deployStack({ stackName: 'app', templateBody: JSON.stringify(parameterTemplate('one')) });
    expect(same).toMatchObject({ status: 'CREATE_COMPLETE', changed: false, outputs: { SettingName: '/app/setting' }, events: [] });

    const updated = await overcast.deployStack({ stackName: 'app', template: parameterTemplate('two') });
    expect(updated).toMatchObject({ status: 'UPDATE_COMPLETE', changed: true, stackId: created.stackId });
    expect(await parameterValue('/app/setting')).toBe('two');
    expect(updated.events.every((e) => e.Timestamp! >= created.events.at(-1)!.Timestamp!)).toBe(true);
  });

  it('keeps the previous value of a parameter an update does not give, as aws cloudformation deploy does', async () => {
    const template = {
      Parameters: { Name: { Type: 'String' }, Value: { Type: 'String' } },
      Resources: { P: { Type: 'AWS::SSM::Parameter', Properties: { Name: { Ref: 'Name' }, Type: 'String', Value: { Ref: 'Value' } } } },
    };
    await overcast.deployStack({ stackName: 'kept-params', template, parameters: { Name: '/kept/p', Value: 'first' } });
    const updated = await overcast.deployStack({ stackName: 'kept-params', template, parameters: { Value: 'second' } });
    expect(updated.status).toBe('UPDATE_COMPLETE');
    expect(await parameterValue('/kept/p')).toBe('second');
  });

  it('rejects with the failure and leaves the stack as it was when an update rolls back', async () => {
    await overcast.deployStack({ stackName: 'app', template: parameterTemplate('one') });
    const broken = parameterTemplate('two', {
      Bad: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/app/setting', Type: 'String', Value: 'clash' } },
    });
    const err = (await overcast.deployStack({ stackName: 'app', template: broken }).catch((e: unknown) => e)) as DeployStackError;
    expect(err).toBeInstanceOf(DeployStackError);
    expect(err.name).toBe('DeployStackError');
    expect(err.status).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(err.failures.map((f) => [f.logicalId, f.status])).toContainEqual(['Bad', 'CREATE_FAILED']);
    expect(err.events.at(-1)).toMatchObject({ ResourceStatus: 'UPDATE_ROLLBACK_COMPLETE' });
    expect(await parameterValue('/app/setting')).toBe('one');
  });

  it('leaves a failed create in place with disableRollback, and deploys afresh over a rolled-back one', async () => {
    const clash = {
      Resources: {
        A: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/dup', Type: 'String', Value: 'a' } },
        B: { Type: 'AWS::SSM::Parameter', DependsOn: 'A', Properties: { Name: '/dup', Type: 'String', Value: 'b' } },
      },
    };
    const kept = (await overcast.deployStack({ stackName: 'kept', template: clash, disableRollback: true }).catch((e: unknown) => e)) as DeployStackError;
    expect(kept).toBeInstanceOf(DeployStackError);
    expect(kept.status).toBe('CREATE_FAILED');
    expect(await parameterValue('/dup')).toBe('a');

    const rolled = (await overcast.deployStack({ stackName: 'rolled', template: clash }).catch((e: unknown) => e)) as DeployStackError;
    expect(rolled.status).toBe('ROLLBACK_COMPLETE');
    // A stack that never got created is deleted and created again, as the CDK does.
    const again = await overcast.deployStack({ stackName: 'rolled', template: parameterTemplate('fresh') });
    expect(again.status).toBe('CREATE_COMPLETE');
    expect(again.stackId).not.toBe(rolled.stackId);
  });

  it('rejects a request CloudFormation refuses with its own error, creating nothing', async () => {
    const err = (await overcast
      .deployStack({ stackName: 'bad', template: { Resources: { X: { Type: 'AWS::No::Such' } } } })
      .catch((e: unknown) => e)) as Error;
    expect(err.name).toBe('ValidationError');
    expect(err.message).toBe('Template format error: Unrecognized resource types: [AWS::No::Such]');
    await expect(overcast.deployStack({ stackName: 'bad', template: {}, templateBody: '{}' })).rejects.toThrow(TypeError);
    await overcast.deleteStack('bad'); // nothing to delete: resolves
  });

  it('deploys a template larger than the 51,200-byte TemplateBody limit', async () => {
    const resources: Record<string, unknown> = {};
    for (let i = 0; i < 120; i++) {
      resources[`P${i}`] = {
        Type: 'AWS::SSM::Parameter',
        Properties: { Name: `/big/p${i}`, Type: 'String', Value: `v${i}`, Description: 'x'.repeat(400) },
      };
    }
    const template = { Resources: resources };
    expect(JSON.stringify(template).length).toBeGreaterThan(51_200);
    const r = await overcast.deployStack({ stackName: 'big', template });
    expect(r.status).toBe('CREATE_COMPLETE');
    expect(r.resources).toHaveLength(120);
    expect(await parameterValue('/big/p119')).toBe('v119');
  });

  it('creates the CDK bootstrap-version parameter a synthesized template reads, unless told not to', async () => {
    const template = {
      ...parameterTemplate('x'),
      Parameters: {
        BootstrapVersion: { Type: 'AWS::SSM::Parameter::Value<String>', Default: '/cdk-bootstrap/hnb659fds/version' },
      },
    };
    const refused = (await overcast
      .deployStack({ stackName: 'cdk', template, cdkBootstrapVersion: false })
      .catch((e: unknown) => e)) as Error;
    expect(refused.name).toBe('ValidationError');
    expect(refused.message).toContain('/cdk-bootstrap/hnb659fds/version');

    const r = await overcast.deployStack({ stackName: 'cdk', template });
    expect(r.status).toBe('CREATE_COMPLETE');
    expect(await parameterValue('/cdk-bootstrap/hnb659fds/version')).toBe('33');
  });
});

describe('deleteStack, reset and start options', () => {
  it('deleteStack removes the resources; reset wipes everything', async () => {
    await overcast.deployStack({ stackName: 'app', template: parameterTemplate('one') });
    await overcast.deleteStack('app');
    await expect(parameterValue('/app/setting')).rejects.toMatchObject({ name: 'ParameterNotFound' });

    await overcast.deployStack({ stackName: 'quick', templateFile: join(templates, 'quick-start.yaml') });
    await overcast.reset();
    const s3t = new S3TablesClient(overcast.clientConfig);
    expect((await s3t.send(new ListTableBucketsCommand({}))).tableBuckets).toEqual([]);
    const cfn = new CloudFormationClient({ ...overcast.clientConfig, maxAttempts: 1 });
    expect((await cfn.send(new DescribeStacksCommand({}))).Stacks).toEqual([]);
  });

  it('deploys into the account of 12-digit credentials, without warm-up, and stops twice without harm', async () => {
    const other = await startOvercast({ credentials: { accessKeyId: '111122223333', secretAccessKey: 'x' }, warm: false, region: 'eu-west-1' });
    try {
      expect(other.accountId).toBe('111122223333');
      expect(other.endpoint).not.toBe(overcast.endpoint);
      const r = await other.deployStack({ stackName: 'app', template: parameterTemplate('one') });
      expect(r.stackId).toMatch(/^arn:aws:cloudformation:eu-west-1:111122223333:stack\/app\//);
      const otherSsm = new SSMClient({ ...other.clientConfig, maxAttempts: 1 });
      expect((await otherSsm.send(new GetParameterCommand({ Name: '/app/setting' }))).Parameter?.Value).toBe('one');
    } finally {
      await other.stop();
      await other.stop();
    }
  });
});
