/**
 * ListExports (every export of the caller's account and region, by name) and ListImports (the
 * stacks importing one export; an export nobody imports is a ValidationError, as on AWS).
 */
import type * as CFN from '@aws-sdk/client-cloudformation';
import type { Ctx } from '../../runtime/runtime.js';
import { checkInput, validation } from './requests/errors.js';
import { decodeToken, encodeToken, isStringCursor } from './requests/lookup.js';
import { cfnRepo } from './engine/state.js';

const PAGE = 100;

export function listExports(ctx: Ctx, input: CFN.ListExportsInput): CFN.ListExportsOutput {
  checkInput('ListExports', input);
  const after = decodeToken(input.NextToken, isStringCursor)?.s ?? '';
  const rows = cfnRepo(ctx).listExports(ctx.account, ctx.region, after, PAGE + 1);
  const page = rows.slice(0, PAGE);
  return {
    Exports: page.map((e) => ({ ExportingStackId: e.stack_id, Name: e.name, Value: e.value })),
    ...(rows.length > PAGE ? { NextToken: encodeToken({ s: page[page.length - 1]!.name }) } : {}),
  };
}

export function listImports(ctx: Ctx, input: CFN.ListImportsInput): CFN.ListImportsOutput {
  checkInput('ListImports', input);
  const name = input.ExportName;
  if (!name) {
    throw validation("1 validation error detected: Value null at 'exportName' failed to satisfy constraint: Member must not be null");
  }
  const after = decodeToken(input.NextToken, isStringCursor)?.s ?? '';
  const rows = cfnRepo(ctx).importersOf(ctx.account, ctx.region, name, after, PAGE + 1);
  if (rows.length === 0 && after === '') throw validation(`Export '${name}' is not imported by any stack.`);
  const page = rows.slice(0, PAGE);
  return {
    Imports: page.map((r) => r.stack_name),
    ...(rows.length > PAGE ? { NextToken: encodeToken({ s: page[page.length - 1]!.stack_id }) } : {}),
  };
}
