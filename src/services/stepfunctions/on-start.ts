/**
 * Step Functions at start-up: an execution a previous process left running cannot resume (its
 * progress lived in that process), so it ends FAILED with a cause saying why. One indexed query
 * on the store's own repository: a start loads none of the service's modules.
 */
import type { Runtime } from '../../runtime/runtime.js';
import { StepFunctionsRepo } from '../../store/stepfunctions-repo.js';

export async function onStart(rt: Runtime): Promise<void> {
  const repo = new StepFunctionsRepo(rt.meta);
  for (const arn of repo.runningExecutions()) {
    repo.finishExecution(arn, 'FAILED', { error: 'States.Runtime', cause: 'Overcast stopped while the execution ran' });
  }
}
