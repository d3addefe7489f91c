/**
 * Invoke: `RequestResponse` runs the function and answers 200 with its result — or, when the
 * handler failed, its error payload with `X-Amz-Function-Error: Unhandled` (the status stays 200,
 * as on AWS); `Event` answers 202 at once and runs it in the background; `DryRun` only checks the
 * request (204). `LogType: Tail` returns the base64 of the last 4 KB of the invocation's log with
 * Lambda's START / END / REPORT lines. The payload must be JSON, at most 6 MB (1 MB for Event);
 * a result over 6 MB fails the invocation as Lambda's does. `runFunction` is the same invocation
 * for Overcast's own callers (CloudFormation's custom resources).
 */
import { randomUUID } from 'node:crypto';
import type * as L from '@aws-sdk/client-lambda';
import type { Ctx } from '../../runtime/runtime.js';
import { storedConfig, versionLabel } from './configuration.js';
import { check, lambdaErrors } from './errors.js';
import { functionLayers } from './layers.js';
import { lambdaRepo, resolveVersion } from './lookup.js';
import { functionArn } from './naming.js';
import { runnerOf } from './runner/runner.js';
import type { LambdaErrorPayload, Outcome } from './runner/worker.js';

const SYNC_LIMIT = 6 * 1024 * 1024;
const EVENT_LIMIT = 1024 * 1024;
const RESPONSE_LIMIT = 6_291_556;
const TAIL_BYTES = 4096;

export interface FunctionRun {
  requestId: string;
  executedVersion: string;
  outcome: Outcome & { cold: boolean };
  /** The result or error payload, as Invoke returns it. */
  payload: Buffer;
  functionError?: string;
  log: string;
}

function parseClientContext(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    throw lambdaErrors.invalidContent('Client context must be a valid Base64-encoded JSON object.');
  }
}

function errorText(error: LambdaErrorPayload): string {
  return JSON.stringify(error);
}

/** Runs the version `name`/`qualifier` resolves to with `payload` (JSON text) and collects what Invoke answers. */
export async function runFunction(ctx: Ctx, name: string, qualifier: string | undefined, payload: string, clientContext?: unknown): Promise<FunctionRun> {
  const { ref, version } = resolveVersion(ctx, name, qualifier);
  const requestId = randomUUID();
  const executedVersion = versionLabel(version.version);
  const arn = functionArn(ctx, ref.name, ref.qualifier);
  const repo = lambdaRepo(ctx);
  const layers = functionLayers(ctx, storedConfig(version).Layers ?? []).flatMap((l) =>
    l.row ? [{ sha: l.row.code_sha, zip: () => repo.getCode(l.row!.code_sha) }] : [],
  );
  const code = { sha: version.code_sha, zip: () => repo.getCode(version.code_sha) };
  const outcome = await runnerOf(ctx.rt).invoke(ctx, version, { code, layers }, {
    requestId,
    arn,
    payload,
    clientContext,
  });
  let body = outcome.ok ? outcome.payload : errorText(outcome.error);
  let failed = !outcome.ok;
  if (Buffer.byteLength(body) > RESPONSE_LIMIT) {
    body = errorText({
      errorType: 'Function.ResponseSizeTooLarge',
      errorMessage: `Response payload size exceeded maximum allowed payload size (${RESPONSE_LIMIT} bytes).`,
    });
    failed = true;
  }
  const memory = storedConfig(version).MemorySize;
  const ms = outcome.ms;
  const report =
    `REPORT RequestId: ${requestId}\tDuration: ${ms.toFixed(2)} ms\tBilled Duration: ${Math.max(1, Math.ceil(ms))} ms\t` +
    `Memory Size: ${memory} MB\tMax Memory Used: ${Math.min(memory, 64)} MB\t`;
  const log = [`START RequestId: ${requestId} Version: ${executedVersion}`, ...outcome.logs, `END RequestId: ${requestId}`, report, ''].join('\n');
  if (ctx.rt.log.enabled('debug')) ctx.rt.log.debug(`lambda ${ref.name} ${report}${outcome.cold ? ' (cold start)' : ''}`);
  return {
    requestId,
    executedVersion,
    outcome,
    payload: Buffer.from(body),
    ...(failed ? { functionError: 'Unhandled' } : {}),
    log,
  };
}

function tail(log: string): string {
  const bytes = Buffer.from(log);
  return bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES)).toString('base64');
}

export async function invoke(ctx: Ctx, input: L.InvocationRequest): Promise<L.InvocationResponse> {
  const { Payload: raw, ...rest } = input;
  check('Invoke', rest);
  const type = input.InvocationType ?? 'RequestResponse';
  const bytes = raw ? Buffer.from(raw) : Buffer.alloc(0);
  const limit = type === 'Event' ? EVENT_LIMIT : SYNC_LIMIT;
  if (bytes.length > limit) throw lambdaErrors.requestTooLarge(bytes.length, limit);
  const text = bytes.length ? bytes.toString('utf8') : '{}';
  try {
    JSON.parse(text);
  } catch (err) {
    throw lambdaErrors.invalidContent(err instanceof Error ? err.message : String(err));
  }
  const clientContext = parseClientContext(input.ClientContext);
  // Resolving first makes a missing function or qualifier an error of this request for every type.
  const { version } = resolveVersion(ctx, input.FunctionName!, input.Qualifier);
  const executed = versionLabel(version.version);
  if (type === 'DryRun') return { StatusCode: 204 };
  if (type === 'Event') {
    void ctx.rt.background.spawn(`lambda invoke ${input.FunctionName}`, async () => {
      const run = await runFunction(ctx, input.FunctionName!, input.Qualifier, text, clientContext);
      if (run.functionError) ctx.rt.log.warn(`lambda ${input.FunctionName} (Event) failed: ${run.payload.toString('utf8').slice(0, 500)}`);
      return null;
    });
    return { StatusCode: 202 };
  }
  const run = await runFunction(ctx, input.FunctionName!, input.Qualifier, text, clientContext);
  return {
    StatusCode: 200,
    ExecutedVersion: executed,
    ...(run.functionError ? { FunctionError: run.functionError } : {}),
    ...(input.LogType === 'Tail' ? { LogResult: tail(run.log) } : {}),
    Payload: run.payload,
  };
}
