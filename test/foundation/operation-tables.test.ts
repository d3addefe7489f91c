/**
 * The operation tables agree with the models and the SDKs: each service's route table names
 * exactly its model's operations (S3 adds its CORS preflight), the generated operation types in
 * src/model/operations/ are what the models give, and each SDK's command list is its model's
 * operations but for the version drift written down here — so a model vendored anew, or an SDK
 * upgraded, shows what changed.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { serviceModel, type ServiceId } from '../../src/model/service-model.js';
import { SERVICES } from '../../src/services/registry.js';
import { NOT_IMPLEMENTED } from '../../src/services/service-routes.js';

const require = createRequire(import.meta.url);

const SDKS: Record<ServiceId, string> = {
  s3: '@aws-sdk/client-s3',
  s3tables: '@aws-sdk/client-s3tables',
  cloudformation: '@aws-sdk/client-cloudformation',
  sts: '@aws-sdk/client-sts',
  ssm: '@aws-sdk/client-ssm',
  lambda: '@aws-sdk/client-lambda',
  ecr: '@aws-sdk/client-ecr',
  stepfunctions: '@aws-sdk/client-sfn',
};

/** Operations the vendored model and the installed SDK disagree on (the model is older). */
const DRIFT: Record<ServiceId, { modelOnly: string[]; sdkOnly: string[] }> = {
  s3: {
    // Deprecated by AWS: still in botocore's model, gone from SDK v3.
    modelOnly: ['GetBucketLifecycle', 'GetBucketNotification', 'PutBucketLifecycle', 'PutBucketNotification'],
    sdkOnly: [
      'DeleteObjectAnnotation',
      'GetObjectAnnotation',
      'ListObjectAnnotations',
      'PutObjectAnnotation',
      'UpdateBucketMetadataAnnotationTableConfiguration',
    ],
  },
  s3tables: { modelOnly: [], sdkOnly: [] },
  stepfunctions: { modelOnly: [], sdkOnly: [] },
  cloudformation: { modelOnly: [], sdkOnly: ['RemoveAlias', 'SetAlias'] },
  sts: { modelOnly: [], sdkOnly: ['GetScopedCredentials'] },
  ecr: {
    modelOnly: [],
    sdkOnly: ['DescribeReplicationBackfillResults', 'ListReplicationBackfills', 'StartReplicationBackfill', 'StopReplicationBackfill'],
  },
  ssm: {
    modelOnly: [],
    sdkOnly: [
      'CreateCloudConnector',
      'DeleteCloudConnector',
      'DeregisterDefaultHostManagementConfiguration',
      'GetCloudConnector',
      'ListCloudConnectors',
      'RegisterDefaultHostManagementConfiguration',
      'UpdateCloudConnector',
      'ValidateCloudConnector',
    ],
  },
  lambda: { modelOnly: [], sdkOnly: ['DeleteResourcePolicy', 'GetResourcePolicy', 'PutResourcePolicy'] },
};

/** Route-table entries that are no operation of the model. */
const EXTRA_ROUTES: Partial<Record<ServiceId, string[]>> = { s3: ['PreflightCors'] };

const sorted = (names: Iterable<string>) => [...names].sort();

describe('operation tables', () => {
  for (const service of SERVICES) {
    it(`${service.id}: the route table names every operation of the model, no other`, async () => {
      const operations = Object.keys(serviceModel(service.id).operations);
      const { handlers } = await service.load();
      const routes = Object.keys(handlers).filter((name) => !(EXTRA_ROUTES[service.id] ?? []).includes(name));
      expect(sorted(routes)).toEqual(sorted(operations));
      for (const name of routes) expect(typeof handlers[name] === 'function' || handlers[name] === NOT_IMPLEMENTED).toBe(true);
    });

    it(`${service.id}: the SDK's commands are the model's operations, but for the known drift`, () => {
      const commands = Object.keys(require(SDKS[service.id]) as object)
        .filter((name) => name.endsWith('Command') && name !== '$Command')
        .map((name) => name.slice(0, -'Command'.length));
      const operations = Object.keys(serviceModel(service.id).operations);
      expect({
        modelOnly: sorted(operations.filter((op) => !commands.includes(op))),
        sdkOnly: sorted(commands.filter((c) => !operations.includes(c))),
      }).toEqual(DRIFT[service.id]);
    });
  }

  it('the generated operation types are what the models give', () => {
    expect(() => execFileSync(process.execPath, ['scripts/build-operation-types.mjs', '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});
