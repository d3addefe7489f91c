/**
 * The stack of the lifecycle journey: a table bucket, a namespace and an Iceberg table with
 * compaction (whose out-of-band change `cdk drift` must report), plus the resources the journey
 * adopts — a table bucket (`cdk import`) and an S3 bucket (`--import-existing-resources`), both
 * retained.
 */
import { CfnOutput, CfnDeletionPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { CfnBucket } from 'aws-cdk-lib/aws-s3';
import { CfnNamespace, CfnTable, CfnTableBucket } from 'aws-cdk-lib/aws-s3tables';
import type { Construct } from 'constructs';

export interface JourneyStackProps extends StackProps {
  importBucket?: string;
  rawBucket?: string;
  tableId: string;
}

export class JourneyStack extends Stack {
  constructor(scope: Construct, id: string, props: JourneyStackProps) {
    super(scope, id, props);
    const bucket = new CfnTableBucket(this, 'Lake', { tableBucketName: 'journey-lake' });
    const namespace = new CfnNamespace(this, 'Sales', { namespace: 'sales', tableBucketArn: bucket.attrTableBucketArn });
    const table = new CfnTable(this, props.tableId, {
      tableBucketArn: bucket.attrTableBucketArn,
      namespace: 'sales',
      tableName: 'events',
      openTableFormat: 'ICEBERG',
      icebergMetadata: { icebergSchema: { schemaFieldList: [{ id: 1, name: 'id', type: 'long', required: true }] } },
      compaction: { status: 'enabled', targetFileSizeMb: 256 },
    });
    table.addResourceDependency(namespace);
    if (props.importBucket) {
      const imported = new CfnTableBucket(this, 'Imported', { tableBucketName: props.importBucket });
      imported.cfnOptions.deletionPolicy = CfnDeletionPolicy.RETAIN;
    }
    if (props.rawBucket) {
      const raw = new CfnBucket(this, 'Raw', { bucketName: props.rawBucket });
      raw.cfnOptions.deletionPolicy = CfnDeletionPolicy.RETAIN;
    }
    new CfnOutput(this, 'TableArn', { value: table.attrTableArn });
  }
}
