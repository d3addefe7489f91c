/**
 * What a service's routes module gives the dispatcher: the protocol codec, the table of
 * operation handlers, and the code of the protocol's internal error. A table is declared against
 * its model's operations (src/model/operations/, generated from the models with the SDK's types):
 * `{…} satisfies OperationHandlers<S3TablesOperations>` makes a missing, misspelt or wrongly
 * typed handler a compile error. An operation Overcast does not serve is listed by name with
 * `notImplemented(…)`, and answers 501 NotImplemented in the protocol's shape.
 */
import type { Codec } from '../wire/codec.js';
import type { WireRequest } from '../wire/http.js';
import type { Ctx } from '../runtime/runtime.js';

/** One operation's input and output, as the generated tables give them. */
interface OperationTypes {
  input: unknown;
  output: unknown;
}

/** The provider function behind one operation. */
type OperationHandler<O extends OperationTypes> = (ctx: Ctx, input: O['input']) => O['output'] | Promise<O['output']>;

/** The marker of an operation Overcast does not serve. */
export const NOT_IMPLEMENTED = Symbol('not implemented');

/** Every operation of `Ops`: its handler, or the not-implemented marker. */
export type OperationHandlers<Ops> = {
  [K in keyof Ops]: Ops[K] extends OperationTypes ? OperationHandler<Ops[K]> | typeof NOT_IMPLEMENTED : never;
};

/**
 * The operations named, each marked not implemented: `...notImplemented<Ops>()('A', 'B')`. A name
 * that is no operation of `Ops` does not compile.
 */
export function notImplemented<Ops>() {
  return <K extends keyof Ops & string>(...names: K[]): Record<K, typeof NOT_IMPLEMENTED> =>
    Object.fromEntries(names.map((n) => [n, NOT_IMPLEMENTED])) as Record<K, typeof NOT_IMPLEMENTED>;
}

/** A handler as the dispatcher calls it, its input being what the codec parsed. */
export type Handler = (ctx: Ctx, input: never) => unknown;

export interface ServiceRoutes {
  codec: Codec;
  handlers: Readonly<Record<string, Handler | typeof NOT_IMPLEMENTED>>;
  /** Code of the protocol's internal error (S3: InternalError, CloudFormation: InternalFailure…). */
  internalErrorCode: string;
  /**
   * Strict mode only, after the codec and before the handler: throws the service's AwsError for
   * what `ctx.caller` may not do (its resource policies), or answers the context the handler runs
   * in (another account's, for a cross-account request a policy allowed).
   */
  authorize?: Authorize;
}

type Authorize = (ctx: Ctx, operation: string, input: Record<string, unknown>, req: WireRequest) => Ctx | void;

/** The operations a routes table serves (those not marked not implemented). */
export function servedOperations(routes: ServiceRoutes): string[] {
  return Object.entries(routes.handlers)
    .filter(([, handler]) => handler !== NOT_IMPLEMENTED)
    .map(([name]) => name);
}
