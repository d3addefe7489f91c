/**
 * What the Iceberg REST catalog tests share: an iceberg-js catalog for a table bucket, signed for
 * `s3tables` at `/iceberg` as engines reach AWS (or unsigned at `/_overcast/iceberg`), raw signed
 * requests for what iceberg-js does not send (HEAD, 64-bit ids, malformed bodies), the error an
 * iceberg-js call failed with, and schema fixtures in the shapes engines send.
 */
import { IcebergError, IcebergRestCatalog } from 'iceberg-js';
import { expect } from 'vitest';
import { sigv4Fetch } from '../helpers/sigv4-fetch.js';
import type { TestServer } from '../helpers/server.js';

export interface CatalogOptions {
  /** Unsigned, through `/_overcast/iceberg` (default: signed for s3tables at `/iceberg`). */
  unsigned?: boolean;
  accessKeyId?: string;
  region?: string;
}

export function signedFetch(t: TestServer, o: CatalogOptions = {}): typeof fetch {
  return sigv4Fetch({
    service: 's3tables',
    region: o.region ?? t.region,
    credentials: { accessKeyId: o.accessKeyId ?? t.credentials.accessKeyId, secretAccessKey: t.credentials.secretAccessKey },
  });
}

export function catalogUri(t: TestServer, o: CatalogOptions = {}): string {
  return `${t.endpoint}${o.unsigned ? '/_overcast/iceberg' : '/iceberg'}`;
}

export function catalog(t: TestServer, warehouse: string, o: CatalogOptions = {}): IcebergRestCatalog {
  return new IcebergRestCatalog({
    baseUrl: catalogUri(t, o),
    warehouse,
    auth: { type: 'none' },
    fetch: o.unsigned ? fetch : signedFetch(t, o),
  });
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** A request to the catalog (`path` after `/v1/`), signed unless `o.unsigned`. */
export async function raw(
  t: TestServer,
  method: string,
  path: string,
  body?: unknown,
  o: CatalogOptions & { headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const f = o.unsigned ? fetch : signedFetch(t, o);
  const init: RequestInit = { method, headers: { 'content-type': 'application/json', ...o.headers } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await f(`${catalogUri(t, o)}/v1/${path}`, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** The `{prefix}` path segment of a table bucket: its ARN, percent-encoded. */
export function prefixOf(arn: string): string {
  return encodeURIComponent(arn);
}

/** The Iceberg error an iceberg-js call fails with. */
export async function icebergFailure(p: Promise<unknown>): Promise<{ status: number; type?: string; message: string }> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(IcebergError);
    const e = err as IcebergError;
    return { status: e.status, type: e.icebergType, message: e.message };
  }
  throw new Error('expected the call to fail');
}

/** Expects an Iceberg error body of `type` with HTTP `status`. */
export function expectIcebergError(res: RawResponse, status: number, type: string): void {
  expect({ status: res.status, type: res.json?.error?.type, code: res.json?.error?.code }).toEqual({ status, type, code: status });
  expect(typeof res.json.error.message).toBe('string');
  expect(Object.keys(res.json)).toEqual(['error']);
}

/** A schema with nested types, field ids as engines assign them (fresh, 1…N). */
export const NESTED_SCHEMA = {
  type: 'struct',
  'schema-id': 0,
  'identifier-field-ids': [1],
  fields: [
    { id: 1, name: 'id', type: 'long', required: true },
    { id: 2, name: 'name', type: 'string', required: false },
    { id: 3, name: 'ts', type: 'timestamptz', required: false },
    {
      id: 4,
      name: 'address',
      required: false,
      type: {
        type: 'struct',
        fields: [
          { id: 5, name: 'city', type: 'string', required: false },
          { id: 6, name: 'zip', type: 'int', required: false },
        ],
      },
    },
    { id: 7, name: 'tags', required: false, type: { type: 'list', 'element-id': 8, element: 'string', 'element-required': false } },
    {
      id: 9,
      name: 'attrs',
      required: false,
      type: { type: 'map', 'key-id': 10, key: 'string', 'value-id': 11, value: 'decimal(10, 2)', 'value-required': false },
    },
  ],
};

export const SIMPLE_SCHEMA = {
  type: 'struct',
  'schema-id': 0,
  fields: [
    { id: 1, name: 'id', type: 'long', required: true },
    { id: 2, name: 'name', type: 'string', required: false },
  ],
};
