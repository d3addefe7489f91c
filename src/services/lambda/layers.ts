/**
 * Layers: PublishLayerVersion stores a zip (inline or from Overcast's S3) as the layer's next
 * version — numbers are never reused, even after a delete — GetLayerVersion (by name and number or
 * by ARN), ListLayerVersions (newest first), ListLayers (each layer's newest version matching the
 * runtime and architecture filters), DeleteLayerVersion (idempotent, as AWS's), and the layer
 * version's resource policy (Add/RemoveLayerVersionPermission, GetLayerVersionPolicy; stored, not
 * enforced). A function's `Layers` must name layer versions that exist in its account and region;
 * another account's layer is accepted as given and never unpacked, since Overcast cannot reach it.
 */
import { randomUUID } from 'node:crypto';
import type * as L from '@aws-sdk/client-lambda';
import type { Ctx } from '../../runtime/runtime.js';
import type { LayerFilter, LayerVersionRow } from '../../store/lambda-repo.js';
import { AwsError } from '../../wire/errors.js';
import { storeCode } from './code.js';
import { check, checkRevision, lambdaErrors } from './errors.js';
import { lambdaRepo } from './lookup.js';
import { lastModifiedText, layerArn, parseLayer, type LayerRef } from './naming.js';
import { markerKey, markerNumber, pageOf } from './paging.js';
import { policyDocument, principal, type Statement } from './permissions.js';

/** The most layers a function may use (Lambda's quota). */
const MAX_LAYERS = 5;

function layerRef(ctx: Ctx, text: string): LayerRef {
  const ref = parseLayer(ctx, text);
  if (!ref) throw lambdaErrors.invalidParameter(`Invalid layer name: ${text}`);
  return ref;
}

function versionRow(ctx: Ctx, layerName: string, version: number | undefined): LayerVersionRow {
  const ref = layerRef(ctx, layerName);
  const number = version ?? ref.version;
  const row = ref.foreign || number === undefined ? undefined : lambdaRepo(ctx).getLayerVersion(ctx.account, ctx.region, ref.name, number);
  if (!row) throw lambdaErrors.resourceNotFound();
  return row;
}

function listItem(ctx: Ctx, row: LayerVersionRow): L.LayerVersionsListItem {
  const runtimes = JSON.parse(row.runtimes) as L.Runtime[];
  const architectures = JSON.parse(row.architectures) as L.Architecture[];
  return {
    LayerVersionArn: layerArn(ctx, row.name, row.version),
    Version: row.version,
    Description: row.description,
    CreatedDate: lastModifiedText(row.created_at),
    ...(runtimes.length ? { CompatibleRuntimes: runtimes } : {}),
    ...(row.license !== null ? { LicenseInfo: row.license } : {}),
    ...(architectures.length ? { CompatibleArchitectures: architectures } : {}),
  };
}

function layerVersion(ctx: Ctx, row: LayerVersionRow): L.GetLayerVersionResponse {
  const hex = Buffer.from(row.code_sha, 'base64').toString('hex');
  return {
    Content: { Location: `${ctx.rt.endpoint ?? ''}/_overcast/lambda/code/${hex}.zip`, CodeSha256: row.code_sha, CodeSize: row.code_size },
    LayerArn: layerArn(ctx, row.name),
    ...listItem(ctx, row),
  };
}

export async function publishLayerVersion(ctx: Ctx, input: L.PublishLayerVersionRequest): Promise<L.PublishLayerVersionResponse> {
  check('PublishLayerVersion', input);
  const ref = layerRef(ctx, input.LayerName!);
  if (ref.foreign) throw new AwsError('AccessDeniedException', `User is not authorized to perform: lambda:PublishLayerVersion on resource: ${input.LayerName}`, 403);
  const code = await storeCode(ctx, input.Content ?? {});
  const repo = lambdaRepo(ctx);
  const row = ctx.rt.meta.tx(() => {
    const next: LayerVersionRow = {
      account: ctx.account,
      region: ctx.region,
      name: ref.name,
      version: repo.nextLayerVersion(ctx.account, ctx.region, ref.name),
      description: input.Description ?? '',
      runtimes: JSON.stringify(input.CompatibleRuntimes ?? []),
      architectures: JSON.stringify(input.CompatibleArchitectures ?? []),
      license: input.LicenseInfo ?? null,
      code_sha: code.sha,
      code_size: code.size,
      created_at: Date.now(),
      policy: null,
      policy_revision: null,
    };
    repo.putLayerVersion(next);
    return next;
  });
  return layerVersion(ctx, row);
}

export function getLayerVersion(ctx: Ctx, input: L.GetLayerVersionRequest): L.GetLayerVersionResponse {
  check('GetLayerVersion', input);
  return layerVersion(ctx, versionRow(ctx, input.LayerName!, Number(input.VersionNumber)));
}

export function getLayerVersionByArn(ctx: Ctx, input: L.GetLayerVersionByArnRequest): L.GetLayerVersionResponse {
  check('GetLayerVersionByArn', input);
  return layerVersion(ctx, versionRow(ctx, input.Arn!, undefined));
}

function filterOf(input: { CompatibleRuntime?: string; CompatibleArchitecture?: string }): LayerFilter {
  return {
    ...(input.CompatibleRuntime ? { runtime: input.CompatibleRuntime } : {}),
    ...(input.CompatibleArchitecture ? { architecture: input.CompatibleArchitecture } : {}),
  };
}

export function listLayerVersions(ctx: Ctx, input: L.ListLayerVersionsRequest): L.ListLayerVersionsResponse {
  check('ListLayerVersions', input);
  const ref = layerRef(ctx, input.LayerName!);
  const max = input.MaxItems ?? 50;
  const before = markerNumber(input.Marker, Number.MAX_SAFE_INTEGER);
  const rows = ref.foreign ? [] : lambdaRepo(ctx).listLayerVersions(ctx.account, ctx.region, ref.name, before, max + 1, filterOf(input));
  const { page, NextMarker } = pageOf(rows, max, (last) => last.version);
  return { LayerVersions: page.map((r) => listItem(ctx, r)), ...(NextMarker ? { NextMarker } : {}) };
}

export function listLayers(ctx: Ctx, input: L.ListLayersRequest): L.ListLayersResponse {
  check('ListLayers', input);
  const max = input.MaxItems ?? 50;
  const rows = lambdaRepo(ctx).listLatestLayerVersions(ctx.account, ctx.region, markerKey(input.Marker) ?? '', max + 1, filterOf(input));
  const { page, NextMarker } = pageOf(rows, max, (last) => last.name);
  return {
    Layers: page.map((r) => ({ LayerName: r.name, LayerArn: layerArn(ctx, r.name), LatestMatchingVersion: listItem(ctx, r) })),
    ...(NextMarker ? { NextMarker } : {}),
  };
}

export function deleteLayerVersion(ctx: Ctx, input: L.DeleteLayerVersionRequest): void {
  check('DeleteLayerVersion', input);
  const ref = layerRef(ctx, input.LayerName!);
  if (ref.foreign) return;
  const repo = lambdaRepo(ctx);
  ctx.rt.meta.tx(() => {
    const version = Number(input.VersionNumber);
    const sha = repo.deleteLayerVersion(ctx.account, ctx.region, ref.name, version, layerArn(ctx, ref.name, version));
    if (sha) repo.dropUnusedCode([sha]);
  });
}

/**
 * Drops the layer versions deleted while functions used them once none does any more (called in
 * the transaction that deletes or reconfigures a function version), with their code.
 */
export function purgeHiddenLayers(ctx: Ctx): void {
  const repo = lambdaRepo(ctx);
  repo.dropUnusedCode(repo.purgeHiddenLayerVersions(ctx.account, ctx.region, (name, version) => layerArn(ctx, name, version)));
}

function statementsOf(row: LayerVersionRow): Statement[] {
  return row.policy ? (JSON.parse(row.policy) as Statement[]) : [];
}

function putPolicy(ctx: Ctx, row: LayerVersionRow, statements: Statement[]): string {
  const revision = randomUUID();
  lambdaRepo(ctx).putLayerVersion({ ...row, policy: statements.length ? JSON.stringify(statements) : null, policy_revision: statements.length ? revision : null });
  return revision;
}

export function addLayerVersionPermission(ctx: Ctx, input: L.AddLayerVersionPermissionRequest): L.AddLayerVersionPermissionResponse {
  check('AddLayerVersionPermission', input);
  const row = versionRow(ctx, input.LayerName!, Number(input.VersionNumber));
  const statements = statementsOf(row);
  checkRevision(input.RevisionId, row.policy_revision ?? undefined);
  if (statements.some((s) => s.Sid === input.StatementId)) throw lambdaErrors.statementExists(input.StatementId!);
  const statement: Statement = {
    Sid: input.StatementId!,
    Effect: 'Allow',
    Principal: principal(ctx, input.Principal!),
    Action: input.Action!,
    Resource: layerArn(ctx, row.name, row.version),
    ...(input.OrganizationId ? { Condition: { StringEquals: { 'aws:PrincipalOrgID': input.OrganizationId } } } : {}),
  };
  const revision = putPolicy(ctx, row, [...statements, statement]);
  return { Statement: JSON.stringify(statement), RevisionId: revision };
}

export function removeLayerVersionPermission(ctx: Ctx, input: L.RemoveLayerVersionPermissionRequest): void {
  check('RemoveLayerVersionPermission', input);
  const row = versionRow(ctx, input.LayerName!, Number(input.VersionNumber));
  const statements = statementsOf(row);
  checkRevision(input.RevisionId, row.policy_revision ?? undefined);
  if (!statements.some((s) => s.Sid === input.StatementId)) throw lambdaErrors.statementNotFound(input.StatementId!, layerArn(ctx, row.name, row.version));
  putPolicy(ctx, row, statements.filter((s) => s.Sid !== input.StatementId));
}

export function getLayerVersionPolicy(ctx: Ctx, input: L.GetLayerVersionPolicyRequest): L.GetLayerVersionPolicyResponse {
  check('GetLayerVersionPolicy', input);
  const row = versionRow(ctx, input.LayerName!, Number(input.VersionNumber));
  if (!row.policy) throw lambdaErrors.resourceNotFound();
  return { Policy: policyDocument(statementsOf(row)), RevisionId: row.policy_revision! };
}

/** A function's layer in its configuration: the ARN as given, the version's size when it is here. */
interface FunctionLayer {
  arn: string;
  /** This account and region's layer version; undefined for another account's layer. */
  row?: LayerVersionRow;
}

/** Checks a function's new `Layers` as CreateFunction and UpdateFunctionConfiguration do. */
export function checkFunctionLayers(ctx: Ctx, arns: readonly string[]): void {
  if (arns.length > MAX_LAYERS) throw lambdaErrors.invalidParameter(`Cannot reference more than ${MAX_LAYERS} layers.`);
  for (const arn of arns) {
    const ref = parseLayer(ctx, arn);
    if (!ref || ref.version === undefined) throw lambdaErrors.invalidParameter(`Layer version ${arn} does not exist.`);
    if (!ref.foreign && !lambdaRepo(ctx).getLayerVersion(ctx.account, ctx.region, ref.name, ref.version)) {
      throw lambdaErrors.invalidParameter(`Layer version ${arn} does not exist.`);
    }
  }
}

/**
 * The layers of a function version as it runs them: a version deleted since keeps working for the
 * functions that use it, as on AWS.
 */
export function functionLayers(ctx: Ctx, arns: readonly string[]): FunctionLayer[] {
  return arns.map((arn) => {
    const ref = parseLayer(ctx, arn);
    if (!ref || ref.version === undefined || ref.foreign) return { arn };
    const row = lambdaRepo(ctx).getLayerVersion(ctx.account, ctx.region, ref.name, ref.version, true);
    return row ? { arn, row } : { arn };
  });
}
