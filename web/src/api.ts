/**
 * Talking to the dashboard's API: the account and region the page works in (kept in the
 * browser's storage, default from the server), GETs with them as query parameters, state-changing
 * requests as JSON (so a browser would have to preflight them from any other origin), and the
 * URLs of downloads and event streams, which cannot carry headers.
 */
export const API = '/_overcast/ui/api/';

export interface Place {
  account: string;
  region: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const STORAGE_KEY = 'overcast.place';
let place: Place = { account: '000000000000', region: 'us-east-1' };

export function initPlace(defaults: Place): void {
  place = defaults;
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Place | null;
    if (saved && /^\d{12}$/.test(saved.account) && typeof saved.region === 'string') place = saved;
  } catch {
    // storage unavailable or corrupt: the defaults stand
  }
}

export function currentPlace(): Place {
  return place;
}

export function setPlace(next: Place): void {
  place = next;
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // not kept beyond this page
  }
}

/** `segments` are encoded one by one (an ARN is one segment). */
export function apiUrl(segments: string[], params: Record<string, string | undefined> = {}): string {
  const q = new URLSearchParams({ account: place.account, region: place.region });
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, v);
  return `${API}${segments.map(encodeURIComponent).join('/')}?${q}`;
}

async function answer<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = { message: text };
  }
  if (!res.ok) {
    const b = (body ?? {}) as { code?: string; message?: string };
    throw new ApiError(res.status, b.code ?? String(res.status), b.message ?? res.statusText);
  }
  return body as T;
}

export async function get<T>(segments: string[], params: Record<string, string | undefined> = {}): Promise<T> {
  return answer<T>(await fetch(apiUrl(segments, params), { headers: { accept: 'application/json' } }));
}

export async function send<T>(method: 'POST' | 'DELETE', segments: string[], body: unknown = {}, params: Record<string, string | undefined> = {}): Promise<T> {
  return answer<T>(
    await fetch(apiUrl(segments, params), {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

export interface Page<T> {
  items: T[];
  next?: string;
}
