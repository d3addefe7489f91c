/**
 * What every protocol codec offers the dispatcher: turn a request into an operation name and a
 * typed input, turn a provider's output into a response, and render an AwsError the way that
 * protocol's clients parse it.
 */
import type { AwsError } from './errors.js';
import type { WireRequest, WireResponse } from './http.js';

export interface ParsedRequest {
  operation: string;
  input: Record<string, unknown>;
}

export interface Codec {
  /** Names the operation; throws AwsError for requests that match none. */
  parse(req: WireRequest): Promise<ParsedRequest>;
  serialize(operation: string, output: unknown, requestId: string): WireResponse;
  error(err: AwsError, requestId: string, req?: WireRequest): WireResponse;
}
