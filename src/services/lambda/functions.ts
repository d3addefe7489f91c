/**
 * Functions: CreateFunction, GetFunction, GetFunctionConfiguration, ListFunctions,
 * DeleteFunction, UpdateFunctionCode and UpdateFunctionConfiguration. `$LATEST` is rewritten in
 * place (a new RevisionId each time; a stale RevisionId is refused), `Publish` publishes a version
 * as PublishVersion does, and every change stops the workers of the old revision so the next
 * invocation runs the new code and configuration. GetFunction's Code.Location is a URL on
 * Overcast's own port that serves the package.
 */
import { randomUUID } from 'node:crypto';
import type * as L from '@aws-sdk/client-lambda';
import type { Ctx } from '../../runtime/runtime.js';
import type { VersionRow } from '../../store/lambda-repo.js';
import { storeCode } from './code.js';
import { applyConfig, functionConfiguration, storedConfig, type StoredConfig } from './configuration.js';
import { check, checkRevision, lambdaErrors } from './errors.js';
import { checkFunctionLayers, purgeHiddenLayers } from './layers.js';
import { lambdaRepo, requireFunction, resolveVersion } from './lookup.js';
import { functionArn, isValidName, isVersionNumber, LATEST } from './naming.js';
import { markerKey, pageOf } from './paging.js';
import { runnerOf } from './runner/runner.js';
import { publishFrom } from './versions.js';

function latestRow(ctx: Ctx, name: string, config: StoredConfig, code: { sha: string; size: number }, now: number): VersionRow {
  return {
    account: ctx.account,
    region: ctx.region,
    name,
    version: 0,
    config: JSON.stringify(config),
    code_sha: code.sha,
    code_size: code.size,
    revision_id: randomUUID(),
    last_modified: now,
  };
}

export async function createFunction(ctx: Ctx, input: L.CreateFunctionRequest): Promise<L.FunctionConfiguration> {
  check('CreateFunction', input);
  const name = input.FunctionName!;
  if (!isValidName(name)) throw lambdaErrors.validation(`1 validation error detected: Value '${name}' at 'functionName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9-_]+`);
  const repo = lambdaRepo(ctx);
  if (repo.getFunction(ctx.account, ctx.region, name)) throw lambdaErrors.functionExists(name);
  const packageType = input.PackageType ?? (input.Code?.ImageUri ? 'Image' : 'Zip');
  const config = applyConfig(name, undefined, { ...input, PackageType: packageType, Architectures: input.Architectures });
  if (config.PackageType === 'Zip' && input.Code?.ImageUri !== undefined) {
    throw lambdaErrors.invalidParameter('Please don\'t provide ImageUri when updating a function with packageType Zip.');
  }
  if (input.Layers !== undefined) checkFunctionLayers(ctx, input.Layers);
  const code = await storeCode(ctx, input.Code ?? {});
  if (code.imageUri) config.ImageUri = code.imageUri;
  const now = Date.now();
  const row = latestRow(ctx, name, config, code, now);
  const published = ctx.rt.meta.tx(() => {
    if (repo.getFunction(ctx.account, ctx.region, name)) throw lambdaErrors.functionExists(name);
    repo.insertFunction({ account: ctx.account, region: ctx.region, name, tags: JSON.stringify(input.Tags ?? {}), last_version: 0, created_at: now });
    repo.putVersion(row);
    return input.Publish ? publishFrom(ctx, row, undefined) : undefined;
  });
  return functionConfiguration(ctx, published ?? row);
}

export function getFunctionConfiguration(ctx: Ctx, input: L.GetFunctionConfigurationRequest): L.FunctionConfiguration {
  check('GetFunctionConfiguration', input);
  return functionConfiguration(ctx, resolveVersion(ctx, input.FunctionName!, input.Qualifier).version);
}

export function getFunction(ctx: Ctx, input: L.GetFunctionRequest): L.GetFunctionResponse {
  check('GetFunction', input);
  const { fn, version } = resolveVersion(ctx, input.FunctionName!, input.Qualifier);
  const config = functionConfiguration(ctx, version);
  const image = storedConfig(version).ImageUri;
  const hex = Buffer.from(version.code_sha, 'base64').toString('hex');
  const tags = JSON.parse(fn.tags) as Record<string, string>;
  return {
    Configuration: config,
    Code: image
      ? { RepositoryType: 'ECR', ImageUri: image, ResolvedImageUri: image }
      : { RepositoryType: 'S3', Location: `${ctx.rt.endpoint ?? ''}/_overcast/lambda/code/${hex}.zip` },
    ...(Object.keys(tags).length ? { Tags: tags } : {}),
  };
}

export function listFunctions(ctx: Ctx, input: L.ListFunctionsRequest): L.ListFunctionsResponse {
  check('ListFunctions', input);
  const max = input.MaxItems ?? 50;
  const repo = lambdaRepo(ctx);
  let after = '';
  let afterVersion = -1;
  const key = markerKey(input.Marker);
  if (key !== undefined) {
    const m = /^(.*)#(-?\d+)$/.exec(key);
    if (!m) throw lambdaErrors.invalidParameter('Invalid Marker');
    after = m[1]!;
    afterVersion = Number(m[2]);
  }
  const all = input.FunctionVersion === 'ALL';
  const rows = all ? repo.listAllVersions(ctx.account, ctx.region, after, afterVersion, max + 1) : repo.listLatest(ctx.account, ctx.region, after, max + 1);
  const { page, NextMarker } = pageOf(rows, max, (last) => `${last.name}#${all ? last.version : 1e9}`);
  return { Functions: page.map((r) => functionConfiguration(ctx, r)), ...(NextMarker ? { NextMarker } : {}) };
}

export function deleteFunction(ctx: Ctx, input: L.DeleteFunctionRequest): L.DeleteFunctionResponse {
  check('DeleteFunction', input);
  const { ref } = requireFunction(ctx, input.FunctionName!, input.Qualifier);
  const repo = lambdaRepo(ctx);
  if (ref.qualifier !== undefined) {
    if (ref.qualifier === LATEST) throw lambdaErrors.invalidParameter('$LATEST version cannot be deleted without deleting the function.');
    if (!isVersionNumber(ref.qualifier)) throw lambdaErrors.invalidParameter('Deletion of aliases is not supported.');
    const number = Number(ref.qualifier);
    if (!repo.getVersion(ctx.account, ctx.region, ref.name, number)) throw lambdaErrors.functionNotFound(functionArn(ctx, ref.name, ref.qualifier));
    if (repo.versionHasAlias(ctx.account, ctx.region, ref.name, ref.qualifier)) {
      throw lambdaErrors.conflict(`Unable to delete version because the following aliases reference it: ${JSON.stringify(aliasesOf(ctx, ref.name, ref.qualifier))}`);
    }
    ctx.rt.meta.tx(() => {
      const sha = repo.deleteVersion(ctx.account, ctx.region, ref.name, number);
      if (sha) repo.dropUnusedCode([sha]);
      purgeHiddenLayers(ctx);
    });
  } else {
    ctx.rt.meta.tx(() => {
      repo.dropUnusedCode(repo.deleteFunction(ctx.account, ctx.region, ref.name));
      purgeHiddenLayers(ctx);
    });
  }
  runnerOf(ctx.rt).retire(ctx, ref.name);
  return { StatusCode: 204 };
}

function aliasesOf(ctx: Ctx, name: string, version: string): string[] {
  return lambdaRepo(ctx)
    .listAliases(ctx.account, ctx.region, name, '', 1000, version)
    .map((a) => a.alias);
}

/** Writes a new `$LATEST` (and publishes it when asked); old workers stop. */
function replaceLatest(ctx: Ctx, current: VersionRow, next: VersionRow, publish: boolean | undefined): VersionRow {
  const repo = lambdaRepo(ctx);
  const out = ctx.rt.meta.tx(() => {
    repo.putVersion(next);
    if (current.code_sha !== next.code_sha) repo.dropUnusedCode([current.code_sha]);
    if (current.config !== next.config) purgeHiddenLayers(ctx);
    return publish ? (publishFrom(ctx, next, undefined) ?? next) : next;
  });
  runnerOf(ctx.rt).retire(ctx, next.name, { version: 0, revision: next.revision_id });
  return out;
}

export async function updateFunctionCode(ctx: Ctx, input: L.UpdateFunctionCodeRequest): Promise<L.FunctionConfiguration> {
  check('UpdateFunctionCode', input);
  const { ref } = requireFunction(ctx, input.FunctionName!);
  const current = resolveVersion(ctx, ref.name).version;
  checkRevision(input.RevisionId, current.revision_id);
  const config = storedConfig(current);
  if (config.PackageType === 'Zip' && input.ImageUri !== undefined) {
    throw lambdaErrors.invalidParameter('Please don\'t provide ImageUri when updating a function with packageType Zip.');
  }
  const code = await storeCode(ctx, input);
  if (input.Architectures?.length) config.Architectures = [...input.Architectures];
  if (code.imageUri) config.ImageUri = code.imageUri;
  const next: VersionRow = { ...current, config: JSON.stringify(config), code_sha: code.sha, code_size: code.size, revision_id: randomUUID(), last_modified: Date.now() };
  if (input.DryRun) return functionConfiguration(ctx, { ...next, revision_id: current.revision_id });
  return functionConfiguration(ctx, replaceLatest(ctx, current, next, input.Publish));
}

export function updateFunctionConfiguration(ctx: Ctx, input: L.UpdateFunctionConfigurationRequest): L.FunctionConfiguration {
  check('UpdateFunctionConfiguration', input);
  const { ref } = requireFunction(ctx, input.FunctionName!);
  const current = resolveVersion(ctx, ref.name).version;
  checkRevision(input.RevisionId, current.revision_id);
  const config = applyConfig(ref.name, storedConfig(current), input);
  if (input.Layers !== undefined) checkFunctionLayers(ctx, input.Layers);
  const next: VersionRow = { ...current, config: JSON.stringify(config), revision_id: randomUUID(), last_modified: Date.now() };
  return functionConfiguration(ctx, replaceLatest(ctx, current, next, false));
}

/** The zip of a code package by its hex SHA-256 (GetFunction's Code.Location), if stored. */
export function codePackage(ctx: Ctx, hex: string): Buffer | undefined {
  if (!/^[0-9a-f]{64}$/.test(hex)) return undefined;
  return lambdaRepo(ctx).getCode(Buffer.from(hex, 'hex').toString('base64'));
}
