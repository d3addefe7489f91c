/**
 * AWS::S3::Bucket's read handler, for drift detection: the bucket's configurations read back
 * through the S3 provider and mapped onto the template's shape (the inverse of
 * bucket-configuration.ts): versioning, encryption, tags, CORS, lifecycle rules, public access
 * block, ownership controls, website, logging, acceleration and object lock. A configuration the
 * bucket does not have is left out, so a template that names one sees it REMOVEd. What S3 here
 * does not model, and notification and replication (whose shapes it rewrites), is listed in
 * `NOT_READ` and never compared.
 */
import type * as S3 from '@aws-sdk/client-s3';
import type { Ctx } from '../../../../runtime/runtime.js';
import * as s3 from '../../../s3/provider.js';

export const NOT_READ = [
  'AnalyticsConfigurations',
  'InventoryConfigurations',
  'MetricsConfigurations',
  'IntelligentTieringConfigurations',
  'MetadataTableConfiguration',
  'MetadataConfiguration',
  'NotificationConfiguration',
  'ReplicationConfiguration',
  'AccessControl',
  'AbacStatus',
];

type Json = Record<string, unknown>;

function compact(value: Json): Json {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

/** A configuration read that answers "not configured" (NoSuch…, …NotFoundError): undefined then. */
function optional<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if ((code.startsWith('NoSuch') && code !== 'NoSuchBucket') || code.endsWith('NotFoundError')) return undefined;
    throw err;
  }
}

function day(d: Date | undefined): string | undefined {
  return d ? d.toISOString() : undefined;
}

function ruleFilter(f: S3.LifecycleRuleFilter | undefined): Json {
  const and = f?.And;
  const tags = and?.Tags ?? (f?.Tag ? [f.Tag] : []);
  return compact({
    Prefix: and?.Prefix ?? (f?.Prefix ? f.Prefix : undefined),
    TagFilters: tags.length ? tags.map((t) => ({ Key: t.Key, Value: t.Value })) : undefined,
    ObjectSizeGreaterThan: and?.ObjectSizeGreaterThan ?? f?.ObjectSizeGreaterThan,
    ObjectSizeLessThan: and?.ObjectSizeLessThan ?? f?.ObjectSizeLessThan,
  });
}

function lifecycleRule(r: S3.LifecycleRule): Json {
  return compact({
    Id: r.ID,
    Status: r.Status,
    ...ruleFilter(r.Filter),
    ExpirationInDays: r.Expiration?.Days,
    ExpirationDate: day(r.Expiration?.Date),
    ExpiredObjectDeleteMarker: r.Expiration?.ExpiredObjectDeleteMarker,
    Transitions: r.Transitions?.length
      ? r.Transitions.map((t) => compact({ StorageClass: t.StorageClass, TransitionInDays: t.Days, TransitionDate: day(t.Date) }))
      : undefined,
    NoncurrentVersionExpiration: r.NoncurrentVersionExpiration
      ? compact({ NoncurrentDays: r.NoncurrentVersionExpiration.NoncurrentDays, NewerNoncurrentVersions: r.NoncurrentVersionExpiration.NewerNoncurrentVersions })
      : undefined,
    NoncurrentVersionTransitions: r.NoncurrentVersionTransitions?.length
      ? r.NoncurrentVersionTransitions.map((t) =>
          compact({ StorageClass: t.StorageClass, TransitionInDays: t.NoncurrentDays, NewerNoncurrentVersions: t.NewerNoncurrentVersions }),
        )
      : undefined,
    AbortIncompleteMultipartUpload: r.AbortIncompleteMultipartUpload
      ? { DaysAfterInitiation: r.AbortIncompleteMultipartUpload.DaysAfterInitiation }
      : undefined,
  });
}

function website(w: S3.GetBucketWebsiteOutput): Json {
  return compact({
    IndexDocument: w.IndexDocument?.Suffix,
    ErrorDocument: w.ErrorDocument?.Key,
    RedirectAllRequestsTo: w.RedirectAllRequestsTo
      ? compact({ HostName: w.RedirectAllRequestsTo.HostName, Protocol: w.RedirectAllRequestsTo.Protocol })
      : undefined,
  });
}

/** The live bucket `name` in the template's shape. Throws NoSuchBucket when it is gone. */
export function readBucket(ctx: Ctx, name: string): Json {
  const Bucket = name;
  s3.headBucket(ctx, { Bucket });
  const versioning = s3.getBucketVersioning(ctx, { Bucket }).Status;
  const enc = optional(() => s3.getBucketEncryption(ctx, { Bucket }).ServerSideEncryptionConfiguration);
  const tags = optional(() => s3.getBucketTagging(ctx, { Bucket }).TagSet) ?? [];
  const cors = optional(() => s3.getBucketCors(ctx, { Bucket }).CORSRules);
  const lifecycle = optional(() => s3.getBucketLifecycleConfiguration(ctx, { Bucket }));
  const pab = optional(() => s3.getPublicAccessBlock(ctx, { Bucket }).PublicAccessBlockConfiguration);
  const ownership = optional(() => s3.getBucketOwnershipControls(ctx, { Bucket }).OwnershipControls);
  const site = optional(() => s3.getBucketWebsite(ctx, { Bucket }));
  const logging = s3.getBucketLogging(ctx, { Bucket }).LoggingEnabled;
  const accelerate = s3.getBucketAccelerateConfiguration(ctx, { Bucket }).Status;
  const lock = optional(() => s3.getObjectLockConfiguration(ctx, { Bucket }).ObjectLockConfiguration);
  return compact({
    BucketName: name,
    VersioningConfiguration: versioning ? { Status: versioning } : undefined,
    BucketEncryption: enc
      ? {
          ServerSideEncryptionConfiguration: (enc.Rules ?? []).map((r) =>
            compact({
              ServerSideEncryptionByDefault: r.ApplyServerSideEncryptionByDefault
                ? compact({
                    SSEAlgorithm: r.ApplyServerSideEncryptionByDefault.SSEAlgorithm,
                    KMSMasterKeyID: r.ApplyServerSideEncryptionByDefault.KMSMasterKeyID,
                  })
                : undefined,
              BucketKeyEnabled: r.BucketKeyEnabled,
            }),
          ),
        }
      : undefined,
    Tags: tags.map((t) => ({ Key: t.Key, Value: t.Value })),
    CorsConfiguration: cors?.length
      ? {
          CorsRules: cors.map((r) =>
            compact({
              Id: r.ID,
              AllowedHeaders: r.AllowedHeaders,
              AllowedMethods: r.AllowedMethods,
              AllowedOrigins: r.AllowedOrigins,
              ExposedHeaders: r.ExposeHeaders,
              MaxAge: r.MaxAgeSeconds,
            }),
          ),
        }
      : undefined,
    LifecycleConfiguration: lifecycle?.Rules?.length
      ? compact({
          Rules: lifecycle.Rules.map(lifecycleRule),
          TransitionDefaultMinimumObjectSize: lifecycle.TransitionDefaultMinimumObjectSize,
        })
      : undefined,
    PublicAccessBlockConfiguration: pab ? compact({ ...pab }) : undefined,
    OwnershipControls: ownership ? { Rules: (ownership.Rules ?? []).map((r) => ({ ObjectOwnership: r.ObjectOwnership })) } : undefined,
    WebsiteConfiguration: site ? website(site) : undefined,
    LoggingConfiguration: logging ? compact({ DestinationBucketName: logging.TargetBucket, LogFilePrefix: logging.TargetPrefix || undefined }) : undefined,
    AccelerateConfiguration: accelerate ? { AccelerationStatus: accelerate } : undefined,
    ObjectLockEnabled: lock?.ObjectLockEnabled === 'Enabled' ? true : undefined,
    ObjectLockConfiguration: lock
      ? compact({
          ObjectLockEnabled: lock.ObjectLockEnabled,
          Rule: lock.Rule?.DefaultRetention ? { DefaultRetention: compact({ ...lock.Rule.DefaultRetention }) } : undefined,
        })
      : undefined,
  });
}
