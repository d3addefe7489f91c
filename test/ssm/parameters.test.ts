/**
 * SSM Parameter Store through @aws-sdk/client-ssm: writing and reading the three types, versions
 * and Overwrite, selectors and labels, GetParameters' invalid list, deletes, tags, tiers, allowed
 * patterns, name rules with AWS's messages, and scoping by account and region — each error with
 * its status and code and the state checked afterwards.
 */
import {
  AddTagsToResourceCommand,
  DeleteParameterCommand,
  DeleteParametersCommand,
  GetParameterCommand,
  GetParameterHistoryCommand,
  GetParametersCommand,
  LabelParameterVersionCommand,
  ListTagsForResourceCommand,
  PutParameterCommand,
  RemoveTagsFromResourceCommand,
  SSMClient,
  UnlabelParameterVersionCommand,
} from '@aws-sdk/client-ssm';
import { describe, expect, it } from '../helpers/fixture.js';
import { failure } from '../helpers/errors.js';



describe('PutParameter and GetParameter', () => {
  it('writes a String, reads it back with AWS fields, and versions overwrites', async ({ server: t, ssm }) => {
    const put = await ssm.send(new PutParameterCommand({ Name: '/app/db/host', Value: 'db1', Type: 'String' }));
    expect(put).toMatchObject({ Version: 1, Tier: 'Standard' });
    const got = await ssm.send(new GetParameterCommand({ Name: '/app/db/host' }));
    expect(got.Parameter).toMatchObject({
      Name: '/app/db/host',
      Type: 'String',
      Value: 'db1',
      Version: 1,
      DataType: 'text',
      ARN: 'arn:aws:ssm:us-east-1:000000000000:parameter/app/db/host',
    });
    expect(got.Parameter!.LastModifiedDate).toBeInstanceOf(Date);

    const again = await failure(ssm.send(new PutParameterCommand({ Name: '/app/db/host', Value: 'db2', Type: 'String' })));
    expect(again).toMatchObject({ name: 'ParameterAlreadyExists', status: 400 });
    expect(again.message).toBe(
      'The parameter already exists. To overwrite this value, set the overwrite option in the request to true.',
    );
    expect((await ssm.send(new GetParameterCommand({ Name: '/app/db/host' }))).Parameter?.Value).toBe('db1');

    // Overwrite without Type keeps the type and bumps the version.
    const v2 = await ssm.send(new PutParameterCommand({ Name: '/app/db/host', Value: 'db2', Overwrite: true }));
    expect(v2.Version).toBe(2);
    const latest = await ssm.send(new GetParameterCommand({ Name: '/app/db/host' }));
    expect(latest.Parameter).toMatchObject({ Value: 'db2', Version: 2, Type: 'String' });
  });

  it('answers a missing parameter with ParameterNotFound (no message, as AWS)', async ({ server: t, ssm }) => {
    const err = await failure(ssm.send(new GetParameterCommand({ Name: '/cdk-bootstrap/hnb659fds/version' })));
    expect(err).toMatchObject({ name: 'ParameterNotFound', status: 400 });
  });

  it('keeps SecureString values opaque unless decryption is asked for', async ({ server: t, ssm }) => {
    await ssm.send(new PutParameterCommand({ Name: '/app/secret', Value: 'hunter2', Type: 'SecureString' }));
    const opaque = await ssm.send(new GetParameterCommand({ Name: '/app/secret' }));
    expect(opaque.Parameter?.Type).toBe('SecureString');
    expect(opaque.Parameter?.Value).not.toBe('hunter2');
    expect(opaque.Parameter?.Value).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const clear = await ssm.send(new GetParameterCommand({ Name: '/app/secret', WithDecryption: true }));
    expect(clear.Parameter?.Value).toBe('hunter2');
  });

  it('stores StringLists as written', async ({ server: t, ssm }) => {
    await ssm.send(new PutParameterCommand({ Name: 'zones', Value: 'a,b,c', Type: 'StringList' }));
    const got = await ssm.send(new GetParameterCommand({ Name: 'zones' }));
    expect(got.Parameter).toMatchObject({ Type: 'StringList', Value: 'a,b,c', ARN: expect.stringMatching(/:parameter\/zones$/) });
  });

  it('reads older versions and labels through selectors', async ({ server: t, ssm }) => {
    await ssm.send(new PutParameterCommand({ Name: '/sel/p', Value: 'one', Type: 'String' }));
    await ssm.send(new PutParameterCommand({ Name: '/sel/p', Value: 'two', Overwrite: true }));
    await ssm.send(new PutParameterCommand({ Name: '/sel/p', Value: 'three', Overwrite: true }));
    const v1 = await ssm.send(new GetParameterCommand({ Name: '/sel/p:1' }));
    expect(v1.Parameter).toMatchObject({ Name: '/sel/p', Value: 'one', Version: 1, Selector: ':1' });

    const label = await ssm.send(
      new LabelParameterVersionCommand({ Name: '/sel/p', ParameterVersion: 2, Labels: ['prod', 'awsbad', '9lives'] }),
    );
    expect(label).toMatchObject({ ParameterVersion: 2, InvalidLabels: ['awsbad', '9lives'] });
    const prod = await ssm.send(new GetParameterCommand({ Name: '/sel/p:prod' }));
    expect(prod.Parameter).toMatchObject({ Value: 'two', Version: 2, Selector: ':prod' });

    // Moving a label to another version takes it off the first one.
    await ssm.send(new LabelParameterVersionCommand({ Name: '/sel/p', ParameterVersion: 3, Labels: ['prod'] }));
    expect((await ssm.send(new GetParameterCommand({ Name: '/sel/p:prod' }))).Parameter?.Version).toBe(3);
    const unlabel = await ssm.send(
      new UnlabelParameterVersionCommand({ Name: '/sel/p', ParameterVersion: 3, Labels: ['prod', 'nope'] }),
    );
    expect(unlabel).toMatchObject({ RemovedLabels: ['prod'], InvalidLabels: ['nope'] });
    expect(await failure(ssm.send(new GetParameterCommand({ Name: '/sel/p:prod' })))).toMatchObject({ name: 'ParameterNotFound' });

    const missing = await failure(ssm.send(new GetParameterCommand({ Name: '/sel/p:9' })));
    expect(missing).toMatchObject({ name: 'ParameterVersionNotFound', status: 400 });
    expect(missing.message).toBe('Systems Manager could not find version 9 of /sel/p. Verify the version and try again.');

    const history = await ssm.send(new GetParameterHistoryCommand({ Name: '/sel/p', MaxResults: 2 }));
    expect(history.Parameters?.map((p) => [p.Version, p.Value])).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
    const rest = await ssm.send(new GetParameterHistoryCommand({ Name: '/sel/p', NextToken: history.NextToken }));
    expect(rest.Parameters?.map((p) => p.Version)).toEqual([3]);
    expect(rest.NextToken).toBeUndefined();
  });

  it('reads a parameter by its ARN', async ({ server: t, ssm }) => {
    await ssm.send(new PutParameterCommand({ Name: '/by/arn', Value: 'x', Type: 'String' }));
    const arn = 'arn:aws:ssm:us-east-1:000000000000:parameter/by/arn';
    expect((await ssm.send(new GetParameterCommand({ Name: arn }))).Parameter?.Name).toBe('/by/arn');
    const otherAccount = await failure(ssm.send(new GetParameterCommand({ Name: arn.replace('000000000000', '111122223333') })));
    expect(otherAccount.name).toBe('ParameterNotFound');
  });

  it('enforces AllowedPattern, value sizes per tier and policies only on Advanced', async ({ server: t, ssm }) => {
    const bad = await failure(
      ssm.send(new PutParameterCommand({ Name: '/pat/port', Value: 'http', Type: 'String', AllowedPattern: '^\\d+$' })),
    );
    expect(bad).toMatchObject({ name: 'ParameterPatternMismatchException', status: 400 });
    expect(bad.message).toBe('Parameter value, cannot be validated against allowedPattern: ^\\d+$');
    await ssm.send(new PutParameterCommand({ Name: '/pat/port', Value: '80', Type: 'String', AllowedPattern: '^\\d+$' }));
    // The pattern stays with the parameter for later versions.
    const later = await failure(ssm.send(new PutParameterCommand({ Name: '/pat/port', Value: 'x', Overwrite: true })));
    expect(later.name).toBe('ParameterPatternMismatchException');

    const big = 'x'.repeat(5000);
    const tooBig = await failure(ssm.send(new PutParameterCommand({ Name: '/big', Value: big, Type: 'String' })));
    expect(tooBig).toMatchObject({ name: 'ValidationException', status: 400 });
    expect(tooBig.message).toMatch(/^Standard tier parameters support a maximum parameter value of 4096 characters/);
    const auto = await ssm.send(
      new PutParameterCommand({ Name: '/big', Value: big, Type: 'String', Tier: 'Intelligent-Tiering' }),
    );
    expect(auto.Tier).toBe('Advanced');
    const downgrade = await failure(
      ssm.send(new PutParameterCommand({ Name: '/big', Value: 'small', Overwrite: true, Tier: 'Standard' })),
    );
    expect(downgrade.message).toMatch(/can't downgrade a parameter from the advanced-parameter tier/);

    const policies = JSON.stringify([{ Type: 'Expiration', Version: '1.0', Attributes: { Timestamp: '2099-01-01T00:00:00Z' } }]);
    const onStandard = await failure(
      ssm.send(new PutParameterCommand({ Name: '/pol', Value: 'v', Type: 'String', Policies: policies })),
    );
    expect(onStandard.name).toBe('ValidationException');
    const badType = await failure(
      ssm.send(
        new PutParameterCommand({ Name: '/pol', Value: 'v', Type: 'String', Tier: 'Advanced', Policies: '[{"Type":"Nope","Attributes":{}}]' }),
      ),
    );
    expect(badType.name).toBe('InvalidPolicyTypeException');
    const ok = await ssm.send(new PutParameterCommand({ Name: '/pol', Value: 'v', Type: 'String', Tier: 'Advanced', Policies: policies }));
    expect(ok.Tier).toBe('Advanced');
  });

  it('refuses bad names with AWS messages and writes nothing', async ({ server: t, ssm }) => {
    const cases: [string, string, RegExp][] = [
      ['awsfoo', 'ValidationException', /^Parameter name: can't be prefixed with "aws" or "ssm" \(case-insensitive\)\.$/],
      ['/ssm/x', 'ValidationException', /can't be prefixed with "ssm"/],
      ['/aws/service/x', 'AccessDeniedException', /^No access to reserved parameter name: \/aws\/service\/x\.$/],
      ['a b', 'ValidationException', /If formed as a path/],
      ['a/b', 'ValidationException', /^Parameter name must be a fully qualified name\.$/],
      [`/${Array.from({ length: 16 }, (_, i) => `l${i}`).join('/')}`, 'HierarchyLevelLimitExceededException', /maximum of 15 levels/],
    ];
    for (const [name, code, message] of cases) {
      const err = await failure(ssm.send(new PutParameterCommand({ Name: name, Value: 'v', Type: 'String' })));
      expect(err.name, name).toBe(code);
      expect(err.status).toBe(400);
      expect(err.message).toMatch(message);
    }
    const typeErr = await failure(ssm.send(new PutParameterCommand({ Name: 'ok', Value: 'v', Type: 'Number' as never })));
    expect(typeErr.name).toBe('ValidationException');
    expect(typeErr.message).toBe(
      "1 validation error detected: Value 'Number' at 'type' failed to satisfy constraint: Member must satisfy enum value set: [String, StringList, SecureString]",
    );
    const noType = await failure(ssm.send(new PutParameterCommand({ Name: 'notype', Value: 'v' })));
    expect(noType.message).toBe('A parameter type is required when you create a parameter.');
    const empty = await failure(ssm.send(new PutParameterCommand({ Name: 'empty', Value: '', Type: 'String' })));
    expect(empty.name).toBe('ValidationException');
    const listed = await ssm.send(new GetParametersCommand({ Names: ['awsfoo', 'ok', 'notype', 'empty'] }));
    expect(listed.Parameters).toEqual([]);
  });

  it('scopes parameters by account and region', async ({ server: t, ssm }) => {
    await ssm.send(new PutParameterCommand({ Name: '/scoped', Value: 'mine', Type: 'String' }));
    const other = new SSMClient({ ...t.clientConfig, credentials: { accessKeyId: '111122223333', secretAccessKey: 'x' } });
    const west = new SSMClient({ ...t.clientConfig, region: 'us-west-2' });
    expect((await failure(other.send(new GetParameterCommand({ Name: '/scoped' })))).name).toBe('ParameterNotFound');
    expect((await failure(west.send(new GetParameterCommand({ Name: '/scoped' })))).name).toBe('ParameterNotFound');
    await other.send(new PutParameterCommand({ Name: '/scoped', Value: 'theirs', Type: 'String' }));
    const theirs = await other.send(new GetParameterCommand({ Name: '/scoped' }));
    expect(theirs.Parameter).toMatchObject({ Value: 'theirs', ARN: 'arn:aws:ssm:us-east-1:111122223333:parameter/scoped' });
    expect((await ssm.send(new GetParameterCommand({ Name: '/scoped' }))).Parameter?.Value).toBe('mine');
  });
});

describe('GetParameters, deletes and tags', () => {
  it('returns found parameters and lists the rest as invalid', async ({ server: t, ssm }) => {
    await ssm.send(new PutParameterCommand({ Name: '/multi/a', Value: 'A', Type: 'String' }));
    await ssm.send(new PutParameterCommand({ Name: '/multi/b', Value: 'B', Type: 'String' }));
    const res = await ssm.send(
      new GetParametersCommand({ Names: ['/multi/a', '/multi/nope', '/multi/b', '/multi/a:7', 'bad name', '/multi/b:1'] }),
    );
    expect(res.Parameters?.map((p) => [p.Value, p.Selector])).toEqual([
      ['A', undefined],
      ['B', undefined],
      ['B', ':1'],
    ]);
    expect(res.InvalidParameters).toEqual(['/multi/nope', '/multi/a:7', 'bad name']);
    const tooMany = await failure(ssm.send(new GetParametersCommand({ Names: Array.from({ length: 11 }, (_, i) => `/n${i}`) })));
    expect(tooMany).toMatchObject({ name: 'ValidationException', status: 400 });
  });

  it('deletes one or many, reporting what was missing', async ({ server: t, ssm }) => {
    await ssm.send(new PutParameterCommand({ Name: '/del/a', Value: 'A', Type: 'String' }));
    await ssm.send(new PutParameterCommand({ Name: '/del/b', Value: 'B', Type: 'String' }));
    await ssm.send(new PutParameterCommand({ Name: '/del/c', Value: 'C', Type: 'String' }));
    await ssm.send(new DeleteParameterCommand({ Name: '/del/a' }));
    expect((await failure(ssm.send(new GetParameterCommand({ Name: '/del/a' })))).name).toBe('ParameterNotFound');
    expect(await failure(ssm.send(new DeleteParameterCommand({ Name: '/del/a' })))).toMatchObject({
      name: 'ParameterNotFound',
      status: 400,
    });
    const many = await ssm.send(new DeleteParametersCommand({ Names: ['/del/b', '/del/x', '/del/c'] }));
    expect(many).toMatchObject({ DeletedParameters: ['/del/b', '/del/c'], InvalidParameters: ['/del/x'] });
    // A re-created parameter starts again at version 1.
    expect((await ssm.send(new PutParameterCommand({ Name: '/del/b', Value: 'B', Type: 'String' }))).Version).toBe(1);
  });

  it('tags on create and through the tagging operations; refuses tags with Overwrite', async ({ server: t, ssm }) => {
    await ssm.send(
      new PutParameterCommand({ Name: '/tagged', Value: 'v', Type: 'String', Tags: [{ Key: 'team', Value: 'data' }] }),
    );
    const conflict = await failure(
      ssm.send(new PutParameterCommand({ Name: '/tagged', Value: 'w', Overwrite: true, Tags: [{ Key: 'a', Value: 'b' }] })),
    );
    expect(conflict).toMatchObject({ name: 'ValidationException', status: 400 });
    expect(conflict.message).toMatch(/^Invalid request: tags and overwrite can't be used together\./);
    expect((await ssm.send(new GetParameterCommand({ Name: '/tagged' }))).Parameter?.Version).toBe(1);

    await ssm.send(
      new AddTagsToResourceCommand({ ResourceType: 'Parameter', ResourceId: '/tagged', Tags: [{ Key: 'env', Value: 'dev' }] }),
    );
    await ssm.send(new RemoveTagsFromResourceCommand({ ResourceType: 'Parameter', ResourceId: '/tagged', TagKeys: ['team'] }));
    const tags = await ssm.send(new ListTagsForResourceCommand({ ResourceType: 'Parameter', ResourceId: '/tagged' }));
    expect(tags.TagList).toEqual([{ Key: 'env', Value: 'dev' }]);
    const missing = await failure(
      ssm.send(new ListTagsForResourceCommand({ ResourceType: 'Parameter', ResourceId: '/not-there' })),
    );
    expect(missing).toMatchObject({ name: 'InvalidResourceId', status: 400 });
  });
});
