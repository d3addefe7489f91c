/**
 * Step Functions at start-up: an execution a previous process left running cannot resume (its
 * progress lived in that process), so it ends FAILED with a cause saying why.
 */
import { internalCtx, type Runtime } from '../../runtime/runtime.js';
import { sfnRepo } from './provider.js';

export async function onStart(rt: Runtime): Promise<void> {
  const repo = sfnRepo(internalCtx(rt, '000000000000', 'us-east-1', 'start-up'));
  for (const arn of repo.runningExecutions()) {
    repo.finishExecution(arn, { status: 'FAILED', output: null, error: 'States.Runtime', cause: 'Overcast stopped while the execution ran', stopped_at: Date.now() });
  }
}
