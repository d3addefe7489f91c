/**
 * prepareTemplate end to end on the pure layer: conditions filtering resources and outputs,
 * Rules with the rule-only functions, Mappings, the dependency graph (edges from Ref, GetAtt,
 * Sub and DependsOn; stable order; cycles found once conditions are known), DeletionPolicy,
 * imports, and AWS::LanguageExtensions (ForEach nested, &{}, Length, ToJsonString, FindInMap
 * defaults, intrinsic policies).
 */
import { describe, expect, it } from 'vitest';
import {
  declaredExports,
  evaluateOutputs,
  prepareTemplate,
  resolveContext,
  resolveValue,
  type TemplateDoc,
} from '../../../src/services/cloudformation/template/index.js';
import { expectError, makeEnv, tableScope } from './helpers.js';

const env = makeEnv({ ssm: { '/cdk-bootstrap/hnb659fds/version': '21' }, exports: { 'net-vpc': 'vpc-1' } });

describe('conditions', () => {
  const doc: TemplateDoc = {
    Parameters: { Env: { Type: 'String', Default: 'dev', AllowedValues: ['dev', 'prod'] } },
    Conditions: {
      IsProd: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] },
      IsDev: { 'Fn::Not': [{ Condition: 'IsProd' }] },
      Both: { 'Fn::And': [{ Condition: 'IsDev' }, { 'Fn::Or': [{ 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] }, { Condition: 'IsProd' }] }] },
    },
    Resources: {
      Always: { Type: 'AWS::SQS::Queue' },
      ProdOnly: { Type: 'AWS::SQS::Queue', Condition: 'IsProd' },
      DevOnly: { Type: 'AWS::SQS::Queue', Condition: 'IsDev', Properties: { QueueName: { 'Fn::If': ['IsProd', { Ref: 'ProdOnly' }, 'dev'] } } },
    },
    Outputs: { P: { Value: { Ref: 'ProdOnly' }, Condition: 'IsProd' }, A: { Value: { Ref: 'Always' } } },
  };
  it('evaluates conditions and filters resources and outputs', () => {
    const p = prepareTemplate(doc, [], env);
    expect(p.conditions).toEqual({ IsProd: false, IsDev: true, Both: true });
    expect(Object.keys(p.resources)).toEqual(['Always', 'DevOnly']);
    expect(Object.keys(p.outputs)).toEqual(['A']);
    const prod = prepareTemplate(doc, [{ ParameterKey: 'Env', ParameterValue: 'prod' }], env);
    expect(Object.keys(prod.resources)).toEqual(['Always', 'ProdOnly']);
    expect(prod.declared).toEqual(['Always', 'ProdOnly', 'DevOnly']);
  });
  it('refuses live references to conditioned-out resources', () => {
    const bad: TemplateDoc = { ...doc, Resources: { ...doc.Resources, Uses: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { Ref: 'ProdOnly' } } } } };
    expectError(() => prepareTemplate(bad, [], env), 'Template format error: Unresolved resource dependencies [ProdOnly] in the Resources block of the template');
    const badOut: TemplateDoc = { ...doc, Outputs: { X: { Value: { 'Fn::GetAtt': ['ProdOnly', 'Arn'] } } } };
    expectError(() => prepareTemplate(badOut, [], env), 'Template format error: Unresolved resource dependencies [ProdOnly] in the Outputs block of the template');
  });
});

describe('rules', () => {
  const doc: TemplateDoc = {
    Parameters: {
      Env: { Type: 'String', Default: 'dev' },
      Size: { Type: 'String', Default: 'small' },
      Subnets: { Type: 'CommaDelimitedList', Default: 'a,b' },
      BootstrapVersion: { Type: 'AWS::SSM::Parameter::Value<String>', Default: '/cdk-bootstrap/hnb659fds/version' },
    },
    Rules: {
      ProdIsLarge: {
        RuleCondition: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] },
        Assertions: [{ Assert: { 'Fn::Equals': [{ Ref: 'Size' }, 'large'] }, AssertDescription: 'prod needs large' }],
      },
      CheckBootstrapVersion: {
        Assertions: [
          {
            Assert: { 'Fn::Not': [{ 'Fn::Contains': [['1', '2', '3', '4', '5'], { Ref: 'BootstrapVersion' }] }] },
            AssertDescription: "CDK bootstrap stack version 6 required. Please run 'cdk bootstrap' with a recent version of the CDK CLI.",
          },
        ],
      },
      Members: {
        Assertions: [
          { Assert: { 'Fn::EachMemberIn': [{ Ref: 'Subnets' }, ['a', 'b', 'c']] }, AssertDescription: 'subnets a-c' },
          { Assert: { 'Fn::Not': [{ 'Fn::EachMemberEquals': [{ Ref: 'Subnets' }, 'z'] }] } },
          { Assert: { 'Fn::Equals': [{ 'Fn::RefAll': 'AWS::EC2::VPC::Id' }, []] }, AssertDescription: 'no VPCs known' },
          { Assert: { 'Fn::Equals': [{ 'Fn::ValueOfAll': ['AWS::EC2::VPC::Id', 'Tags.Name'] }, []] } },
        ],
      },
    },
    Resources: { Q: { Type: 'AWS::SQS::Queue' } },
  };
  it('passes when assertions hold and skips rules whose condition is false', () => {
    expect(Object.keys(prepareTemplate(doc, [], env).resources)).toEqual(['Q']);
  });
  it('refuses with the AssertDescription', () => {
    expectError(() => prepareTemplate(doc, [{ ParameterKey: 'Env', ParameterValue: 'prod' }], env), 'prod needs large');
    expectError(() => prepareTemplate(doc, [{ ParameterKey: 'Subnets', ParameterValue: 'a,d' }], env), 'subnets a-c');
    expectError(
      () => prepareTemplate(doc, [], makeEnv({ ssm: { '/cdk-bootstrap/hnb659fds/version': '5' } })),
      "CDK bootstrap stack version 6 required. Please run 'cdk bootstrap' with a recent version of the CDK CLI.",
    );
    expectError(() => prepareTemplate(doc, [{ ParameterKey: 'Subnets', ParameterValue: 'z' }], env), /^subnets a-c$|^Assertion failed for rule Members$/);
  });
});

describe('graph', () => {
  const doc: TemplateDoc = {
    Conditions: { No: { 'Fn::Equals': ['a', 'b'] } },
    Resources: {
      D: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::Sub': '${C}-${B.Arn}-${!A}' } } },
      C: { Type: 'AWS::SQS::Queue', DependsOn: 'A' },
      B: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::GetAtt': 'A.QueueName' } } },
      A: { Type: 'AWS::SQS::Queue' },
      E: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::Sub': ['${X}', { X: { Ref: 'D' } }] }, RedrivePolicy: { 'Fn::If': ['No', { Ref: 'F' }, { Ref: 'AWS::NoValue' }] } } },
      F: { Type: 'AWS::SQS::Queue' },
    },
  };
  it('orders dependencies first and keeps template order among independent resources', () => {
    const p = prepareTemplate(doc, [], env);
    expect(p.order).toEqual(['A', 'C', 'B', 'D', 'E', 'F']);
    expect(p.resources.D!.dependsOn.sort()).toEqual(['B', 'C']);
    expect(p.resources.C!.dependsOn).toEqual(['A']);
    expect(p.resources.E!.dependsOn).toEqual(['D']);
  });
  it('finds cycles through live Fn::If branches only', () => {
    const cyc: TemplateDoc = {
      Conditions: { Yes: { 'Fn::Equals': ['a', 'a'] } },
      Resources: {
        A: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::If': ['Yes', { Ref: 'B' }, 'x'] } } },
        B: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::If': ['Yes', { Ref: 'A' }, 'x'] } } },
        C: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { Ref: 'A' } } },
      },
    };
    expectError(() => prepareTemplate(cyc, [], env), 'Circular dependency between resources: [A, B]');
  });
  it('orders 500 resources in a chain quickly', () => {
    const Resources: TemplateDoc['Resources'] = {};
    for (let i = 499; i >= 0; i--) Resources[`R${i}`] = { Type: 'AWS::SQS::Queue', ...(i > 0 ? { DependsOn: `R${i - 1}` } : {}) };
    const t = Date.now();
    const p = prepareTemplate({ Resources }, [], env);
    expect(p.order[0]).toBe('R0');
    expect(p.order[499]).toBe('R499');
    expect(Date.now() - t).toBeLessThan(1000);
  });
});

describe('mappings, policies, imports, outputs', () => {
  const doc: TemplateDoc = {
    Parameters: { Env: { Type: 'String', Default: 'prod' } },
    Mappings: { Env: { prod: { Retention: 'Retain', Size: 3 }, dev: { Retention: 'Delete', Size: 1 } } },
    Resources: {
      Bucket: { Type: 'AWS::S3::Bucket', DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Snapshot' },
      Db: { Type: 'AWS::RDS::DBCluster', Properties: { Engine: 'aurora-postgresql' } },
      Q: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::ImportValue': { 'Fn::Sub': 'net-${AWS::Region}' } }, DelaySeconds: { 'Fn::FindInMap': ['Env', { Ref: 'Env' }, 'Size'] } } },
      R: { Type: 'AWS::SQS::Queue', Properties: { QueueName: { 'Fn::ImportValue': 'net-vpc' } } },
    },
    Outputs: {
      Name: { Value: { Ref: 'Bucket' }, Description: 'the bucket', Export: { Name: { 'Fn::Sub': '${AWS::StackName}-bucket' } } },
      Arn: { Value: { 'Fn::GetAtt': ['Bucket', 'Arn'] } },
      Count: { Value: { 'Fn::FindInMap': ['Env', 'prod', 'Size'] } },
      Zones: { Value: { 'Fn::GetAZs': '' } },
    },
  };
  it('resolves policies with AWS defaults and lists imports', () => {
    const p = prepareTemplate(doc, [], env);
    expect(p.resources.Bucket).toMatchObject({ deletionPolicy: 'Retain', updateReplacePolicy: 'Snapshot' });
    expect(p.resources.Db).toMatchObject({ deletionPolicy: 'Snapshot', updateReplacePolicy: 'Delete' });
    expect(p.resources.Q!.deletionPolicy).toBe('Delete');
    expect(p.imports).toEqual(['net-us-east-1', 'net-vpc']);
    const ctx = resolveContext(p, env);
    expect(resolveValue(p.resources.Q!.properties.DelaySeconds, tableScope(), ctx)).toBe(3);
  });
  it('evaluates outputs: strings only, exports, descriptions', () => {
    const p = prepareTemplate(doc, [], env);
    expectError(() => evaluateOutputs(p, tableScope(), env), 'Template format error: The Value field of every Outputs member must evaluate to a String and not a List.');
    const ok = prepareTemplate({ ...doc, Outputs: { ...doc.Outputs, Zones: { Value: { 'Fn::Join': [',', { 'Fn::GetAZs': '' }] } } } }, [], env);
    expect(evaluateOutputs(ok, tableScope(), resolveContext(ok, env))).toEqual([
      { key: 'Name', value: 'Bucket-id', description: 'the bucket', exportName: 'demo-bucket' },
      { key: 'Arn', value: 'Bucket.Arn-value' },
      { key: 'Count', value: '3' },
      { key: 'Zones', value: 'us-east-1a,us-east-1b,us-east-1c' },
    ]);
    expect(declaredExports(ok, env)).toEqual([{ key: 'Name', name: 'demo-bucket' }]);
  });
});

describe('AWS::LanguageExtensions', () => {
  const doc = {
    Transform: 'AWS::LanguageExtensions',
    Parameters: {
      Names: { Type: 'CommaDelimitedList', Default: 'alpha,beta' },
      Stage: { Type: 'String', Default: 'prod' },
    },
    Mappings: { Policy: { prod: { Deletion: 'Retain' } } },
    Conditions: {
      'Fn::ForEach::Conds': ['N', { Ref: 'Names' }, { 'Is${N}': { 'Fn::Equals': [{ Ref: 'Stage' }, '${N}'] } }],
      IsProd: { 'Fn::Equals': [{ Ref: 'Stage' }, 'prod'] },
    },
    Resources: {
      'Fn::ForEach::Queues': [
        'Name',
        { Ref: 'Names' },
        {
          'Queue${Name}': {
            Type: 'AWS::SQS::Queue',
            DeletionPolicy: { 'Fn::FindInMap': ['Policy', { Ref: 'Stage' }, 'Deletion', { DefaultValue: 'Delete' }] },
            Properties: {
              QueueName: { 'Fn::Sub': '${Name}-queue' },
              Tags: [{ Key: 'name', Value: { Ref: 'Name' } }],
            },
          },
          'Fn::ForEach::Topics': ['Kind', ['a.b', 'c-d'], { 'Topic${Name}&{Kind}': { Type: 'AWS::SNS::Topic', Properties: { TopicName: { 'Fn::Sub': '${Name}-${Kind}' } } } }],
        },
      ],
      Policy: {
        Type: 'AWS::SQS::QueuePolicy',
        UpdateReplacePolicy: { 'Fn::If': ['IsProd', 'Retain', 'Delete'] },
        Properties: {
          Queues: [{ Ref: 'Queuealpha' }],
          PolicyDocument: { 'Fn::ToJsonString': { Count: { 'Fn::Length': { Ref: 'Names' } } } },
          'Fn::ForEach::Props': ['P', ['One', 'Two'], { 'Extra${P}': '${P}' }],
        },
      },
    },
    Outputs: {
      'Fn::ForEach::Outs': ['Name', { Ref: 'Names' }, { 'Out${Name}': { Value: { 'Fn::GetAtt': [{ 'Fn::Sub': 'Queue${Name}' }, 'Arn'] } } }],
    },
  } as unknown as TemplateDoc;
  it('expands loops (nested, &{} keys) and folds what is known before provisioning', () => {
    const p = prepareTemplate(doc, [], env);
    expect(p.processed.Transform).toBeUndefined();
    expect(Object.keys(p.processed.Resources)).toEqual(['Queuealpha', 'Topicalphaab', 'Topicalphacd', 'Queuebeta', 'Topicbetaab', 'Topicbetacd', 'Policy']);
    expect(p.processed.Resources.Topicalphaab!.Properties).toEqual({ TopicName: { 'Fn::Sub': 'alpha-a.b' } });
    expect(p.processed.Resources.Queuebeta!.Properties!.Tags).toEqual([{ Key: 'name', Value: 'beta' }]);
    expect(p.processed.Resources.Queuealpha!.DeletionPolicy).toBe('Retain');
    expect(p.processed.Resources.Policy!.Properties!.PolicyDocument).toBe('{"Count":2}');
    expect(p.processed.Resources.Policy!.Properties!.ExtraTwo).toBe('Two');
    expect(Object.keys(p.processed.Conditions!)).toEqual(['Isalpha', 'Isbeta', 'IsProd']);
    expect(p.processed.Outputs!.Outbeta!.Value).toEqual({ 'Fn::GetAtt': ['Queuebeta', 'Arn'] });
    expect(p.resources.Queuealpha!.deletionPolicy).toBe('Retain');
    expect(p.resources.Policy!.updateReplacePolicy).toBe('Retain');
    expect(p.resources.Policy!.dependsOn).toEqual(['Queuealpha']);
    expect(p.order.indexOf('Queuealpha')).toBeLessThan(p.order.indexOf('Policy'));
    // The original document is untouched.
    expect(Object.keys(doc.Resources)).toEqual(['Fn::ForEach::Queues', 'Policy']);
  });
  it('follows parameter values given to the operation', () => {
    const p = prepareTemplate(doc, [{ ParameterKey: 'Names', ParameterValue: 'alpha' }, { ParameterKey: 'Stage', ParameterValue: 'dev' }], env);
    expect(Object.keys(p.resources)).toEqual(['Queuealpha', 'Topicalphaab', 'Topicalphacd', 'Policy']);
    expect(p.resources.Queuealpha!.deletionPolicy).toBe('Delete');
    expect(p.resources.Policy!.updateReplacePolicy).toBe('Delete');
    expect(p.conditions).toEqual({ Isalpha: false, IsProd: false });
  });
  it('bounds what loops may generate', () => {
    const items = Array.from({ length: 200 }, (_, i) => `i${i}`);
    const bomb = { Transform: 'AWS::LanguageExtensions', Resources: { 'Fn::ForEach::A': ['X', items, { 'Fn::ForEach::B': ['Y', items, { 'Q${X}${Y}': { Type: 'AWS::SQS::Queue' } }] }] } } as unknown as TemplateDoc;
    const t = Date.now();
    expectError(() => prepareTemplate(bomb, [], env), 'Template format error: Fn::ForEach loops generate more than 10000 keys');
    expect(Date.now() - t).toBeLessThan(2000);
  });
  it('refuses ForEach without the transform and malformed loops', () => {
    const { Transform: _t, ...plain } = doc;
    expectError(() => prepareTemplate({ ...plain, Conditions: { IsProd: { 'Fn::Equals': ['a', 'a'] } }, Outputs: {} }, [], env), /^Template format error: Resource name Fn::ForEach::Queues is non alphanumeric\.$/);
    expectError(
      () => prepareTemplate({ Transform: 'AWS::LanguageExtensions', Resources: { 'Fn::ForEach::X': ['N', ['a'], { Static: { Type: 'AWS::SQS::Queue' } }] } } as unknown as TemplateDoc, [], env),
      'Template format error: Fn::ForEach::X: the key Static must contain ${N} or &{N}',
    );
    expectError(
      () => prepareTemplate({ Transform: 'AWS::LanguageExtensions', Resources: { 'Fn::ForEach::X': ['N', ['a', 'a'], { 'Q${N}': { Type: 'AWS::SQS::Queue' } }] } } as unknown as TemplateDoc, [], env),
      'Template format error: Fn::ForEach::X generates the duplicate key Qa',
    );
  });
});
