/**
 * CloudFormation's start-up hook: stacks a previous run left `*_IN_PROGRESS` (a crash, a kill in
 * the middle of an operation) are finished or rolled back in the background, so no stack stays
 * stuck. The check is one indexed query; the engine is loaded only when there is work.
 */
import type { Runtime } from '../../runtime/runtime.js';
import { cfnRepo } from './engine/state.js';

export async function onStart(rt: Runtime): Promise<void> {
  const stuck = cfnRepo({ rt }).stacksInProgress();
  if (stuck.length === 0) return;
  void rt.background.spawn('cloudformation recovery', async () => {
    const { recoverStacks } = await import('./engine/recovery.js');
    await recoverStacks(rt, stuck);
  });
}
