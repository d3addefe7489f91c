/**
 * Parameter Store naming: which names may be written (letters, digits and `_.-/`; a name with a
 * `/` must be fully qualified; at most 15 hierarchy levels; no `aws`/`ssm` prefix), how a name
 * read back may carry a `:version` or `:label` selector or be a parameter ARN, where a name sits in
 * the hierarchy (its parent path), and the ARN AWS gives it. Names without a leading slash live
 * at the root level `/`.
 */
import type { Ctx } from '../../runtime/runtime.js';
import { ssmErrors } from './errors.js';

const NAME_CHARS = /^[a-zA-Z0-9_.\-/]+$/;
const PATH_CHARS = /^[a-zA-Z0-9_.\-/]*$/;
const MAX_DEPTH = 15;
/** AWS counts the whole ARN against this limit (the documented example counts 65 for a 20-char name). */
const MAX_ARN_LENGTH = 1011;

export function parameterArn(ctx: Pick<Ctx, 'partition' | 'region' | 'account'>, name: string): string {
  return `arn:${ctx.partition}:ssm:${ctx.region}:${ctx.account}:parameter/${name.replace(/^\//, '')}`;
}

/** The hierarchy level a name sits in: `/a/b/c` → `/a/b`, `/a` and `a` → `/`. */
export function parentOf(name: string): string {
  const at = name.lastIndexOf('/');
  return at <= 0 ? '/' : name.slice(0, at);
}

function depthOf(name: string): number {
  return name.split('/').filter(Boolean).length;
}

/** Checks a name a parameter is written under; throws AWS's ValidationException otherwise. */
export function checkWritableName(ctx: Ctx, name: string): void {
  const stripped = name.replace(/^\/+/, '').toLowerCase();
  if (stripped.startsWith('aws') || stripped.startsWith('ssm')) {
    const isPath = (name.match(/\//g) ?? []).length > 1;
    if (isPath && name.toLowerCase().startsWith('/aws')) throw ssmErrors.reservedAwsPath(name);
    throw isPath ? ssmErrors.reservedPathPrefix() : ssmErrors.reservedPrefix();
  }
  checkReadableName(name);
  if (parameterArn(ctx, name).length > MAX_ARN_LENGTH) {
    throw ssmErrors.validation(
      `Parameter name: ${name} is too long. The maximum length of a parameter name, including the full length of its ARN, is ${MAX_ARN_LENGTH} characters.`,
    );
  }
}

/** Checks the shape of a name a parameter is read or deleted by (reserved prefixes are readable). */
export function checkReadableName(name: string): void {
  if (!NAME_CHARS.test(name) || name.includes('//') || (name.length > 1 && name.endsWith('/'))) {
    throw ssmErrors.invalidName();
  }
  if (name.includes('/') && !name.startsWith('/')) throw ssmErrors.notFullyQualified();
  if (depthOf(name) > MAX_DEPTH) throw ssmErrors.hierarchyTooDeep();
}

/** Normalises and checks a GetParametersByPath path: `/a/b/` → `/a/b`; `/` stays. */
export function checkPath(path: string): string {
  const trimmed = path.trim();
  if (!trimmed.startsWith('/') || trimmed.includes('//') || !PATH_CHARS.test(trimmed)) throw ssmErrors.invalidPath();
  const lower = trimmed.toLowerCase();
  if (lower.startsWith('/ssm')) throw ssmErrors.invalidPath();
  if (depthOf(trimmed) > MAX_DEPTH) throw ssmErrors.hierarchyTooDeep();
  return trimmed.length > 1 ? trimmed.replace(/\/+$/, '') : trimmed;
}

export type Selector = { kind: 'none' } | { kind: 'version'; version: number; text: string } | { kind: 'label'; label: string; text: string };

interface ParsedReference {
  name: string;
  selector: Selector;
  /** False when the reference names another account or region (an ARN): nothing there is visible. */
  local: boolean;
  /** True for an ARN, whose resource part drops the name's leading slash (`parameter/x` is `x` or `/x`). */
  fromArn: boolean;
}

/**
 * Splits `name`, `name:3`, `name:label` or a parameter ARN (`arn:aws:ssm:r:a:parameter/x:3`) into
 * the parameter name and its selector.
 */
export function parseReference(ctx: Ctx, reference: string): ParsedReference {
  let text = reference.trim();
  let local = true;
  let fromArn = false;
  const arn = /^arn:[^:]+:ssm:([^:]*):(\d{12}):parameter\/(.*)$/.exec(text);
  if (arn) {
    local = arn[1] === ctx.region && arn[2] === ctx.account;
    fromArn = true;
    text = arn[3]!.includes('/') ? `/${arn[3]}` : arn[3]!;
  }
  const colon = text.indexOf(':');
  if (colon < 0) return { name: text, selector: { kind: 'none' }, local, fromArn };
  const name = text.slice(0, colon);
  const sel = text.slice(colon + 1);
  if (/^\d+$/.test(sel)) return { name, selector: { kind: 'version', version: Number(sel), text: `:${sel}` }, local, fromArn };
  return { name, selector: { kind: 'label', label: sel, text: `:${sel}` }, local, fromArn };
}

/** True when a version label is invalid (such labels come back in InvalidLabels, not as an error). */
export function invalidLabel(label: string): boolean {
  const lower = label.toLowerCase();
  return (
    lower.startsWith('aws') ||
    lower.startsWith('ssm') ||
    /^\d/.test(label) ||
    !/^[a-zA-Z0-9_.-]+$/.test(label) ||
    label.length > 100
  );
}
