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
  const order = new Map<string, number>();
  for (const id of nodes) if (!order.has(id)) order.set(id, order.size);
  // Each node's prerequisites within the graph, and how many of them have not succeeded yet: a
  // finished node touches only its dependents, so a wave costs what it starts, not the whole graph.
  const pre = new Map<string, string[]>();
  const unmet = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const id of order.keys()) {
    const p = [...new Set(prerequisites(id))].filter((x) => order.has(x) && x !== id);
    pre.set(id, p);
    unmet.set(id, p.length);
    for (const x of p) {
      const list = dependents.get(x);
      if (list) list.push(id);
      else dependents.set(x, [id]);
    }
  }
  const waiting = new Set(order.keys());
  const bad = new Set<string>();
  const result: GraphResult = { succeeded: [], failed: [], skipped: [] };
  let ready = [...waiting].filter((id) => unmet.get(id) === 0);
  let inflight = 0;
  let stopped = false;
  let failedSinceWave = false;

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
            result.succeeded.push(id);
            for (const d of dependents.get(id) ?? []) {
              const left = unmet.get(d)! - 1;
              unmet.set(d, left);
              if (left === 0 && waiting.has(d)) ready.push(d);
            }
          } else {
            bad.add(id);
            result.failed.push(id);
            failedSinceWave = true;
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
    // Nodes behind a failure are skipped, in graph order, pass after pass (a skipped node fails
    // its own dependents). Failures are rare: this one scans what is still waiting.
    const skipBehindFailures = () => {
      let progress = true;
      while (progress) {
        progress = false;
        for (const id of waiting) {
          if (!pre.get(id)!.some((p) => bad.has(p))) continue;
          waiting.delete(id);
          bad.add(id);
          result.skipped.push(id);
          progress = true;
        }
      }
    };
    const launchWave = () => {
      if (stopped) return;
      if (failedSinceWave) {
        failedSinceWave = false;
        skipBehindFailures();
      }
      // Started in graph order, as a scan of the graph would start them.
      const starts = ready.filter((id) => waiting.has(id)).sort((a, b) => order.get(a)! - order.get(b)!);
      ready = [];
      for (const id of starts) start(id);
      if (inflight === 0 && waiting.size > 0) {
        // Only a cycle can leave nodes waiting with nothing running: break it.
        const next = waiting.values().next().value as string;
        start(next);
      }
    };
    launch();
  });
}
