/**
 * Runs work over a dependency graph with as much concurrency as the graph allows: a node starts
 * as soon as every prerequisite has finished successfully. After a failure (when asked to stop)
 * nothing new starts, and the work already running is awaited, as CloudFormation lets in-flight
 * resources finish. A node whose prerequisites failed is skipped. A cycle (impossible for a
 * validated template, possible for hand-edited rows) never hangs: the rest runs one at a time.
 * `batch` wraps each wave of starts: the synchronous part of every piece of work started together
 * (for in-process providers, usually all of it) then shares one store transaction.
 */

interface GraphResult {
  succeeded: string[];
  failed: string[];
  /** Never started: a prerequisite failed, or the run stopped after a failure. */
  skipped: string[];
}

export async function runGraph(
  nodes: readonly string[],
  prerequisites: (id: string) => readonly string[],
  work: (id: string) => Promise<boolean>,
  opts: { stopOnFailure: boolean; batch?: (starts: () => void) => void },
): Promise<GraphResult> {
  const inSet = new Set(nodes);
  const waiting = new Set(nodes);
  const ok = new Set<string>();
  const bad = new Set<string>();
  const result: GraphResult = { succeeded: [], failed: [], skipped: [] };
  let inflight = 0;
  let stopped = false;

  return new Promise<GraphResult>((resolve) => {
    const finish = () => {
      for (const id of waiting) result.skipped.push(id);
      waiting.clear();
      resolve(result);
    };
    const start = (id: string) => {
      waiting.delete(id);
      inflight++;
      let succeeded = false;
      work(id)
        .then(
          (r) => (succeeded = r),
          () => (succeeded = false),
        )
        .finally(() => {
          inflight--;
          if (succeeded) {
            ok.add(id);
            result.succeeded.push(id);
          } else {
            bad.add(id);
            result.failed.push(id);
            if (opts.stopOnFailure) stopped = true;
          }
          launch();
        });
    };
    const launch = () => {
      if (opts.batch) opts.batch(launchWave);
      else launchWave();
      if (inflight === 0) finish();
    };
    const launchWave = () => {
      if (!stopped) {
        let progress = true;
        while (progress) {
          progress = false;
          for (const id of [...waiting]) {
            const pre = prerequisites(id).filter((p) => inSet.has(p) && p !== id);
            if (pre.some((p) => bad.has(p))) {
              waiting.delete(id);
              bad.add(id);
              result.skipped.push(id);
              progress = true;
              continue;
            }
            if (pre.every((p) => ok.has(p))) start(id);
          }
        }
        if (inflight === 0 && waiting.size > 0) {
          // Only a cycle can leave nodes waiting with nothing running: break it.
          const next = waiting.values().next().value as string;
          start(next);
        }
      }
    };
    launch();
  });
}
