/**
 * A `fetch` that signs every request with SigV4 for a service (as pyiceberg's SigV4Adapter and the
 * Java RESTSigV4Signer do for the S3 Tables Iceberg endpoint, signing name `s3tables`), using the
 * SDK's own signer with its default double-encoded canonical URI. Hand it to any fetch-based
 * client (iceberg-js) or call it directly for raw requests.
 */
import { Hash } from '@smithy/hash-node';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';

export interface SigningOptions {
  service: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

export function sigv4Fetch(options: SigningOptions): typeof fetch {
  const signer = new SignatureV4({
    service: options.service,
    region: options.region,
    credentials: options.credentials,
    sha256: Hash.bind(null, 'sha256'),
  });
  return async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = { host: url.host };
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    const body = typeof init?.body === 'string' ? init.body : init?.body === undefined || init.body === null ? undefined : String(init.body);
    const query: Record<string, string> = {};
    url.searchParams.forEach((v, k) => {
      query[k] = v;
    });
    // The raw path, percent-encoding kept: the signer encodes it once more, as AWS expects for s3tables.
    const request = new HttpRequest({ method, protocol: url.protocol, hostname: url.hostname, port: Number(url.port), path: url.pathname, query, headers, body });
    const signed = await signer.sign(request);
    return fetch(url, { ...init, method, headers: signed.headers as Record<string, string>, body });
  };
}
