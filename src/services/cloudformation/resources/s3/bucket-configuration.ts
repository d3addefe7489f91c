/**
 * AWS::S3::Bucket's configuration properties mapped onto the S3 API's configuration calls: each
 * entry turns the CloudFormation shape (`BucketEncryption.ServerSideEncryptionConfiguration[]`,
 * `LifecycleConfiguration.Rules[].ExpirationInDays`, `CorsConfiguration.CorsRules[].MaxAge`, …)
 * into the request S3 takes, and knows how to remove the configuration when the property leaves
 * the template. Values arrive resolved but possibly as strings, so numbers and booleans are
 * converted. Properties S3 does not model (analytics, inventory, metrics, intelligent-tiering,
 * metadata tables) are validated against the schema and otherwise accepted unapplied.
 */
import type * as S3 from '@aws-sdk/client-s3';
import type { Ctx } from '../../../../server/runtime.js';
import * as s3 from '../../../s3/provider.js';
import { bool, num, str, tagMap } from '../property-values.js';

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {};
}

function list(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map(obj) : [];
}

function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.map((x) => str(x)!) : undefined;
}

function compact<T extends Obj>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function date(v: unknown): Date | undefined {
  const s = str(v);
  return s ? new Date(s) : undefined;
}

function filterOf(rule: Obj): S3.LifecycleRuleFilter | undefined {
  const tags = list(rule.TagFilters).map((t) => ({ Key: str(t.Key), Value: str(t.Value) }));
  const prefix = str(rule.Prefix);
  const gt = num(rule.ObjectSizeGreaterThan);
  const lt = num(rule.ObjectSizeLessThan);
  const parts = (prefix !== undefined ? 1 : 0) + tags.length + (gt !== undefined ? 1 : 0) + (lt !== undefined ? 1 : 0);
  if (parts > 1) return { And: compact({ Prefix: prefix, Tags: tags.length ? tags : undefined, ObjectSizeGreaterThan: gt, ObjectSizeLessThan: lt }) };
  if (tags.length) return { Tag: tags[0] };
  if (gt !== undefined) return { ObjectSizeGreaterThan: gt };
  if (lt !== undefined) return { ObjectSizeLessThan: lt };
  return { Prefix: prefix ?? '' };
}

function transition(t: Obj): S3.Transition {
  return compact({ Days: num(t.TransitionInDays), Date: date(t.TransitionDate), StorageClass: str(t.StorageClass) as S3.TransitionStorageClass });
}

function noncurrentTransition(t: Obj): S3.NoncurrentVersionTransition {
  return compact({
    NoncurrentDays: num(t.TransitionInDays),
    StorageClass: str(t.StorageClass) as S3.TransitionStorageClass,
    NewerNoncurrentVersions: num(t.NewerNoncurrentVersions),
  });
}

export function lifecycleRules(v: unknown): S3.LifecycleRule[] {
  return list(obj(v).Rules).map((r) => {
    const noncurrent = obj(r.NoncurrentVersionExpiration);
    const expiration = compact({
      Days: num(r.ExpirationInDays),
      Date: date(r.ExpirationDate),
      ExpiredObjectDeleteMarker: bool(r.ExpiredObjectDeleteMarker),
    });
    const transitions = [...list(r.Transitions), ...(r.Transition ? [obj(r.Transition)] : [])].map(transition);
    const ncTransitions = [...list(r.NoncurrentVersionTransitions), ...(r.NoncurrentVersionTransition ? [obj(r.NoncurrentVersionTransition)] : [])].map(
      noncurrentTransition,
    );
    const ncDays = num(noncurrent.NoncurrentDays) ?? num(r.NoncurrentVersionExpirationInDays);
    return compact({
      ID: str(r.Id),
      Status: str(r.Status) as S3.ExpirationStatus,
      Filter: filterOf(r),
      Expiration: Object.keys(expiration).length ? expiration : undefined,
      Transitions: transitions.length ? transitions : undefined,
      NoncurrentVersionExpiration:
        ncDays !== undefined ? compact({ NoncurrentDays: ncDays, NewerNoncurrentVersions: num(noncurrent.NewerNoncurrentVersions) }) : undefined,
      NoncurrentVersionTransitions: ncTransitions.length ? ncTransitions : undefined,
      AbortIncompleteMultipartUpload: r.AbortIncompleteMultipartUpload
        ? { DaysAfterInitiation: num(obj(r.AbortIncompleteMultipartUpload).DaysAfterInitiation) }
        : undefined,
    }) as S3.LifecycleRule;
  });
}

function notificationFilter(f: unknown): S3.NotificationConfigurationFilter | undefined {
  const rules = list(obj(obj(f).S3Key).Rules).map((r) => ({ Name: str(r.Name) as S3.FilterRuleName, Value: str(r.Value) }));
  return rules.length ? { Key: { FilterRules: rules } } : undefined;
}

function notification(v: unknown): S3.NotificationConfiguration {
  const n = obj(v);
  return compact({
    LambdaFunctionConfigurations: list(n.LambdaConfigurations).map((c) =>
      compact({ LambdaFunctionArn: str(c.Function), Events: [str(c.Event) as S3.Event], Filter: notificationFilter(c.Filter) }),
    ),
    QueueConfigurations: list(n.QueueConfigurations).map((c) =>
      compact({ QueueArn: str(c.Queue), Events: [str(c.Event) as S3.Event], Filter: notificationFilter(c.Filter) }),
    ),
    TopicConfigurations: list(n.TopicConfigurations).map((c) =>
      compact({ TopicArn: str(c.Topic), Events: [str(c.Event) as S3.Event], Filter: notificationFilter(c.Filter) }),
    ),
    EventBridgeConfiguration: n.EventBridgeConfiguration && bool(obj(n.EventBridgeConfiguration).EventBridgeEnabled) !== false ? {} : undefined,
  }) as S3.NotificationConfiguration;
}

function website(v: unknown): S3.WebsiteConfiguration {
  const w = obj(v);
  const redirectAll = obj(w.RedirectAllRequestsTo);
  return compact({
    IndexDocument: w.IndexDocument !== undefined ? { Suffix: str(w.IndexDocument) } : undefined,
    ErrorDocument: w.ErrorDocument !== undefined ? { Key: str(w.ErrorDocument) } : undefined,
    RedirectAllRequestsTo: w.RedirectAllRequestsTo
      ? compact({ HostName: str(redirectAll.HostName), Protocol: str(redirectAll.Protocol) as S3.Protocol })
      : undefined,
    RoutingRules: Array.isArray(w.RoutingRules)
      ? list(w.RoutingRules).map((r) => {
          const redirect = obj(r.RedirectRule);
          const condition = obj(r.RoutingRuleCondition);
          return compact({
            Redirect: compact({
              HostName: str(redirect.HostName),
              HttpRedirectCode: str(redirect.HttpRedirectCode),
              Protocol: str(redirect.Protocol) as S3.Protocol,
              ReplaceKeyPrefixWith: str(redirect.ReplaceKeyPrefixWith),
              ReplaceKeyWith: str(redirect.ReplaceKeyWith),
            }),
            Condition: r.RoutingRuleCondition
              ? compact({
                  HttpErrorCodeReturnedEquals: str(condition.HttpErrorCodeReturnedEquals),
                  KeyPrefixEquals: str(condition.KeyPrefixEquals),
                })
              : undefined,
          });
        })
      : undefined,
  }) as S3.WebsiteConfiguration;
}

function replication(v: unknown): S3.ReplicationConfiguration {
  const r = obj(v);
  return {
    Role: str(r.Role),
    Rules: list(r.Rules).map((rule) => {
      const dest = obj(rule.Destination);
      return compact({
        ID: str(rule.Id),
        Priority: num(rule.Priority),
        Prefix: rule.Filter ? undefined : (str(rule.Prefix) ?? ''),
        Filter: rule.Filter ? filterOf(obj(rule.Filter)) : undefined,
        Status: str(rule.Status) as S3.ReplicationRuleStatus,
        Destination: compact({ Bucket: str(dest.Bucket), Account: str(dest.Account), StorageClass: str(dest.StorageClass) as S3.StorageClass }),
        DeleteMarkerReplication: rule.DeleteMarkerReplication
          ? { Status: str(obj(rule.DeleteMarkerReplication).Status) as S3.DeleteMarkerReplicationStatus }
          : undefined,
      }) as S3.ReplicationRule;
    }),
  };
}

interface Applier {
  /** Writes the configuration for a property value that is present. */
  put(ctx: Ctx, bucket: string, value: unknown): void;
  /** Removes it when the property leaves the template (undefined: nothing to undo). */
  remove?(ctx: Ctx, bucket: string): void;
}

/** In application order: versioning before the configurations that need it (object lock, replication). */
export const APPLIERS: [string, Applier][] = [
  [
    'VersioningConfiguration',
    {
      put: (ctx, Bucket, v) => s3.putBucketVersioning(ctx, { Bucket, VersioningConfiguration: { Status: str(obj(v).Status) as S3.BucketVersioningStatus } }),
      // A bucket that has been versioned can only be suspended, never unversioned.
      remove: (ctx, Bucket) => {
        if (s3.getBucketVersioning(ctx, { Bucket }).Status) s3.putBucketVersioning(ctx, { Bucket, VersioningConfiguration: { Status: 'Suspended' } });
      },
    },
  ],
  [
    'BucketEncryption',
    {
      put: (ctx, Bucket, v) =>
        s3.putBucketEncryption(ctx, {
          Bucket,
          ServerSideEncryptionConfiguration: {
            Rules: list(obj(v).ServerSideEncryptionConfiguration).map((r) => {
              const d = obj(r.ServerSideEncryptionByDefault);
              return compact({
                ApplyServerSideEncryptionByDefault: r.ServerSideEncryptionByDefault
                  ? compact({ SSEAlgorithm: str(d.SSEAlgorithm) as S3.ServerSideEncryption, KMSMasterKeyID: str(d.KMSMasterKeyID) })
                  : undefined,
                BucketKeyEnabled: bool(r.BucketKeyEnabled),
              });
            }),
          },
        }),
      remove: (ctx, Bucket) => s3.deleteBucketEncryption(ctx, { Bucket }),
    },
  ],
  [
    'Tags',
    {
      put: (ctx, Bucket, v) => {
        const TagSet = Object.entries(tagMap(v)).map(([Key, Value]) => ({ Key, Value }));
        // The engine adds CloudFormation's aws:cloudformation:* system tags, which only it may set.
        if (TagSet.length) s3.putBucketTagging(ctx, { Bucket, Tagging: { TagSet } }, { cloudFormation: true });
        else s3.deleteBucketTagging(ctx, { Bucket });
      },
      remove: (ctx, Bucket) => s3.deleteBucketTagging(ctx, { Bucket }),
    },
  ],
  [
    'CorsConfiguration',
    {
      put: (ctx, Bucket, v) =>
        s3.putBucketCors(ctx, {
          Bucket,
          CORSConfiguration: {
            CORSRules: list(obj(v).CorsRules).map((r) =>
              compact({
                ID: str(r.Id),
                AllowedHeaders: strings(r.AllowedHeaders),
                AllowedMethods: strings(r.AllowedMethods),
                AllowedOrigins: strings(r.AllowedOrigins),
                ExposeHeaders: strings(r.ExposedHeaders),
                MaxAgeSeconds: num(r.MaxAge),
              }),
            ) as S3.CORSRule[],
          },
        }),
      remove: (ctx, Bucket) => s3.deleteBucketCors(ctx, { Bucket }),
    },
  ],
  [
    'LifecycleConfiguration',
    {
      put: (ctx, Bucket, v) => {
        s3.putBucketLifecycleConfiguration(ctx, {
          Bucket,
          LifecycleConfiguration: { Rules: lifecycleRules(v) },
          TransitionDefaultMinimumObjectSize: str(obj(v).TransitionDefaultMinimumObjectSize) as S3.TransitionDefaultMinimumObjectSize,
        });
      },
      remove: (ctx, Bucket) => s3.deleteBucketLifecycle(ctx, { Bucket }),
    },
  ],
  [
    'PublicAccessBlockConfiguration',
    {
      put: (ctx, Bucket, v) => {
        const c = obj(v);
        s3.putPublicAccessBlock(ctx, {
          Bucket,
          PublicAccessBlockConfiguration: compact({
            BlockPublicAcls: bool(c.BlockPublicAcls),
            IgnorePublicAcls: bool(c.IgnorePublicAcls),
            BlockPublicPolicy: bool(c.BlockPublicPolicy),
            RestrictPublicBuckets: bool(c.RestrictPublicBuckets),
          }),
        });
      },
      remove: (ctx, Bucket) => s3.deletePublicAccessBlock(ctx, { Bucket }),
    },
  ],
  [
    'OwnershipControls',
    {
      put: (ctx, Bucket, v) =>
        s3.putBucketOwnershipControls(ctx, {
          Bucket,
          OwnershipControls: { Rules: list(obj(v).Rules).map((r) => ({ ObjectOwnership: str(r.ObjectOwnership) as S3.ObjectOwnership })) },
        }),
      remove: (ctx, Bucket) => s3.deleteBucketOwnershipControls(ctx, { Bucket }),
    },
  ],
  [
    'WebsiteConfiguration',
    {
      put: (ctx, Bucket, v) => s3.putBucketWebsite(ctx, { Bucket, WebsiteConfiguration: website(v) }),
      remove: (ctx, Bucket) => s3.deleteBucketWebsite(ctx, { Bucket }),
    },
  ],
  [
    'LoggingConfiguration',
    {
      put: (ctx, Bucket, v) => {
        const l = obj(v);
        s3.putBucketLogging(ctx, {
          Bucket,
          BucketLoggingStatus: {
            LoggingEnabled: { TargetBucket: str(l.DestinationBucketName) ?? Bucket, TargetPrefix: str(l.LogFilePrefix) ?? '' },
          },
        });
      },
      remove: (ctx, Bucket) => s3.putBucketLogging(ctx, { Bucket, BucketLoggingStatus: {} }),
    },
  ],
  [
    'AccelerateConfiguration',
    {
      put: (ctx, Bucket, v) =>
        s3.putBucketAccelerateConfiguration(ctx, {
          Bucket,
          AccelerateConfiguration: { Status: str(obj(v).AccelerationStatus) as S3.BucketAccelerateStatus },
        }),
      remove: (ctx, Bucket) => s3.putBucketAccelerateConfiguration(ctx, { Bucket, AccelerateConfiguration: { Status: 'Suspended' } }),
    },
  ],
  [
    'NotificationConfiguration',
    {
      put: (ctx, Bucket, v) => s3.putBucketNotificationConfiguration(ctx, { Bucket, NotificationConfiguration: notification(v) }),
      remove: (ctx, Bucket) => s3.putBucketNotificationConfiguration(ctx, { Bucket, NotificationConfiguration: {} }),
    },
  ],
  [
    'ObjectLockConfiguration',
    {
      put: (ctx, Bucket, v) => {
        const c = obj(v);
        const retention = obj(obj(c.Rule).DefaultRetention);
        s3.putObjectLockConfiguration(ctx, {
          Bucket,
          ObjectLockConfiguration: compact({
            ObjectLockEnabled: (str(c.ObjectLockEnabled) ?? 'Enabled') as S3.ObjectLockEnabled,
            Rule: c.Rule
              ? { DefaultRetention: compact({ Mode: str(retention.Mode) as S3.ObjectLockRetentionMode, Days: num(retention.Days), Years: num(retention.Years) }) }
              : undefined,
          }),
        });
      },
    },
  ],
  [
    'ReplicationConfiguration',
    {
      put: (ctx, Bucket, v) => s3.putBucketReplication(ctx, { Bucket, ReplicationConfiguration: replication(v) }),
      remove: (ctx, Bucket) => s3.deleteBucketReplication(ctx, { Bucket }),
    },
  ],
];
