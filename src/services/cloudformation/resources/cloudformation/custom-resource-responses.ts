/**
 * The ResponseURL side of the custom resource protocol: each request gets a URL on Overcast's own
 * port, `/_overcast/cfn-response/<request id>/<token>` — presigned in effect, as AWS's S3 URL is —
 * and the provider's PUT of its response there (any content type, the CDK's senders send an
 * empty one) settles the request's waiter. The body is checked as CloudFormation checks it: at
 * most 4096 bytes, JSON, `Status` SUCCESS or FAILED, a PhysicalResourceId of at most 1 KB. A PUT
 * for no waiting request (late, or forged) is refused with 403, as S3 refuses a bad presigned URL.
 */
import { randomBytes } from 'node:crypto';
import type { Runtime } from '../../../../runtime/runtime.js';

export interface CustomResourceResponse {
  Status: 'SUCCESS' | 'FAILED';
  Reason?: string;
  PhysicalResourceId?: string;
  StackId?: string;
  RequestId?: string;
  LogicalResourceId?: string;
  NoEcho?: boolean | string;
  Data?: Record<string, unknown>;
}

/** A response CloudFormation would not accept: the resource fails with this reason. */
export class ResponseRejected extends Error {}

interface Pending {
  resolve(r: CustomResourceResponse): void;
  reject(err: Error): void;
}

const MAX_RESPONSE = 4096;
const PATH = '/_overcast/cfn-response/';
const waiting = new WeakMap<Runtime, Map<string, Pending>>();

function pendingOf(rt: Runtime): Map<string, Pending> {
  let map = waiting.get(rt);
  if (!map) {
    const made = new Map<string, Pending>();
    map = made;
    waiting.set(rt, made);
    rt.closeHooks.push(async () => {
      for (const p of made.values()) p.reject(new ResponseRejected('Overcast stopped while waiting for the custom resource response'));
      made.clear();
    });
  }
  return map;
}

interface ResponseWait {
  url: string;
  response: Promise<CustomResourceResponse>;
  cancel(): void;
}

/** A fresh ResponseURL for `requestId` and the promise its PUT settles. */
export function awaitResponse(rt: Runtime, requestId: string): ResponseWait {
  const key = `${requestId}/${randomBytes(16).toString('hex')}`;
  const map = pendingOf(rt);
  let cancel = () => {};
  const response = new Promise<CustomResourceResponse>((resolve, reject) => {
    map.set(key, { resolve, reject });
    cancel = () => map.delete(key);
  });
  // Rejections are read by whoever awaits; an abandoned wait must not become an unhandled one.
  response.catch(() => {});
  return { url: `${rt.endpoint ?? ''}${PATH}${key}`, response, cancel };
}

function parse(body: string): CustomResourceResponse {
  if (Buffer.byteLength(body) > MAX_RESPONSE) throw new ResponseRejected('Response object is too long.');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new ResponseRejected('Invalid response object: the response is not JSON');
  }
  const r = value as CustomResourceResponse;
  if (typeof value !== 'object' || value === null || (r.Status !== 'SUCCESS' && r.Status !== 'FAILED')) {
    throw new ResponseRejected('Invalid response object: Status must be SUCCESS or FAILED');
  }
  if (r.PhysicalResourceId !== undefined && (typeof r.PhysicalResourceId !== 'string' || Buffer.byteLength(r.PhysicalResourceId) > 1024)) {
    throw new ResponseRejected('Invalid PhysicalResourceId');
  }
  if (r.Data !== undefined && (typeof r.Data !== 'object' || r.Data === null || Array.isArray(r.Data))) {
    throw new ResponseRejected('Invalid response object: Data must be an object');
  }
  return r;
}

/** Answers a request to `/_overcast/cfn-response/…`: undefined when the path is not one. */
export function acceptResponse(rt: Runtime, method: string, path: string, body: string): { status: number; body: string } | undefined {
  if (!path.startsWith(PATH)) return undefined;
  const key = decodeURIComponent(path.slice(PATH.length));
  const map = pendingOf(rt);
  const pending = map.get(key);
  if (method !== 'PUT') return { status: 405, body: 'Method Not Allowed' };
  if (!pending) return { status: 403, body: 'Request has expired or is not known' };
  map.delete(key);
  try {
    pending.resolve(parse(body));
  } catch (err) {
    pending.reject(err as Error);
  }
  return { status: 200, body: '' };
}
