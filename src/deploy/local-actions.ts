/**
 * The deploy flow's CloudFormation actions inside the server's own process, for the in-process
 * API: the provider functions the CloudFormation API calls (never HTTP to itself), the engine's
 * settle hook to wait without polling, and Overcast's S3 to stage templates over 51,200 bytes
 * (a bucket of the caller's account and region, made on first need).
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type * as CFN from '@aws-sdk/client-cloudformation';
import type { Ctx, Runtime } from '../runtime/runtime.js';
import { isAwsError } from '../wire/errors.js';
import type { StackActions } from './flow.js';

type CfnProvider = typeof import('../services/cloudformation/provider.js');
type StackQueue = typeof import('../services/cloudformation/engine/stack-queue.js');

export interface LocalEngine {
  cfn: CfnProvider;
  settled: StackQueue['settled'];
}

function isMissingStack(err: unknown): boolean {
  return isAwsError(err) && err.code === 'ValidationError' && / does not exist$/.test(err.message);
}

/** The stack of that name (or ARN), or undefined when there is none. */
export async function describeLocal(e: LocalEngine, ctx: Ctx, name: string): Promise<CFN.Stack | undefined> {
  const out = await e.cfn.describeStacks(ctx, { StackName: name }).catch((err: unknown) => {
    if (isMissingStack(err)) return undefined;
    throw err;
  });
  return out?.Stacks?.[0];
}

/** The events of one operation, oldest first (by its id, or by time when there is none). */
function eventsOf(e: LocalEngine, ctx: Ctx, stackId: string, operationId: string | undefined, since: number): CFN.StackEvent[] {
  const out: CFN.StackEvent[] = [];
  let token: string | undefined;
  // Newest first: stop at the first event older than the operation.
  pages: do {
    const page = e.cfn.describeStackEvents(ctx, { StackName: stackId, ...(token ? { NextToken: token } : {}) });
    for (const ev of page.StackEvents ?? []) {
      const ours = operationId ? ev.OperationId === operationId : (ev.Timestamp?.getTime() ?? 0) >= since;
      if (!ours && (ev.Timestamp?.getTime() ?? 0) < since) break pages;
      if (ours) out.push(ev);
    }
    token = page.NextToken;
  } while (token);
  return out.reverse();
}

export function localStackActions(rt: Runtime, e: LocalEngine, ctx: () => Ctx, timeoutMs: number): StackActions {
  /** Waits until no operation of the stack runs, then reads it (by ARN, so deleted stacks too). */
  const settleStack = async (stackId: string): Promise<CFN.Stack> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await e.settled(rt, stackId, Math.max(1, deadline - Date.now()));
      const stack = (await e.cfn.describeStacks(ctx(), { StackName: stackId })).Stacks![0]!;
      const status = stack.StackStatus ?? '';
      if (!status.endsWith('_IN_PROGRESS') || status === 'REVIEW_IN_PROGRESS') return stack;
      if (Date.now() >= deadline) throw new Error(`Stack ${stack.StackName} still ${status} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return {
    describe: (name) => describeLocal(e, ctx(), name),
    create: async (input) => e.cfn.createStack(ctx(), input),
    update: async (input) => e.cfn.updateStack(ctx(), input),
    delete: async (stackId) => {
      await e.cfn.deleteStack(ctx(), { StackName: stackId });
    },
    templateParameters: async (source) => ((await e.cfn.getTemplateSummary(ctx(), source)).Parameters ?? []).map((p) => p.ParameterKey!),
    settle: async (stackId, since, operationId) => {
      const stack = await settleStack(stackId);
      return { stack, events: eventsOf(e, ctx(), stackId, operationId, since) };
    },
    stage: async (text) => {
      const s3 = await import('../services/s3/provider.js');
      const c = ctx();
      const bucket = `overcast-templates-${c.account}-${c.region}`;
      try {
        s3.createBucket(c, { Bucket: bucket }, { internal: true });
      } catch (err) {
        if (!isAwsError(err) || err.code !== 'BucketAlreadyOwnedByYou') throw err;
      }
      const key = `${randomUUID()}.template`;
      await s3.putObject(c, { Bucket: bucket, Key: key, Body: Readable.from([Buffer.from(text, 'utf8')]) });
      return `s3://${bucket}/${key}`;
    },
  };
}
