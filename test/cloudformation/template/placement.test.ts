/**
 * Where intrinsic functions may stand, through the SDK against one server: each bad template is
 * refused by ValidateTemplate and by CreateStack with the same ValidationError in AWS's words,
 * and leaves no stack; the same functions where AWS allows them are accepted. Covers
 * Fn::ImportValue in Conditions and with an attribute that needs a resource, an import or the
 * Availability Zones; Fn::Equals on a list parameter; Fn::If's condition argument and unknown
 * conditions; Ref to a condition or a missing name; malformed Fn::GetAtt; Export names;
 * a Condition key holding a function; DependsOn values.
 */
import { CreateStackCommand, DescribeStackResourcesCommand, DescribeStacksCommand, ValidateTemplateCommand } from '@aws-sdk/client-cloudformation';
import { failure } from '../../helpers/errors.js';
import { describe, expect, it } from '../../helpers/fixture.js';

const HANDLE = { Type: 'AWS::CloudFormation::WaitConditionHandle' };
const PARAMETERS = {
  Env: { Type: 'String', Default: 'prod' },
  Zones: { Type: 'CommaDelimitedList', Default: 'a,b' },
};
const CONDITIONS = { IsProd: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] } };

/** A template with the parameters and condition above, resource `Other`, and `extra` merged in. */
function template(extra: { resources?: Record<string, unknown>; conditions?: Record<string, unknown>; outputs?: Record<string, unknown> }) {
  return JSON.stringify({
    Parameters: PARAMETERS,
    Conditions: { ...CONDITIONS, ...extra.conditions },
    Resources: { Other: HANDLE, ...extra.resources },
    ...(extra.outputs ? { Outputs: extra.outputs } : {}),
  });
}

/** A topic whose DisplayName is `value`. */
const topic = (value: unknown) => ({ resources: { T: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: value } } } });

const IMPORT_DEPENDS =
  'Template error: the attribute in Fn::ImportValue must not depend on any resources, imported values, or Fn::GetAZs';
const UNRESOLVED = (name: string, block: string) =>
  `Template format error: Unresolved resource dependencies [${name}] in the ${block} block of the template`;

const refused: [string, string, string][] = [
  [
    'Fn::ImportValue in a condition',
    template({ conditions: { Shared: { 'Fn::Equals': [{ 'Fn::ImportValue': 'shared-env' }, 'prod'] } } }),
    'Template error: Cannot use Fn::ImportValue in Conditions.',
  ],
  [
    'Fn::ImportValue deep in a condition',
    template({ conditions: { Shared: { 'Fn::Not': [{ 'Fn::Equals': [{ 'Fn::Join': ['', [{ 'Fn::ImportValue': 'x' }]] }, 'a'] }] } } }),
    'Template error: Cannot use Fn::ImportValue in Conditions.',
  ],
  [
    'Fn::Equals on a CommaDelimitedList parameter',
    template({ conditions: { Tagged: { 'Fn::Not': [{ 'Fn::Equals': [{ Ref: 'Zones' }, ''] }] } } }),
    'Template error: every Fn::Equals object requires a list of 2 string parameters.',
  ],
  ['Fn::ImportValue of a resource', template(topic({ 'Fn::ImportValue': { Ref: 'Other' } })), IMPORT_DEPENDS],
  ['Fn::ImportValue of an attribute', template(topic({ 'Fn::ImportValue': { 'Fn::GetAtt': ['Other', 'Id'] } })), IMPORT_DEPENDS],
  ['Fn::ImportValue of an import', template(topic({ 'Fn::ImportValue': { 'Fn::ImportValue': 'name' } })), IMPORT_DEPENDS],
  [
    'Fn::ImportValue of the Availability Zones',
    template(topic({ 'Fn::ImportValue': { 'Fn::Select': [0, { 'Fn::GetAZs': '' }] } })),
    IMPORT_DEPENDS,
  ],
  ['Fn::ImportValue of a Sub naming a resource', template(topic({ 'Fn::ImportValue': { 'Fn::Sub': '${Other}-name' } })), IMPORT_DEPENDS],
  ['Fn::ImportValue of a misspelt parameter', template(topic({ 'Fn::ImportValue': { 'Fn::Sub': '${Evn}-name' } })), IMPORT_DEPENDS],
  [
    "Fn::If's condition given as a function",
    template(topic({ 'Fn::If': [{ 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] }, 'a', 'b'] })),
    'Template error: Fn::If requires a list argument with the first element being a condition',
  ],
  [
    "Fn::If's condition given as a Condition function",
    template(topic({ 'Fn::If': [{ Condition: 'IsProd' }, 'a', 'b'] })),
    'Template error: Fn::If requires a list argument with the first element being a condition',
  ],
  ['Fn::If naming an unknown condition', template(topic({ 'Fn::If': ['IsDev', 'a', 'b'] })), 'Template error: unresolved condition dependency IsDev in Fn::If'],
  ['Ref to a condition', template(topic({ Ref: 'IsProd' })), UNRESOLVED('IsProd', 'Resources')],
  ['Ref to a missing name in Outputs', template({ outputs: { O: { Value: { Ref: 'Nope' } } } }), UNRESOLVED('Nope', 'Outputs')],
  [
    'Fn::GetAtt with one element',
    template(topic({ 'Fn::GetAtt': ['Other'] })),
    'Template error: every Fn::GetAtt object requires two non-empty parameters, the resource name and the resource attribute',
  ],
  [
    'Fn::GetAtt without an attribute',
    template(topic({ 'Fn::GetAtt': 'Other' })),
    'Template error: every Fn::GetAtt object requires two non-empty parameters, the resource name and the resource attribute',
  ],
  [
    'an Export name from a resource',
    template({ outputs: { O: { Value: 'v', Export: { Name: { 'Fn::Sub': '${Other}-out' } } } } }),
    'Template format error: Output O is malformed.  The Name field of Export must not depend on any resources, imported values, or Fn::GetAZs.',
  ],
  [
    "a resource's Condition given as a condition function",
    template({ resources: { T: { ...HANDLE, Condition: { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] } } } }),
    'Template format error: Every Condition member must be a string.',
  ],
  [
    "an output's Condition given as a Condition function",
    template({ outputs: { O: { Value: 'v', Condition: { Condition: 'IsProd' } } } }),
    'Template format error: Every Condition member must be a string.',
  ],
  [
    'a DependsOn value that is a function',
    template({ resources: { T: { ...HANDLE, DependsOn: [{ Ref: 'Other' }] } } }),
    'Template format error: Every DependsOn value must be a string.',
  ],
];

describe('intrinsic functions where AWS refuses them', () => {
  it.for(refused.map(([what, body, message], i) => [what, body, message, i] as const))(
    '%s: ValidateTemplate and CreateStack refuse it, no stack is left',
    async ([, body, message, i], { cloudformation: cfn }) => {
      const validate = await failure(cfn.send(new ValidateTemplateCommand({ TemplateBody: body })));
      expect([validate.status, validate.name, validate.message]).toEqual([400, 'ValidationError', message]);
      const stackName = `placement-${i}`;
      const create = await failure(cfn.send(new CreateStackCommand({ StackName: stackName, TemplateBody: body })));
      expect([create.status, create.name, create.message]).toEqual([400, 'ValidationError', message]);
      const gone = await failure(cfn.send(new DescribeStacksCommand({ StackName: stackName })));
      expect(gone.message).toBe(`Stack with id ${stackName} does not exist`);
    },
  );
});

describe('the same functions where AWS allows them', () => {
  it('accepts imports named from parameters and pseudo parameters, lists joined for Fn::Equals, Fn::If on a declared condition', async ({ cloudformation: cfn }) => {
    const body = template({
      conditions: {
        Tagged: { 'Fn::Not': [{ 'Fn::Equals': [{ 'Fn::Join': [',', { Ref: 'Zones' }] }, ''] }] },
        Both: { 'Fn::And': [{ Condition: 'IsProd' }, { Condition: 'Tagged' }] },
      },
      resources: {
        T: {
          Type: 'AWS::SNS::Topic',
          Condition: 'Both',
          Properties: {
            DisplayName: { 'Fn::If': ['IsProd', { 'Fn::ImportValue': { 'Fn::Sub': '${Env}-${AWS::Region}-name' } }, 'b'] },
            TopicName: { 'Fn::ImportValue': { 'Fn::Join': ['-', [{ Ref: 'AWS::StackName' }, { Ref: 'Env' }]] } },
          },
        },
      },
      outputs: { O: { Value: { Ref: 'Other' }, Export: { Name: { 'Fn::Sub': '${AWS::StackName}-${Env}' } } } },
    });
    const res = await cfn.send(new ValidateTemplateCommand({ TemplateBody: body }));
    expect(res.Parameters?.map((p) => p.ParameterKey)).toEqual(['Env', 'Zones']);
  });

  it('creates a stack whose condition compares a joined list and whose export name uses a parameter', async ({ cloudformation: cfn }) => {
    const body = template({
      conditions: { Tagged: { 'Fn::Equals': [{ 'Fn::Join': [',', { Ref: 'Zones' }] }, 'a,b'] } },
      resources: { H: { ...HANDLE, Condition: 'Tagged' } },
      outputs: { O: { Value: 'v', Export: { Name: { 'Fn::Sub': '${AWS::StackName}-${Env}' } } } },
    });
    await cfn.send(new CreateStackCommand({ StackName: 'placement-ok', TemplateBody: body }));
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'placement-ok' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    expect(stack.Outputs?.map((o) => o.ExportName)).toEqual(['placement-ok-prod']);
    // Zones joined is a,b: the condition holds and the resource exists.
    const resources = await cfn.send(new DescribeStackResourcesCommand({ StackName: 'placement-ok' }));
    expect(resources.StackResources?.map((r) => r.LogicalResourceId)).toContain('H');
  });
});
