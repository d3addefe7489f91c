/**
 * Bucket configurations that S3 stores and returns without acting on them (beyond CORS, which
 * routes.ts applies): policy, tagging, CORS, default encryption, versioning, lifecycle, public
 * access block, ownership controls, notifications, website, logging, accelerate, request
 * payment, object lock, replication, and ACLs (always the owner's full control). Each kind is one
 * row in `s3_bucket_configs`; a Get of a kind never set answers the NoSuch… error AWS sends, or
 * AWS's empty default where AWS has one (versioning, notifications, logging, …).
 */
import type * as S3 from '@aws-sdk/client-s3';
import type { Ctx } from '../../runtime/runtime.js';
import { AwsError } from '../../wire/errors.js';
import { ownerOf, repo, requireBucket } from './common.js';
import { s3Errors } from './errors.js';
import { validateTagSet } from './tag-set.js';

function readConfig<T>(ctx: Ctx, bucket: string, kind: string): T | undefined {
  requireBucket(ctx, bucket);
  const text = repo(ctx).getConfig(bucket, kind);
  return text === undefined ? undefined : (JSON.parse(text) as T);
}

function writeConfig(ctx: Ctx, bucket: string, kind: string, value: unknown): void {
  requireBucket(ctx, bucket);
  repo(ctx).putConfig(bucket, kind, JSON.stringify(value));
}

function deleteConfig(ctx: Ctx, bucket: string, kind: string): void {
  requireBucket(ctx, bucket);
  repo(ctx).deleteConfig(bucket, kind);
}

function notFound(code: string, message: string, bucket: string): never {
  throw s3Errors.notFoundConfig(code, message, bucket);
}

// --- policy ---

export function putBucketPolicy(ctx: Ctx, input: S3.PutBucketPolicyRequest): void {
  const policy = input.Policy ?? '';
  let doc: unknown;
  try {
    doc = policy.startsWith('{') ? JSON.parse(policy) : undefined;
  } catch {
    doc = undefined;
  }
  if (!doc || typeof doc !== 'object') throw s3Errors.malformedPolicy("Policies must be valid JSON and the first byte must be '{'");
  if (!('Statement' in doc)) throw s3Errors.malformedPolicy('Missing required field Statement');
  writeConfig(ctx, input.Bucket!, 'policy', policy);
}

export function getBucketPolicy(ctx: Ctx, input: S3.GetBucketPolicyRequest): S3.GetBucketPolicyOutput {
  const policy = readConfig<string>(ctx, input.Bucket!, 'policy');
  if (policy === undefined) notFound('NoSuchBucketPolicy', 'The bucket policy does not exist', input.Bucket!);
  return { Policy: policy };
}

export function deleteBucketPolicy(ctx: Ctx, input: S3.DeleteBucketPolicyRequest): void {
  deleteConfig(ctx, input.Bucket!, 'policy');
}

// --- tagging ---

const isSystemKey = (key: string | undefined) => key?.toLowerCase().startsWith('aws:') === true;

/**
 * PutBucketTagging replaces the bucket's tag set. Keys starting `aws:` (any case) are system tags,
 * which CloudFormation puts on the buckets it creates: a requester must send a bucket's system tags
 * back unchanged ("System Tags cannot be removed by requester") and can neither add nor change one
 * (AWS's behaviour since 2018: cloud-custodian#2834/#2861, terraform-provider-aws#7323/#7342); they
 * do not count toward the 50 tags (CloudFormation's resource-tag docs). `opts.cloudFormation`: the
 * caller is the CloudFormation engine, which may set `aws:cloudformation:*` tags.
 */
export function putBucketTagging(ctx: Ctx, input: S3.PutBucketTaggingRequest, opts: { cloudFormation?: boolean } = {}): void {
  const tags = input.Tagging?.TagSet;
  if (!tags) throw s3Errors.malformedXml();
  const system = tags.filter((t) => isSystemKey(t.Key));
  validateTagSet(tags.filter((t) => !isSystemKey(t.Key)), 'bucket');
  const seen = new Set<string>();
  for (const t of system) {
    if (t.Value === undefined) throw s3Errors.malformedXml();
    if (seen.has(t.Key!)) throw s3Errors.invalidTag('Cannot provide multiple Tags with the same key', t.Key);
    seen.add(t.Key!);
  }
  ctx.rt.meta.tx(() => {
    const current = (readConfig<S3.Tag[]>(ctx, input.Bucket!, 'tagging') ?? []).filter((t) => isSystemKey(t.Key));
    for (const t of system) {
      const allowed = opts.cloudFormation && t.Key!.startsWith('aws:cloudformation:');
      if (!allowed && !current.some((c) => c.Key === t.Key && c.Value === t.Value)) {
        throw s3Errors.invalidTag('System tags cannot be added/updated by requester', t.Key);
      }
    }
    const dropped = current.find((c) => !seen.has(c.Key!));
    if (dropped && !opts.cloudFormation) throw s3Errors.invalidTag('System Tags cannot be removed by requester', dropped.Key);
    writeConfig(ctx, input.Bucket!, 'tagging', tags);
  });
}

export function getBucketTagging(ctx: Ctx, input: S3.GetBucketTaggingRequest): S3.GetBucketTaggingOutput {
  const tags = readConfig<S3.Tag[]>(ctx, input.Bucket!, 'tagging');
  if (!tags || tags.length === 0) notFound('NoSuchTagSet', 'The TagSet does not exist', input.Bucket!);
  return { TagSet: tags };
}

export function deleteBucketTagging(ctx: Ctx, input: S3.DeleteBucketTaggingRequest): void {
  deleteConfig(ctx, input.Bucket!, 'tagging');
}

// --- CORS ---

const CORS_METHODS = ['GET', 'PUT', 'HEAD', 'POST', 'DELETE'];

export function putBucketCors(ctx: Ctx, input: S3.PutBucketCorsRequest): void {
  const rules = input.CORSConfiguration?.CORSRules;
  if (!rules || rules.length === 0) throw s3Errors.malformedXml();
  if (rules.length > 100) {
    throw s3Errors.invalidRequest('The number of CORS rules should not exceed allowed limit of 100 rules.');
  }
  for (const rule of rules) {
    if (!rule.AllowedMethods?.length || !rule.AllowedOrigins?.length) throw s3Errors.malformedXml();
    for (const m of rule.AllowedMethods) {
      if (!CORS_METHODS.includes(m)) {
        throw s3Errors.invalidRequest(`Found unsupported HTTP method in CORS config. Unsupported method is ${m}`);
      }
    }
    // AWS: `AllowedOrigin "*example*.com" can not have more than one wildcard.` (InvalidRequest);
    // AllowedHeader is held to the same rule.
    for (const [member, values] of [['AllowedOrigin', rule.AllowedOrigins], ['AllowedHeader', rule.AllowedHeaders ?? []]] as const) {
      const wild = values.find((v) => v.split('*').length > 2);
      if (wild !== undefined) throw s3Errors.invalidRequest(`${member} "${wild}" can not have more than one wildcard.`);
    }
  }
  writeConfig(ctx, input.Bucket!, 'cors', rules);
}

export function getBucketCors(ctx: Ctx, input: S3.GetBucketCorsRequest): S3.GetBucketCorsOutput {
  const rules = readConfig<S3.CORSRule[]>(ctx, input.Bucket!, 'cors');
  if (!rules) notFound('NoSuchCORSConfiguration', 'The CORS configuration does not exist', input.Bucket!);
  return { CORSRules: rules };
}

export function deleteBucketCors(ctx: Ctx, input: S3.DeleteBucketCorsRequest): void {
  deleteConfig(ctx, input.Bucket!, 'cors');
}

/** The bucket's CORS rules, or undefined (no error for a missing bucket: callers decide). */
export function corsRules(ctx: Ctx, bucket: string): S3.CORSRule[] | undefined {
  const text = repo(ctx).getConfig(bucket, 'cors');
  return text === undefined ? undefined : (JSON.parse(text) as S3.CORSRule[]);
}

// --- default encryption ---

const SSE_ALGORITHMS = ['AES256', 'aws:kms', 'aws:kms:dsse'];

export function putBucketEncryption(ctx: Ctx, input: S3.PutBucketEncryptionRequest): void {
  const rules = input.ServerSideEncryptionConfiguration?.Rules;
  if (!rules || rules.length !== 1) throw s3Errors.malformedXml();
  const sse = rules[0]!.ApplyServerSideEncryptionByDefault;
  if (!sse?.SSEAlgorithm || !SSE_ALGORITHMS.includes(sse.SSEAlgorithm)) throw s3Errors.malformedXml();
  if (sse.KMSMasterKeyID && !sse.SSEAlgorithm.startsWith('aws:kms')) {
    throw s3Errors.invalidArgument(
      'a KMSMasterKeyID is not applicable if the default sse algorithm is not aws:kms or aws:kms:dsse',
      'ApplyServerSideEncryptionByDefault',
    );
  }
  writeConfig(ctx, input.Bucket!, 'encryption', { Rules: rules });
}

export function getBucketEncryption(ctx: Ctx, input: S3.GetBucketEncryptionRequest): S3.GetBucketEncryptionOutput {
  const config = readConfig<S3.ServerSideEncryptionConfiguration>(ctx, input.Bucket!, 'encryption');
  if (!config) {
    notFound(
      'ServerSideEncryptionConfigurationNotFoundError',
      'The server side encryption configuration was not found',
      input.Bucket!,
    );
  }
  return { ServerSideEncryptionConfiguration: config };
}

export function deleteBucketEncryption(ctx: Ctx, input: S3.DeleteBucketEncryptionRequest): void {
  deleteConfig(ctx, input.Bucket!, 'encryption');
}

/** The default encryption rule new objects get, if the bucket has one. */
export function defaultEncryption(ctx: Ctx, bucket: string): S3.ServerSideEncryptionByDefault | undefined {
  const text = repo(ctx).getConfig(bucket, 'encryption');
  if (text === undefined) return undefined;
  return (JSON.parse(text) as S3.ServerSideEncryptionConfiguration).Rules?.[0]?.ApplyServerSideEncryptionByDefault;
}

// --- versioning (stored; objects are not versioned) ---

export function putBucketVersioning(ctx: Ctx, input: S3.PutBucketVersioningRequest): void {
  const status = input.VersioningConfiguration?.Status;
  if (status !== 'Enabled' && status !== 'Suspended') throw s3Errors.malformedXml();
  if (status === 'Suspended' && readConfig(ctx, input.Bucket!, 'object-lock')) {
    throw new AwsError(
      'InvalidBucketState',
      'An Object Lock configuration is present on this bucket, so the versioning state cannot be changed.',
      409,
    );
  }
  const value: S3.VersioningConfiguration = { Status: status };
  if (input.VersioningConfiguration?.MFADelete) value.MFADelete = input.VersioningConfiguration.MFADelete;
  writeConfig(ctx, input.Bucket!, 'versioning', value);
}

export function getBucketVersioning(ctx: Ctx, input: S3.GetBucketVersioningRequest): S3.GetBucketVersioningOutput {
  return readConfig<S3.GetBucketVersioningOutput>(ctx, input.Bucket!, 'versioning') ?? {};
}

// --- lifecycle ---

export function putBucketLifecycleConfiguration(ctx: Ctx, input: S3.PutBucketLifecycleConfigurationRequest): S3.PutBucketLifecycleConfigurationOutput {
  const rules = input.LifecycleConfiguration?.Rules;
  if (!rules || rules.length === 0) throw s3Errors.malformedXml();
  for (const rule of rules) {
    if (rule.Status !== 'Enabled' && rule.Status !== 'Disabled') throw s3Errors.malformedXml();
    if (rule.ID && rule.ID.length > 255) throw s3Errors.invalidArgument('ID length should not exceed allowed limit of 255', 'ID', rule.ID);
  }
  writeConfig(ctx, input.Bucket!, 'lifecycle', rules);
  return { TransitionDefaultMinimumObjectSize: input.TransitionDefaultMinimumObjectSize ?? 'all_storage_classes_128K' };
}

export function getBucketLifecycleConfiguration(
  ctx: Ctx,
  input: S3.GetBucketLifecycleConfigurationRequest,
): S3.GetBucketLifecycleConfigurationOutput {
  const rules = readConfig<S3.LifecycleRule[]>(ctx, input.Bucket!, 'lifecycle');
  if (!rules) notFound('NoSuchLifecycleConfiguration', 'The lifecycle configuration does not exist', input.Bucket!);
  return { Rules: rules, TransitionDefaultMinimumObjectSize: 'all_storage_classes_128K' };
}

export function deleteBucketLifecycle(ctx: Ctx, input: S3.DeleteBucketLifecycleRequest): void {
  deleteConfig(ctx, input.Bucket!, 'lifecycle');
}

// --- public access block, ownership controls ---

export function putPublicAccessBlock(ctx: Ctx, input: S3.PutPublicAccessBlockRequest): void {
  const c = input.PublicAccessBlockConfiguration ?? {};
  writeConfig(ctx, input.Bucket!, 'public-access-block', {
    BlockPublicAcls: c.BlockPublicAcls ?? false,
    IgnorePublicAcls: c.IgnorePublicAcls ?? false,
    BlockPublicPolicy: c.BlockPublicPolicy ?? false,
    RestrictPublicBuckets: c.RestrictPublicBuckets ?? false,
  });
}

export function getPublicAccessBlock(ctx: Ctx, input: S3.GetPublicAccessBlockRequest): S3.GetPublicAccessBlockOutput {
  const c = readConfig<S3.PublicAccessBlockConfiguration>(ctx, input.Bucket!, 'public-access-block');
  if (!c) notFound('NoSuchPublicAccessBlockConfiguration', 'The public access block configuration was not found', input.Bucket!);
  return { PublicAccessBlockConfiguration: c };
}

export function deletePublicAccessBlock(ctx: Ctx, input: S3.DeletePublicAccessBlockRequest): void {
  deleteConfig(ctx, input.Bucket!, 'public-access-block');
}

export function putBucketOwnershipControls(ctx: Ctx, input: S3.PutBucketOwnershipControlsRequest): void {
  const rules = input.OwnershipControls?.Rules;
  const ownership = rules?.[0]?.ObjectOwnership;
  if (!rules || rules.length !== 1 || !['BucketOwnerPreferred', 'ObjectWriter', 'BucketOwnerEnforced'].includes(ownership ?? '')) {
    throw s3Errors.malformedXml();
  }
  writeConfig(ctx, input.Bucket!, 'ownership', { Rules: rules });
}

export function getBucketOwnershipControls(ctx: Ctx, input: S3.GetBucketOwnershipControlsRequest): S3.GetBucketOwnershipControlsOutput {
  const c = readConfig<S3.OwnershipControls>(ctx, input.Bucket!, 'ownership');
  if (!c) notFound('OwnershipControlsNotFoundError', 'The bucket ownership controls were not found', input.Bucket!);
  return { OwnershipControls: c };
}

export function deleteBucketOwnershipControls(ctx: Ctx, input: S3.DeleteBucketOwnershipControlsRequest): void {
  deleteConfig(ctx, input.Bucket!, 'ownership');
}

// --- configurations stored as sent, with AWS's empty answer when never set ---

export function putBucketNotificationConfiguration(ctx: Ctx, input: S3.PutBucketNotificationConfigurationRequest): void {
  writeConfig(ctx, input.Bucket!, 'notification', input.NotificationConfiguration ?? {});
}

export function getBucketNotificationConfiguration(ctx: Ctx, input: S3.GetBucketNotificationConfigurationRequest): S3.NotificationConfiguration {
  return readConfig<S3.NotificationConfiguration>(ctx, input.Bucket!, 'notification') ?? {};
}

export function putBucketLogging(ctx: Ctx, input: S3.PutBucketLoggingRequest): void {
  writeConfig(ctx, input.Bucket!, 'logging', input.BucketLoggingStatus ?? {});
}

export function getBucketLogging(ctx: Ctx, input: S3.GetBucketLoggingRequest): S3.GetBucketLoggingOutput {
  return readConfig<S3.GetBucketLoggingOutput>(ctx, input.Bucket!, 'logging') ?? {};
}

export function putBucketAccelerateConfiguration(ctx: Ctx, input: S3.PutBucketAccelerateConfigurationRequest): void {
  const status = input.AccelerateConfiguration?.Status;
  if (status !== 'Enabled' && status !== 'Suspended') throw s3Errors.malformedXml();
  writeConfig(ctx, input.Bucket!, 'accelerate', { Status: status });
}

export function getBucketAccelerateConfiguration(ctx: Ctx, input: S3.GetBucketAccelerateConfigurationRequest): S3.GetBucketAccelerateConfigurationOutput {
  return readConfig<S3.GetBucketAccelerateConfigurationOutput>(ctx, input.Bucket!, 'accelerate') ?? {};
}

export function putBucketRequestPayment(ctx: Ctx, input: S3.PutBucketRequestPaymentRequest): void {
  const payer = input.RequestPaymentConfiguration?.Payer;
  if (payer !== 'Requester' && payer !== 'BucketOwner') throw s3Errors.malformedXml();
  writeConfig(ctx, input.Bucket!, 'request-payment', { Payer: payer });
}

export function getBucketRequestPayment(ctx: Ctx, input: S3.GetBucketRequestPaymentRequest): S3.GetBucketRequestPaymentOutput {
  return readConfig<S3.GetBucketRequestPaymentOutput>(ctx, input.Bucket!, 'request-payment') ?? { Payer: 'BucketOwner' };
}

export function putBucketWebsite(ctx: Ctx, input: S3.PutBucketWebsiteRequest): void {
  const c = input.WebsiteConfiguration;
  if (!c || (!c.IndexDocument && !c.RedirectAllRequestsTo)) throw s3Errors.malformedXml();
  writeConfig(ctx, input.Bucket!, 'website', c);
}

export function getBucketWebsite(ctx: Ctx, input: S3.GetBucketWebsiteRequest): S3.GetBucketWebsiteOutput {
  const c = readConfig<S3.GetBucketWebsiteOutput>(ctx, input.Bucket!, 'website');
  if (!c) notFound('NoSuchWebsiteConfiguration', 'The specified bucket does not have a website configuration', input.Bucket!);
  return c;
}

export function deleteBucketWebsite(ctx: Ctx, input: S3.DeleteBucketWebsiteRequest): void {
  deleteConfig(ctx, input.Bucket!, 'website');
}

export function putObjectLockConfiguration(ctx: Ctx, input: S3.PutObjectLockConfigurationRequest): S3.PutObjectLockConfigurationOutput {
  const versioning = readConfig<S3.VersioningConfiguration>(ctx, input.Bucket!, 'versioning');
  if (versioning?.Status !== 'Enabled') {
    throw s3Errors.invalidRequest('Versioning must be \'Enabled\' on the bucket to apply a Object Lock configuration');
  }
  if (input.ObjectLockConfiguration?.ObjectLockEnabled !== 'Enabled') throw s3Errors.malformedXml();
  writeConfig(ctx, input.Bucket!, 'object-lock', input.ObjectLockConfiguration);
  return {};
}

export function getObjectLockConfiguration(ctx: Ctx, input: S3.GetObjectLockConfigurationRequest): S3.GetObjectLockConfigurationOutput {
  const c = readConfig<S3.ObjectLockConfiguration>(ctx, input.Bucket!, 'object-lock');
  if (!c) notFound('ObjectLockConfigurationNotFoundError', 'Object Lock configuration does not exist for this bucket', input.Bucket!);
  return { ObjectLockConfiguration: c };
}

export function putBucketReplication(ctx: Ctx, input: S3.PutBucketReplicationRequest): void {
  const versioning = readConfig<S3.VersioningConfiguration>(ctx, input.Bucket!, 'versioning');
  if (versioning?.Status !== 'Enabled') {
    throw s3Errors.invalidRequest("Versioning must be 'Enabled' on the bucket to apply a replication configuration");
  }
  if (!input.ReplicationConfiguration?.Rules?.length) throw s3Errors.malformedXml();
  writeConfig(ctx, input.Bucket!, 'replication', input.ReplicationConfiguration);
}

export function getBucketReplication(ctx: Ctx, input: S3.GetBucketReplicationRequest): S3.GetBucketReplicationOutput {
  const c = readConfig<S3.ReplicationConfiguration>(ctx, input.Bucket!, 'replication');
  if (!c) notFound('ReplicationConfigurationNotFoundError', 'The replication configuration was not found', input.Bucket!);
  return { ReplicationConfiguration: c };
}

export function deleteBucketReplication(ctx: Ctx, input: S3.DeleteBucketReplicationRequest): void {
  deleteConfig(ctx, input.Bucket!, 'replication');
}

// --- ACLs: accepted, not enforced; the owner always has full control ---

function ownerAcl(account: string): { Owner: S3.Owner; Grants: S3.Grant[] } {
  const owner = ownerOf(account);
  return {
    Owner: owner,
    Grants: [{ Grantee: { ...owner, Type: 'CanonicalUser' }, Permission: 'FULL_CONTROL' }],
  };
}

export function getBucketAcl(ctx: Ctx, input: S3.GetBucketAclRequest): S3.GetBucketAclOutput {
  const bucket = requireBucket(ctx, input.Bucket!);
  return ownerAcl(bucket.account);
}

export function putBucketAcl(ctx: Ctx, input: S3.PutBucketAclRequest): void {
  requireBucket(ctx, input.Bucket!);
}
