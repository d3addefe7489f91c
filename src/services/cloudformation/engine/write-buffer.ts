/**
 * An operation's write-behind buffer: its writes are queued in order and committed together in
 * one transaction at the end of the current turn of the event loop (or before any read, or when
 * the operation ends). A hundred resources created by in-process providers thus cost a handful of
 * commits instead of several hundred, while a provider that really waits (a nested stack) still
 * lets the events recorded so far reach the store at once.
 */
import type { CloudFormationRepo, ResourceRow } from '../../../store/cloudformation-repo.js';
import type { Runtime } from '../../../runtime/runtime.js';

export type BufferedRepo = CloudFormationRepo & { flush(): void };

const READS = /^(get|list|find|next|last|exportsOf|importersOf|importsOf|stacksIn)/;

/** Wraps a repository: writes are queued and committed together; a read commits the queue first. */
export function buffered(base: CloudFormationRepo, rt: Runtime): BufferedRepo {
  const queue: (() => void)[] = [];
  let scheduled = false;
  const flush = () => {
    if (queue.length === 0) return;
    const writes = queue.splice(0);
    lastPut.clear();
    base.tx(() => {
      for (const w of writes) w();
    });
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      try {
        flush();
      } catch (err) {
        rt.log.error('cloudformation: writing operation state failed', err);
      }
    });
  };
  // The queue slot of the last putResource of each row, while no other write to the row follows:
  // a later putResource of the same row makes it redundant (IN_PROGRESS then COMPLETE → one write).
  const lastPut = new Map<string, number>();
  const rowKey = (stackId: unknown, logicalId: unknown) => `${String(stackId)}\u0000${String(logicalId)}`;
  const noop = () => {};
  return new Proxy(base, {
    get(target, prop) {
      if (prop === 'flush') return flush;
      const value = Reflect.get(target, prop) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      const fn = value as (...args: unknown[]) => unknown;
      // Queued writes keep their order, so a "transaction" is simply its writes in a row.
      if (prop === 'tx') return (body: () => unknown) => body();
      if (READS.test(prop)) {
        return (...args: unknown[]) => {
          flush();
          return fn.apply(target, args);
        };
      }
      return (...args: unknown[]) => {
        if (prop === 'putResource') {
          const row = args[0] as ResourceRow;
          const key = rowKey(row.stack_id, row.logical_id);
          const earlier = lastPut.get(key);
          if (earlier !== undefined && earlier < queue.length) queue[earlier] = noop;
          lastPut.set(key, queue.length);
        } else if (prop === 'updateResource' || prop === 'deleteResource') {
          lastPut.delete(rowKey(args[0], args[1]));
        }
        queue.push(() => fn.apply(target, args));
        schedule();
      };
    },
  }) as BufferedRepo;
}
