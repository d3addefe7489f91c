/**
 * Lambda's names and ARNs: `arn:<partition>:lambda:<region>:<account>:function:<name>[:<qualifier>]`,
 * and the forms a `FunctionName` path member may take — a name, a name with `:qualifier`, a
 * partial ARN `<account>:function:<name>` or a full ARN — reduced to the name and qualifier. An
 * ARN of another account or region names a function this caller cannot see: not found.
 */
import type { Ctx } from '../../runtime/runtime.js';
import { lambdaErrors } from './errors.js';

export const LATEST = '$LATEST';
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const ARN = /^arn:(aws[a-zA-Z-]*):lambda:([a-z0-9-]+):(\d{12}):function:([^:]+)(?::([^:]+))?$/;
const PARTIAL = /^(\d{12}):function:([^:]+)(?::([^:]+))?$/;

export function functionArn(ctx: Pick<Ctx, 'partition' | 'region' | 'account'>, name: string, qualifier?: string): string {
  const base = `arn:${ctx.partition}:lambda:${ctx.region}:${ctx.account}:function:${name}`;
  return qualifier === undefined ? base : `${base}:${qualifier}`;
}

export interface FunctionRef {
  name: string;
  /** From `name:qualifier` or the ARN's last part; the Qualifier member is merged by the caller. */
  qualifier?: string;
  /** Another account or region's function (never found here). */
  foreign?: boolean;
}

/** The function and qualifier of a full function ARN; undefined for anything else. */
export function parseFunctionArn(ctx: Pick<Ctx, 'account' | 'region'>, text: string): FunctionRef | undefined {
  const full = ARN.exec(text);
  if (!full) return undefined;
  const foreign = full[3] !== ctx.account || full[2] !== ctx.region;
  return { name: full[4]!, ...(full[5] !== undefined ? { qualifier: full[5] } : {}), ...(foreign ? { foreign } : {}) };
}

/** The function and qualifier a `FunctionName` member names. */
export function parseFunctionName(ctx: Ctx, text: string): FunctionRef {
  const full = parseFunctionArn(ctx, text);
  if (full) return full;
  const partial = PARTIAL.exec(text);
  if (partial) {
    return { name: partial[2]!, ...(partial[3] !== undefined ? { qualifier: partial[3] } : {}), ...(partial[1] !== ctx.account ? { foreign: true } : {}) };
  }
  const colon = text.indexOf(':');
  if (colon > 0 && !text.startsWith('arn:')) return { name: text.slice(0, colon), qualifier: text.slice(colon + 1) };
  if (text.startsWith('arn:')) throw lambdaErrors.validation(functionNameValidation(text));
  return { name: text };
}

/** The ref with the request's `Qualifier` member merged in; a conflicting pair is refused as AWS does. */
export function withQualifier(ref: FunctionRef, qualifier: string | undefined): FunctionRef {
  if (qualifier === undefined || qualifier === '') return ref;
  if (ref.qualifier !== undefined && ref.qualifier !== qualifier) {
    throw lambdaErrors.invalidParameter('The derived qualifier from the function name does not match the specified qualifier.');
  }
  return { ...ref, qualifier };
}

export function isValidName(name: string): boolean {
  return NAME.test(name);
}

function functionNameValidation(value: string): string {
  return (
    `1 validation error detected: Value '${value}' at 'functionName' failed to satisfy constraint: Member must satisfy regular ` +
    'expression pattern: (arn:(aws[a-zA-Z-]*)?:lambda:)?([a-z]{2}(-gov)?-[a-z]+-\\d{1}:)?(\\d{12}:)?(function:)?([a-zA-Z0-9-_]+)(:(\\$LATEST|[a-zA-Z0-9-_]+))?'
  );
}

/** Whether a qualifier is a version number (else `$LATEST` or an alias name). */
export function isVersionNumber(q: string): boolean {
  return /^[0-9]+$/.test(q);
}

/** `YYYY-MM-DDThh:mm:ss.sss+0000`, Lambda's LastModified format. */
export function lastModifiedText(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+0000');
}
