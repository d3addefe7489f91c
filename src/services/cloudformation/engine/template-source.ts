/**
 * Where a template comes from: `TemplateBody` (≤ 51,200 bytes) or `TemplateURL` (≤ 1 MB), read
 * from Overcast's own S3 in-process — never over HTTP — whichever URL form the client sends: path
 * style on the emulator's host (`http://127.0.0.1:4566/bucket/key`, `localhost`, as the CDK CLI
 * builds it), virtual-hosted AWS hosts (`https://bucket.s3.amazonaws.com/key`,
 * `https://bucket.s3.<region>.amazonaws.com/key`), path-style AWS hosts
 * (`https://s3.<region>.amazonaws.com/bucket/key`) and `s3://bucket/key`.
 */
import type { Readable } from 'node:stream';
import type { Ctx } from '../../../runtime/runtime.js';
import { isAwsError } from '../../../wire/errors.js';
import { validation } from '../requests/errors.js';
import { loadSsmFor } from './environment.js';
import { TEMPLATE_BODY_MAX_BYTES, TEMPLATE_URL_MAX_BYTES, templateSizeError } from '../template/errors.js';

export { TEMPLATE_BODY_MAX_BYTES, TEMPLATE_URL_MAX_BYTES };

interface TemplateSourceInput {
  TemplateBody?: string;
  TemplateURL?: string;
  UsePreviousTemplate?: boolean;
}

interface S3Location {
  bucket: string;
  key: string;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[?::1\]?|0\.0\.0\.0)$/i;

function decodeKey(path: string): string {
  return path
    .split('/')
    .map((p) => decodeURIComponent(p.replace(/\+/g, '%2B')))
    .join('/');
}

/** The bucket and key a TemplateURL names, or undefined when it is not an S3 URL Overcast serves. */
function parseTemplateUrl(url: string, ownHost?: string, ownPort?: string): S3Location | undefined {
  if (url.startsWith('s3://')) {
    const rest = url.slice(5);
    const slash = rest.indexOf('/');
    if (slash <= 0 || slash === rest.length - 1) return undefined;
    return { bucket: rest.slice(0, slash), key: decodeKey(rest.slice(slash + 1).split('?')[0]!) };
  }
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  const host = u.hostname.toLowerCase();
  const path = u.pathname.replace(/^\//, '');
  const pathStyle = (): S3Location | undefined => {
    const slash = path.indexOf('/');
    if (slash <= 0 || slash === path.length - 1) return undefined;
    return { bucket: decodeKey(path.slice(0, slash)), key: decodeKey(path.slice(slash + 1)) };
  };
  // `<bucket>.localhost` style virtual hosts on the emulator.
  const localVirtual = /^(.+)\.localhost$/.exec(host);
  if (localVirtual) return path ? { bucket: localVirtual[1]!, key: decodeKey(path) } : undefined;
  // The emulator's own host (any loopback name, or the host it was started on); a host name that
  // is not an AWS one, on the emulator's port, is the emulator too.
  const onOwnPort = ownPort !== undefined && u.port === ownPort && !host.endsWith('.amazonaws.com');
  if (LOOPBACK.test(host) || (ownHost !== undefined && host === ownHost.toLowerCase()) || onOwnPort) return pathStyle();
  // AWS hosts: s3.amazonaws.com, s3.<region>.amazonaws.com, s3-<region>.amazonaws.com,
  // s3.dualstack.<region>.amazonaws.com, and the same with `<bucket>.` in front.
  const aws = /^(?:(.+)\.)?s3(?:[.-]dualstack)?(?:[.-]([a-z0-9-]+))?\.amazonaws\.com(?:\.cn)?$/.exec(host);
  if (!aws) return undefined;
  if (aws[1]) return path ? { bucket: aws[1], key: decodeKey(path) } : undefined;
  return pathStyle();
}

async function readLimited(body: Readable, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += b.length;
    if (size > limit) {
      body.destroy();
      return undefined;
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/** Reads a template from Overcast's S3. */
export async function fetchTemplateUrl(ctx: Ctx, url: string): Promise<string> {
  const own = ctx.rt.endpoint ? new URL(ctx.rt.endpoint) : undefined;
  const loc = parseTemplateUrl(url, own?.hostname, own?.port);
  if (!loc) throw validation('TemplateURL must be a supported URL.');
  const { getObject } = await import('../../s3/provider.js');
  let body: Readable;
  try {
    body = getObject(ctx, { Bucket: loc.bucket, Key: loc.key }).Body;
  } catch (err) {
    if (isAwsError(err) && err.status < 500) {
      throw validation('TemplateURL must reference a valid S3 object to which you have access.');
    }
    throw err;
  }
  const bytes = await readLimited(body, TEMPLATE_URL_MAX_BYTES);
  if (!bytes) throw validation(`Template may not exceed ${TEMPLATE_URL_MAX_BYTES} bytes in size.`);
  const text = bytes.toString('utf8');
  await loadSsmFor(text);
  return text;
}

/**
 * The template text of a request: exactly one of TemplateBody, TemplateURL or (where allowed)
 * UsePreviousTemplate. Returns undefined for UsePreviousTemplate. Every template a deployment
 * prepares comes through here or fetchTemplateUrl, which load the SSM provider it may need.
 */
export async function templateText(
  ctx: Ctx,
  input: TemplateSourceInput,
  opts: { allowPrevious: boolean; required?: boolean },
): Promise<string | undefined> {
  const text = await requestText(ctx, input, opts);
  if (text !== undefined || input.UsePreviousTemplate) await loadSsmFor(text);
  return text;
}

async function requestText(
  ctx: Ctx,
  input: TemplateSourceInput,
  opts: { allowPrevious: boolean; required?: boolean },
): Promise<string | undefined> {
  const given = [input.TemplateBody !== undefined, input.TemplateURL !== undefined, Boolean(input.UsePreviousTemplate)];
  const count = given.filter(Boolean).length;
  if (count > 1) {
    throw validation(
      opts.allowPrevious
        ? 'Exactly one of TemplateBody, TemplateUrl or UsePreviousTemplate must be specified.'
        : 'Specify exactly one of TemplateBody or TemplateUrl.',
    );
  }
  if (count === 0) {
    if (opts.required === false) return undefined;
    throw validation(
      opts.allowPrevious
        ? 'Either Template URL or Template Body must be specified.'
        : 'Either Template URL or Template Body must be specified.',
    );
  }
  if (input.UsePreviousTemplate) {
    if (!opts.allowPrevious) throw validation('UsePreviousTemplate is not supported for this operation.');
    return undefined;
  }
  if (input.TemplateBody !== undefined) {
    const body = input.TemplateBody;
    const tooBig = templateSizeError('TemplateBody', body);
    if (tooBig) throw tooBig;
    if (body.length === 0) {
      throw validation(
        "1 validation error detected: Value '' at 'templateBody' failed to satisfy constraint: Member must have length greater than or equal to 1",
      );
    }
    return body;
  }
  const url = input.TemplateURL!;
  if (url.length > 5120) {
    throw validation(
      `1 validation error detected: Value '${url}' at 'templateURL' failed to satisfy constraint: Member must have length less than or equal to 5120`,
    );
  }
  return fetchTemplateUrl(ctx, url);
}
