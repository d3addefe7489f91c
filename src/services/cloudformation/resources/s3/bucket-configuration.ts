/**
 * AWS::S3::Bucket's configuration properties mapped onto the S3 API's configuration calls: each
 * entry turns the typed CloudFormation shape (`BucketEncryption.ServerSideEncryptionConfiguration[]`,
 * `LifecycleConfiguration.Rules[].ExpirationInDays`, `CorsConfiguration.CorsRules[].MaxAge`, …)
 * into the request S3 takes, and knows how to remove the configuration when the property leaves
 * the template. Properties S3 does not model (analytics, inventory, metrics, intelligent-tiering,
 * metadata tables) are validated against the schema and otherwise accepted unapplied.
 */
import type * as S3 from '@aws-sdk/client-s3';
import type { Ctx } from '../../../../runtime/runtime.js';
import * as s3 from '../../../s3/provider.js';
import type {
  BucketLifecycleConfiguration,
  BucketNoncurrentVersionTransition,
  BucketNotificationConfiguration,
  BucketNotificationFilter,
  BucketProperties,
  BucketReplicationConfiguration,
  BucketRule,
  BucketTransition,
  BucketWebsiteConfiguration,
} from '../../spec/property-types.js';

function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function date(v: string | undefined): Date | undefined {
  return v ? new Date(v) : undefined;
}

function filterOf(rule: Pick<BucketRule, 'TagFilters' | 'Prefix' | 'ObjectSizeGreaterThan' | 'ObjectSizeLessThan'>): S3.LifecycleRuleFilter {
  const tags = (rule.TagFilters ?? []).map((t) => ({ Key: t.Key, Value: t.Value }));
  const { Prefix: prefix, ObjectSizeGreaterThan: gt, ObjectSizeLessThan: lt } = rule;
  const parts = (prefix !== undefined ? 1 : 0) + tags.length + (gt !== undefined ? 1 : 0) + (lt !== undefined ? 1 : 0);
  if (parts > 1) return { And: compact({ Prefix: prefix, Tags: tags.length ? tags : undefined, ObjectSizeGreaterThan: gt, ObjectSizeLessThan: lt }) };
  if (tags.length) return { Tag: tags[0] };
  if (gt !== undefined) return { ObjectSizeGreaterThan: gt };
  if (lt !== undefined) return { ObjectSizeLessThan: lt };
  return { Prefix: prefix ?? '' };
}

function transition(t: BucketTransition): S3.Transition {
  return compact({ Days: t.TransitionInDays, Date: date(t.TransitionDate), StorageClass: t.StorageClass as S3.TransitionStorageClass });
}

function noncurrentTransition(t: BucketNoncurrentVersionTransition): S3.NoncurrentVersionTransition {
  return compact({
    NoncurrentDays: t.TransitionInDays,
    StorageClass: t.StorageClass as S3.TransitionStorageClass,
    NewerNoncurrentVersions: t.NewerNoncurrentVersions,
  });
}

function lifecycleRules(v: BucketLifecycleConfiguration): S3.LifecycleRule[] {
  return v.Rules.map((r) => {
    const expiration = compact({ Days: r.ExpirationInDays, Date: date(r.ExpirationDate), ExpiredObjectDeleteMarker: r.ExpiredObjectDeleteMarker });
    const transitions = [...(r.Transitions ?? []), ...(r.Transition ? [r.Transition] : [])].map(transition);
    const ncTransitions = [...(r.NoncurrentVersionTransitions ?? []), ...(r.NoncurrentVersionTransition ? [r.NoncurrentVersionTransition] : [])].map(
      noncurrentTransition,
    );
    const ncDays = r.NoncurrentVersionExpiration?.NoncurrentDays ?? r.NoncurrentVersionExpirationInDays;
    return compact({
      ID: r.Id,
      Status: r.Status,
      Filter: filterOf(r),
      Expiration: Object.keys(expiration).length ? expiration : undefined,
      Transitions: transitions.length ? transitions : undefined,
      NoncurrentVersionExpiration:
        ncDays !== undefined ? compact({ NoncurrentDays: ncDays, NewerNoncurrentVersions: r.NoncurrentVersionExpiration?.NewerNoncurrentVersions }) : undefined,
      NoncurrentVersionTransitions: ncTransitions.length ? ncTransitions : undefined,
      AbortIncompleteMultipartUpload: r.AbortIncompleteMultipartUpload
        ? { DaysAfterInitiation: r.AbortIncompleteMultipartUpload.DaysAfterInitiation }
        : undefined,
    });
  });
}

function notificationFilter(f: BucketNotificationFilter | undefined): S3.NotificationConfigurationFilter | undefined {
  const rules = (f?.S3Key.Rules ?? []).map((r) => ({ Name: r.Name as S3.FilterRuleName, Value: r.Value }));
  return rules.length ? { Key: { FilterRules: rules } } : undefined;
}

function notification(n: BucketNotificationConfiguration): S3.NotificationConfiguration {
  return compact({
    LambdaFunctionConfigurations: (n.LambdaConfigurations ?? []).map((c) =>
      compact({ LambdaFunctionArn: c.Function, Events: [c.Event as S3.Event], Filter: notificationFilter(c.Filter) }),
    ),
    QueueConfigurations: (n.QueueConfigurations ?? []).map((c) =>
      compact({ QueueArn: c.Queue, Events: [c.Event as S3.Event], Filter: notificationFilter(c.Filter) }),
    ),
    TopicConfigurations: (n.TopicConfigurations ?? []).map((c) =>
      compact({ TopicArn: c.Topic, Events: [c.Event as S3.Event], Filter: notificationFilter(c.Filter) }),
    ),
    EventBridgeConfiguration: n.EventBridgeConfiguration && n.EventBridgeConfiguration.EventBridgeEnabled !== false ? {} : undefined,
  });
}

function website(w: BucketWebsiteConfiguration): S3.WebsiteConfiguration {
  return compact({
    IndexDocument: w.IndexDocument !== undefined ? { Suffix: w.IndexDocument } : undefined,
    ErrorDocument: w.ErrorDocument !== undefined ? { Key: w.ErrorDocument } : undefined,
    RedirectAllRequestsTo: w.RedirectAllRequestsTo
      ? compact({ HostName: w.RedirectAllRequestsTo.HostName, Protocol: w.RedirectAllRequestsTo.Protocol })
      : undefined,
    RoutingRules: w.RoutingRules?.map((r) =>
      compact({
        Redirect: compact({
          HostName: r.RedirectRule.HostName,
          HttpRedirectCode: r.RedirectRule.HttpRedirectCode,
          Protocol: r.RedirectRule.Protocol,
          ReplaceKeyPrefixWith: r.RedirectRule.ReplaceKeyPrefixWith,
          ReplaceKeyWith: r.RedirectRule.ReplaceKeyWith,
        }),
        Condition: r.RoutingRuleCondition
          ? compact({
              HttpErrorCodeReturnedEquals: r.RoutingRuleCondition.HttpErrorCodeReturnedEquals,
              KeyPrefixEquals: r.RoutingRuleCondition.KeyPrefixEquals,
            })
          : undefined,
      }),
    ),
  });
}

function replication(r: BucketReplicationConfiguration): S3.ReplicationConfiguration {
  return {
    Role: r.Role,
    Rules: r.Rules.map((rule) =>
      compact({
        ID: rule.Id,
        Priority: rule.Priority,
        Prefix: rule.Filter ? undefined : (rule.Prefix ?? ''),
        Filter: rule.Filter ? filterOf({ Prefix: rule.Filter.Prefix }) : undefined,
        Status: rule.Status,
        Destination: compact({ Bucket: rule.Destination.Bucket, Account: rule.Destination.Account, StorageClass: rule.Destination.StorageClass as S3.StorageClass }),
        DeleteMarkerReplication: rule.DeleteMarkerReplication ? { Status: rule.DeleteMarkerReplication.Status } : undefined,
      }),
    ),
  };
}

type Config = Required<BucketProperties>;

interface Applier<K extends keyof BucketProperties> {
  property: K;
  /** Writes the configuration for a property value that is present. */
  put(ctx: Ctx, bucket: string, value: Config[K]): void;
  /** Removes it when the property leaves the template (undefined: nothing to undo). */
  remove?(ctx: Ctx, bucket: string): void;
}

const applier = <K extends keyof BucketProperties>(a: Applier<K>): Applier<K> => a;

/** In application order: versioning before the configurations that need it (object lock, replication). */
export const APPLIERS = [
  applier({
    property: 'VersioningConfiguration',
    put: (ctx, Bucket, v) => s3.putBucketVersioning(ctx, { Bucket, VersioningConfiguration: { Status: v.Status } }),
    // A bucket that has been versioned can only be suspended, never unversioned.
    remove: (ctx, Bucket) => {
      if (s3.getBucketVersioning(ctx, { Bucket }).Status) s3.putBucketVersioning(ctx, { Bucket, VersioningConfiguration: { Status: 'Suspended' } });
    },
  }),
  applier({
    property: 'BucketEncryption',
    put: (ctx, Bucket, v) =>
      s3.putBucketEncryption(ctx, {
        Bucket,
        ServerSideEncryptionConfiguration: {
          Rules: v.ServerSideEncryptionConfiguration.map((r) =>
            compact({
              ApplyServerSideEncryptionByDefault: r.ServerSideEncryptionByDefault
                ? compact({ SSEAlgorithm: r.ServerSideEncryptionByDefault.SSEAlgorithm, KMSMasterKeyID: r.ServerSideEncryptionByDefault.KMSMasterKeyID })
                : undefined,
              BucketKeyEnabled: r.BucketKeyEnabled,
            }),
          ),
        },
      }),
    remove: (ctx, Bucket) => s3.deleteBucketEncryption(ctx, { Bucket }),
  }),
  applier({
    property: 'Tags',
    put: (ctx, Bucket, v) => {
      // One tag per key, the last one winning, as a map of the list would keep them.
      const TagSet = Object.entries(Object.fromEntries(v.map((t) => [t.Key, t.Value]))).map(([Key, Value]) => ({ Key, Value }));
      // The engine adds CloudFormation's aws:cloudformation:* system tags, which only it may set.
      if (TagSet.length) s3.putBucketTagging(ctx, { Bucket, Tagging: { TagSet } }, { cloudFormation: true });
      else s3.deleteBucketTagging(ctx, { Bucket });
    },
    remove: (ctx, Bucket) => s3.deleteBucketTagging(ctx, { Bucket }),
  }),
  applier({
    property: 'CorsConfiguration',
    put: (ctx, Bucket, v) =>
      s3.putBucketCors(ctx, {
        Bucket,
        CORSConfiguration: {
          CORSRules: v.CorsRules.map((r) =>
            compact({
              ID: r.Id,
              AllowedHeaders: r.AllowedHeaders,
              AllowedMethods: r.AllowedMethods,
              AllowedOrigins: r.AllowedOrigins,
              ExposeHeaders: r.ExposedHeaders,
              MaxAgeSeconds: r.MaxAge,
            }),
          ),
        },
      }),
    remove: (ctx, Bucket) => s3.deleteBucketCors(ctx, { Bucket }),
  }),
  applier({
    property: 'LifecycleConfiguration',
    put: (ctx, Bucket, v) =>
      s3.putBucketLifecycleConfiguration(ctx, {
        Bucket,
        LifecycleConfiguration: { Rules: lifecycleRules(v) },
        TransitionDefaultMinimumObjectSize: v.TransitionDefaultMinimumObjectSize,
      }),
    remove: (ctx, Bucket) => s3.deleteBucketLifecycle(ctx, { Bucket }),
  }),
  applier({
    property: 'PublicAccessBlockConfiguration',
    put: (ctx, Bucket, c) =>
      s3.putPublicAccessBlock(ctx, {
        Bucket,
        PublicAccessBlockConfiguration: compact({
          BlockPublicAcls: c.BlockPublicAcls,
          IgnorePublicAcls: c.IgnorePublicAcls,
          BlockPublicPolicy: c.BlockPublicPolicy,
          RestrictPublicBuckets: c.RestrictPublicBuckets,
        }),
      }),
    remove: (ctx, Bucket) => s3.deletePublicAccessBlock(ctx, { Bucket }),
  }),
  applier({
    property: 'OwnershipControls',
    put: (ctx, Bucket, v) =>
      s3.putBucketOwnershipControls(ctx, { Bucket, OwnershipControls: { Rules: v.Rules.map((r) => ({ ObjectOwnership: r.ObjectOwnership })) } }),
    remove: (ctx, Bucket) => s3.deleteBucketOwnershipControls(ctx, { Bucket }),
  }),
  applier({
    property: 'WebsiteConfiguration',
    put: (ctx, Bucket, v) => s3.putBucketWebsite(ctx, { Bucket, WebsiteConfiguration: website(v) }),
    remove: (ctx, Bucket) => s3.deleteBucketWebsite(ctx, { Bucket }),
  }),
  applier({
    property: 'LoggingConfiguration',
    put: (ctx, Bucket, l) =>
      s3.putBucketLogging(ctx, {
        Bucket,
        BucketLoggingStatus: { LoggingEnabled: { TargetBucket: l.DestinationBucketName ?? Bucket, TargetPrefix: l.LogFilePrefix ?? '' } },
      }),
    remove: (ctx, Bucket) => s3.putBucketLogging(ctx, { Bucket, BucketLoggingStatus: {} }),
  }),
  applier({
    property: 'AccelerateConfiguration',
    put: (ctx, Bucket, v) => s3.putBucketAccelerateConfiguration(ctx, { Bucket, AccelerateConfiguration: { Status: v.AccelerationStatus } }),
    remove: (ctx, Bucket) => s3.putBucketAccelerateConfiguration(ctx, { Bucket, AccelerateConfiguration: { Status: 'Suspended' } }),
  }),
  applier({
    property: 'NotificationConfiguration',
    put: (ctx, Bucket, v) => s3.putBucketNotificationConfiguration(ctx, { Bucket, NotificationConfiguration: notification(v) }),
    remove: (ctx, Bucket) => s3.putBucketNotificationConfiguration(ctx, { Bucket, NotificationConfiguration: {} }),
  }),
  applier({
    property: 'ObjectLockConfiguration',
    put: (ctx, Bucket, c) => {
      const retention = c.Rule?.DefaultRetention;
      s3.putObjectLockConfiguration(ctx, {
        Bucket,
        ObjectLockConfiguration: compact({
          ObjectLockEnabled: (c.ObjectLockEnabled ?? 'Enabled') as S3.ObjectLockEnabled,
          Rule: c.Rule ? { DefaultRetention: compact({ Mode: retention?.Mode, Days: retention?.Days, Years: retention?.Years }) } : undefined,
        }),
      });
    },
  }),
  applier({
    property: 'ReplicationConfiguration',
    put: (ctx, Bucket, v) => s3.putBucketReplication(ctx, { Bucket, ReplicationConfiguration: replication(v) }),
    remove: (ctx, Bucket) => s3.deleteBucketReplication(ctx, { Bucket }),
  }),
];
