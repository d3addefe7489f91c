// The user's stack: a table bucket, a namespace and an Iceberg table, with their ARNs as outputs.
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { CfnNamespace, CfnTable, CfnTableBucket } from 'aws-cdk-lib/aws-s3tables';
import type { Construct } from 'constructs';

export interface AnalyticsStackProps extends StackProps {
  tableBucketName?: string;
}

/** A table bucket, a namespace and an Iceberg table, with their ARNs as outputs. */
export class AnalyticsStack extends Stack {
  constructor(scope: Construct, id: string, props: AnalyticsStackProps = {}) {
    super(scope, id, props);
    const bucket = new CfnTableBucket(this, 'Bucket', { tableBucketName: props.tableBucketName ?? 'analytics' });
    const namespace = new CfnNamespace(this, 'Namespace', { namespace: 'sales', tableBucketArn: bucket.attrTableBucketArn });
    const table = new CfnTable(this, 'Orders', {
      tableBucketArn: bucket.attrTableBucketArn,
      namespace: 'sales',
      tableName: 'orders',
      openTableFormat: 'ICEBERG',
      icebergMetadata: { icebergSchema: { schemaFieldList: [{ name: 'order_id', type: 'long', required: true }] } },
    });
    table.addResourceDependency(namespace);
    new CfnOutput(this, 'BucketArn', { value: bucket.attrTableBucketArn });
    new CfnOutput(this, 'OrdersArn', { value: table.attrTableArn });
  }
}
