/**
 * Parameter values through prepareTemplate: every type (String, Number, List<Number>,
 * CommaDelimitedList, AWS-specific and List<…> of them, SSM Name and Value types), every
 * constraint with AWS's message, NoEcho, defaults, UsePreviousValue, missing and unknown keys.
 */
import { describe, expect, it } from 'vitest';
import { prepareTemplate, type ParameterInput, type TemplateDoc } from '../../../src/services/cloudformation/template/index.js';
import { expectError, makeEnv } from './helpers.js';

const withParams = (Parameters: TemplateDoc['Parameters']): TemplateDoc => ({ Parameters, Resources: { Bucket: { Type: 'AWS::S3::Bucket' } } });
const given = (values: Record<string, string>): ParameterInput[] => Object.entries(values).map(([ParameterKey, ParameterValue]) => ({ ParameterKey, ParameterValue }));
const env = makeEnv({ ssm: { '/cdk-bootstrap/hnb659fds/version': '21', '/ami/latest': 'ami-123', '/subnets': 'subnet-1,subnet-2', '/name': 'n' } });

describe('types', () => {
  it('yields strings, numbers as strings, and lists', () => {
    const p = prepareTemplate(
      withParams({
        S: { Type: 'String' },
        N: { Type: 'Number', Default: 8080 },
        LN: { Type: 'List<Number>', Default: '1, 2,3' },
        CDL: { Type: 'CommaDelimitedList', Default: ' a ,b,' },
        Vpc: { Type: 'AWS::EC2::VPC::Id', Default: 'vpc-1' },
        Subnets: { Type: 'List<AWS::EC2::Subnet::Id>', Default: 'subnet-1,subnet-2' },
        Zone: { Type: 'AWS::Route53::HostedZone::Id', Default: 'Z1' },
      }),
      given({ S: 'text' }),
      env,
    );
    const ref = Object.fromEntries(p.parameters.map((x) => [x.key, x.refValue]));
    expect(ref).toEqual({ S: 'text', N: '8080', LN: ['1', '2', '3'], CDL: ['a', 'b', ''], Vpc: 'vpc-1', Subnets: ['subnet-1', 'subnet-2'], Zone: 'Z1' });
    expect(p.parameters.find((x) => x.key === 'LN')!.value).toBe('1, 2,3');
  });
  it('resolves SSM parameter types and keeps the name as the value', () => {
    const p = prepareTemplate(
      withParams({
        BootstrapVersion: { Type: 'AWS::SSM::Parameter::Value<String>', Default: '/cdk-bootstrap/hnb659fds/version' },
        Ami: { Type: 'AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>', Default: '/ami/latest' },
        Subnets: { Type: 'AWS::SSM::Parameter::Value<List<AWS::EC2::Subnet::Id>>', Default: '/subnets' },
        Name: { Type: 'AWS::SSM::Parameter::Name', Default: '/name' },
      }),
      [],
      env,
    );
    const byKey = Object.fromEntries(p.parameters.map((x) => [x.key, x]));
    expect(byKey.BootstrapVersion).toMatchObject({ value: '/cdk-bootstrap/hnb659fds/version', resolvedValue: '21', refValue: '21' });
    expect(byKey.Ami).toMatchObject({ value: '/ami/latest', resolvedValue: 'ami-123', refValue: 'ami-123' });
    expect(byKey.Subnets).toMatchObject({ resolvedValue: 'subnet-1,subnet-2', refValue: ['subnet-1', 'subnet-2'] });
    expect(byKey.Name).toMatchObject({ value: '/name', refValue: '/name' });
    expect(byKey.Name!.resolvedValue).toBeUndefined();
  });
  it('refuses SSM parameters that cannot be fetched', () => {
    expectError(
      () => prepareTemplate(withParams({ V: { Type: 'AWS::SSM::Parameter::Value<String>', Default: '/cdk-bootstrap/other/version' } }), [], env),
      'Unable to fetch parameters [/cdk-bootstrap/other/version] from parameter store for this account.',
    );
  });
  it('marks NoEcho parameters', () => {
    const p = prepareTemplate(withParams({ Secret: { Type: 'String', NoEcho: true, Default: 's' }, Plain: { Type: 'String', NoEcho: 'false', Default: 'p' } }), [], env);
    expect(p.parameters.map((x) => x.noEcho)).toEqual([true, false]);
  });
});

describe('values given, missing, unknown, previous', () => {
  const doc = withParams({ A: { Type: 'String' }, B: { Type: 'String' }, C: { Type: 'String', Default: 'c' } });
  it('requires values for parameters without defaults', () => {
    expectError(() => prepareTemplate(doc, [], env), 'Parameters: [A, B] must have values');
  });
  it('refuses parameters the template does not declare', () => {
    expectError(() => prepareTemplate(doc, given({ A: '1', B: '2', X: '3', Y: '4' }), env), 'Parameters: [X, Y] do not exist in the template');
    expectError(() => prepareTemplate({ Resources: { B: { Type: 'AWS::S3::Bucket' } } }, given({ X: '1' }), env), 'Parameter values specified for a template which does not require them.');
  });
  it('reuses previous values, and re-reads SSM values by name', () => {
    const ssmDoc = withParams({ A: { Type: 'String' }, V: { Type: 'AWS::SSM::Parameter::Value<String>' } });
    const previous = { parameters: [{ key: 'A', value: 'old' }, { key: 'V', value: '/ami/latest' }] };
    const p = prepareTemplate(ssmDoc, [{ ParameterKey: 'A', UsePreviousValue: true }, { ParameterKey: 'V', UsePreviousValue: true }], env, previous);
    expect(p.parameters.map((x) => [x.key, x.value, x.refValue])).toEqual([['A', 'old', 'old'], ['V', '/ami/latest', 'ami-123']]);
  });
  it('refuses malformed UsePreviousValue inputs', () => {
    expectError(
      () => prepareTemplate(doc, [{ ParameterKey: 'A', UsePreviousValue: true, ParameterValue: 'x' }, { ParameterKey: 'B', ParameterValue: 'b' }], env, { parameters: [{ key: 'A', value: 'a' }] }),
      'Invalid input for parameter key A. Cannot specify usePreviousValue as true and non empty value for a parameter',
    );
    expectError(
      () => prepareTemplate(doc, [{ ParameterKey: 'A', UsePreviousValue: true }, { ParameterKey: 'B', ParameterValue: 'b' }], env, { parameters: [] }),
      'Invalid input for parameter key A. Cannot specify usePreviousValue as true for a parameter key not in the previous template',
    );
  });
});

describe('constraints', () => {
  const check = (decl: Record<string, unknown>, value: string) => () => prepareTemplate(withParams({ P: { Type: 'String', ...decl } as never }), given({ P: value }), env);
  it('AllowedValues (members of lists too)', () => {
    expectError(check({ AllowedValues: ['dev', 'prod'] }, 'test'), "Parameter 'P' must be one of AllowedValues");
    check({ AllowedValues: ['dev', 'prod'] }, 'prod')();
    expectError(() => prepareTemplate(withParams({ P: { Type: 'CommaDelimitedList', AllowedValues: ['a', 'b'] } }), given({ P: 'a,c' }), env), "Parameter 'P' must be one of AllowedValues");
    prepareTemplate(withParams({ P: { Type: 'CommaDelimitedList', AllowedValues: ['a', 'b'] } }), given({ P: 'a, b' }), env);
    prepareTemplate(withParams({ P: { Type: 'Number', AllowedValues: [1, 2] } }), given({ P: '2' }), env);
  });
  it('AllowedPattern matches the whole value', () => {
    expectError(check({ AllowedPattern: '[a-z]+' }, 'abc1'), "Parameter 'P' must match pattern [a-z]+");
    check({ AllowedPattern: '[a-z]+' }, 'abc')();
    check({ AllowedPattern: '^[a-z]+$' }, 'abc')();
    expectError(check({ AllowedPattern: 'a|b' }, 'ab'), "Parameter 'P' must match pattern a|b");
  });
  it('MinLength and MaxLength', () => {
    expectError(check({ MinLength: 3 }, 'ab'), "Parameter 'P' must contain at least 3 characters");
    expectError(check({ MaxLength: '2' }, 'abc'), "Parameter 'P' must contain at most 2 characters");
    check({ MinLength: 2, MaxLength: 3 }, 'abc')();
  });
  it('numbers, MinValue and MaxValue', () => {
    const num = (decl: Record<string, unknown>, value: string) => () => prepareTemplate(withParams({ P: { Type: 'Number', ...decl } as never }), given({ P: value }), env);
    expectError(num({}, 'ten'), "Parameter 'P' must be a number");
    expectError(num({ MinValue: 1 }, '0'), "Parameter 'P' must be a number not less than 1");
    expectError(num({ MaxValue: 10 }, '10.5'), "Parameter 'P' must be a number not greater than 10");
    num({ MinValue: 1, MaxValue: 10 }, '2.5e0')();
    expectError(() => prepareTemplate(withParams({ P: { Type: 'List<Number>' } }), given({ P: '1,x' }), env), "Parameter 'P' must be a number");
  });
  it('ConstraintDescription replaces the generic text', () => {
    expectError(check({ AllowedPattern: '[a-z]+', ConstraintDescription: 'lower-case letters only' }, 'ABC'), "Parameter 'P' failed to satisfy constraint: lower-case letters only");
  });
  it('applies to defaults too', () => {
    expectError(() => prepareTemplate(withParams({ P: { Type: 'String', Default: 'x', MinLength: 2 } }), [], env), "Parameter 'P' must contain at least 2 characters");
  });
});
