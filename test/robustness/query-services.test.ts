/**
 * The hostile-input sweep over the query-protocol services: every action CloudFormation and STS
 * serve, with every required member missing, members of the wrong type (text for numbers and
 * booleans, lists for scalars), over-long, empty, unicode and control-character values, and the
 * form attacks of query-attacks.ts (`member.0`, `member.-1`, gaps, list and scalar at once, 10,000
 * members, broken actions and encodings) — each answered below 500 as an `<ErrorResponse>` with a
 * code the model or AWS uses, changing nothing when refused.
 */
import { CloudFormationClient, CreateChangeSetCommand, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { describe, expect, it } from '../helpers/fixture.js';
import { serviceModel } from '../../src/model/service-model.js';
import { routes as cfnRoutes } from '../../src/services/cloudformation/routes.js';
import { routes as stsRoutes } from '../../src/services/sts/routes.js';
import { queryAttacks } from './query-attacks.js';
import { runSweep } from './sweep.js';
import { servedOperations } from '../../src/services/service-routes.js';


const TEMPLATE = JSON.stringify({
  Parameters: { P: { Type: 'String', Default: 'd' } },
  Resources: { H: { Type: 'AWS::CloudFormation::WaitConditionHandle' } },
  Outputs: { O: { Value: { Ref: 'P' }, Export: { Name: 'robust-export' } } },
});

describe('hostile-input sweep: query services', () => {
  it('CloudFormation: every action, every mutation, never a 500', async ({ server: t }) => {
    const cfn = new CloudFormationClient({ ...t.clientConfig, maxAttempts: 1 });
    const model = serviceModel('cloudformation');
    const result = await runSweep(t, {
      service: { id: 'cloudformation', protocol: 'query', model },
      operations: servedOperations(cfnRoutes),
      seed: 303,
      strictModel: true,
      budget: 30,
      attacks: queryAttacks(model),
      setup: async () => {
        await cfn.send(new CreateStackCommand({ StackName: 'robust-stack', TemplateBody: TEMPLATE }));
        await t.server.runtime.background.drain();
        await cfn.send(
          new CreateChangeSetCommand({
            StackName: 'robust-stack',
            ChangeSetName: 'robust-cs',
            TemplateBody: TEMPLATE.replace('"d"', '"e"'),
          }),
        );
        await t.server.runtime.background.drain();
        return {
          StackName: 'robust-stack',
          TemplateBody: TEMPLATE,
          ChangeSetName: 'robust-cs',
          LogicalResourceId: 'H',
          ExportName: 'robust-export',
        };
      },
    });
    expect(result.findings.report()).toBe('');
    expect(result.requests).toBeGreaterThan(1000);
  });

  it('STS: every action, every mutation, never a 500', async ({ server: t }) => {
    const model = serviceModel('sts');
    const result = await runSweep(t, {
      service: { id: 'sts', protocol: 'query', model },
      operations: servedOperations(stsRoutes),
      seed: 404,
      strictModel: true,
      budget: 40,
      attacks: queryAttacks(model),
      setup: async () => ({
        RoleArn: 'arn:aws:iam::000000000000:role/robust',
        RoleSessionName: 'robust',
        WebIdentityToken: 'token-robust-0000',
        AccessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      }),
    });
    expect(result.findings.report()).toBe('');
    expect(result.requests).toBeGreaterThan(200);
  });
});
