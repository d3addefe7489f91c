/**
 * Keeps WAL checkpoints out of the way of requests. SQLite checkpoints inside the commit that
 * takes the log past `wal_autocheckpoint` pages: that commit first fsyncs the whole log, copies
 * its pages into the database file and fsyncs that too — 65–100 ms for 4,000 pages on this
 * project's machine, landing on whichever request crossed the line (one 100-resource stack in
 * a dozen). Here a timer looks at the store ten times a second: after a tick with writes, the
 * log is flushed to disk in the background (libuv's thread pool), so a checkpoint that must still
 * happen inside a commit finds it synced (about half the cost); once a tick passes without a
 * write, the log is checkpointed and emptied then, between requests.
 */
import type Database from 'better-sqlite3';
import { close, fdatasync, open } from 'node:fs';

const TICK_MS = 100;

export class WalKeeper {
  private readonly timer: NodeJS.Timeout;
  private readonly changes: Database.Statement;
  private lastChanges: number;
  /** Writes since the last checkpoint. */
  private pending = false;
  private syncing = false;

  constructor(
    private readonly db: Database.Database,
    private readonly walPath: string,
  ) {
    this.changes = db.prepare('SELECT total_changes()').pluck();
    this.lastChanges = this.changes.get() as number;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  private tick(): void {
    try {
      this.step();
    } catch {
      // A checkpoint that cannot run now (the disk full, say) is left to the next one SQLite runs
      // itself; a timer must not take the server down.
    }
  }

  private step(): void {
    if (!this.db.open || this.db.inTransaction) return;
    const changes = this.changes.get() as number;
    if (changes !== this.lastChanges) {
      this.lastChanges = changes;
      this.pending = true;
      this.syncInBackground();
      return;
    }
    if (!this.pending || this.syncing) return;
    this.pending = false;
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  private syncInBackground(): void {
    if (this.syncing) return;
    this.syncing = true;
    const done = () => {
      this.syncing = false;
    };
    open(this.walPath, 'r', (err, fd) => {
      if (err) return done();
      fdatasync(fd, () => close(fd, done));
    });
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
