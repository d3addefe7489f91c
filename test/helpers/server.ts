/**
 * Test harness: starts an in-memory Overcast on an ephemeral 127.0.0.1 port inside the test
 * process and hands out client settings for the AWS SDKs and the aws CLI.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromEnv, type OvercastConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server/server.js';

export interface TestServer {
  server: RunningServer;
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Settings for any @aws-sdk client constructor. */
  clientConfig: {
    endpoint: string;
    region: string;
    credentials: { accessKeyId: string; secretAccessKey: string };
    forcePathStyle: true;
  };
  /** Environment for child processes (aws CLI, cdk) pointed at this server. */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

export async function startTestServer(overrides: Partial<OvercastConfig> = {}): Promise<TestServer> {
  const config: OvercastConfig = {
    ...configFromEnv({}),
    host: '127.0.0.1',
    port: 0,
    dataDir: undefined,
    logLevel: process.env.OVERCAST_TEST_LOG_LEVEL === 'debug' ? 'debug' : 'error',
    ...overrides,
  };
  const server = await startServer(config);
  const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
  const region = 'us-east-1';
  return {
    server,
    endpoint: server.endpoint,
    region,
    credentials,
    clientConfig: { endpoint: server.endpoint, region, credentials, forcePathStyle: true },
    env: {
      ...process.env,
      AWS_ENDPOINT_URL: server.endpoint,
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_REGION: region,
      AWS_DEFAULT_REGION: region,
      AWS_PROFILE: undefined,
      AWS_SESSION_TOKEN: undefined,
      AWS_PAGER: '',
    },
    stop: () => server.close(),
  };
}

/**
 * The S3 Tables warehouse buckets that exist. They are invisible to ListBuckets (as on AWS, where
 * they belong to the service's account), so tests that prove no warehouse is left behind read the
 * server's store.
 */
export function warehouseBuckets(t: TestServer): string[] {
  const rows = t.server.runtime.meta.db
    .prepare("SELECT name FROM s3_buckets WHERE name LIKE '%--table-s3' ORDER BY name")
    .all() as { name: string }[];
  return rows.map((r) => r.name);
}

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = 'overcast-test-'): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}
