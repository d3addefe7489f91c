/**
 * Table commits of the REST catalog (`POST …/tables/{table}`, and in the permissive mode
 * `transactions/commit`), as the Java reference server runs them (`CatalogHandlers.commit`): the
 * requirements checked against the table's current metadata, the updates applied by the Iceberg
 * metadata builder, the new metadata.json written into the warehouse and the pointer moved by
 * the same compare-and-swap UpdateTableMetadataLocation uses. Commits to one table through this
 * server queue behind each other; when the pointer moved under a commit by another road (the S3
 * Tables API), it is re-planned against the new metadata — requirements checked again — a few
 * times before it fails with 409 CommitFailedException.
 */
import { emptyMetadata, MetadataBuilder } from '../../iceberg/metadata-builder.js';
import { checkRequirement } from '../../iceberg/requirements.js';
import type { TableMetadata } from '../../iceberg/types.js';
import { parseRequirement, parseUpdate, type TableRequirement, type TableUpdate } from '../../iceberg/updates.js';
import type { Runtime } from '../../runtime/runtime.js';
import type { TableRow } from '../../store/s3tables-repo.js';
import { isAwsError } from '../../wire/errors.js';
import { bucketNameOf, repo, requireTable } from '../s3tables/lookup.js';
import { s3tErrors } from '../s3tables/errors.js';
import {
  commitTableMetadata,
  currentMetadata,
  movePointer,
  nextMetadataLocation,
  readMetadataFile,
  splitLocation,
  writeTableMetadata,
} from '../s3tables/table-metadata.js';
import { deleteObject } from '../s3/provider.js';
import { checkCreateTable, createStagedTable } from '../s3tables/tables.js';
import { iceErrors, translate } from './errors.js';
import type { Warehouse } from './warehouse.js';

interface CommitRequest {
  requirements: TableRequirement[];
  updates: TableUpdate[];
}

interface TableIdent {
  namespace: string;
  table: string;
}

/** A CommitTableRequest body: `{requirements: [...], updates: [...]}` (identifier ignored here). */
export function parseCommitRequest(body: unknown): CommitRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw iceErrors.badRequest('Invalid commit request: the body must be an object');
  const o = body as Record<string, unknown>;
  const requirements = o.requirements ?? [];
  const updates = o.updates ?? [];
  if (!Array.isArray(requirements)) throw iceErrors.badRequest('Invalid commit request: requirements must be a list');
  if (!Array.isArray(updates)) throw iceErrors.badRequest('Invalid commit request: updates must be a list');
  try {
    const parsed = { requirements: requirements.map(parseRequirement), updates: updates.map(parseUpdate) };
    const creates = parsed.requirements.filter((r) => r.type === 'assert-create').length;
    if (creates > 0 && creates !== parsed.requirements.length) {
      throw iceErrors.badRequest(`Invalid create requirements: ${parsed.requirements.filter((r) => r.type !== 'assert-create').map((r) => r.type).join(', ')}`);
    }
    return parsed;
  } catch (err) {
    throw translate(err, {});
  }
}

const queues = new WeakMap<Runtime, Map<string, Promise<unknown>>>();

/** Runs `fn` after every earlier call for the same key has settled. */
async function serialized<T>(rt: Runtime, key: string, fn: () => Promise<T>): Promise<T> {
  let q = queues.get(rt);
  if (!q) {
    q = new Map();
    queues.set(rt, q);
  }
  const previous = q.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  q.set(key, settled);
  void settled.then(() => {
    if (q!.get(key) === settled) q!.delete(key);
  });
  return run;
}

/** How often a commit is re-planned after another road moved the table's pointer under it. */
const ATTEMPTS = 4;

function isTokenConflict(err: unknown): boolean {
  const expected = s3tErrors.versionTokenMismatch();
  return isAwsError(err) && err.code === expected.code && err.message === expected.message;
}

/** The metadata a commit leads to, or undefined when it changes nothing. */
function plan(row: TableRow, base: TableMetadata | undefined, request: CommitRequest, now: number): TableMetadata | undefined {
  const creating = request.requirements.some((r) => r.type === 'assert-create');
  if (!base && !creating) return undefined;
  if (base) for (const r of request.requirements) checkRequirement(base, r);
  const builder = new MetadataBuilder(base ?? emptyMetadata(row.warehouse, now), now, row.metadata_location ?? undefined);
  for (const u of request.updates) builder.apply(u);
  const next = builder.build();
  if (next && next.location !== row.warehouse && !next.location.startsWith(`${row.warehouse}/`)) {
    throw iceErrors.badRequest(`Cannot set the location of an S3 Tables table outside its warehouse ${row.warehouse}: ${next.location}`);
  }
  return next;
}

export async function commitTable(
  w: Warehouse,
  ident: TableIdent,
  request: CommitRequest,
): Promise<{ location: string; text: string }> {
  const subject = { namespace: ident.namespace, table: ident.table };
  const name = `${ident.namespace}.${ident.table}`;
  try {
    if (w.ctx.rt.config.icebergPermissive && request.requirements.some((r) => r.type === 'assert-create')) {
      const existing = repo(w.ctx).getTableByName(w.ctx.account, w.ctx.region, bucketNameOf(w.ctx, w.arn), ident.namespace, ident.table);
      if (!existing) return await createFromStaged(w, ident, request);
    }
    const found = requireTable(w.ctx, { tableBucketARN: w.arn, namespace: ident.namespace, name: ident.table });
    if (found.replica_of) throw s3tErrors.replicaReadOnly(found.replica_of);
    return await serialized(w.ctx.rt, found.id, async () => {
      for (let attempt = 1; ; attempt++) {
        const row = repo(w.ctx).getTable(found.id);
        if (!row) throw iceErrors.noSuchTable(name);
        const base = await currentMetadata(w.ctx, row);
        const next = plan(row, base, request, Date.now());
        if (!base && !next) throw iceErrors.noSuchTable(name);
        if (!next) return { location: row.metadata_location!, text: (await readMetadataFile(w.ctx, row.metadata_location!)).text };
        try {
          const { location, text } = await commitTableMetadata(w.ctx, row, next);
          return { location, text };
        } catch (err) {
          if (!isTokenConflict(err) || attempt >= ATTEMPTS) throw err;
        }
      }
    });
  } catch (err) {
    throw translate(err, subject);
  }
}

/**
 * Several tables' commits at once (permissive mode): every change planned, every metadata file
 * written, then all pointers moved in one transaction — all or none.
 */
export async function commitTransactionChanges(w: Warehouse, changes: { ident: TableIdent; request: CommitRequest }[]): Promise<void> {
  const planned: { row: TableRow; next: TableMetadata; location: string }[] = [];
  const seen = new Set<string>();
  try {
    for (const { ident, request } of changes) {
      const row = requireTable(w.ctx, { tableBucketARN: w.arn, namespace: ident.namespace, name: ident.table });
      if (row.replica_of) throw s3tErrors.replicaReadOnly(row.replica_of);
      if (seen.has(row.id)) throw iceErrors.badRequest(`Invalid commit transaction: ${ident.namespace}.${ident.table} appears more than once`);
      seen.add(row.id);
      const base = await currentMetadata(w.ctx, row);
      const next = plan(row, base, request, Date.now());
      if (!base && !next) throw iceErrors.noSuchTable(`${ident.namespace}.${ident.table}`);
      if (next) planned.push({ row, next, location: nextMetadataLocation(next, row.metadata_location) });
    }
    for (const p of planned) await writeTableMetadata(w.ctx, p.location, p.next);
    w.ctx.rt.meta.tx(() => {
      for (const p of planned) movePointer(w.ctx, p.row, p.row.version_token, p.location);
    });
  } catch (err) {
    for (const p of planned) {
      const where = splitLocation(p.location)!;
      try {
        deleteObject(w.ctx, { Bucket: where.bucket, Key: where.key });
      } catch {
        // Not written yet, or the table is gone.
      }
    }
    throw translate(err, {});
  }
}

/** The `assert-create` commit of a staged create (permissive mode): the table made from its updates. */
async function createFromStaged(w: Warehouse, ident: TableIdent, request: CommitRequest): Promise<{ location: string; text: string }> {
  const input = { tableBucketARN: w.arn, namespace: ident.namespace, name: ident.table, format: 'ICEBERG' as const };
  checkCreateTable(input);
  const builder = new MetadataBuilder(emptyMetadata('', Date.now()), Date.now());
  for (const u of request.updates) builder.apply(u);
  const metadata = builder.build();
  if (!metadata || metadata.schemas.length === 0) throw iceErrors.badRequest('A create commit must add a schema.');
  const row = await createStagedTable(w.ctx, input, metadata);
  return { location: row.metadata_location!, text: (await readMetadataFile(w.ctx, row.metadata_location!)).text };
}
