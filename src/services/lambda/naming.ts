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

/** `arn:<partition>:lambda:<region>:<account>:layer:<name>[:<version>]`. */
export function layerArn(ctx: Pick<Ctx, 'partition' | 'region' | 'account'>, name: string, version?: number): string {
  const base = `arn:${ctx.partition}:lambda:${ctx.region}:${ctx.account}:layer:${name}`;
  return version === undefined ? base : `${base}:${version}`;
}

const LAYER_ARN = /^arn:[a-zA-Z0-9-]+:lambda:([a-zA-Z0-9-]+):(\d{12}):layer:([a-zA-Z0-9_-]+)(?::([0-9]+))?$/;

export interface LayerRef {
  name: string;
  version?: number;
  /** Another account or region's layer (never found here). */
  foreign?: boolean;
}

/** The layer a `LayerName` member (a name or a layer ARN) or a layer version ARN names; undefined when it is neither. */
export function parseLayer(ctx: Pick<Ctx, 'account' | 'region'>, text: string): LayerRef | undefined {
  if (/^[a-zA-Z0-9_-]+$/.test(text)) return { name: text };
  const m = LAYER_ARN.exec(text);
  if (!m) return undefined;
  const foreign = m[1] !== ctx.region || m[2] !== ctx.account;
  return { name: m[3]!, ...(m[4] !== undefined ? { version: Number(m[4]) } : {}), ...(foreign ? { foreign } : {}) };
}

/** A version ARN (function or layer) split into the ARN before `:<number>` and the number. */
export function splitVersionArn(arn: string): { base: string; version: number } | undefined {
  const m = /^(.*):([0-9]+)$/.exec(arn);
  return m ? { base: m[1]!, version: Number(m[2]) } : undefined;
}
