/**
 * The hostile-input sweep over the JSON services: every operation S3 Tables (rest-json) and SSM
 * (JSON 1.1) serve, with every required member missing, each member of the wrong type, too long,
 * empty, full of unicode or control characters, out-of-range numbers and NaN-like query text, path
 * labels with percent-encoding edge cases, and malformed bodies — each answered below 500 in the
 * protocol's error shape with a code the model or AWS uses, changing nothing when refused.
 */
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import {
  CreateNamespaceCommand,
  CreateTableBucketCommand,
  CreateTableCommand,
  GetTableCommand,
  S3TablesClient,
} from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import { serviceModel } from '../../src/model/service-model.js';
import { routes as s3tablesRoutes } from '../../src/services/s3tables/routes.js';
import { routes as ssmRoutes } from '../../src/services/ssm/routes.js';
import { jsonAttacks, runSweep } from './sweep.js';
import { servedOperations } from '../../src/services/service-routes.js';


describe('hostile-input sweep: JSON services', () => {
  it('S3 Tables: every operation, every mutation, never a 500', async ({ server: t }) => {
    const s3t = new S3TablesClient({ ...t.clientConfig, maxAttempts: 1 });
    const result = await runSweep(t, {
      service: { id: 's3tables', protocol: 'rest-json', model: serviceModel('s3tables') },
      operations: servedOperations(s3tablesRoutes),
      seed: 101,
      strictModel: true,
      budget: 24,
      attacks: jsonAttacks(),
      setup: async () => {
        const arn = (await s3t.send(new CreateTableBucketCommand({ name: 'robust-bucket' }))).arn!;
        await s3t.send(new CreateNamespaceCommand({ tableBucketARN: arn, namespace: ['robustns'] }));
        const table = await s3t.send(
          new CreateTableCommand({ tableBucketARN: arn, namespace: 'robustns', name: 'robusttable', format: 'ICEBERG' }),
        );
        const got = await s3t.send(new GetTableCommand({ tableArn: table.tableARN }));
        return {
          tableBucketARN: arn,
          namespace: 'robustns',
          name: 'robusttable',
          tableARN: table.tableARN,
          tableArn: table.tableARN,
          resourceArn: table.tableARN,
          versionToken: got.versionToken,
        };
      },
    });
    expect(result.findings.report()).toBe('');
    expect(result.requests).toBeGreaterThan(1000);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('SSM: every operation, every mutation, never a 500', async ({ server: t }) => {
    const ssm = new SSMClient({ ...t.clientConfig, maxAttempts: 1 });
    const result = await runSweep(t, {
      service: { id: 'ssm', protocol: 'json', model: serviceModel('ssm') },
      operations: servedOperations(ssmRoutes),
      seed: 202,
      strictModel: true,
      budget: 40,
      attacks: jsonAttacks(),
      setup: async () => {
        await ssm.send(new PutParameterCommand({ Name: '/robust/param', Value: 'v', Type: 'String' }));
        return { Name: '/robust/param', Names: ['/robust/param'], ResourceType: 'Parameter', ResourceId: '/robust/param', Path: '/robust', Value: 'v', ParameterVersion: 1 };
      },
    });
    expect(result.findings.report()).toBe('');
    expect(result.requests).toBeGreaterThan(300);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
