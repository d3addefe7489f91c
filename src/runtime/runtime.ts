/**
 * The runtime every provider reaches through its context: configuration, the metadata store, the
 * blob store, the logger, background work (asynchronous deletes, stack operations) and reset hooks.
 * `Ctx` is the per-request context: the caller's account, region and request id plus the runtime.
 */
import type { OvercastConfig } from '../config.js';
import type { Logger } from '../log.js';
import type { BlobStore } from '../store/blobs.js';
import type { MetadataStore } from '../store/database.js';

export class BackgroundTasks {
  private readonly running = new Set<Promise<unknown>>();
  /** Milliseconds spent running tasks since start (GET /_overcast/metrics). */
  busyMs = 0;
  /** Set when the server stops: long tasks (table maintenance) end at their next step. */
  stopping = false;

  constructor(private readonly log: Logger) {}

  /**
   * Runs `task` after the current request; failures are logged, never thrown at the caller. Each
   * task is an event of the log (`job`): its name, and its outcome when it returns a string (a
   * stack operation returns the status it ended in); one that returns `null` did nothing worth a
   * line (a scheduled pass that found no work).
   */
  spawn(name: string, task: () => Promise<unknown> | unknown): Promise<void> {
    const p = new Promise<void>((resolve) => {
      setImmediate(async () => {
        const started = performance.now();
        let outcome: unknown;
        let failed = false;
        try {
          outcome = await task();
        } catch (err) {
          failed = true;
          this.log.error(`background task ${name} failed`, err);
        }
        const ms = performance.now() - started;
        this.busyMs += ms;
        if (!failed && outcome !== null && this.log.enabled('info')) {
          const fields = { job: name, ms: Math.round(ms * 100) / 100, ...(typeof outcome === 'string' ? { outcome } : {}) };
          this.log.event('job', typeof outcome === 'string' ? `${name} → ${outcome}` : `${name} done`, fields);
        }
        resolve();
      });
    });
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
    return p;
  }

  /** Resolves when every task spawned so far (and any they spawn) has finished. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}

export interface Runtime {
  readonly config: OvercastConfig;
  readonly meta: MetadataStore;
  readonly blobs: BlobStore;
  readonly log: Logger;
  readonly background: BackgroundTasks;
  /** The server's own base URL once listening (e.g. `http://127.0.0.1:4566`). */
  endpoint?: string;
  /** Hooks run by reset(), for services that cache anything outside SQLite. */
  readonly resetHooks: (() => void)[];
  /** Hooks run first when the server stops, for services that own processes (Lambda's workers). */
  readonly closeHooks: (() => Promise<void>)[];
  readonly startedAt: Date;
}

export interface Ctx {
  readonly rt: Runtime;
  readonly account: string;
  readonly region: string;
  readonly partition: string;
  readonly requestId: string;
  readonly accessKeyId: string;
  /** Who sent the request, as strict mode verified it (absent in the default mode and for Overcast's own calls). */
  readonly caller?: Caller;
}

/** A request's verified principal and the facts about it policies can test (strict mode). */
export interface Caller {
  /** The principal as policies name it: the IAM user, or the role of an assumed-role session; `*` when anonymous. */
  readonly principalArn: string;
  /** The identity the request acts as (an assumed-role session ARN for role credentials). */
  readonly arn: string;
  readonly account: string;
  readonly userId: string;
  /** `REST-HEADER` (Authorization header), `REST-QUERY-STRING` (presigned URL) or `anonymous`. */
  readonly authType: 'REST-HEADER' | 'REST-QUERY-STRING' | 'anonymous';
  /** Milliseconds since the signature's X-Amz-Date. */
  readonly signatureAgeMs?: number;
  readonly sourceIp?: string;
  /** Whether the request came over TLS (never, for Overcast's plain-HTTP port). */
  readonly secureTransport: boolean;
  /** The `x-amz-content-sha256` the request declared. */
  readonly contentSha256?: string;
}

export function partitionOf(region: string): string {
  if (region.startsWith('cn-')) return 'aws-cn';
  if (region.startsWith('us-gov-')) return 'aws-us-gov';
  if (region.startsWith('us-iso-')) return 'aws-iso';
  if (region.startsWith('us-isob-')) return 'aws-iso-b';
  return 'aws';
}

/** A context for calls made by Overcast itself (the CloudFormation engine, background work). */
export function internalCtx(rt: Runtime, account: string, region: string, requestId: string): Ctx {
  return { rt, account, region, partition: partitionOf(region), requestId, accessKeyId: account };
}

/**
 * One object per metadata store, made on first use: every service's repository. A repository
 * that caches rows (`clearCache`) has its cache cleared on reset.
 */
export function perStore<T extends object>(make: (meta: MetadataStore) => T): (ctx: Pick<Ctx, 'rt'>) => T {
  const made = new WeakMap<object, T>();
  return (ctx) => {
    let r = made.get(ctx.rt.meta);
    if (!r) {
      const created = make(ctx.rt.meta);
      const cached = created as { clearCache?: () => void };
      if (cached.clearCache) ctx.rt.resetHooks.push(() => cached.clearCache!());
      made.set(ctx.rt.meta, created);
      r = created;
    }
    return r;
  };
}
