/**
 * The Iceberg REST catalog's operations as S3 Tables serves them: config, namespaces and tables of
 * one table bucket (the warehouse), each built on the S3 Tables provider functions the API calls,
 * so the REST view and the S3 Tables view are one catalog — same names, rules, errors (translated
 * to Iceberg's types) and version tokens. Table commits live in commit.ts. Operations AWS does
 * not serve answer 404 UnknownOperationException (routes.ts); the permissive mode serves metrics
 * reports and multi-table transactions here, and staged creates in create.ts.
 */
import { hash } from 'node:crypto';
import { RawJson } from '../../iceberg/json.js';
import type { Snapshot, TableMetadata } from '../../iceberg/types.js';
import type { Ctx } from '../../runtime/runtime.js';
import { getTableBucket } from '../s3tables/buckets.js';
import { requireTable } from '../s3tables/lookup.js';
import { createNamespace as s3tCreateNamespace, deleteNamespace, getNamespace, listNamespaces as s3tListNamespaces } from '../s3tables/namespaces.js';
import { readMetadataFile } from '../s3tables/table-metadata.js';
import { deleteTable, listTables as s3tListTables, renameTable as s3tRenameTable } from '../s3tables/tables.js';
import { commitTable, commitTransactionChanges, parseCommitRequest } from './commit.js';
import { createTableFromRequest } from './create.js';
import { iceErrors, translate, type Subject } from './errors.js';
import { resolveWarehouse, storageConfig, type CatalogAction, type Warehouse } from './warehouse.js';

export interface RestInput {
  prefix?: string;
  namespace?: string;
  table?: string;
  /** First value of each query parameter. */
  query: Record<string, string>;
  body?: unknown;
  host?: string;
  ifNoneMatch?: string;
}

export interface RestResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const NO_CONTENT: RestResult = { status: 204 };
const ok = (body: unknown, headers?: Record<string, string>): RestResult => ({ status: 200, body, headers });

/** Runs `fn` with S3 Tables errors translated to the Iceberg types REST clients switch on. */
async function as<T>(subject: Subject, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw translate(err, subject);
  }
}

/** The one-level namespace of a path; multi-level ones (joined by U+001F) S3 Tables refuses. */
function namespaceOf(input: RestInput): string {
  const ns = input.namespace ?? '';
  if (ns.includes('\u001f') || ns.includes('\u001F')) throw iceErrors.multipartNamespace();
  return ns;
}

function scope(ctx: Ctx, input: RestInput, action: CatalogAction): Warehouse {
  return resolveWarehouse(ctx, input.prefix, action);
}

/** `pageSize`: a positive integer; S3 Tables pages hold at most 1000. */
function pageSize(input: RestInput): number | undefined {
  const raw = input.query.pageSize;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw iceErrors.badRequest(`Invalid pageSize: ${raw} (a positive integer is required)`);
  return Math.min(n, 1000);
}

/**
 * Every page of a listing when the client asked for no page size (the Java client and pyiceberg
 * list without one and expect everything); one page otherwise.
 */
async function pages<T>(
  input: RestInput,
  fetch: (size: number | undefined, token: string | undefined) => { items: T[]; token?: string },
): Promise<{ items: T[]; next?: string }> {
  const size = pageSize(input);
  const first = input.query.pageToken || undefined;
  if (size !== undefined) {
    const page = fetch(size, first);
    return { items: page.items, next: page.token };
  }
  const items: T[] = [];
  let token = first;
  do {
    const page = fetch(1000, token);
    items.push(...page.items);
    token = page.token;
  } while (token);
  return { items };
}

export async function getConfig(ctx: Ctx, input: RestInput): Promise<RestResult> {
  const arn = input.query.warehouse;
  if (!arn) {
    throw iceErrors.badRequest('The warehouse query parameter is required: GET /v1/config?warehouse=<table bucket ARN>.');
  }
  const w = resolveWarehouse(ctx, arn, 'GetTableBucket');
  await as({}, () => getTableBucket(w.ctx, { tableBucketARN: w.arn }));
  // S3 Tables answers the prefix (the percent-encoded ARN) and no `endpoints` list.
  return ok({ defaults: {}, overrides: { prefix: encodeURIComponent(w.arn) } });
}

export async function listNamespaces(ctx: Ctx, input: RestInput): Promise<RestResult> {
  if (input.query.parent) throw iceErrors.multipartNamespace();
  const w = scope(ctx, input, 'ListNamespaces');
  const { items, next } = await as({}, () =>
    pages(input, (size, token) => {
      const out = s3tListNamespaces(w.ctx, { tableBucketARN: w.arn, maxNamespaces: size, continuationToken: token });
      return { items: (out.namespaces ?? []).map((n) => n.namespace!), token: out.continuationToken };
    }),
  );
  return ok({ namespaces: items, ...(next ? { 'next-page-token': next } : {}) });
}

const SUPPORTED_NAMESPACE_PROPERTIES = new Set(['owner']);

export async function createNamespace(ctx: Ctx, input: RestInput): Promise<RestResult> {
  const w = scope(ctx, input, 'CreateNamespace');
  const body = input.body as { namespace?: unknown; properties?: unknown } | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw iceErrors.badRequest('Invalid namespace: the request body is missing');
  const parts = body.namespace;
  if (!Array.isArray(parts) || parts.length === 0 || parts.some((p) => typeof p !== 'string')) {
    throw iceErrors.badRequest('Invalid namespace: namespace must be a non-empty list of strings');
  }
  if (parts.length > 1) throw iceErrors.multipartNamespace();
  const properties = body.properties ?? {};
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) {
    throw iceErrors.badRequest('Invalid namespace properties: properties must be a map of strings');
  }
  for (const [k, v] of Object.entries(properties)) {
    if (typeof v !== 'string') throw iceErrors.badRequest(`Invalid namespace properties: the value of '${k}' must be a string`);
    // S3 Tables keeps no namespace properties but `owner`, which Spark sets on every CREATE NAMESPACE.
    if (!SUPPORTED_NAMESPACE_PROPERTIES.has(k)) {
      throw iceErrors.badRequest(`S3 Tables supports only the owner namespace property; '${k}' cannot be set.`);
    }
  }
  const name = parts[0] as string;
  await as({ namespace: name }, () => s3tCreateNamespace(w.ctx, { tableBucketARN: w.arn, namespace: [name] }));
  return ok({ namespace: [name], properties: {} });
}

export async function loadNamespace(ctx: Ctx, input: RestInput): Promise<RestResult> {
  const w = scope(ctx, input, 'GetNamespace');
  const ns = namespaceOf(input);
  await as({ namespace: ns }, () => getNamespace(w.ctx, { tableBucketARN: w.arn, namespace: ns }));
  // pyiceberg rejects a null `properties` although the spec allows it.
  return ok({ namespace: [ns], properties: {} });
}

export async function namespaceExists(ctx: Ctx, input: RestInput): Promise<RestResult> {
  await loadNamespace(ctx, input);
  return NO_CONTENT;
}

export async function dropNamespace(ctx: Ctx, input: RestInput): Promise<RestResult> {
  const w = scope(ctx, input, 'DeleteNamespace');
  const ns = namespaceOf(input);
  await as({ namespace: ns }, () => deleteNamespace(w.ctx, { tableBucketARN: w.arn, namespace: ns }));
  return NO_CONTENT;
}

export async function listTables(ctx: Ctx, input: RestInput): Promise<RestResult> {
  const w = scope(ctx, input, 'ListTables');
  const ns = namespaceOf(input);
  const { items, next } = await as({ namespace: ns }, () =>
    pages(input, (size, token) => {
      const out = s3tListTables(w.ctx, { tableBucketARN: w.arn, namespace: ns, maxTables: size, continuationToken: token });
      return { items: (out.tables ?? []).map((t) => ({ namespace: t.namespace!, name: t.name! })), token: out.continuationToken };
    }),
  );
  return ok({ identifiers: items, ...(next ? { 'next-page-token': next } : {}) });
}

export async function createTable(ctx: Ctx, input: RestInput): Promise<RestResult> {
  const w = scope(ctx, input, 'CreateTable');
  const ns = namespaceOf(input);
  const { metadataLocation, metadata } = await createTableFromRequest(w, ns, input.body);
  const answer = metadataLocation ? new RawJson((await readMetadataFile(w.ctx, metadataLocation)).text) : metadata;
  const body = { 'metadata-location': metadataLocation, metadata: answer, config: storageConfig(w.ctx, input.host) };
  return ok(body, metadataLocation ? { etag: etagOf(metadataLocation) } : undefined);
}

/** The ETag of a table's answer: its metadata file and the snapshot mode (REST spec, loadTable). */
function etagOf(location: string, mode = 'all'): string {
  return `"${hash('sha1', `${location}|${mode}`)}"`;
}

/** Only the snapshots a ref points at (`snapshots=refs`), as the Java server's REFS mode returns. */
function refsOnly(m: TableMetadata): TableMetadata {
  const referenced = new Set(Object.values(m.refs).map((r) => r['snapshot-id']));
  return { ...m, snapshots: m.snapshots.filter((s: Snapshot) => referenced.has(s['snapshot-id'])) };
}

export async function loadTable(ctx: Ctx, input: RestInput): Promise<RestResult> {
  const w = scope(ctx, input, 'GetTableMetadataLocation');
  const ns = namespaceOf(input);
  const subject = { namespace: ns, table: input.table };
  const mode = (input.query.snapshots ?? 'all').toLowerCase();
  if (mode !== 'all' && mode !== 'refs') throw iceErrors.badRequest(`Invalid snapshot mode: ${input.query.snapshots}`);
  const t = await as(subject, () => requireTable(w.ctx, { tableBucketARN: w.arn, namespace: ns, name: input.table }));
  // A table made through the S3 Tables API without metadata is not an Iceberg table yet.
  if (!t.metadata_location) throw iceErrors.noSuchTable(`${ns}.${input.table}`);
  const file = await as(subject, () => readMetadataFile(w.ctx, t.metadata_location!));
  const etag = etagOf(t.metadata_location, mode);
  if (input.ifNoneMatch !== undefined && input.ifNoneMatch.split(',').some((v) => v.trim() === etag)) {
    return { status: 304, headers: { etag } };
  }
  return ok(
    {
      'metadata-location': t.metadata_location,
      metadata: mode === 'refs' ? refsOnly(file.doc) : new RawJson(file.text),
      config: storageConfig(w.ctx, input.host),
    },
    { etag },
  );
}

export async function tableExists(ctx: Ctx, input: RestInput): Promise<RestResult> {
  const w = scope(ctx, input, 'GetTable');
  const ns = namespaceOf(input);
  await as({ namespace: ns, table: input.table }, () =>
    requireTable(w.ctx, { tableBucketARN: w.arn, namespace: ns, name: input.table }),
  );
  return NO_CONTENT;
}

export async function updateTable(ctx: Ctx, input: RestInput): Promise<RestResult> {
  const w = scope(ctx, input, 'UpdateTableMetadataLocation');
  const ns = namespaceOf(input);
  const request = parseCommitRequest(input.body);
  const { location, text } = await commitTable(w, { namespace: ns, table: input.table! }, request);
  return ok({ 'metadata-location': location, metadata: new RawJson(text) }, { etag: etagOf(location) });
}

export async function dropTable(ctx: Ctx, input: RestInput): Promise<RestResult> {
  const w = scope(ctx, input, 'DeleteTable');
  const ns = namespaceOf(input);
  // pyiceberg sends `True`/`False` (Python's spelling), the Java client `true`/`false`.
  if ((input.query.purgeRequested ?? '').toLowerCase() !== 'true') {
    throw iceErrors.badRequest('S3 Tables only supports dropping tables with purge enabled');
  }
  await as({ namespace: ns, table: input.table }, () => deleteTable(w.ctx, { tableBucketARN: w.arn, namespace: ns, name: input.table }));
  return NO_CONTENT;
}

function identifier(value: unknown, what: string): { namespace: string; name: string } {
  const o = value as { namespace?: unknown; name?: unknown } | null | undefined;
  if (!o || typeof o !== 'object' || !Array.isArray(o.namespace) || o.namespace.some((p) => typeof p !== 'string')) {
    throw iceErrors.badRequest(`Invalid ${what} table identifier: namespace must be a list of strings`);
  }
  if (typeof o.name !== 'string' || o.name === '') throw iceErrors.badRequest(`Invalid ${what} table identifier: name is missing`);
  if (o.namespace.length !== 1) throw iceErrors.multipartNamespace();
  return { namespace: o.namespace[0] as string, name: o.name };
}

export async function renameTable(ctx: Ctx, input: RestInput): Promise<RestResult> {
  const w = scope(ctx, input, 'RenameTable');
  const body = (input.body ?? {}) as { source?: unknown; destination?: unknown };
  const source = identifier(body.source, 'source');
  const destination = identifier(body.destination, 'destination');
  const subject: Subject = {
    namespace: source.namespace,
    table: source.name,
    destination: { namespace: destination.namespace, table: destination.name },
  };
  await as(subject, () =>
    s3tRenameTable(w.ctx, {
      tableBucketARN: w.arn,
      namespace: source.namespace,
      name: source.name,
      newNamespaceName: destination.namespace !== source.namespace ? destination.namespace : undefined,
      newName: destination.name !== source.name ? destination.name : undefined,
    }),
  );
  return NO_CONTENT;
}

export async function reportMetrics(ctx: Ctx, input: RestInput): Promise<RestResult> {
  if (!ctx.rt.config.icebergPermissive) throw iceErrors.unknownOperation('POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics');
  await tableExists(ctx, input);
  return NO_CONTENT;
}

export async function commitTransaction(ctx: Ctx, input: RestInput): Promise<RestResult> {
  if (!ctx.rt.config.icebergPermissive) throw iceErrors.unknownOperation('POST /v1/{prefix}/transactions/commit');
  const w = scope(ctx, input, 'UpdateTableMetadataLocation');
  const body = input.body as { 'table-changes'?: unknown } | undefined;
  const changes = body?.['table-changes'];
  if (!Array.isArray(changes)) throw iceErrors.badRequest('Invalid commit transaction: table-changes must be a list');
  await commitTransactionChanges(
    w,
    changes.map((c) => {
      const ident = identifier((c as { identifier?: unknown })?.identifier, 'commit');
      return { ident: { namespace: ident.namespace, table: ident.name }, request: parseCommitRequest(c) };
    }),
  );
  return NO_CONTENT;
}
