/**
 * The dashboard's page and assets, served from the package: `dist/web/` holds the browser modules
 * compiled from `web/` and the page and stylesheet copied beside them by `npm run build` (nothing
 * is fetched from elsewhere at run time). Files are read once and kept; every answer carries a
 * content security policy that allows only this origin's scripts, styles and connections.
 */
import type { FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { packagePath } from '../package-root.js';

// The same files whether Overcast runs from the ES module build, the CommonJS one or the sources.
const ROOT = packagePath('dist', 'web') + sep;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
};

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

interface CachedFile {
  body: Buffer;
  etag: string;
  type: string;
}

const cache = new Map<string, Promise<CachedFile | undefined>>();

async function load(relative: string): Promise<CachedFile | undefined> {
  const path = normalize(join(ROOT, relative));
  if (!path.startsWith(ROOT)) return undefined;
  const type = TYPES[extname(path)];
  if (!type) return undefined;
  try {
    const body = await readFile(path);
    return { body, type, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
  } catch {
    return undefined;
  }
}

/** Answers a file of the dashboard (`index.html`, `app/main.js`, …), or 404. */
export async function sendStatic(reply: FastifyReply, relative: string, ifNoneMatch: string | undefined): Promise<FastifyReply> {
  let entry = cache.get(relative);
  if (!entry) {
    entry = load(relative);
    cache.set(relative, entry);
    // A missing file is looked for again next time (a build may be running).
    void entry.then((f) => f ?? cache.delete(relative));
  }
  const file = await entry;
  if (!file) {
    const hint = relative === 'index.html' ? ' The dashboard is not built: run npm run build.' : '';
    return reply.code(404).header('content-type', 'text/plain; charset=utf-8').send(`Not found.${hint}`);
  }
  reply.headers(SECURITY_HEADERS).header('etag', file.etag).header('cache-control', 'no-cache');
  if (ifNoneMatch === file.etag) return reply.code(304).send();
  return reply.code(200).header('content-type', file.type).send(file.body);
}
