/**
 * What a service's routes module gives the dispatcher: the protocol codec, the table of
 * operation handlers (each the provider function behind one API operation), and the code of the
 * protocol's internal error.
 */
import type { Codec } from '../wire/codec.js';
import type { Ctx } from '../server/runtime.js';

/** An operation handler: the provider function behind one API operation. */
export type Handler = (ctx: Ctx, input: any) => unknown | Promise<unknown>;

export interface ServiceRoutes {
  codec: Codec;
  handlers: Partial<Record<string, Handler>>;
  /** Code of the protocol's internal error (S3: InternalError, CloudFormation: InternalFailure…). */
  internalErrorCode: string;
}
