/**
 * Where a stack resource's physical id leads in the dashboard: table buckets, namespaces and
 * tables (and their policies) to their S3 Tables pages, S3 buckets to the object browser, nested stacks to their stack
 * page. The physical ids are the ones the CloudFormation engine records for each type (a
 * namespace's is `<table bucket ARN>|<name>`, as the engine's provider writes it).
 */
export type ResourceLink =
  | { kind: 'table-bucket'; arn: string }
  | { kind: 'namespace'; arn: string; namespace: string }
  | { kind: 'table'; arn: string }
  | { kind: 's3-bucket'; bucket: string }
  | { kind: 'stack'; stack: string };

export function linkOf(type: string, physicalId: string | undefined): ResourceLink | undefined {
  if (!physicalId) return undefined;
  switch (type) {
    case 'AWS::S3Tables::TableBucket':
    case 'AWS::S3Tables::TableBucketPolicy':
      return physicalId.startsWith('arn:') && !physicalId.includes('/table/') ? { kind: 'table-bucket', arn: physicalId } : undefined;
    case 'AWS::S3Tables::Namespace': {
      const at = physicalId.lastIndexOf('|');
      return at > 0 ? { kind: 'namespace', arn: physicalId.slice(0, at), namespace: physicalId.slice(at + 1) } : undefined;
    }
    case 'AWS::S3Tables::Table':
    case 'AWS::S3Tables::TablePolicy':
      return physicalId.includes(':table/') || physicalId.includes('/table/') ? { kind: 'table', arn: physicalId } : undefined;
    case 'AWS::S3::Bucket':
      return { kind: 's3-bucket', bucket: physicalId };
    case 'AWS::CloudFormation::Stack':
      return physicalId.startsWith('arn:') ? { kind: 'stack', stack: physicalId } : undefined;
    default:
      return undefined;
  }
}
