import { CreateFunctionCommand, InvokeCommand, LambdaClient, GetFunctionCommand } from '@aws-sdk/client-lambda';
import { strToU8, zipSync } from 'fflate';
import { it, expect } from 'vitest';
import { startTestServer } from '../helpers/server.js';

it('smoke', async () => {
  const t = await startTestServer();
  const lambda = new LambdaClient({ ...t.clientConfig, maxAttempts: 1 });
  const zip = zipSync({ 'index.js': strToU8("exports.handler = async (e, c) => { console.log('hi', e); return { got: e, fn: c.functionName, left: c.getRemainingTimeInMillis() > 0 }; };") });
  const created = await lambda.send(new CreateFunctionCommand({ FunctionName: 'f1', Role: 'arn:aws:iam::000000000000:role/r', Runtime: 'nodejs20.x', Handler: 'index.handler', Code: { ZipFile: zip } }));
  console.log(created);
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const out = await lambda.send(new InvokeCommand({ FunctionName: 'f1', Payload: Buffer.from(JSON.stringify({ a: i })), LogType: 'Tail' }));
    console.log(performance.now() - t0, out.StatusCode, out.FunctionError, Buffer.from(out.Payload!).toString(), Buffer.from(out.LogResult!, 'base64').toString());
  }
  console.log(await lambda.send(new GetFunctionCommand({ FunctionName: 'f1' })));
  await t.stop();
});
