/**
 * The CDK app of the strict-mode test: one SharedTablesStack (no bootstrap needed: the legacy
 * synthesizer sends the template inline) whose TableBucketPolicy grants the role named by the
 * context value `readerRole` read access to every table of the bucket.
 */
import { App, LegacyStackSynthesizer, Stack } from 'aws-cdk-lib';
import { CfnNamespace, CfnTable, CfnTableBucket, CfnTableBucketPolicy } from 'aws-cdk-lib/aws-s3tables';

const app = new App();
const readerRole = String(app.node.tryGetContext('readerRole'));
const stack = new Stack(app, 'SharedTablesStack', { synthesizer: new LegacyStackSynthesizer() });
const bucket = new CfnTableBucket(stack, 'TableBucket', { tableBucketName: 'shared-with-reader' });
const namespace = new CfnNamespace(stack, 'Namespace', { namespace: 'sales', tableBucketArn: bucket.attrTableBucketArn });
const table = new CfnTable(stack, 'Table', {
  tableBucketArn: bucket.attrTableBucketArn,
  namespace: 'sales',
  tableName: 'orders',
  openTableFormat: 'ICEBERG',
  icebergMetadata: { icebergSchema: { schemaFieldList: [{ id: 1, name: 'id', type: 'long', required: true }] } },
});
table.addResourceDependency(namespace);
new CfnTableBucketPolicy(stack, 'TableBucketPolicy', {
  tableBucketArn: bucket.attrTableBucketArn,
  resourcePolicy: {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Principal: { AWS: readerRole },
        Action: ['s3tables:GetTable', 's3tables:GetTableMetadataLocation', 's3tables:GetTableData'],
        Resource: `${bucket.attrTableBucketArn}/table/*`,
      },
    ],
  },
});
app.synth();
