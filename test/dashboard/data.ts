/**
 * What the dashboard tests look at, made the way users make it: the lakehouse template deployed
 * with the SDK (table bucket, namespaces, tables, policies, maintenance), its orders table given
 * a nested column through the Iceberg REST catalog and rows in two snapshots by the project's
 * Iceberg writer, and a second stack whose namespace names a table bucket that does not exist, so
 * its create fails and rolls back — created as a change set first, as the CDK does, so a test can
 * open its page before it runs.
 */
import { readFileSync } from 'node:fs';
import {
  CloudFormationClient,
  CreateChangeSetCommand,
  CreateStackCommand,
  DescribeStacksCommand,
  waitUntilChangeSetCreateComplete,
  waitUntilStackCreateComplete,
} from '@aws-sdk/client-cloudformation';
import { GetTableMetadataLocationCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { appendRows } from '../../src/iceberg/append.js';
import { parseIcebergJson } from '../../src/iceberg/json.js';
import type { TableMetadata } from '../../src/iceberg/types.js';
import { commitSnapshot, evolveSchema, type IcebergTable } from '../helpers/iceberg-table.js';
import { s3FileIO } from '../helpers/s3-file-io.js';
import type { TestServer } from '../helpers/server.js';

export const LAKEHOUSE = readFileSync(new URL('../../templates/lakehouse.yaml', import.meta.url), 'utf8');

/** A stack that fails: its namespace names a table bucket nobody created. */
export function brokenTemplate(suffix: string): string {
  return JSON.stringify({
    Description: 'A deploy that rolls back',
    Resources: {
      Bucket: { Type: 'AWS::S3Tables::TableBucket', Properties: { TableBucketName: `broken-${suffix}` } },
      Good: { Type: 'AWS::S3Tables::Namespace', Properties: { TableBucketARN: { 'Fn::GetAtt': ['Bucket', 'TableBucketARN'] }, Namespace: 'staging' } },
      Bad: {
        Type: 'AWS::S3Tables::Namespace',
        DependsOn: 'Good',
        Properties: { TableBucketARN: { 'Fn::Sub': '${Bucket}-missing' }, Namespace: 'orphans' },
      },
      Note: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: { Ref: 'Bucket' } } },
    },
  });
}

export interface Lakehouse {
  stackId: string;
  ordersArn: string;
  bucketArn: string;
  /** Snapshot ids, oldest first, and the rows each snapshot holds. */
  snapshots: { id: string; rows: number }[];
}

export async function deployLakehouse(t: TestServer, cfn: CloudFormationClient, stackName: string): Promise<Lakehouse> {
  const { StackId } = await cfn.send(new CreateStackCommand({ StackName: stackName, TemplateBody: LAKEHOUSE, Parameters: [{ ParameterKey: 'ProjectName', ParameterValue: stackName }] }));
  await waitUntilStackCreateComplete({ client: cfn, maxWaitTime: 60, minDelay: 1, maxDelay: 1 }, { StackName: stackName });
  const outputs = (await cfn.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks![0]!.Outputs ?? [];
  const out = (key: string) => outputs.find((o) => o.OutputKey === key)?.OutputValue;
  const bucketArn = out('TableBucketArn')!;
  const s3t = new S3TablesClient(t.clientConfig);
  const id = { tableBucketARN: bucketArn, namespace: 'sales', name: 'orders' };
  const io = s3FileIO(t);
  const load = async (): Promise<IcebergTable> => {
    const { metadataLocation } = await s3t.send(new GetTableMetadataLocationCommand(id));
    const metadata = parseIcebergJson(new TextDecoder().decode(await io.read(metadataLocation!))) as TableMetadata;
    return { id, metadataLocation: metadataLocation!, metadata };
  };
  let table = await load();
  const fields = table.metadata.schemas.find((s) => s['schema-id'] === table.metadata['current-schema-id'])!.fields;
  const next = table.metadata['last-column-id'] + 1;
  table = await evolveSchema(t, table, {
    type: 'struct',
    fields: [
      ...fields,
      {
        id: next,
        name: 'shipping',
        required: false,
        type: { type: 'struct', fields: [{ id: next + 1, name: 'city', required: false, type: 'string' }, { id: next + 2, name: 'zip', required: false, type: 'string' }] },
      },
      { id: next + 3, name: 'items', required: false, type: { type: 'list', 'element-id': next + 4, element: 'string', 'element-required': false } },
    ],
  });
  const row = (i: number) => ({
    order_id: BigInt(1000 + i),
    customer_id: BigInt(i % 7),
    ordered_at: BigInt(Date.UTC(2026, 0, 1, 12, i)) * 1000n,
    status: i % 3 === 0 ? 'shipped' : 'open',
    total: `${10 + i}.50`,
    shipping: { city: i % 2 ? 'Lyon' : 'Oslo', zip: `0${i}` },
    items: [`sku-${i}`, `sku-${i + 1}`],
  });
  const snapshots: { id: string; rows: number }[] = [];
  for (const [from, to] of [
    [0, 3],
    [3, 8],
  ] as const) {
    const rows = Array.from({ length: to - from }, (_, k) => row(from + k));
    const appended = await appendRows(io, table.metadata, rows);
    table = await commitSnapshot(t, table, appended.snapshot);
    snapshots.push({ id: String(appended.snapshot['snapshot-id']), rows: to });
  }
  const ordersArn = out('OrdersTableArn')!;
  return { stackId: StackId!, ordersArn, bucketArn, snapshots };
}

/** Creates the failing stack as a change set (the stack waits in REVIEW_IN_PROGRESS). */
export async function reviewBrokenStack(cfn: CloudFormationClient, stackName: string, suffix: string): Promise<void> {
  await cfn.send(new CreateChangeSetCommand({ StackName: stackName, ChangeSetName: 'first-deploy', ChangeSetType: 'CREATE', TemplateBody: brokenTemplate(suffix) }));
  await waitUntilChangeSetCreateComplete({ client: cfn, maxWaitTime: 30, minDelay: 1, maxDelay: 1 }, { StackName: stackName, ChangeSetName: 'first-deploy' });
}
