/**
 * The CDK stack the end-to-end test deploys with the real `cdk` CLI: an S3 Tables table bucket
 * (encryption, unreferenced-file maintenance, tags), a namespace, an Iceberg table (schema,
 * compaction, snapshot management, tags), a bucket policy and a table policy, and outputs.
 * Version 2 (context `tablesVersion=2`) changes the bucket's maintenance in place and gives the
 * table a new field and a new name, which CloudFormation performs as a replacement. With
 * `autoDeleteBucket` it also holds an S3 bucket with `autoDeleteObjects` (the CDK's Lambda-backed
 * custom resource), which the benchmark deploys beside the plain stack.
 */
import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { CfnNamespace, CfnTable, CfnTableBucket, CfnTableBucketPolicy, CfnTablePolicy } from 'aws-cdk-lib/aws-s3tables';
import type { Construct } from 'constructs';

export interface TablesStackProps extends StackProps {
  version: 1 | 2;
  bucketName: string;
  autoDeleteBucket?: boolean;
}

export class TablesStack extends Stack {
  constructor(scope: Construct, id: string, props: TablesStackProps) {
    super(scope, id, props);
    const v2 = props.version === 2;
    const bucket = new CfnTableBucket(this, 'TableBucket', {
      tableBucketName: props.bucketName,
      encryptionConfiguration: { sseAlgorithm: 'AES256' },
      unreferencedFileRemoval: { status: 'Enabled', unreferencedDays: v2 ? 20 : 10, noncurrentDays: 30 },
      tags: [{ key: 'team', value: v2 ? 'lakehouse' : 'analytics' }],
    });
    const namespace = new CfnNamespace(this, 'Namespace', {
      namespace: 'analytics',
      tableBucketArn: bucket.attrTableBucketArn,
    });
    const fields: CfnTable.SchemaFieldProperty[] = [
      { id: 1, name: 'id', type: 'long', required: true },
      { id: 2, name: 'name', type: 'string', required: false },
    ];
    if (v2) fields.push({ id: 3, name: 'created_at', type: 'timestamp', required: false });
    const table = new CfnTable(this, 'Table', {
      tableBucketArn: bucket.attrTableBucketArn,
      namespace: 'analytics',
      tableName: v2 ? 'events_v2' : 'events',
      openTableFormat: 'ICEBERG',
      icebergMetadata: { icebergSchema: { schemaFieldList: fields } },
      compaction: { status: 'enabled', targetFileSizeMb: 256 },
      snapshotManagement: { status: 'enabled', minSnapshotsToKeep: 2, maxSnapshotAgeHours: 48 },
      tags: [{ key: 'dataset', value: 'events' }],
    });
    // The namespace is passed by name, so the dependency is explicit (as in the reference app).
    table.addResourceDependency(namespace);
    new CfnTableBucketPolicy(this, 'TableBucketPolicy', {
      tableBucketArn: bucket.attrTableBucketArn,
      resourcePolicy: {
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Principal: { AWS: `arn:${this.partition}:iam::${this.account}:root` },
            Action: ['s3tables:GetTable', 's3tables:GetTableMetadataLocation'],
            Resource: `${bucket.attrTableBucketArn}/*`,
          },
        ],
      },
    });
    new CfnTablePolicy(this, 'TablePolicy', {
      tableArn: table.attrTableArn,
      resourcePolicy: {
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Principal: { AWS: `arn:${this.partition}:iam::${this.account}:root` },
            Action: 's3tables:GetTableData',
            Resource: table.attrTableArn,
          },
        ],
      },
    });
    new CfnOutput(this, 'TableBucketArn', { value: bucket.attrTableBucketArn });
    new CfnOutput(this, 'TableArn', { value: table.attrTableArn });
    new CfnOutput(this, 'WarehouseLocation', { value: table.attrWarehouseLocation });
    if (props.autoDeleteBucket) new Bucket(this, 'Uploads', { autoDeleteObjects: true, removalPolicy: RemovalPolicy.DESTROY });
  }
}
