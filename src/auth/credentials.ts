/**
 * The access keys strict mode accepts: long-term keys from the credentials file, from
 * OVERCAST_CREDENTIALS and the in-process API (each with its account and principal), `test`/`test`
 * for account 000000000000 unless turned off, and the temporary keys Overcast's STS issued (their
 * secret, token hash and expiry are in `sts_sessions`), which work until they expire.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CredentialEntry, OvercastConfig } from '../config.js';
import { StsRepo } from '../store/sts-repo.js';
import type { MetadataStore } from '../store/database.js';
import { sameSignature } from './sigv4.js';

export interface KnownKey {
  accessKeyId: string;
  secretAccessKey: string;
  account: string;
  /** The identity the key acts as (an assumed-role session ARN for role sessions). */
  arn: string;
  /** The principal policies name (the role, for role sessions). */
  principalArn: string;
  userId: string;
}

type KeyLookup =
  | { found: KnownKey }
  | { unknown: true }
  | { badToken: true }
  | { expired: KnownKey };

const TEST_CREDENTIALS: CredentialEntry = { accessKeyId: 'test', secretAccessKey: 'test', accountId: '000000000000' };
const USER = 'overcast';

/** `arn:aws:iam::<account>:user/overcast`, the principal of a key that names none. */
function defaultArn(account: string): string {
  return `arn:aws:iam::${account}:user/${USER}`;
}

/**
 * A stable AIDA… user id for a long-term key's principal (what GetCallerIdentity answers); the
 * default user's is the one STS gives it in the default mode (seed `<account>/overcast`).
 */
function userIdOf(seed: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const digest = createHash('sha256').update(seed).digest();
  let out = 'AIDA';
  for (let i = 0; out.length < 21; i++) out += alphabet[digest[i]! % 32];
  return out;
}

function checkEntry(e: unknown, where: string): CredentialEntry {
  const o = e as Partial<CredentialEntry> & { account?: string };
  const accountId = o?.accountId ?? o?.account;
  if (!o || typeof o.accessKeyId !== 'string' || !o.accessKeyId || typeof o.secretAccessKey !== 'string' || !o.secretAccessKey) {
    throw new Error(`${where}: every entry needs accessKeyId and secretAccessKey`);
  }
  if (typeof accountId !== 'string' || !/^\d{12}$/.test(accountId)) throw new Error(`${where}: ${o.accessKeyId} needs a 12-digit accountId`);
  if (o.arn !== undefined && (typeof o.arn !== 'string' || !/^arn:[^:]+:(iam|sts)::\d{12}:/.test(o.arn))) {
    throw new Error(`${where}: ${o.accessKeyId} has an arn that is no IAM principal ARN`);
  }
  return { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey, accountId, ...(o.arn ? { arn: o.arn } : {}) };
}

/** The entries of a credentials file: a JSON array of entries, or `{"credentials": [...]}`. */
function readCredentialsFile(path: string): CredentialEntry[] {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read the credentials file ${path}: ${(err as Error).message}`);
  }
  const list = Array.isArray(doc) ? doc : (doc as { credentials?: unknown })?.credentials;
  if (!Array.isArray(list)) throw new Error(`the credentials file ${path} must hold a JSON array of {accessKeyId, secretAccessKey, accountId}`);
  return list.map((e) => checkEntry(e, path));
}

export class CredentialStore {
  private readonly keys = new Map<string, KnownKey>();
  private readonly sessions: StsRepo;

  constructor(config: OvercastConfig, meta: MetadataStore) {
    const entries = [
      ...(config.testCredentials ? [TEST_CREDENTIALS] : []),
      ...config.credentials.map((e) => checkEntry(e, 'credentials')),
      ...(config.credentialsFile ? readCredentialsFile(config.credentialsFile) : []),
    ];
    for (const e of entries) {
      const arn = e.arn ?? defaultArn(e.accountId);
      this.keys.set(e.accessKeyId, {
        accessKeyId: e.accessKeyId,
        secretAccessKey: e.secretAccessKey,
        account: e.accountId,
        arn,
        principalArn: arn,
        userId: userIdOf(e.arn ?? `${e.accountId}/${USER}`),
      });
    }
    this.sessions = new StsRepo(meta);
  }

  /**
   * The key a request names, checked against the session token it carries (`token`): a long-term
   * key takes no token, a temporary one needs its own, and an expired one is reported as such.
   */
  lookup(accessKeyId: string, token: string | undefined, now: number): KeyLookup {
    const long = this.keys.get(accessKeyId);
    if (long) return token === undefined || token === '' ? { found: long } : { badToken: true };
    const row = this.sessions.get(accessKeyId);
    if (!row?.secret_access_key || !row.session_token_sha256) return { unknown: true };
    if (token === undefined || !sameSignature(createHash('sha256').update(token).digest('hex'), row.session_token_sha256)) {
      return { badToken: true };
    }
    const key: KnownKey = {
      accessKeyId,
      secretAccessKey: row.secret_access_key,
      account: row.account,
      arn: row.arn,
      principalArn: row.principal_arn ?? row.arn,
      userId: row.user_id,
    };
    return now >= row.expires_at ? { expired: key } : { found: key };
  }
}

