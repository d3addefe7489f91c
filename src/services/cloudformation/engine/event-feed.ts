/**
 * Who is watching a stack's events (the dashboard's live stream): EventLog.record announces each
 * event it writes, and a watcher reads what it has not seen once the write is visible. Keyed by
 * stack id, which is a unique UUID ARN, so one map serves every server in the process; a stack
 * nobody watches costs one map lookup per event.
 */
const watchers = new Map<string, Set<() => void>>();

/** Calls `listener` after each event recorded for the stack; returns the function that stops it. */
export function watchStackEvents(stackId: string, listener: () => void): () => void {
  let set = watchers.get(stackId);
  if (!set) watchers.set(stackId, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0 && watchers.get(stackId) === set) watchers.delete(stackId);
  };
}

export function stackEventRecorded(stackId: string): void {
  const set = watchers.get(stackId);
  if (!set) return;
  for (const listener of set) {
    try {
      listener();
    } catch {
      // a watcher's failure is its own; the operation goes on
    }
  }
}
