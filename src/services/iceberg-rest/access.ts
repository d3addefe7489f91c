/**
 * Strict mode's authorization for the Iceberg REST catalog: each catalog operation maps to the
 * `s3tables:` actions AWS lists for it (S3 User Guide, "Accessing tables using the Amazon S3 Tables
 * Iceberg REST endpoint": loadTable needs GetTableMetadataLocation and GetTableData, updateTable
 * UpdateTableMetadataLocation, PutTableData and GetTableData, createTable CreateTable and
 * PutTableData, …), checked on the table bucket or the table the path names, under the same
 * policies as the S3 Tables API. The denial is the catalog's ForbiddenException.
 */
import type { Ctx } from '../../runtime/runtime.js';
import { AwsError } from '../../wire/errors.js';
import { checkTableAccess } from '../s3tables/access.js';
import type { RestInput } from './provider.js';

type Level = 'bucket' | 'namespace' | 'table';

/** Per catalog operation: the actions, and whether they apply to the bucket, a namespace or a table. */
const RULES: Record<string, { level: Level; actions: string[] }> = {
  getConfig: { level: 'bucket', actions: ['GetTableBucket'] },
  listNamespaces: { level: 'bucket', actions: ['ListNamespaces'] },
  createNamespace: { level: 'bucket', actions: ['CreateNamespace'] },
  loadNamespace: { level: 'namespace', actions: ['GetNamespace'] },
  namespaceExists: { level: 'namespace', actions: ['GetNamespace'] },
  dropNamespace: { level: 'namespace', actions: ['DeleteNamespace'] },
  listTables: { level: 'namespace', actions: ['ListTables'] },
  createTable: { level: 'namespace', actions: ['CreateTable'] },
  loadTable: { level: 'table', actions: ['GetTableMetadataLocation', 'GetTableData'] },
  tableExists: { level: 'table', actions: ['GetTable'] },
  updateTable: { level: 'table', actions: ['UpdateTableMetadataLocation', 'PutTableData', 'GetTableData'] },
  dropTable: { level: 'table', actions: ['DeleteTable'] },
  reportMetrics: { level: 'table', actions: ['GetTable'] },
};

function forbidden(message: string): AwsError {
  return new AwsError('ForbiddenException', message, 403);
}

function withForbidden<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof AwsError && err.code === 'AccessDeniedException') throw forbidden(err.message);
    throw err;
  }
}

interface Ident {
  namespace?: unknown;
  name?: unknown;
}

/** `{namespace: ["ns"], name: "t"}` of a request body, when well formed. */
function ident(value: unknown): { namespace: string; name: string } | undefined {
  const o = value as Ident | undefined;
  if (!Array.isArray(o?.namespace) || typeof o.namespace[0] !== 'string' || typeof o.name !== 'string') return undefined;
  return { namespace: o.namespace[0], name: o.name };
}

/** The routes' authorize hook: refuses what the caller may not do, else the context to run in. */
export function authorizeCatalog(ctx: Ctx, operation: string, input: Record<string, unknown>): Ctx {
  const rest = input as unknown as RestInput;
  const bucketArn = operation === 'getConfig' ? rest.query.warehouse : rest.prefix;
  if (!bucketArn) return ctx;
  const actions = (names: string[]) => names.map((n) => `s3tables:${n}`);
  return withForbidden(() => {
    if (operation === 'createTable') {
      // CreateTable is a table bucket action; the data it writes is the new table's (`…/table/*`).
      const next = checkTableAccess(ctx, actions(['CreateTable']), bucketArn, rest.namespace);
      checkTableAccess(ctx, actions(['PutTableData']), bucketArn, rest.namespace, String((rest.body as Ident | undefined)?.name ?? '*'));
      return next;
    }
    if (operation === 'renameTable') {
      const source = ident((rest.body as { source?: unknown } | undefined)?.source);
      return checkTableAccess(ctx, actions(['RenameTable']), bucketArn, source?.namespace, source?.name);
    }
    if (operation === 'commitTransaction') {
      let next = ctx;
      const changes = (rest.body as { 'table-changes'?: unknown } | undefined)?.['table-changes'];
      for (const change of Array.isArray(changes) ? changes : []) {
        const t = ident((change as { identifier?: unknown })?.identifier);
        next = checkTableAccess(ctx, actions(RULES.updateTable!.actions), bucketArn, t?.namespace, t?.name);
      }
      return next;
    }
    const rule = RULES[operation];
    if (!rule) return ctx;
    const namespace = rule.level === 'bucket' ? undefined : rest.namespace;
    const table = rule.level === 'table' ? rest.table : undefined;
    return checkTableAccess(ctx, actions(rule.actions), bucketArn, namespace, table);
  });
}
