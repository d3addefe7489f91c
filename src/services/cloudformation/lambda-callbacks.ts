/**
 * The URLs Overcast hands out for Lambda on its own port, answered outside the AWS APIs (they
 * are presigned in effect: the path carries the secret): `PUT /_overcast/cfn-response/…`, a
 * custom resource's response to its ResponseURL (custom-resource-responses.ts), and
 * `GET /_overcast/lambda/code/<sha256>.zip`, the package GetFunction's Code.Location names.
 */
import type { Readable } from 'node:stream';
import type { Runtime } from '../../runtime/runtime.js';
import { internalCtx } from '../../runtime/runtime.js';
import { readCapped } from '../../wire/http.js';
import { codePackage } from '../lambda/provider.js';
import { acceptResponse } from './resources/cloudformation/custom-resource-responses.js';

interface CallbackAnswer {
  status: number;
  contentType: string;
  body: string | Buffer;
}

export async function lambdaCallback(rt: Runtime, method: string, path: string, body: Readable): Promise<CallbackAnswer> {
  const code = /^\/_overcast\/lambda\/code\/([0-9a-f]{64})\.zip$/.exec(path);
  if (code && (method === 'GET' || method === 'HEAD')) {
    const zip = codePackage(internalCtx(rt, '000000000000', 'us-east-1', 'code'), code[1]!);
    if (zip) return { status: 200, contentType: 'application/zip', body: zip };
  }
  // A response body is at most 4096 bytes: what is kept past that only has to show it was longer.
  const text = method === 'PUT' ? (await readCapped(body, 8192)).toString('utf8') : '';
  const answered = acceptResponse(rt, method, path, text);
  if (answered) return { status: answered.status, contentType: 'text/plain', body: answered.body };
  if (!body.readableEnded) body.resume();
  return { status: 404, contentType: 'application/json', body: '{"message":"not found"}' };
}
