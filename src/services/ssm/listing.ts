/**
 * Parameter Store listings: GetParametersByPath (one level or recursive, ParameterFilters incl.
 * labels and tags), DescribeParameters (legacy Filters or ParameterFilters) and
 * GetParameterHistory, all paginated with opaque tokens that carry the last name (or version)
 * returned. Each call reads an index range from where the previous page stopped and scans a
 * bounded number of rows, so a page with selective filters may come back short with a NextToken,
 * as AWS's own pages do.
 */
import type * as SSM from '@aws-sdk/client-ssm';
import type { Ctx } from '../../runtime/runtime.js';
import type { ParameterRow, VersionRow } from '../../store/ssm-repo.js';
import { ssmErrors } from './errors.js';
import { checkParameterFilters, legacyFilters, matches, type NormalizedFilter } from './filters.js';
import { checkPath, parameterArn } from './naming.js';
import { repo, toParameter, validate } from './provider.js';

/** Rows examined per call at most, whatever the filters discard. */
const SCAN_LIMIT = 1000;
const MAX_VERSIONS = 100;

function encodeToken(value: string | number): string {
  return Buffer.from(JSON.stringify({ k: value }), 'utf8').toString('base64url');
}

function decodeToken<T extends string | number>(token: string | undefined, kind: 'string' | 'number'): T | undefined {
  if (token === undefined) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { k?: unknown };
    if (typeof parsed.k === kind) return parsed.k as T;
  } catch {
    // fall through
  }
  throw ssmErrors.invalidNextToken();
}

type Source = (after: string, limit: number) => ParameterRow[];

/** Walks `source` from `after`, keeping rows that pass `keep`, until `max` are kept or the scan budget ends. */
function page(source: Source, after: string, max: number, keep: (row: ParameterRow) => boolean) {
  const kept: ParameterRow[] = [];
  let cursor = after;
  let scanned = 0;
  const rest = () => (source(cursor, 1).length > 0 ? cursor : undefined);
  while (scanned < SCAN_LIMIT) {
    const want = Math.min(200, SCAN_LIMIT - scanned);
    const batch = source(cursor, want);
    for (const row of batch) {
      scanned++;
      cursor = row.name;
      if (keep(row)) {
        kept.push(row);
        if (kept.length === max) return { rows: kept, next: rest() };
      }
    }
    if (batch.length < want) return { rows: kept, next: undefined };
  }
  return { rows: kept, next: rest() };
}

function labelsOf(ctx: Ctx, name: string): VersionRow[] {
  return repo(ctx).listVersions(ctx.account, ctx.region, name, 0, MAX_VERSIONS);
}

export function getParametersByPath(ctx: Ctx, input: SSM.GetParametersByPathRequest): SSM.GetParametersByPathResult {
  validate('GetParametersByPath', input);
  const path = checkPath(input.Path!);
  const filters = checkParameterFilters(input.ParameterFilters, 'by-path');
  const after = decodeToken<string>(input.NextToken, 'string') ?? '';
  const r = repo(ctx);
  const source: Source = input.Recursive
    ? (from, limit) => r.listByPrefix(ctx.account, ctx.region, path === '/' ? '' : `${path}/`, from, limit)
    : (from, limit) => r.listByParent(ctx.account, ctx.region, path, from, limit);
  const labelFilter = filters.find((f) => f.key === 'Label');
  const { rows, next } = page(source, after, input.MaxResults ?? 10, (row) =>
    matches(row, filters, () => labelsOf(ctx, row.name).flatMap((v) => JSON.parse(v.labels) as string[])),
  );
  const parameters = rows.map((row) => {
    if (labelFilter) {
      // With a Label filter AWS returns the labelled version, not the latest.
      const labelled = labelsOf(ctx, row.name)
        .reverse()
        .find((v) => (JSON.parse(v.labels) as string[]).some((l) => labelFilter.values.includes(l)));
      if (labelled) return toParameter(ctx, row.name, labelled, input.WithDecryption);
    }
    return toParameter(ctx, row.name, row, input.WithDecryption);
  });
  return { Parameters: parameters, NextToken: next === undefined ? undefined : encodeToken(next) };
}

function metadataOf(ctx: Ctx, row: ParameterRow | VersionRow): SSM.ParameterMetadata {
  return {
    Name: row.name,
    ARN: parameterArn(ctx, row.name),
    Type: row.type as SSM.ParameterType,
    KeyId: row.key_id ?? undefined,
    LastModifiedDate: new Date(row.last_modified),
    LastModifiedUser: row.last_modified_user,
    Description: row.description ?? undefined,
    AllowedPattern: row.allowed_pattern ?? undefined,
    Version: row.version,
    Tier: row.tier as SSM.ParameterTier,
    Policies: policiesOf(row.policies),
    DataType: row.data_type,
  };
}

function policiesOf(text: string | null): SSM.ParameterInlinePolicy[] {
  if (!text) return [];
  return (JSON.parse(text) as { Type: string }[]).map((p) => ({
    PolicyText: JSON.stringify(p),
    PolicyType: p.Type,
    PolicyStatus: 'Pending',
  }));
}

/** The narrowest index range the filters allow: one hierarchy level, a subtree, or everything. */
function describeSource(ctx: Ctx, filters: NormalizedFilter[]): Source {
  const r = repo(ctx);
  const path = filters.find((f) => f.key === 'Path');
  if (path && path.values.length === 1) {
    const p = path.values[0]!;
    if (path.option === 'OneLevel') return (from, limit) => r.listByParent(ctx.account, ctx.region, p, from, limit);
    return (from, limit) => r.listByPrefix(ctx.account, ctx.region, p === '/' ? '' : `${p}/`, from, limit);
  }
  return (from, limit) => r.listByPrefix(ctx.account, ctx.region, '', from, limit);
}

export function describeParameters(ctx: Ctx, input: SSM.DescribeParametersRequest = {}): SSM.DescribeParametersResult {
  validate('DescribeParameters', input);
  if (input.Filters?.length && input.ParameterFilters?.length) {
    throw ssmErrors.validation('You can use either Filters or ParameterFilters in a single request.');
  }
  const filters = input.Filters?.length ? legacyFilters(input.Filters) : checkParameterFilters(input.ParameterFilters, 'describe');
  const after = decodeToken<string>(input.NextToken, 'string') ?? '';
  const { rows, next } = page(describeSource(ctx, filters), after, input.MaxResults ?? 10, (row) =>
    matches(row, filters, () => []),
  );
  return { Parameters: rows.map((row) => metadataOf(ctx, row)), NextToken: next === undefined ? undefined : encodeToken(next) };
}

export function getParameterHistory(ctx: Ctx, input: SSM.GetParameterHistoryRequest): SSM.GetParameterHistoryResult {
  validate('GetParameterHistory', input);
  const name = input.Name!.trim();
  const r = repo(ctx);
  if (!r.get(ctx.account, ctx.region, name)) throw ssmErrors.parameterNotFound();
  const after = decodeToken<number>(input.NextToken, 'number') ?? 0;
  const max = input.MaxResults ?? 50;
  const rows = r.listVersions(ctx.account, ctx.region, name, after, max + 1);
  const pageRows = rows.slice(0, max);
  return {
    Parameters: pageRows.map((v) => ({
      ...metadataOf(ctx, v),
      Value: toParameter(ctx, name, v, input.WithDecryption).Value,
      Labels: JSON.parse(v.labels) as string[],
    })) as SSM.ParameterHistory[],
    NextToken: rows.length > max ? encodeToken(pageRows[pageRows.length - 1]!.version) : undefined,
  };
}
