/**
 * Finding what a request names: the store of the caller's server, and a `FunctionName` (+
 * `Qualifier`) resolved to the function and the version it means — `$LATEST`, a version number,
 * or an alias and the version it points at. What does not exist is Lambda's not-found error
 * naming the ARN as asked (qualified when a qualifier was given).
 */
import { perStore, type Ctx } from '../../runtime/runtime.js';
import { LambdaRepo, type AliasRow, type FunctionRow, type VersionRow } from '../../store/lambda-repo.js';
import { lambdaErrors } from './errors.js';
import { functionArn, isVersionNumber, LATEST, parseFunctionName, withQualifier, type FunctionRef } from './naming.js';

export const lambdaRepo = perStore((meta) => new LambdaRepo(meta));

export interface Resolved {
  ref: FunctionRef;
  fn: FunctionRow;
  /** The version the name resolves to (an alias's target). */
  version: VersionRow;
  alias?: AliasRow;
}

/** The function a request names (its qualifier ignored), or not found. */
export function requireFunction(ctx: Ctx, name: string, qualifier?: string): { ref: FunctionRef; fn: FunctionRow } {
  const ref = withQualifier(parseFunctionName(ctx, name), qualifier);
  const fn = ref.foreign ? undefined : lambdaRepo(ctx).getFunction(ctx.account, ctx.region, ref.name);
  if (!fn) throw lambdaErrors.functionNotFound(functionArn(ctx, ref.name, ref.qualifier));
  return { ref, fn };
}

/** The version a request names (through an alias when the qualifier is one). */
export function resolveVersion(ctx: Ctx, name: string, qualifier?: string): Resolved {
  const { ref, fn } = requireFunction(ctx, name, qualifier);
  const repo = lambdaRepo(ctx);
  const q = ref.qualifier ?? LATEST;
  let alias: AliasRow | undefined;
  let number: number;
  if (q === LATEST) number = 0;
  else if (isVersionNumber(q)) number = Number(q);
  else {
    alias = repo.getAlias(ctx.account, ctx.region, ref.name, q);
    if (!alias) throw lambdaErrors.functionNotFound(functionArn(ctx, ref.name, q));
    number = alias.function_version === LATEST ? 0 : Number(alias.function_version);
  }
  const version = repo.getVersion(ctx.account, ctx.region, ref.name, number);
  if (!version) throw lambdaErrors.functionNotFound(functionArn(ctx, ref.name, q));
  return { ref, fn, version, ...(alias ? { alias } : {}) };
}
