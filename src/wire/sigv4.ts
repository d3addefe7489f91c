/**
 * Reads the SigV4 credential scope a request was signed with — from the `Authorization` header or
 * from `X-Amz-Credential` of a presigned URL — which is how Overcast routes a request to a service
 * and derives the caller's account and region, and the one reading and writing of X-Amz-Date's
 * form. Signatures are not verified here: by default, like other local emulators, Overcast accepts
 * any key (see the README; strict mode verifies them in src/auth/).
 */
interface CredentialScope {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
}

const AUTH_CREDENTIAL = /Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request/;

export function scopeFromAuthorization(header: string | undefined): CredentialScope | undefined {
  if (!header) return undefined;
  const m = AUTH_CREDENTIAL.exec(header);
  if (!m) return undefined;
  return { accessKeyId: m[1]!, date: m[2]!, region: m[3]!, service: m[4]! };
}

/** `X-Amz-Credential=AKID/20250101/us-east-1/s3/aws4_request` (already percent-decoded). */
export function scopeFromCredentialParam(value: string | undefined): CredentialScope | undefined {
  if (!value) return undefined;
  const parts = value.split('/');
  if (parts.length !== 5 || parts[4] !== 'aws4_request') return undefined;
  return { accessKeyId: parts[0]!, date: parts[1]!, region: parts[2]!, service: parts[3]! };
}

/** Legacy SigV2 (`AWS AKID:signature`) still used by a few S3 tools: key id only. */
export function accessKeyFromV2(header: string | undefined): string | undefined {
  if (!header?.startsWith('AWS ')) return undefined;
  const colon = header.indexOf(':');
  return colon > 4 ? header.slice(4, colon) : undefined;
}

const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/** `20250901T162148Z`, X-Amz-Date's form, for `ms`. */
export function formatAmzDate(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
}

/** The time an X-Amz-Date names (epoch ms); undefined when the text is not in its form. */
export function parseAmzDate(text: string | undefined): number | undefined {
  const m = text ? AMZ_DATE.exec(text) : null;
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : undefined;
}

export const DEFAULT_ACCOUNT = '000000000000';
export const DEFAULT_REGION = 'us-east-1';

/**
 * The account is the access key id when that is 12 digits; temporary keys Overcast's STS issues
 * (`ASIA` + account + 4 characters) carry their account inside; anything else is the default.
 */
export function accountFromAccessKey(accessKeyId: string | undefined): string {
  if (!accessKeyId) return DEFAULT_ACCOUNT;
  if (/^\d{12}$/.test(accessKeyId)) return accessKeyId;
  const temp = /^ASIA(\d{12})[A-Z0-9]{4}$/.exec(accessKeyId);
  return temp ? temp[1]! : DEFAULT_ACCOUNT;
}

/** A temporary access key id for `account`, recognised by accountFromAccessKey. */
export function temporaryAccessKeyId(account: string, suffix: string): string {
  return `ASIA${account}${suffix.toUpperCase().replace(/[^A-Z0-9]/g, 'X').padEnd(4, 'X').slice(0, 4)}`;
}
