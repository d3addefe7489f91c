/**
 * CloudFormation's template quotas through the SDK: 500 resources, 200 parameters, outputs and
 * mappings, 200 attributes a mapping, 255-character names, a 1,024-byte description — each at
 * the limit accepted, one past it refused by ValidateTemplate and CreateStack with AWS's
 * template-format error and no stack left behind; 60 dynamic references a template; a 4,096-byte
 * parameter value; a 5,000-resource template from S3 too; a template holding a list of 400,000
 * values deployed (no 500); and Fn::Equals given a list, refused as AWS refuses it.
 */
import { CreateStackCommand, DescribeStackResourcesCommand, DescribeStacksCommand, ValidateTemplateCommand } from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { failure } from '../../helpers/errors.js';
import { describe, expect, it } from '../../helpers/fixture.js';

const HANDLE = { Type: 'AWS::CloudFormation::WaitConditionHandle' };
const many = <T>(n: number, prefix: string, value: (i: number) => T) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, value(i)]));

function template(over: {
  resources?: number;
  parameters?: number;
  outputs?: number;
  mappings?: number;
  attributes?: number;
  name?: string;
  dynamicReferences?: number;
}) {
  return JSON.stringify({
    ...(over.dynamicReferences ? { Metadata: { Refs: Array.from({ length: over.dynamicReferences }, (_, i) => `{{resolve:ssm:/p/${i}}}`) } } : {}),
    ...(over.parameters ? { Parameters: many(over.parameters, 'P', () => ({ Type: 'String', Default: 'x' })) } : {}),
    ...(over.mappings || over.attributes ? { Mappings: many(over.mappings ?? 1, 'M', () => ({ K: many(over.attributes ?? 1, 'A', () => 'v') })) } : {}),
    Resources: { ...many(over.resources ?? 1, 'R', () => HANDLE), ...(over.name ? { [over.name]: HANDLE } : {}) },
    ...(over.outputs ? { Outputs: many(over.outputs, 'O', () => ({ Value: 'v' })) } : {}),
  });
}

const cases: [string, Parameters<typeof template>[0], Parameters<typeof template>[0], string][] = [
  ['resources', { resources: 500 }, { resources: 501 }, 'Template format error: Number of resources, 501, is greater than maximum allowed, 500'],
  ['parameters', { parameters: 200 }, { parameters: 201 }, 'Template format error: Parameter count 201 is greater than max allowed 200'],
  ['outputs', { outputs: 200 }, { outputs: 201 }, 'Template format error: Outputs count 201 is greater than max allowed 200'],
  ['mappings', { mappings: 200 }, { mappings: 201 }, 'Template format error: Mappings count 201 is greater than max allowed 200'],
  ['mapping attributes', { attributes: 200 }, { attributes: 201 }, 'Template format error: Mapping M0 attributes count 201 is greater than max allowed 200'],
  [
    'dynamic references',
    { dynamicReferences: 60 },
    { dynamicReferences: 61 },
    'Template format error: Number of dynamic references, 61, is greater than maximum allowed, 60',
  ],
  [
    'logical id length',
    { name: `N${'x'.repeat(254)}` },
    { name: `N${'x'.repeat(255)}` },
    `Template format error: Resource name N${'x'.repeat(255)} exceeds the maximum length of 255 characters.`,
  ],
];

describe('template quotas', () => {
  it.for(cases)('%s: at the limit accepted, past it refused by ValidateTemplate and CreateStack', async ([what, atLimit, past, message], { cloudformation: cfn }) => {
    await cfn.send(new ValidateTemplateCommand({ TemplateBody: template(atLimit) }));
    const validate = await failure(cfn.send(new ValidateTemplateCommand({ TemplateBody: template(past) })));
    expect([validate.status, validate.name, validate.message]).toEqual([400, 'ValidationError', message]);
    const stackName = `limit-${what.replace(/ /g, '-')}`;
    const create = await failure(cfn.send(new CreateStackCommand({ StackName: stackName, TemplateBody: template(past) })));
    expect([create.name, create.message]).toEqual(['ValidationError', message]);
    const gone = await failure(cfn.send(new DescribeStacksCommand({ StackName: stackName })));
    expect(gone.message).toBe(`Stack with id ${stackName} does not exist`);
  });

  it('a parameter value: 4,096 bytes accepted, one byte more refused by CreateStack with no stack left', async ({ cloudformation: cfn }) => {
    const body = JSON.stringify({ Parameters: { P: { Type: 'String' } }, Resources: { R: HANDLE } });
    // Bytes, not characters: 2,000 two-byte characters and the rest ASCII.
    const value = (bytes: number) => 'é'.repeat(2000) + 'a'.repeat(bytes - 4000);
    expect(Buffer.byteLength(value(4096))).toBe(4096);
    await cfn.send(new CreateStackCommand({ StackName: 'value-4096', TemplateBody: body, Parameters: [{ ParameterKey: 'P', ParameterValue: value(4096) }] }));
    const created = (await cfn.send(new DescribeStacksCommand({ StackName: 'value-4096' }))).Stacks![0]!;
    expect(created.StackStatus).toBe('CREATE_COMPLETE');
    expect(created.Parameters).toEqual([{ ParameterKey: 'P', ParameterValue: value(4096) }]);
    const big = value(4097);
    expect(Buffer.byteLength(big)).toBe(4097);
    const res = await failure(cfn.send(new CreateStackCommand({ StackName: 'value-4097', TemplateBody: body, Parameters: [{ ParameterKey: 'P', ParameterValue: big }] })));
    expect([res.status, res.name, res.message]).toEqual([400, 'ValidationError', "Parameter 'P' value is 4097 bytes, greater than the maximum allowed, 4096"]);
    expect((await failure(cfn.send(new DescribeStacksCommand({ StackName: 'value-4097' })))).message).toBe('Stack with id value-4097 does not exist');
  });

  it('descriptions: a parameter 4,000 characters, an output 1,024 bytes; one more refused by ValidateTemplate', async ({ cloudformation: cfn }) => {
    const doc = (parameter: string, output: string) =>
      JSON.stringify({ Parameters: { P: { Type: 'String', Description: parameter } }, Resources: { R: HANDLE }, Outputs: { O: { Value: 'v', Description: output } } });
    await cfn.send(new ValidateTemplateCommand({ TemplateBody: doc('d'.repeat(4000), 'é'.repeat(512)) }));
    const parameter = await failure(cfn.send(new ValidateTemplateCommand({ TemplateBody: doc('d'.repeat(4001), 'o') })));
    expect(parameter.message).toBe("Template format error: 'Description' length is greater than 4000.");
    const output = await failure(cfn.send(new ValidateTemplateCommand({ TemplateBody: doc('p', `${'é'.repeat(512)}a`) })));
    expect(output.message).toBe("Template format error: 'Description' length is greater than 1024.");
  });

  it("the request's tags and stack policy: the model's lengths, in Coral's words, and no stack created", async ({ cloudformation: cfn }) => {
    const body = JSON.stringify({ Resources: { R: HANDLE } });
    const create = (name: string, extra: Partial<ConstructorParameters<typeof CreateStackCommand>[0]>) =>
      failure(cfn.send(new CreateStackCommand({ StackName: name, TemplateBody: body, ...extra })));
    const key = 'k'.repeat(129);
    expect((await create('tag-key', { Tags: [{ Key: 'ok', Value: 'v' }, { Key: key, Value: 'v' }] })).message).toBe(
      `1 validation error detected: Value '${key}' at 'tags.2.member.key' failed to satisfy constraint: Member must have length less than or equal to 128`,
    );
    const value = 'v'.repeat(257);
    expect((await create('tag-value', { Tags: [{ Key: 'k', Value: value }] })).message).toBe(
      `1 validation error detected: Value '${value}' at 'tags.1.member.value' failed to satisfy constraint: Member must have length less than or equal to 256`,
    );
    const policy = JSON.stringify({ Statement: [{ Effect: 'Allow', Action: 'Update:*', Principal: '*', Resource: '*', Sid: 's'.repeat(16_384) }] });
    expect((await create('policy', { StackPolicyBody: policy })).message).toBe(
      `1 validation error detected: Value '${policy}' at 'stackPolicyBody' failed to satisfy constraint: Member must have length less than or equal to 16384`,
    );
    for (const name of ['tag-key', 'tag-value', 'policy']) {
      expect((await failure(cfn.send(new DescribeStacksCommand({ StackName: name })))).message).toBe(`Stack with id ${name} does not exist`);
    }
    await cfn.send(new CreateStackCommand({ StackName: 'tags-at-limit', TemplateBody: body, Tags: [{ Key: 'k'.repeat(128), Value: 'v'.repeat(256) }] }));
    const tagged = (await cfn.send(new DescribeStacksCommand({ StackName: 'tags-at-limit' }))).Stacks![0]!;
    expect([tagged.StackStatus, tagged.Tags]).toEqual(['CREATE_COMPLETE', [{ Key: 'k'.repeat(128), Value: 'v'.repeat(256) }]]);
  });

  it('Fn::Equals compares two strings: a list (a CommaDelimitedList parameter) is refused as AWS refuses it', async ({ cloudformation: cfn }) => {
    const body = JSON.stringify({
      Parameters: { Environments: { Type: 'CommaDelimitedList', Default: 'dev,test' } },
      Conditions: { Tagged: { 'Fn::Not': [{ 'Fn::Equals': [{ Ref: 'Environments' }, ''] }] } },
      Resources: { R: { ...HANDLE, Condition: 'Tagged' } },
    });
    const message = 'Template error: every Fn::Equals object requires a list of 2 string parameters.';
    expect((await failure(cfn.send(new CreateStackCommand({ StackName: 'equals-list', TemplateBody: body })))).message).toBe(message);
    expect((await failure(cfn.send(new DescribeStacksCommand({ StackName: 'equals-list' })))).name).toBe('ValidationError');
    const joined = body.replace('{"Ref":"Environments"}', '{"Fn::Join":[",",{"Ref":"Environments"}]}');
    await cfn.send(new CreateStackCommand({ StackName: 'equals-joined', TemplateBody: joined }));
    // dev,test joined is not empty: the condition holds and the resource exists.
    const joinedStack = await cfn.send(new DescribeStackResourcesCommand({ StackName: 'equals-joined' }));
    expect(joinedStack.StackResources?.map((r) => [r.LogicalResourceId, r.ResourceStatus])).toEqual([['R', 'CREATE_COMPLETE']]);
  });

  it('a 5,000-resource template from S3 is refused the same way; a description over 1,024 bytes too', async ({ cloudformation: cfn, s3, server }) => {
    await s3.send(new CreateBucketCommand({ Bucket: 'templates' }));
    await s3.send(new PutObjectCommand({ Bucket: 'templates', Key: 'big.json', Body: template({ resources: 5000 }) }));
    const res = await failure(cfn.send(new ValidateTemplateCommand({ TemplateURL: `${server.endpoint}/templates/big.json` })));
    expect(res.message).toBe('Template format error: Number of resources, 5000, is greater than maximum allowed, 500');
    const description = JSON.stringify({ Description: 'd'.repeat(1025), Resources: { R: HANDLE } });
    expect((await failure(cfn.send(new ValidateTemplateCommand({ TemplateBody: description })))).message).toBe(
      "Template format error: 'Description' length is greater than 1024.",
    );
  });

  it('a template from S3 holding a list of 400,000 values is validated and deployed, not answered with a 500', async ({ cloudformation: cfn, s3, server }) => {
    // Passed to push() as arguments, a list this long overflowed the call stack.
    const body = JSON.stringify({
      Metadata: { Values: new Array(400_000).fill(0) },
      Resources: { R: { ...HANDLE, Metadata: { Values: new Array(50_000).fill(1) } } },
    });
    expect(body.length).toBeLessThan(1_048_576); // TemplateURL's limit
    await s3.send(new CreateBucketCommand({ Bucket: 'long-lists' }));
    await s3.send(new PutObjectCommand({ Bucket: 'long-lists', Key: 't.json', Body: body }));
    const TemplateURL = `${server.endpoint}/long-lists/t.json`;
    await cfn.send(new ValidateTemplateCommand({ TemplateURL }));
    await cfn.send(new CreateStackCommand({ StackName: 'long-lists', TemplateURL }));
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'long-lists' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
  });
});
