/**
 * The dashboard's open event streams per server, so stopping the server ends them: a server-sent
 * event stream never finishes by itself, and the HTTP server's close waits for open responses.
 * Tiny on purpose — the server imports it at start-up, while the dashboard itself loads on first use.
 */
import type { Runtime } from '../runtime/runtime.js';

const open = new WeakMap<Runtime, Set<() => void>>();

/** Registers a stream's close function; returns the function that unregisters it. */
export function trackStream(rt: Runtime, close: () => void): () => void {
  let set = open.get(rt);
  if (!set) open.set(rt, (set = new Set()));
  set.add(close);
  return () => set.delete(close);
}

export function closeStreams(rt: Runtime): void {
  for (const close of [...(open.get(rt) ?? [])]) close();
}
