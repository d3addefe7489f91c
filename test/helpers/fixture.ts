/**
 * The test fixture most files need: `import { describe, expect, it } from '../helpers/fixture.js'`
 * and a test names what it uses — `it('…', async ({ server, s3tables }) => …)`. The server is an
 * in-memory Overcast started once per file, on first use, and stopped after the file's last test
 * (startTestServer); the clients are the SDK's, pointed at it, one of each per file, with retries
 * off so a test sees the first answer. Suite hooks get them too: `it.beforeAll(({ s3 }) => …)`. A
 * file whose server needs settings of its own makes its `it` with `fixtureWith({ … })`.
 */
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { S3Client } from '@aws-sdk/client-s3';
import { S3TablesClient } from '@aws-sdk/client-s3tables';
import { SSMClient } from '@aws-sdk/client-ssm';
import { STSClient } from '@aws-sdk/client-sts';
import { test } from 'vitest';
import type { OvercastConfig } from '../../src/config.js';
import { startTestServer, type TestServer } from './server.js';

export { describe, expect } from 'vitest';

export interface ServerFixtures {
  server: TestServer;
  s3: S3Client;
  s3tables: S3TablesClient;
  cloudformation: CloudFormationClient;
  ssm: SSMClient;
  sts: STSClient;
}

/** Client settings of the fixture's clients: the server's endpoint and credentials, no retries. */
function settings(server: TestServer) {
  return { ...server.clientConfig, maxAttempts: 1 };
}

/**
 * The fixture with a server started with `overrides` (permissive Iceberg, strict resources, …):
 * `const it = fixtureWith({ icebergPermissive: true })`, in place of the import of `it`.
 */
export function fixtureWith(overrides: Partial<OvercastConfig>) {
  return test.extend<{ $file: ServerFixtures }>({
    server: [
      async ({}, use) => {
        const server = await startTestServer(overrides);
        await use(server);
        await server.stop();
      },
      { scope: 'file' },
    ],
    s3: [async ({ server }, use) => use(new S3Client(settings(server))), { scope: 'file' }],
    s3tables: [async ({ server }, use) => use(new S3TablesClient(settings(server))), { scope: 'file' }],
    cloudformation: [async ({ server }, use) => use(new CloudFormationClient(settings(server))), { scope: 'file' }],
    ssm: [async ({ server }, use) => use(new SSMClient(settings(server))), { scope: 'file' }],
    sts: [async ({ server }, use) => use(new STSClient(settings(server))), { scope: 'file' }],
  });
}

export const it = fixtureWith({});
