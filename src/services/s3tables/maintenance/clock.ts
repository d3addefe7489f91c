/**
 * Overcast's clock: wall time plus an offset that only grows (`POST /_overcast/clock`, `overcast
 * clock advance 72h`), so a test sees what a week of maintenance does in a second. Every age-based
 * rule of maintenance judges by it, and job times (`lastRunTimestamp`, when a file became
 * noncurrent) are read from it. Instants that others record on the wall clock — an object's
 * creation time, a writer's snapshot `timestamp-ms` — are mapped to Overcast time with the offset
 * in effect at that instant: a file written before `advance 72h` is 72 hours older afterwards, one
 * written after it is young (the reference's first pitfall). Times written into Iceberg metadata
 * stay wall-clock times, because readers refuse a metadata log that goes backwards (Java's
 * `TableMetadata` checks the order of both logs) and writers stamp theirs with the wall clock.
 * Each advance is a row of the store: a server with a data directory keeps its clock on restart,
 * and `reset` puts it back to the wall clock.
 */
import type { Runtime } from '../../../runtime/runtime.js';

interface Advance {
  at: number;
  offset: number;
}

export class OvercastClock {
  private advances: Advance[] | undefined;

  constructor(private readonly rt: Runtime) {}

  private load(): Advance[] {
    this.advances ??= this.rt.meta.stmt('SELECT at_wall AS at, offset_ms AS offset FROM s3t_clock ORDER BY at_wall').all() as Advance[];
    return this.advances;
  }

  /** Forgets what was read (the store was reset underneath). */
  forget(): void {
    this.advances = undefined;
  }

  /** Milliseconds Overcast's time is ahead of the wall clock. */
  get offset(): number {
    const a = this.load();
    return a.length ? a[a.length - 1]!.offset : 0;
  }

  /** Overcast's now, in epoch milliseconds. */
  now(): number {
    return Date.now() + this.offset;
  }

  /** Overcast's time of a wall-clock instant (an object's creation, a snapshot's timestamp). */
  at(wallMs: number): number {
    const a = this.load();
    let lo = 0;
    let hi = a.length - 1;
    let offset = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (a[mid]!.at <= wallMs) {
        offset = a[mid]!.offset;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return wallMs + offset;
  }

  /** Moves Overcast's time forward by `ms` (> 0); returns the new now. */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms <= 0) throw new RangeError('the clock only moves forward: give a positive duration');
    const at = Date.now();
    const offset = this.offset + Math.round(ms);
    this.rt.meta.stmt('INSERT OR REPLACE INTO s3t_clock (at_wall, offset_ms) VALUES (?, ?)').run(at, offset);
    const a = this.load();
    if (a.length && a[a.length - 1]!.at === at) a[a.length - 1] = { at, offset };
    else a.push({ at, offset });
    return at + offset;
  }
}

const clocks = new WeakMap<Runtime, OvercastClock>();

/** The runtime's clock (one per server). */
export function clockOf(rt: Runtime): OvercastClock {
  let c = clocks.get(rt);
  if (!c) {
    const created = new OvercastClock(rt);
    rt.resetHooks.push(() => created.forget());
    clocks.set(rt, created);
    c = created;
  }
  return c;
}
