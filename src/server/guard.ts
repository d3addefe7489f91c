/**
 * The defences of a server on a developer's machine against web pages (reference §11; Vite's
 * `server.allowedHosts`, webpack-dev-server's host check, LocalStack's CORS enforcer): a Host
 * allow-list against DNS rebinding — while bound to a loopback address, only `localhost`,
 * `*.localhost` (virtual-hosted S3), loopback addresses and the configured names are answered —
 * and, for Overcast's own state-changing endpoints, no cross-site requests: an Origin other than
 * the server's own is refused, a browser's cross-site fetch metadata too, the body must be JSON (a
 * browser cannot send that cross-origin without a preflight) and the preflight itself is refused.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import type { OvercastConfig } from '../config.js';

function isLoopback(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, '');
  if (isIP(a) === 4) return a.startsWith('127.');
  if (isIP(a) === 6) return a === '::1' || /^::ffff:127\./i.test(a) || a === '0:0:0:0:0:0:0:1';
  return false;
}

/** The host name of a Host header (`bucket.localhost:4566` → `bucket.localhost`, `[::1]:4566` → `[::1]`). */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon >= 0 && h.indexOf(':') === colon ? h.slice(0, colon) : h;
}

/** Whether the Host check applies: bound to a loopback address, or names were configured. */
export function hostCheckApplies(config: OvercastConfig): boolean {
  return config.allowedHosts.length > 0 || config.host === 'localhost' || isLoopback(config.host);
}

/**
 * Names answered besides localhost and loopback addresses: AWS's own S3 host names (virtual-hosted
 * `bucket.s3.amazonaws.com` through a hosts-file entry) and LocalStack's loopback domain. Rebinding
 * needs a name whose DNS the attacker controls, which these are not.
 */
const ALWAYS_ALLOWED = ['.amazonaws.com', '.localhost.localstack.cloud'];

function listed(name: string, entries: readonly string[]): boolean {
  return entries.some((a) => (a.startsWith('.') ? name === a.slice(1) || name.endsWith(a) : name === a));
}

/** Whether a request with this Host header is answered (a request without one is: browsers always send it). */
export function hostAllowed(host: string | undefined, allowed: readonly string[]): boolean {
  if (host === undefined || host === '') return true;
  const name = hostName(host);
  if (name === 'localhost' || name.endsWith('.localhost') || isLoopback(name)) return true;
  return listed(name, ALWAYS_ALLOWED) || listed(name, allowed);
}

interface Refusal {
  status: number;
  /** The dashboard API's error code for the same refusal. */
  code: 'Forbidden' | 'UnsupportedMediaType';
  message: string;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** `http://host:port` of an Origin, or undefined when it is `null` or unparsable. */
function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Why a request to one of Overcast's own endpoints is refused, or undefined. Reads (GET, HEAD)
 * change nothing; a page cannot read their answers cross-origin, since no CORS header is sent.
 */
export function adminRefusal(method: string, headers: IncomingHttpHeaders): Refusal | undefined {
  if (method === 'GET' || method === 'HEAD') return undefined;
  if (method === 'OPTIONS') {
    return { status: 403, code: 'Forbidden', message: "Overcast's own endpoints answer no cross-origin requests (CORS preflight refused)." };
  }
  const origin = header(headers, 'origin');
  const host = header(headers, 'host')?.toLowerCase();
  if (origin !== undefined && (originHost(origin) === undefined || originHost(origin) !== host)) {
    return { status: 403, code: 'Forbidden', message: `Cross-origin request refused: Origin ${origin} is not this server.` };
  }
  const site = header(headers, 'sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return { status: 403, code: 'Forbidden', message: `Cross-site request refused (Sec-Fetch-Site: ${site}).` };
  }
  // POST is the one state-changing method a page may send without a preflight; PUT, DELETE and
  // PATCH are preflighted across origins (refused above), so their handlers judge the body.
  const type = header(headers, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  if (method === 'POST' && type !== 'application/json') {
    return { status: 415, code: 'UnsupportedMediaType', message: "Overcast's state-changing endpoints take Content-Type: application/json." };
  }
  return undefined;
}
