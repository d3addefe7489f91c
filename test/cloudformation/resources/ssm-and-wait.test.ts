/**
 * AWS::SSM::Parameter and the wait-condition types, called directly with a real runtime and
 * checked through @aws-sdk/client-ssm: the parameter appears, changes version and tags in place,
 * fails on a name taken outside the stack, and disappears; wait conditions complete at once.
 */
import { GetParameterCommand, ListTagsForResourceCommand, PutParameterCommand} from '@aws-sdk/client-ssm';
import { describe, expect, it } from '../../helpers/fixture.js';
import { loadProvider } from '../../../src/services/cloudformation/resources/registry.js';
import { rejection, resourceContext } from './context.js';


const param = (await loadProvider('AWS::SSM::Parameter')).provider;

describe('AWS::SSM::Parameter', () => {
  it('creates, updates in place (new version, tags) and deletes the real parameter', async ({ server: t, ssm }) => {
    const rc = resourceContext(t, 'AWS::SSM::Parameter', 'CdkBootstrapVersion');
    const props = { Type: 'String', Name: '/cdk-bootstrap/hnb659fds/version', Value: '33', Tags: { owner: 'cdk' } };
    const state = await param.create(rc, props);
    expect(state).toEqual({
      physicalId: '/cdk-bootstrap/hnb659fds/version',
      attributes: {
        Type: 'String',
        Value: '33',
        Arn: 'arn:aws:ssm:us-east-1:000000000000:parameter/cdk-bootstrap/hnb659fds/version',
      },
    });
    const got = await ssm.send(new GetParameterCommand({ Name: '/cdk-bootstrap/hnb659fds/version', WithDecryption: true }));
    expect(got.Parameter).toMatchObject({ Value: '33', Version: 1, Type: 'String' });

    const next = { ...props, Value: '34', Description: 'bootstrap version', Tags: { team: 'infra' } };
    const updated = await param.update(rc, next, { props, state });
    expect(updated.physicalId).toBe(state.physicalId);
    expect(updated.attributes.Value).toBe('34');
    expect((await ssm.send(new GetParameterCommand({ Name: state.physicalId }))).Parameter).toMatchObject({ Value: '34', Version: 2 });
    const tags = await ssm.send(new ListTagsForResourceCommand({ ResourceType: 'Parameter', ResourceId: state.physicalId }));
    expect(tags.TagList).toEqual([{ Key: 'team', Value: 'infra' }]);

    await param.delete(rc, next, updated);
    const gone = await rejection(ssm.send(new GetParameterCommand({ Name: state.physicalId })));
    expect(gone.name).toBe('ParameterNotFound');
    // Deleting again (already gone) succeeds, as CloudFormation's delete does.
    await expect(param.delete(rc, next, updated)).resolves.toBeUndefined();
  });

  it('generates CFN-<logicalId>-<random> names when Name is absent', async ({ server: t, ssm }) => {
    const rc = resourceContext(t, 'AWS::SSM::Parameter', 'Endpoint');
    const state = await param.create(rc, { Type: 'StringList', Value: 'a,b' });
    expect(state.physicalId).toMatch(/^CFN-Endpoint-[A-Za-z0-9]{12}$/);
    expect((await ssm.send(new GetParameterCommand({ Name: state.physicalId }))).Parameter?.Value).toBe('a,b');
  });

  it('fails on a name already taken and on invalid properties, creating nothing', async ({ server: t, ssm }) => {
    await ssm.send(new PutParameterCommand({ Name: '/taken', Value: 'outside', Type: 'String' }));
    const rc = resourceContext(t, 'AWS::SSM::Parameter', 'Taken');
    const taken = await rejection(param.create(rc, { Type: 'String', Name: '/taken', Value: 'mine' }));
    expect(taken.code).toBe('ParameterAlreadyExists');
    expect((await ssm.send(new GetParameterCommand({ Name: '/taken' }))).Parameter?.Value).toBe('outside');

    const secure = await rejection(param.create(rc, { Type: 'SecureString', Name: '/secure', Value: 'x' }));
    expect(secure.message).toBe('Properties validation failed for resource Taken with message: #/Type: SecureString is not a valid enum value');
    const reserved = await rejection(param.create(rc, { Type: 'String', Name: '/aws/mine', Value: 'x' }));
    expect(reserved.code).toBe('AccessDeniedException');
    expect((await rejection(ssm.send(new GetParameterCommand({ Name: '/secure' })))).name).toBe('ParameterNotFound');
  });
});

describe('wait conditions', () => {
  it('gives the handle a presigned-looking URL and completes the condition at once', async ({ server: t, ssm }) => {
    const handle = await loadProvider('AWS::CloudFormation::WaitConditionHandle');
    expect(handle.stored).toBe(false);
    const rc = resourceContext(t, 'AWS::CloudFormation::WaitConditionHandle', 'Handle');
    const h = await handle.provider!.create(rc, {});
    expect(h.physicalId).toMatch(
      /^https:\/\/cloudformation-waitcondition-us-east-1\.s3\.amazonaws\.com\/arn%3Aaws%3Acloudformation%3Aus-east-1%3A000000000000%3Astack%2Ftest-stack%2F[0-9a-f-]+\/Handle\?X-Amz-Algorithm=AWS4-HMAC-SHA256&/,
    );
    const wait = (await loadProvider('AWS::CloudFormation::WaitCondition')).provider;
    const wrc = resourceContext(t, 'AWS::CloudFormation::WaitCondition', 'Wait');
    const w = await wait.create(wrc, { Handle: h.physicalId, Count: '1', Timeout: '300' });
    expect(w.attributes.Data).toBe('{}');
    expect(w.physicalId).toBe(`${wrc.stackId}/Wait`);
    const bad = await rejection(wait.create(wrc, { Handle: h.physicalId, Count: 'one' }));
    expect(bad.message).toMatch(/#\/Count: expected type: Integer, found: String$/);
  });
});
