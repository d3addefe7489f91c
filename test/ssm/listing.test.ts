/**
 * Parameter Store listings through @aws-sdk/client-ssm and the aws CLI: GetParametersByPath one
 * level and recursive with filters and pagination, DescribeParameters with both filter styles and
 * their errors, and a few `aws ssm …` commands as users run them.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  DescribeParametersCommand,
  GetParametersByPathCommand,
  LabelParameterVersionCommand,
  PutParameterCommand,
  paginateDescribeParameters,
  paginateGetParametersByPath,
} from '@aws-sdk/client-ssm';
import { describe, expect, it } from '../helpers/fixture.js';
import { failure } from '../helpers/errors.js';

const run = promisify(execFile);

it.beforeAll(async ({ ssm }) => {
  const put = (Name: string, Value: string, Type: 'String' | 'SecureString' | 'StringList' = 'String', tags?: Record<string, string>) =>
    ssm.send(
      new PutParameterCommand({
        Name,
        Value,
        Type,
        Tags: tags ? Object.entries(tags).map(([Key, V]) => ({ Key, Value: V })) : undefined,
      }),
    );
  await put('/app/a', '1');
  await put('/app/b', '2', 'SecureString', { team: 'data' });
  await put('/app/sub/c', '3', 'String', { team: 'web' });
  await put('/app/sub/deep/d', '4', 'StringList');
  await put('/application', 'not under /app');
  await put('root', 'r');
  for (let i = 0; i < 25; i++) await put(`/many/p${String(i).padStart(2, '0')}`, String(i));
});


describe('GetParametersByPath', () => {
  it('lists one level, or the whole subtree when recursive, in name order', async ({ ssm }) => {
    const one = await ssm.send(new GetParametersByPathCommand({ Path: '/app' }));
    expect(one.Parameters?.map((p) => p.Name)).toEqual(['/app/a', '/app/b']);
    const all = await ssm.send(new GetParametersByPathCommand({ Path: '/app/', Recursive: true }));
    expect(all.Parameters?.map((p) => p.Name)).toEqual(['/app/a', '/app/b', '/app/sub/c', '/app/sub/deep/d']);
    const b = all.Parameters!.find((p) => p.Name === '/app/b')!;
    expect(b.Value).not.toBe('2');
    const decrypted = await ssm.send(new GetParametersByPathCommand({ Path: '/app', WithDecryption: true }));
    expect(decrypted.Parameters?.find((p) => p.Name === '/app/b')?.Value).toBe('2');
    const root = await ssm.send(new GetParametersByPathCommand({ Path: '/' }));
    expect(root.Parameters?.map((p) => p.Name)).toEqual(['/application', 'root']);
  });

  it('pages with NextToken and MaxResults (at most 10)', async ({ ssm }) => {
    const names: string[] = [];
    for await (const page of paginateGetParametersByPath({ client: ssm, pageSize: 10 }, { Path: '/many' })) {
      expect(page.Parameters!.length).toBeLessThanOrEqual(10);
      names.push(...page.Parameters!.map((p) => p.Name!));
    }
    expect(names).toHaveLength(25);
    expect(names[0]).toBe('/many/p00');
    expect(names[24]).toBe('/many/p24');
    const tooMany = await failure(ssm.send(new GetParametersByPathCommand({ Path: '/many', MaxResults: 11 })));
    expect(tooMany).toMatchObject({ name: 'ValidationException', status: 400 });
    const badToken = await failure(ssm.send(new GetParametersByPathCommand({ Path: '/many', NextToken: 'garbage!' })));
    expect(badToken).toMatchObject({ name: 'InvalidNextToken', status: 400 });
  });

  it('filters by type, tag and label, and refuses filter keys AWS refuses there', async ({ ssm }) => {
    const secure = await ssm.send(
      new GetParametersByPathCommand({ Path: '/app', Recursive: true, ParameterFilters: [{ Key: 'Type', Values: ['SecureString'] }] }),
    );
    expect(secure.Parameters?.map((p) => p.Name)).toEqual(['/app/b']);
    const web = await ssm.send(
      new GetParametersByPathCommand({ Path: '/app', Recursive: true, ParameterFilters: [{ Key: 'tag:team', Values: ['web'] }] }),
    );
    expect(web.Parameters?.map((p) => p.Name)).toEqual(['/app/sub/c']);

    await ssm.send(new PutParameterCommand({ Name: '/app/a', Value: '1b', Overwrite: true }));
    await ssm.send(new LabelParameterVersionCommand({ Name: '/app/a', ParameterVersion: 1, Labels: ['stable'] }));
    const stable = await ssm.send(
      new GetParametersByPathCommand({ Path: '/app', ParameterFilters: [{ Key: 'Label', Values: ['stable'] }] }),
    );
    expect(stable.Parameters?.map((p) => [p.Name, p.Value, p.Version])).toEqual([['/app/a', '1', 1]]);

    const nameKey = await failure(
      ssm.send(new GetParametersByPathCommand({ Path: '/app', ParameterFilters: [{ Key: 'Name', Values: ['/app/a'] }] })),
    );
    expect(nameKey).toMatchObject({ name: 'InvalidFilterKey', status: 400 });
    expect(nameKey.message).toBe('The following filter key is not valid: Name. Valid filter keys include: [Type, KeyId].');
    const badPath = await failure(ssm.send(new GetParametersByPathCommand({ Path: 'app' })));
    expect(badPath.name).toBe('ValidationException');
    expect(badPath.message).toMatch(/must begin with a forward slash/);
  });
});

describe('DescribeParameters', () => {
  it('describes metadata with filters of both kinds and pages', async ({ ssm }) => {
    const byPath = await ssm.send(
      new DescribeParametersCommand({ ParameterFilters: [{ Key: 'Path', Option: 'Recursive', Values: ['/app/sub'] }] }),
    );
    expect(byPath.Parameters?.map((p) => p.Name)).toEqual(['/app/sub/c', '/app/sub/deep/d']);
    const secure = await ssm.send(new DescribeParametersCommand({ Filters: [{ Key: 'Type', Values: ['SecureString'] }] }));
    expect(secure.Parameters).toHaveLength(1);
    expect(secure.Parameters![0]).toMatchObject({
      Name: '/app/b',
      Type: 'SecureString',
      KeyId: 'alias/aws/ssm',
      Version: 1,
      Tier: 'Standard',
      DataType: 'text',
      LastModifiedUser: 'arn:aws:iam::000000000000:user/overcast',
      ARN: 'arn:aws:ssm:us-east-1:000000000000:parameter/app/b',
    });
    const contains = await ssm.send(
      new DescribeParametersCommand({ ParameterFilters: [{ Key: 'Name', Option: 'Contains', Values: ['sub'] }] }),
    );
    expect(contains.Parameters?.map((p) => p.Name)).toEqual(['/app/sub/c', '/app/sub/deep/d']);
    const beginsWith = await ssm.send(
      new DescribeParametersCommand({ ParameterFilters: [{ Key: 'Name', Option: 'BeginsWith', Values: ['/app'] }] }),
    );
    expect(beginsWith.Parameters?.map((p) => p.Name)).toContain('/application');

    let count = 0;
    for await (const page of paginateDescribeParameters({ client: ssm, pageSize: 7 }, {})) count += page.Parameters!.length;
    expect(count).toBe(31);
  });

  it('refuses mixing filter styles, unknown options and duplicated keys', async ({ ssm }) => {
    const both = await failure(
      ssm.send(
        new DescribeParametersCommand({
          Filters: [{ Key: 'Type', Values: ['String'] }],
          ParameterFilters: [{ Key: 'Type', Values: ['String'] }],
        }),
      ),
    );
    expect(both).toMatchObject({ name: 'ValidationException', message: 'You can use either Filters or ParameterFilters in a single request.' });
    const option = await failure(
      ssm.send(new DescribeParametersCommand({ ParameterFilters: [{ Key: 'Type', Option: 'Contains', Values: ['String'] }] })),
    );
    expect(option).toMatchObject({ name: 'InvalidFilterOption', status: 400 });
    const dup = await failure(
      ssm.send(
        new DescribeParametersCommand({
          ParameterFilters: [
            { Key: 'Type', Values: ['String'] },
            { Key: 'Type', Values: ['SecureString'] },
          ],
        }),
      ),
    );
    expect(dup.name).toBe('InvalidFilterKey');
    const badKey = await failure(ssm.send(new DescribeParametersCommand({ ParameterFilters: [{ Key: 'Colour', Values: ['x'] }] })));
    expect(badKey.name).toBe('ValidationException');
    expect(badKey.message).toMatch(/at 'parameterFilters\.1\.member\.key' failed to satisfy constraint: Member must satisfy regular expression pattern/);
  });
});

describe('aws ssm (CLI)', () => {
  it('puts, gets and lists, and reports ParameterNotFound like AWS', async ({ server: t }) => {
    const cli = (...args: string[]) => run('aws', ['ssm', ...args, '--output', 'json'], { env: t.env });
    const put = JSON.parse((await cli('put-parameter', '--name', '/cli/p', '--value', 'hello', '--type', 'String')).stdout);
    expect(put).toEqual({ Version: 1, Tier: 'Standard' });
    const got = JSON.parse((await cli('get-parameter', '--name', '/cli/p')).stdout);
    expect(got.Parameter).toMatchObject({ Name: '/cli/p', Value: 'hello', Version: 1 });
    const listed = JSON.parse((await cli('get-parameters-by-path', '--path', '/cli')).stdout);
    expect(listed.Parameters.map((p: { Name: string }) => p.Name)).toEqual(['/cli/p']);
    const err = await cli('get-parameter', '--name', '/cli/missing').then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).toBe(255);
    expect(err?.stderr).toContain('An error occurred (ParameterNotFound) when calling the GetParameter operation');
  });
});
