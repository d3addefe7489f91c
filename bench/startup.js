// Start-up: spawn → first healthy response, and idle RSS, for Overcast (on-disk store) beside a
// bare fastify server started the same way.
import { fileURLToPath } from 'node:url';
import { BIN, median, rssMiB, spawnUntil, stopChild, tempDir } from './lib.js';

const ROUNDS = 7;

async function measure(args) {
  const started = process.hrtime.bigint();
  const { child, match } = await spawnUntil(process.execPath, args, /listening on (http:\/\/[^\s]+)/, {}, { server: true });
  const res = await fetch(`${match[1]}/_overcast/health`);
  await res.arrayBuffer();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  await new Promise((r) => setTimeout(r, 300));
  const rss = rssMiB(child.pid);
  await stopChild(child);
  return { ms, rss };
}

export async function run(report) {
  const floorScript = fileURLToPath(new URL('./floor-fastify.js', import.meta.url));
  const ours = [];
  const floor = [];
  for (let i = 0; i < ROUNDS; i++) {
    const dir = tempDir();
    ours.push(await measure([BIN, 'start', '--port', '0', '--log-level', 'error', '--data-dir', dir.path]));
    dir.cleanup();
    floor.push(await measure([floorScript]));
  }
  report({
    area: 'start-up',
    metric: 'spawn → first healthy response',
    value: median(ours.map((o) => o.ms)),
    floor: median(floor.map((o) => o.ms)),
    unit: 'ms',
    target: '≤ 1.3× bare fastify',
  });
  report({
    area: 'start-up',
    metric: 'idle RSS',
    value: median(ours.map((o) => o.rss)),
    floor: median(floor.map((o) => o.rss)),
    unit: 'MiB',
  });
}
