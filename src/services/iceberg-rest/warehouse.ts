/**
 * Whose catalog a REST request addresses: the `{prefix}` (or `warehouse`) is a table bucket ARN;
 * a signed request may only reach its own account's buckets (another account's is refused as AWS
 * refuses a call no resource policy allows), and the unsigned catalog under `/_overcast/iceberg`
 * acts as the ARN's own account and region. Also the table-level client settings Overcast adds to
 * LoadTableResult so engines write their files into Overcast's S3 without extra configuration.
 */
import type { Ctx } from '../../runtime/runtime.js';
import { partitionOf } from '../../runtime/runtime.js';
import { parseBucketArn } from '../s3tables/naming.js';
import { iceErrors } from './errors.js';

export interface Warehouse {
  /** The context S3 Tables operations run in (the ARN's account and region for unsigned requests). */
  ctx: Ctx;
  /** The table bucket ARN. */
  arn: string;
}

/** The IAM action AWS checks for each catalog operation (S3 User Guide, Iceberg REST endpoint table). */
export type CatalogAction =
  | 'GetTableBucket'
  | 'ListNamespaces'
  | 'CreateNamespace'
  | 'GetNamespace'
  | 'DeleteNamespace'
  | 'ListTables'
  | 'CreateTable'
  | 'GetTableMetadataLocation'
  | 'UpdateTableMetadataLocation'
  | 'DeleteTable'
  | 'GetTable'
  | 'RenameTable';

/** An unsigned request reached the catalog through `/_overcast/iceberg` (signed ones always name a key). */
function isUnsigned(ctx: Ctx): boolean {
  return ctx.accessKeyId === '';
}

export function resolveWarehouse(ctx: Ctx, prefix: string | undefined, action: CatalogAction): Warehouse {
  if (!prefix) throw iceErrors.badRequest('The warehouse is missing: give the table bucket ARN.');
  const parsed = parseBucketArn(prefix);
  if (!parsed || parsed.service !== 's3tables') {
    throw iceErrors.badRequest(
      `Invalid warehouse: '${prefix}' is not a table bucket ARN (arn:aws:s3tables:<region>:<account-id>:bucket/<name>).`,
    );
  }
  if (isUnsigned(ctx)) {
    return {
      ctx: { ...ctx, account: parsed.account, region: parsed.region, partition: partitionOf(parsed.region) },
      arn: prefix,
    };
  }
  if (parsed.account !== ctx.account) {
    throw iceErrors.forbidden(
      `User: arn:${ctx.partition}:iam::${ctx.account}:root is not authorized to perform: s3tables:${action} on resource: ` +
        `${prefix} because no resource-based policy allows the s3tables:${action} action`,
    );
  }
  return { ctx, arn: prefix };
}

/**
 * `config` of LoadTableResult: where the table's files live and how to reach them. AWS sends none
 * (clients use the regional S3 endpoint); Overcast names itself, path-style, unless the server
 * runs with AWS-exact catalog answers.
 */
export function storageConfig(ctx: Ctx, host: string | undefined): Record<string, string> {
  if (!ctx.rt.config.icebergS3Config) return {};
  const endpoint = host ? `http://${host}` : (ctx.rt.endpoint ?? '');
  return {
    's3.endpoint': endpoint,
    's3.path-style-access': 'true',
    's3.region': ctx.region,
    'client.region': ctx.region,
  };
}
