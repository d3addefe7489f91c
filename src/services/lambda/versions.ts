/**
 * Versions and aliases: PublishVersion snapshots `$LATEST` as version n+1 — unless neither code
 * nor configuration changed since the last one, which is then answered again, as AWS does —
 * ListVersionsByFunction, and Create/Get/Update/Delete/ListAliases. An alias points at a version
 * (or `$LATEST`) that must exist; invoking it runs that version.
 */
import { randomUUID } from 'node:crypto';
import type * as L from '@aws-sdk/client-lambda';
import type { Ctx } from '../../runtime/runtime.js';
import type { AliasRow, VersionRow } from '../../store/lambda-repo.js';
import { functionConfiguration, storedConfig } from './configuration.js';
import { check, checkRevision, lambdaErrors } from './errors.js';
import { lambdaRepo, requireFunction, resolveVersion } from './lookup.js';
import { functionArn, isVersionNumber, LATEST } from './naming.js';
import { markerKey, markerNumber, pageOf } from './paging.js';

/** Publishes `latest` as a new version (inside the caller's transaction); the existing one when nothing changed. */
export function publishFrom(ctx: Ctx, latest: VersionRow, description: string | undefined): VersionRow {
  const repo = lambdaRepo(ctx);
  const fn = repo.getFunction(ctx.account, ctx.region, latest.name)!;
  const last = fn.last_version > 0 ? repo.getVersion(ctx.account, ctx.region, latest.name, fn.last_version) : undefined;
  const config = storedConfig(latest);
  if (description !== undefined) config.Description = description;
  if (last && last.code_sha === latest.code_sha && sameConfig(storedConfig(last), config)) return last;
  const version = fn.last_version + 1;
  const row: VersionRow = { ...latest, version, config: JSON.stringify(config), revision_id: randomUUID(), last_modified: Date.now() };
  repo.putVersion(row);
  repo.setLastVersion(ctx.account, ctx.region, latest.name, version);
  return row;
}

function sameConfig(a: object, b: object): boolean {
  const { Description: _a, ...restA } = a as { Description?: string };
  const { Description: _b, ...restB } = b as { Description?: string };
  return JSON.stringify(restA) === JSON.stringify(restB);
}

export function publishVersion(ctx: Ctx, input: L.PublishVersionRequest): L.FunctionConfiguration {
  check('PublishVersion', input);
  const { ref } = requireFunction(ctx, input.FunctionName!);
  const latest = resolveVersion(ctx, ref.name).version;
  checkRevision(input.RevisionId, latest.revision_id);
  if (input.CodeSha256 !== undefined && input.CodeSha256 !== latest.code_sha) {
    throw lambdaErrors.invalidParameter(
      `CodeSHA256 (${input.CodeSha256}) is different from current CodeSHA256 in $LATEST (${latest.code_sha}). Please try again with the CodeSHA256 in $LATEST.`,
    );
  }
  return functionConfiguration(ctx, ctx.rt.meta.tx(() => publishFrom(ctx, latest, input.Description)));
}

export function listVersionsByFunction(ctx: Ctx, input: L.ListVersionsByFunctionRequest): L.ListVersionsByFunctionResponse {
  check('ListVersionsByFunction', input);
  const { ref } = requireFunction(ctx, input.FunctionName!);
  const max = input.MaxItems ?? 50;
  const rows = lambdaRepo(ctx).listVersions(ctx.account, ctx.region, ref.name, markerNumber(input.Marker, -1), max + 1);
  const { page, NextMarker } = pageOf(rows, max, (last) => last.version);
  return { Versions: page.map((r) => functionConfiguration(ctx, r)), ...(NextMarker ? { NextMarker } : {}) };
}

function aliasConfiguration(ctx: Ctx, row: AliasRow): L.AliasConfiguration {
  return {
    AliasArn: functionArn(ctx, row.name, row.alias),
    Name: row.alias,
    FunctionVersion: row.function_version,
    Description: row.description,
    ...(row.routing ? { RoutingConfig: JSON.parse(row.routing) as L.AliasRoutingConfiguration } : {}),
    RevisionId: row.revision_id,
  };
}

function requireTarget(ctx: Ctx, name: string, version: string): void {
  if (version === LATEST) return;
  if (!isVersionNumber(version) || !lambdaRepo(ctx).getVersion(ctx.account, ctx.region, name, Number(version))) {
    throw lambdaErrors.functionNotFound(functionArn(ctx, name, version));
  }
}

export function createAlias(ctx: Ctx, input: L.CreateAliasRequest): L.AliasConfiguration {
  check('CreateAlias', input);
  const { ref } = requireFunction(ctx, input.FunctionName!);
  const repo = lambdaRepo(ctx);
  if (isVersionNumber(input.Name!)) throw lambdaErrors.invalidParameter('Alias name cannot be a number.');
  requireTarget(ctx, ref.name, input.FunctionVersion!);
  if (repo.getAlias(ctx.account, ctx.region, ref.name, input.Name!)) throw lambdaErrors.aliasExists(functionArn(ctx, ref.name, input.Name));
  const row: AliasRow = {
    account: ctx.account,
    region: ctx.region,
    name: ref.name,
    alias: input.Name!,
    function_version: input.FunctionVersion!,
    description: input.Description ?? '',
    routing: input.RoutingConfig ? JSON.stringify(input.RoutingConfig) : null,
    revision_id: randomUUID(),
  };
  repo.putAlias(row);
  return aliasConfiguration(ctx, row);
}

function requireAlias(ctx: Ctx, functionName: string, alias: string): AliasRow {
  const { ref } = requireFunction(ctx, functionName);
  const row = lambdaRepo(ctx).getAlias(ctx.account, ctx.region, ref.name, alias);
  if (!row) throw lambdaErrors.aliasNotFound(functionArn(ctx, ref.name, alias));
  return row;
}

export function getAlias(ctx: Ctx, input: L.GetAliasRequest): L.AliasConfiguration {
  check('GetAlias', input);
  return aliasConfiguration(ctx, requireAlias(ctx, input.FunctionName!, input.Name!));
}

export function updateAlias(ctx: Ctx, input: L.UpdateAliasRequest): L.AliasConfiguration {
  check('UpdateAlias', input);
  const current = requireAlias(ctx, input.FunctionName!, input.Name!);
  checkRevision(input.RevisionId, current.revision_id);
  if (input.FunctionVersion !== undefined) requireTarget(ctx, current.name, input.FunctionVersion);
  const row: AliasRow = {
    ...current,
    function_version: input.FunctionVersion ?? current.function_version,
    description: input.Description ?? current.description,
    routing: input.RoutingConfig !== undefined ? JSON.stringify(input.RoutingConfig) : current.routing,
    revision_id: randomUUID(),
  };
  lambdaRepo(ctx).putAlias(row);
  return aliasConfiguration(ctx, row);
}

export function deleteAlias(ctx: Ctx, input: L.DeleteAliasRequest): void {
  check('DeleteAlias', input);
  const { ref } = requireFunction(ctx, input.FunctionName!);
  lambdaRepo(ctx).deleteAlias(ctx.account, ctx.region, ref.name, input.Name!);
}

export function listAliases(ctx: Ctx, input: L.ListAliasesRequest): L.ListAliasesResponse {
  check('ListAliases', input);
  const { ref } = requireFunction(ctx, input.FunctionName!);
  const max = input.MaxItems ?? 50;
  // Filtered in the query, so a page is full whenever more aliases follow.
  const rows = lambdaRepo(ctx).listAliases(ctx.account, ctx.region, ref.name, markerKey(input.Marker) ?? '', max + 1, input.FunctionVersion);
  const { page, NextMarker } = pageOf(rows, max, (last) => last.alias);
  return { Aliases: page.map((r) => aliasConfiguration(ctx, r)), ...(NextMarker ? { NextMarker } : {}) };
}
