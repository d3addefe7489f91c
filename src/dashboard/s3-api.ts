/**
 * The dashboard's S3 data: the account's buckets and, apart, the S3 Tables warehouses (owned by
 * the service, invisible to ListBuckets as on AWS) each with the table it belongs to; an object
 * browser over ListObjectsV2 with `/` as the delimiter and its continuation tokens; an object's
 * metadata (and the text of a small textual object); downloads, sent as attachments in a sandbox
 * so an HTML object never runs in the dashboard's origin; and DeleteObject.
 */
import type { FastifyReply } from 'fastify';
import * as s3 from '../services/s3/provider.js';
import { WAREHOUSE_OWNER } from '../services/s3tables/warehouse.js';
import { tableArn, tableBucketArn, WAREHOUSE_SUFFIX } from '../services/s3tables/naming.js';
import { S3TablesRepo } from '../store/s3tables-repo.js';
import { badRequest, nextToken, pageSize, type DashboardRequest, type JsonAnswer } from './http.js';

const PAGE = 100;
const TEXT_PREVIEW = 64 * 1024;

function keyParam(r: DashboardRequest): string {
  const key = r.query.get('key');
  if (!key) throw badRequest('Name the object with ?key=.');
  return key;
}

export function listBuckets(r: DashboardRequest): JsonAnswer {
  const warehouses = r.query.get('warehouses') === '1';
  const ctx = warehouses ? { ...r.ctx, account: WAREHOUSE_OWNER } : r.ctx;
  const out = s3.listBuckets(ctx, {
    ContinuationToken: nextToken(r.query),
    MaxBuckets: pageSize(r.query, PAGE, 1000),
    Prefix: r.query.get('prefix') || undefined,
    ...(warehouses ? { BucketRegion: r.ctx.region } : {}),
  });
  const repo = warehouses ? new S3TablesRepo(r.rt.meta) : undefined;
  return {
    body: {
      items: (out.Buckets ?? []).map((b) => ({
        name: b.Name,
        created: b.CreationDate,
        region: b.BucketRegion,
        ...(repo ? { table: warehouseTable(repo, b.Name!, r.ctx.partition) } : {}),
      })),
      next: out.ContinuationToken,
    },
  };
}

/**
 * The table a warehouse bucket belongs to: its name starts with the first 19 characters of the
 * table id, so the table is among the few ids after that prefix (one index range, no scan).
 */
function warehouseTable(repo: S3TablesRepo, bucket: string, partition: string) {
  if (!bucket.endsWith(WAREHOUSE_SUFFIX)) return undefined;
  for (const t of repo.tablesAfter(bucket.slice(0, 19), 20)) {
    if (!t.id.startsWith(bucket.slice(0, 19))) break;
    if (t.warehouse !== `s3://${bucket}`) continue;
    const bucketArn = tableBucketArn(partition, t.region, t.account, t.bucket);
    return { arn: tableArn(bucketArn, t.id), name: t.name, namespace: t.namespace, bucketArn, account: t.account };
  }
  return undefined;
}

export function getBucket(r: DashboardRequest, bucket: string): JsonAnswer {
  s3.headBucket(r.ctx, { Bucket: bucket });
  const repo = new S3TablesRepo(r.rt.meta);
  return { body: { name: bucket, warehouseOf: warehouseTable(repo, bucket, r.ctx.partition) } };
}

export function listObjects(r: DashboardRequest, bucket: string): JsonAnswer {
  const out = s3.listObjectsV2(r.ctx, {
    Bucket: bucket,
    Prefix: r.query.get('prefix') ?? '',
    Delimiter: '/',
    ContinuationToken: nextToken(r.query),
    MaxKeys: pageSize(r.query, PAGE, 1000),
  });
  return {
    body: {
      prefixes: (out.CommonPrefixes ?? []).map((p) => p.Prefix),
      objects: (out.Contents ?? []).map((o) => ({ key: o.Key, size: o.Size, modified: o.LastModified, etag: o.ETag, storageClass: o.StorageClass })),
      next: out.NextContinuationToken,
    },
  };
}

const TEXTUAL = /^(text\/|application\/(json|xml|yaml|x-yaml|javascript)|.*\+json$|.*\+xml$)/;

export async function getObject(r: DashboardRequest, bucket: string): Promise<JsonAnswer> {
  const key = keyParam(r);
  const head = s3.headObject(r.ctx, { Bucket: bucket, Key: key });
  const tagging = s3.getObjectTagging(r.ctx, { Bucket: bucket, Key: key });
  let text: string | undefined;
  const size = head.ContentLength ?? 0;
  if (size <= TEXT_PREVIEW && (TEXTUAL.test(head.ContentType ?? '') || /\.(json|txt|ya?ml|csv|md|log)$/i.test(key))) {
    const chunks: Buffer[] = [];
    for await (const c of s3.getObject(r.ctx, { Bucket: bucket, Key: key }).Body) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    const decoded = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    if (!decoded.includes('\u0000')) text = decoded;
  }
  return { body: { bucket, key, head, tags: tagging.TagSet ?? [], ...(text !== undefined ? { text } : {}) } };
}

/** `attachment; filename="…"; filename*=UTF-8''…` for any key's last segment. */
function disposition(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1) || 'object';
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function download(r: DashboardRequest, bucket: string): FastifyReply {
  const key = keyParam(r);
  const out = s3.getObject(r.ctx, { Bucket: bucket, Key: key });
  return r.reply
    .code(200)
    .header('content-disposition', disposition(key))
    .header('content-type', 'application/octet-stream')
    .header('content-length', String(out.ContentLength ?? ''))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', 'sandbox')
    .header('cache-control', 'no-store')
    .send(out.Body);
}

export function deleteObject(r: DashboardRequest, bucket: string): JsonAnswer {
  const key = keyParam(r);
  s3.headObject(r.ctx, { Bucket: bucket, Key: key });
  s3.deleteObject(r.ctx, { Bucket: bucket, Key: key });
  return { body: { deleted: key } };
}
