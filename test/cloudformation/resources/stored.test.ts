/**
 * The generic stored provider, called directly with a real runtime: CloudFormation-style property
 * validation (required, extraneous, types, enums, nested definitions, tags), physical ids and
 * GetAtt attributes shaped like AWS's for a sample of types — every type the CDK bootstrap
 * template uses, with the bootstrap template's own properties — strict mode, and the registry's
 * stored / unrecognized answers.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from '../../helpers/fixture.js';
import { loadedProvider, loadProvider, realResourceTypes } from '../../../src/services/cloudformation/resources/registry.js';
import { storedReason } from '../../../src/services/cloudformation/resources/stored.js';
import { isKnownType } from '../../../src/services/cloudformation/spec/resource-types.js';
import type { ResolvedProperties } from '../../../src/services/cloudformation/resources/types.js';
import type { TestServer } from '../../helpers/server.js';
import { ACCOUNT, rejection, resourceContext } from './context.js';


function create(t: TestServer, type: string, logicalId: string, props: ResolvedProperties, opts: { strict?: boolean; stackName?: string } = {}) {
  const found = loadedProvider(type)!;
  expect(found.stored).toBe(true);
  return found.provider!.create(resourceContext(t, type, logicalId, opts), props);
}

const TRUST = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }] };

describe('registry', () => {
  it('says which types are real and which stored; the spec says which exist', async () => {
    expect(await loadProvider('AWS::SSM::Parameter')).toMatchObject({ stored: false });
    expect(await loadProvider('AWS::CDK::Metadata')).toMatchObject({ stored: false });
    const role = await loadProvider('AWS::IAM::Role');
    expect(role.stored).toBe(true);
    expect(role.provider.type).toBe('AWS::IAM::Role');
    expect(storedReason('AWS::IAM::Role')).toMatch(/stored, not run/);
    // Custom resources and Lambda run (custom-resource.test.ts, test/lambda/).
    expect(await loadProvider('Custom::Anything')).toMatchObject({ stored: false, provider: { type: 'AWS::CloudFormation::CustomResource' } });
    expect(await loadProvider('AWS::Lambda::Function')).toMatchObject({ stored: false });
    // Each provider module is imported on first use; the registry's key is the type it provides.
    for (const type of realResourceTypes()) expect((await loadProvider(type)).provider.type).toBe(type);
    expect(isKnownType('Custom::Anything')).toBe(true);
    expect(isKnownType('AWS::Nope::Thing')).toBe(false);
    expect(isKnownType('aws::iam::role')).toBe(false);
    expect(realResourceTypes().filter((type) => !isKnownType(type))).toEqual([]);
  });
});

describe('validation', () => {
  it('reports a missing required key and an extraneous key like CloudFormation', async ({ server: t }) => {
    const missing = await rejection(create(t, 'AWS::IAM::Role', 'MyRole', {}));
    expect(missing.message).toBe('Properties validation failed for resource MyRole with message: #: required key [AssumeRolePolicyDocument] not found');
    expect(missing.constructor.name).toBe('ResourceFailure');
    const extra = await rejection(create(t, 'AWS::IAM::Role', 'MyRole', { AssumeRolePolicyDocument: TRUST, RoleNme: 'typo' }));
    expect(extra.message).toBe('Properties validation failed for resource MyRole with message: #: extraneous key [RoleNme] is not permitted');
  });

  it('lists several violations in brackets', async ({ server: t }) => {
    const err = await rejection(create(t, 'AWS::SQS::QueuePolicy', 'Qp', {}));
    expect(err.message).toBe(
      'Properties validation failed for resource Qp with message: [#: required key [PolicyDocument] not found, #: required key [Queues] not found]',
    );
  });

  it('checks types, enums, nested definitions and tags, accepting scalars written as strings', async ({ server: t }) => {
    const type = await rejection(create(t, 'AWS::IAM::Role', 'R', { AssumeRolePolicyDocument: TRUST, MaxSessionDuration: 'an hour' }));
    expect(type.message).toMatch(/with message: #\/MaxSessionDuration: expected type: Integer, found: String$/);
    await expect(create(t, 'AWS::IAM::Role', 'R', { AssumeRolePolicyDocument: TRUST, MaxSessionDuration: '3600' })).resolves.toBeDefined();
    const list = await rejection(create(t, 'AWS::IAM::Role', 'R', { AssumeRolePolicyDocument: TRUST, ManagedPolicyArns: 'arn:x' }));
    expect(list.message).toMatch(/#\/ManagedPolicyArns: expected type: JSONArray, found: String$/);
    const nested = await rejection(
      create(t, 'AWS::IAM::Role', 'R', { AssumeRolePolicyDocument: TRUST, Policies: [{ PolicyName: 'p' }] }),
    );
    expect(nested.message).toMatch(/#\/Policies\/0: required key \[PolicyDocument\] not found$/);
    const tag = await rejection(create(t, 'AWS::IAM::Role', 'R', { AssumeRolePolicyDocument: TRUST, Tags: [{ Key: 'a' }] }));
    expect(tag.message).toMatch(/#\/Tags\/0: required key \[Value\] not found$/);
    const enumErr = await rejection(create(t, 'AWS::KMS::Key', 'Key', { KeyUsage: 'SOMETIMES' }));
    expect(enumErr.message).toMatch(/#\/KeyUsage: SOMETIMES is not a valid enum value$/);
    const object = await rejection(create(t, 'AWS::KMS::Alias', 'Alias', { AliasName: { Ref: 'x' }, TargetKeyId: 'k' }));
    expect(object.message).toMatch(/#\/AliasName: expected type: String, found: JSONObject$/);
  });

  it('requires ServiceToken on custom resources and accepts any other property', async ({ server: t }) => {
    const custom = (await loadProvider('Custom::Seed')).provider;
    const err = await rejection(custom.create(resourceContext(t, 'Custom::Seed', 'Seed'), { Rows: 3 }));
    expect(err.message).toBe('Properties validation failed for resource Seed with message: #: required key [ServiceToken] not found');
    // Any other property passes validation: the request goes to the function (which does not exist).
    const missing = await rejection(
      custom.create(resourceContext(t, 'Custom::Seed', 'Seed'), { ServiceToken: 'arn:aws:lambda:us-east-1:000000000000:function:f', Rows: 3 }),
    );
    expect(missing.message).toBe("The custom resource's function does not exist: Function not found: arn:aws:lambda:us-east-1:000000000000:function:f");
  });
});

describe('physical ids and attributes', () => {
  it('IAM roles: Ref is the name, Arn includes the path, RoleId is AROA…', async ({ server: t }) => {
    const named = await create(t, 'AWS::IAM::Role', 'DeployRole', {
      AssumeRolePolicyDocument: TRUST,
      RoleName: 'cdk-hnb659fds-deploy-role-000000000000-us-east-1',
      Path: '/cdk/',
    });
    expect(named.physicalId).toBe('cdk-hnb659fds-deploy-role-000000000000-us-east-1');
    expect(named.attributes.Arn).toBe(`arn:aws:iam::${ACCOUNT}:role/cdk/cdk-hnb659fds-deploy-role-000000000000-us-east-1`);
    expect(named.attributes.RoleId).toMatch(/^AROA[A-Z2-7]{17}$/);
    const generated = await create(t, 'AWS::IAM::Role', 'FunctionServiceRole3C357FF2', { AssumeRolePolicyDocument: TRUST }, { stackName: 'a-rather-long-stack-name-for-testing-limits' });
    expect(generated.physicalId.length).toBeLessThanOrEqual(64);
    expect(generated.physicalId).toMatch(/^a-rather-long-stack-name-FunctionServiceRole3C357F-[A-Z0-9]{13}$/);
    expect(generated.attributes.Arn).toBe(`arn:aws:iam::${ACCOUNT}:role/${generated.physicalId}`);
  });

  it('managed policies, KMS keys and aliases', async ({ server: t }) => {
    const policy = await create(t, 'AWS::IAM::ManagedPolicy', 'Boundary', {
      PolicyDocument: { Version: '2012-10-17', Statement: [] },
      ManagedPolicyName: 'cdk-hnb659fds-permissions-boundary-000000000000-us-east-1',
    });
    expect(policy.physicalId).toBe(`arn:aws:iam::${ACCOUNT}:policy/cdk-hnb659fds-permissions-boundary-000000000000-us-east-1`);
    expect(policy.attributes).toMatchObject({ PolicyArn: policy.physicalId, DefaultVersionId: 'v1', IsAttachable: true, AttachmentCount: 0 });
    expect(policy.attributes.PolicyId).toMatch(/^ANPA[A-Z2-7]{17}$/);

    const key = await create(t, 'AWS::KMS::Key', 'Key', { KeyPolicy: { Version: '2012-10-17', Statement: [] } });
    expect(key.physicalId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(key.attributes).toEqual({ KeyId: key.physicalId, Arn: `arn:aws:kms:us-east-1:${ACCOUNT}:key/${key.physicalId}` });
    const alias = await create(t, 'AWS::KMS::Alias', 'Alias', { AliasName: 'alias/cdk-hnb659fds-assets-key', TargetKeyId: key.physicalId });
    expect(alias.physicalId).toBe('alias/cdk-hnb659fds-assets-key');
  });

  it('queues, topics, log groups, tables and VPCs', async ({ server: t }) => {
    const queue = await create(t, 'AWS::SQS::Queue', 'Jobs', {}, { stackName: 'app' });
    const queueName = queue.attributes.QueueName as string;
    expect(queueName).toMatch(/^app-Jobs-[A-Z0-9]{13}$/);
    expect(queue.physicalId).toBe(`https://sqs.us-east-1.amazonaws.com/${ACCOUNT}/${queueName}`);
    expect(queue.attributes.Arn).toBe(`arn:aws:sqs:us-east-1:${ACCOUNT}:${queueName}`);
    const fifo = await create(t, 'AWS::SQS::Queue', 'Ordered', { FifoQueue: 'true' });
    expect(fifo.attributes.QueueName).toMatch(/\.fifo$/);

    const topic = await create(t, 'AWS::SNS::Topic', 'Alerts', { TopicName: 'alerts' });
    expect(topic.physicalId).toBe(`arn:aws:sns:us-east-1:${ACCOUNT}:alerts`);
    expect(topic.attributes).toEqual({ TopicArn: topic.physicalId, TopicName: 'alerts' });

    const logs = await create(t, 'AWS::Logs::LogGroup', 'Logs', { LogGroupName: '/app/logs' });
    expect(logs.physicalId).toBe('/app/logs');
    expect(logs.attributes.Arn).toBe(`arn:aws:logs:us-east-1:${ACCOUNT}:log-group:/app/logs:*`);

    const table = await create(t, 'AWS::DynamoDB::Table', 'Table', {
      TableName: 'items',
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
    });
    expect(table.attributes.Arn).toBe(`arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/items`);
    expect(table.attributes.StreamArn).toMatch(new RegExp(`^arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/items/stream/\\d{4}-`));

    const vpc = await create(t, 'AWS::EC2::VPC', 'Vpc', { CidrBlock: '10.0.0.0/16' });
    expect(vpc.physicalId).toMatch(/^vpc-0[0-9a-f]{16}$/);
    expect(vpc.attributes).toMatchObject({ VpcId: vpc.physicalId, CidrBlock: '10.0.0.0/16' });
    expect(vpc.attributes.DefaultSecurityGroup).toMatch(/^sg-0[0-9a-f]{16}$/);
  });

  it('keeps ids and generated attributes on update; mirrors changed properties', async ({ server: t }) => {
    const found = await loadProvider('AWS::SSM::Document');
    const rc = resourceContext(t, 'AWS::SSM::Document', 'Doc');
    const first = await found.provider!.create(rc, { Content: { schemaVersion: '2.2' }, DocumentType: 'Command' });
    const second = await found.provider!.update(rc, { Content: { schemaVersion: '2.2', x: 1 }, DocumentType: 'Command' }, {
      props: { Content: { schemaVersion: '2.2' }, DocumentType: 'Command' },
      state: first,
    });
    expect(second).toEqual(first);
    await found.provider!.delete(rc, {}, second);
  });
});

describe('strict mode', () => {
  it('refuses to store a resource but still deletes one', async ({ server: t }) => {
    const err = await rejection(create(t, 'AWS::SQS::Queue', 'Q', {}, { strict: true }));
    expect(err.message).toMatch(/^Resource type AWS::SQS::Queue is not emulated by Overcast and --strict-resources/);
    const found = await loadProvider('AWS::SQS::Queue');
    await expect(found.provider!.delete(resourceContext(t, 'AWS::SQS::Queue', 'Q', { strict: true }), {}, { physicalId: 'x', attributes: {} })).resolves.toBeUndefined();
  });
});

/** Replaces intrinsics with plain values so the bootstrap template's own properties can be validated. */
function flatten(v: unknown, lists: Set<string>): unknown {
  if (Array.isArray(v)) return v.map((x) => flatten(x, lists)).filter((x) => x !== undefined);
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 1) {
      const [k, arg] = entries[0]!;
      if (k === 'Ref') return arg === 'AWS::NoValue' ? undefined : lists.has(String(arg)) ? [`ref-${String(arg)}`] : `ref-${String(arg)}`;
      if (k === 'Fn::If') return flatten((arg as unknown[])[1], lists);
      if (k === 'Fn::Sub' || k === 'Fn::Join' || k === 'Fn::GetAtt') return 'resolved-value';
    }
    const out: Record<string, unknown> = {};
    for (const [k, item] of entries) {
      const f = flatten(item, lists);
      if (f !== undefined) out[k] = f;
    }
    return out;
  }
  return v;
}

describe('the CDK bootstrap template', () => {
  it('validates and stores every resource it declares that Overcast does not run', async ({ server: t }) => {
    const template = parse(readFileSync('node_modules/aws-cdk/lib/api/bootstrap/bootstrap-template.yaml', 'utf8')) as {
      Parameters: Record<string, { Type: string }>;
      Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
    };
    const lists = new Set(Object.entries(template.Parameters).filter(([, p]) => p.Type.includes('List')).map(([k]) => k));
    const seen: string[] = [];
    for (const [id, res] of Object.entries(template.Resources)) {
      if (!(await loadProvider(res.Type)).stored) continue;
      const props = flatten(res.Properties ?? {}, lists) as ResolvedProperties;
      const state = await create(t, res.Type, id, props, { stackName: 'CDKToolkit' });
      expect(state.physicalId, id).toBeTruthy();
      if (res.Type === 'AWS::IAM::Role') expect(state.attributes.Arn).toMatch(/^arn:aws:iam::000000000000:role\//);
      seen.push(res.Type);
    }
    expect(new Set(seen)).toEqual(
      new Set(['AWS::KMS::Key', 'AWS::KMS::Alias', 'AWS::IAM::Role', 'AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy']),
    );
  });
});
