/**
 * Helpers shared by the S3 Tables tests: an S3 Tables and an S3 client for a test server, an
 * assertion that a call fails with a given error name and HTTP status, and small fixtures
 * (bucket + namespace + table) built through the real API.
 */
import { HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import {
  CreateNamespaceCommand,
  CreateTableBucketCommand,
  CreateTableCommand,
  S3TablesClient,
  type CreateTableCommandInput,
} from '@aws-sdk/client-s3tables';
import { expect } from 'vitest';
import type { TestServer } from '../helpers/server.js';

export function clients(t: TestServer): { s3t: S3TablesClient; s3: S3Client } {
  return {
    s3t: new S3TablesClient({ ...t.clientConfig, maxAttempts: 1 }),
    s3: new S3Client({ ...t.clientConfig, maxAttempts: 1 }),
  };
}

export interface ErrorShape {
  name: string;
  message: string;
  $metadata: { httpStatusCode?: number };
}

/** Awaits `p`, expecting it to fail with `name` and HTTP `status`; returns the error. */
export async function expectError(p: Promise<unknown>, name: string, status: number): Promise<ErrorShape> {
  let caught: unknown;
  try {
    await p;
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected ${name}`).toBeDefined();
  const err = caught as ErrorShape;
  expect({ name: err.name, status: err.$metadata?.httpStatusCode }).toEqual({ name, status });
  return err;
}

let counter = 0;
/** A fresh, valid, unique name (`prefix` + counter). */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}${counter}${Math.random().toString(36).slice(2, 8)}`;
}

export async function makeBucket(s3t: S3TablesClient, name = uniqueName('bucket-')): Promise<string> {
  return (await s3t.send(new CreateTableBucketCommand({ name }))).arn!;
}

export async function makeNamespace(s3t: S3TablesClient, bucketArn: string, name = uniqueName('ns_')): Promise<string> {
  await s3t.send(new CreateNamespaceCommand({ tableBucketARN: bucketArn, namespace: [name] }));
  return name;
}

/** Bucket + namespace + table (no metadata unless given). */
export async function makeTable(
  s3t: S3TablesClient,
  extra: Partial<CreateTableCommandInput> = {},
): Promise<{ bucketArn: string; namespace: string; name: string; tableArn: string; versionToken: string }> {
  const bucketArn = extra.tableBucketARN ?? (await makeBucket(s3t));
  const namespace = extra.namespace ?? (await makeNamespace(s3t, bucketArn));
  const name = extra.name ?? uniqueName('tbl_');
  const out = await s3t.send(
    new CreateTableCommand({ format: 'ICEBERG', ...extra, tableBucketARN: bucketArn, namespace, name }),
  );
  return { bucketArn, namespace, name, tableArn: out.tableARN!, versionToken: out.versionToken! };
}

/** Whether an S3 bucket (a warehouse) exists, by HeadBucket. */
export async function bucketExists(s3: S3Client, name: string): Promise<boolean> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: name }));
    return true;
  } catch (err) {
    if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw err;
  }
}

/** Polls `check` until it holds or `ms` pass (background purges finish after the call). */
export async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}
