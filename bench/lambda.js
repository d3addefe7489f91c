// Lambda: a warm Node.js invocation and a cold start (the code unpacked, a new process, the handler
// loaded), measured in-process through the Lambda provider — the server-side cost, no HTTP — on a
// runtime of the built server; medians of 200 warm invocations and of 10 cold starts.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import { median, ROOT, tempDir } from './lib.js';

const dist = (path) => import(pathToFileURL(join(ROOT, 'dist', path)).href);
const WARM = 200;
const COLD = 10;

export async function run(report) {
  const { createRuntime } = await dist('server/server.js');
  const { configFromEnv } = await dist('config.js');
  const { internalCtx } = await dist('runtime/runtime.js');
  const lambda = await dist('services/lambda/provider.js');
  const dir = tempDir();
  const rt = createRuntime({ ...configFromEnv({}), dataDir: dir.path, logLevel: 'error' });
  const ctx = internalCtx(rt, '000000000000', 'us-east-1', 'bench');
  const create = (name, i) =>
    lambda.createFunction(ctx, {
      FunctionName: name,
      Role: 'arn:aws:iam::000000000000:role/r',
      Runtime: 'nodejs20.x',
      Handler: 'index.handler',
      // Distinct code each time: a cold start unpacks its own package.
      Code: { ZipFile: zipSync({ 'index.js': strToU8(`exports.handler = async (e) => ({ ...e, i: ${i} });`) }) },
    });
  const invoke = async (name) => {
    const started = performance.now();
    const out = await lambda.invoke(ctx, { FunctionName: name, Payload: Buffer.from('{"a":1}') });
    if (out.FunctionError) throw new Error(Buffer.from(out.Payload).toString());
    return performance.now() - started;
  };
  try {
    await create('warm', -1);
    await invoke('warm');
    const warm = [];
    for (let i = 0; i < WARM; i++) warm.push(await invoke('warm'));
    report({ area: 'lambda', metric: 'warm Node.js invoke, server-side (median)', value: median(warm), unit: 'ms', target: '≤ 5 ms' });
    const cold = [];
    for (let i = 0; i < COLD; i++) {
      await create(`cold-${i}`, i);
      cold.push(await invoke(`cold-${i}`));
    }
    report({ area: 'lambda', metric: 'cold start: unpack, new process, first invoke (median)', value: median(cold), unit: 'ms', target: '≤ 300 ms' });
  } finally {
    for (const hook of rt.closeHooks) await hook();
    rt.blobs.close();
    rt.meta.close();
    dir.cleanup();
  }
}
