/**
 * STS's rows: the temporary credentials issued, looked up by access key id (primary key).
 */
import type { MetadataStore } from './database.js';

export interface SessionRow {
  access_key_id: string;
  account: string;
  /** The identity the credentials act as (assumed-role ARN, or the IAM user for session tokens). */
  arn: string;
  user_id: string;
  /** `assumed-role` | `session-token` | `web-identity`. */
  kind: string;
  issued_at: number;
  expires_at: number;
  /** The secret of the issued key pair (null for sessions issued before it was kept). */
  secret_access_key: string | null;
  /** Hex SHA-256 of the session token. */
  session_token_sha256: string | null;
  /** The principal policies name: the role of an assumed-role session, else `arn`. */
  principal_arn: string | null;
}

export class StsRepo {
  constructor(private readonly store: MetadataStore) {}

  get(accessKeyId: string): SessionRow | undefined {
    return this.store.stmt('SELECT * FROM sts_sessions WHERE access_key_id = ?').get(accessKeyId) as SessionRow | undefined;
  }

  /** Inserts a new session; false when the access key id is already taken. */
  insert(row: SessionRow): boolean {
    const res = this.store
      .stmt(
        `INSERT OR IGNORE INTO sts_sessions (access_key_id, account, arn, user_id, kind, issued_at, expires_at,
           secret_access_key, session_token_sha256, principal_arn)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.access_key_id, row.account, row.arn, row.user_id, row.kind, row.issued_at, row.expires_at,
        row.secret_access_key, row.session_token_sha256, row.principal_arn,
      );
    return res.changes > 0;
  }

  /** Drops sessions that expired before `before` (an index range; called when issuing, so the table stays small). */
  deleteExpiredBefore(before: number): void {
    this.store.stmt('DELETE FROM sts_sessions WHERE expires_at < ?').run(before);
  }
}
