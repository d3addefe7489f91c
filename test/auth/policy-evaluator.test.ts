/**
 * The resource-policy evaluator against the examples of AWS's IAM User Guide ("IAM JSON policy
 * elements: Condition operators", "…: NotAction", "…: NotPrincipal", "Policy variables",
 * "Multivalued context keys"), one row each: the statement, the request's keys, the decision.
 * Strict mode's end-to-end behaviour is in policies.test.ts; this pins the operators' semantics.
 */
import { describe, expect, it } from 'vitest';
import { evaluate, globalKeys, isPublicPolicy, type PolicyRequest } from '../../src/auth/policy.js';

const OWNER = '111122223333';
const OTHER = '444455556666';
const alice = { principalArn: `arn:aws:iam::${OTHER}:user/alice`, arn: `arn:aws:iam::${OTHER}:user/alice`, account: OTHER };
const RESOURCE = 'arn:aws:s3:::doc-example-bucket/home/alice/notes.txt';

function request(keys: Record<string, string | string[] | undefined> = {}, action = 's3:GetObject', resource = RESOURCE): PolicyRequest {
  return { principal: alice, action, resource, resourceAccount: OWNER, keys: { ...globalKeys(alice, Date.parse('2020-05-01T00:00:00Z')), ...keys } };
}
const allow = (extra: object) => ({ Effect: 'Allow', Principal: { AWS: OTHER }, Action: 's3:GetObject', Resource: 'arn:aws:s3:::doc-example-bucket/*', ...extra });
const decide = (statement: object, req = request()) => evaluate([{ Version: '2012-10-17', Statement: [statement] }], req).decision;

const rows: [string, object, PolicyRequest, string][] = [
  ['DateGreaterThan/DateLessThan on aws:CurrentTime (inside the window)', allow({ Condition: { DateGreaterThan: { 'aws:CurrentTime': '2020-04-01T00:00:00Z' }, DateLessThan: { 'aws:CurrentTime': '2020-06-30T00:00:00Z' } } }), request(), 'allow'],
  ['… outside the window', allow({ Condition: { DateLessThan: { 'aws:CurrentTime': '2020-04-01T00:00:00Z' } } }), request(), 'implicit-deny'],
  ['IpAddress aws:SourceIp in 203.0.113.0/24', allow({ Condition: { IpAddress: { 'aws:SourceIp': '203.0.113.0/24' } } }), request({ 'aws:sourceip': '203.0.113.7' }), 'allow'],
  ['NotIpAddress excludes the range', allow({ Condition: { NotIpAddress: { 'aws:SourceIp': '203.0.113.0/24' } } }), request({ 'aws:sourceip': '203.0.113.7' }), 'implicit-deny'],
  ['Bool aws:SecureTransport false matches plain HTTP', { ...allow({}), Effect: 'Deny', Principal: '*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }, request(), 'explicit-deny'],
  ['StringLike with a policy variable: home/${aws:username}/*', allow({ Resource: 'arn:aws:s3:::doc-example-bucket/home/${aws:username}/*' }), request(), 'allow'],
  ['… another user’s folder', allow({ Resource: 'arn:aws:s3:::doc-example-bucket/home/${aws:username}/*' }), request({}, 's3:GetObject', 'arn:aws:s3:::doc-example-bucket/home/bob/x'), 'implicit-deny'],
  ['StringEqualsIfExists: an absent key matches', allow({ Condition: { StringEqualsIfExists: { 's3:x-amz-storage-class': 'STANDARD' } } }), request(), 'allow'],
  ['StringEquals: an absent key does not', allow({ Condition: { StringEquals: { 's3:x-amz-storage-class': 'STANDARD' } } }), request(), 'implicit-deny'],
  ['ForAllValues:StringEquals is true for an empty set (the documented pitfall)', allow({ Condition: { 'ForAllValues:StringEquals': { 'aws:TagKeys': ['Environment', 'CostCenter'] } } }), request({ 'aws:tagkeys': [] }), 'allow'],
  ['ForAllValues: a value outside the list fails', allow({ Condition: { 'ForAllValues:StringEquals': { 'aws:TagKeys': ['Environment', 'CostCenter'] } } }), request({ 'aws:tagkeys': ['Environment', 'Owner'] }), 'implicit-deny'],
  ['ForAnyValue: one value in the list is enough', allow({ Condition: { 'ForAnyValue:StringEquals': { 'aws:TagKeys': ['Environment', 'CostCenter'] } } }), request({ 'aws:tagkeys': ['Owner', 'CostCenter'] }), 'allow'],
  ['Null true: the key is absent', allow({ Condition: { Null: { 'aws:TokenIssueTime': 'true' } } }), request(), 'allow'],
  ['Condition key names are case-insensitive, values are not', allow({ Condition: { StringEquals: { 'AWS:PRINCIPALACCOUNT': OTHER } } }), request(), 'allow'],
  ['Action wildcards, case-insensitive: S3:Get*', allow({ Action: 'S3:Get*' }), request(), 'allow'],
  ['NotAction: everything but s3:GetObject', allow({ Action: undefined, NotAction: 's3:GetObject' }), request(), 'implicit-deny'],
  ['NotResource: Deny everything outside the home folder', { ...allow({}), Effect: 'Deny', Resource: undefined, NotResource: 'arn:aws:s3:::doc-example-bucket/home/*' }, request(), 'implicit-deny'],
  ['Deny with NotPrincipal spares the named principal', { ...allow({}), Effect: 'Deny', Principal: undefined, NotPrincipal: { AWS: `arn:aws:iam::${OTHER}:user/alice` } }, request(), 'implicit-deny'],
  ['… and denies everyone else', { ...allow({}), Effect: 'Deny', Principal: undefined, NotPrincipal: { AWS: `arn:aws:iam::${OTHER}:user/bob` } }, request(), 'explicit-deny'],
  ['an account principal as "…:root" names every principal of the account', allow({ Principal: { AWS: `arn:aws:iam::${OTHER}:root` } }), request(), 'allow'],
];

describe('the resource-policy evaluator', () => {
  it.each(rows)('%s', (_name, statement, req, decision) => {
    expect(decide(statement, req)).toBe(decision);
  });

  it('same account: allowed unless denied; another account: only with an Allow', () => {
    const own = { ...request(), resourceAccount: OTHER };
    expect(evaluate([], own).decision).toBe('allow');
    expect(evaluate([], request()).decision).toBe('implicit-deny');
  });

  it('"public" is a wildcard principal not pinned by a fixed condition (S3 User Guide, "The meaning of public")', () => {
    const p = (st: object) => JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 's3tables:GetTable', Resource: '*', ...st }] });
    expect(isPublicPolicy(p({ Principal: '*' }))).toBe(true);
    expect(isPublicPolicy(p({ Principal: { AWS: '*' }, Condition: { StringLike: { 'aws:PrincipalArn': '*' } } }))).toBe(true);
    expect(isPublicPolicy(p({ Principal: '*', Condition: { StringEquals: { 'aws:PrincipalAccount': OTHER } } }))).toBe(false);
    expect(isPublicPolicy(p({ Principal: '*', Condition: { IpAddress: { 'aws:SourceIp': '0.0.0.0/0' } } }))).toBe(true);
    expect(isPublicPolicy(p({ Principal: { AWS: OTHER } }))).toBe(false);
  });

  it('a stored policy text decides by what it says now: a changed text, or one of many, is read afresh', () => {
    const text = (effect: string) => JSON.stringify({ Version: '2012-10-17', Statement: [allow({ Effect: effect })] });
    expect(evaluate([text('Allow')], request()).decision).toBe('allow');
    expect(evaluate([text('Deny')], request()).decision).toBe('explicit-deny');
    expect(evaluate([text('Allow')], request()).decision).toBe('allow');
    const many = Array.from({ length: 600 }, (_, i) => JSON.stringify({ Id: `p${i}`, Statement: [allow({ Effect: i % 2 ? 'Deny' : 'Allow' })] }));
    for (const round of [1, 2]) {
      expect(many.map((p) => evaluate([p], request()).decision), `round ${round}`).toEqual(many.map((_, i) => (i % 2 ? 'explicit-deny' : 'allow')));
    }
    expect(evaluate(['not a policy'], request()).decision).toBe('implicit-deny');
  });
});
