/**
 * Maintenance shares the event loop with requests: `yieldNow` lets the requests waiting on it run
 * once this thread has worked on maintenance for a slice (4 ms).
 */

const SLICE_MS = 4;
let sliceStart = performance.now();

/**
 * Lets requests waiting on the event loop run once this thread has worked on maintenance for a
 * slice (4 ms): called between steps, it keeps requests' latency bounded without paying a full
 * turn of the loop after every small file.
 */
export async function yieldNow(): Promise<void> {
  if (performance.now() - sliceStart < SLICE_MS) return;
  await new Promise((resolve) => setImmediate(resolve));
  sliceStart = performance.now();
}
