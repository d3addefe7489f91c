/**
 * S3 Tables' start-up hook: if a previous run left warehouse purges unfinished (a crash, a kill),
 * load the warehouse module and resume them in the background. The check is one indexed query, so
 * a clean start never loads the S3 Tables provider.
 */
import type { Runtime } from '../../server/runtime.js';
import { S3TablesRepo } from '../../store/s3tables-repo.js';

export async function onStart(rt: Runtime): Promise<void> {
  if (new S3TablesRepo(rt.meta).pendingPurges(1).length === 0) return;
  const { resumePurges } = await import('./warehouse.js');
  resumePurges(rt);
}
