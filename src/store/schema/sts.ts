/**
 * STS's table: the temporary credentials Overcast has issued (AssumeRole, GetSessionToken,
 * AssumeRoleWithWebIdentity), keyed by access key id, with the identity they act as, so
 * GetCallerIdentity answers for them — also after a restart — and expired ones are refused.
 * sts-002 keeps each session's secret key, a SHA-256 of its session token and the principal it
 * acts as (the role, for assumed-role sessions), so strict mode can verify requests signed with them.
 */
import type { Migration } from '../database.js';

export const stsMigrations: Migration[] = [
  {
    id: 'sts-001',
    sql: `
      CREATE TABLE sts_sessions (
        access_key_id TEXT PRIMARY KEY,
        account TEXT NOT NULL,
        arn TEXT NOT NULL,
        user_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        issued_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX sts_sessions_by_expiry ON sts_sessions (expires_at);
    `,
  },
  {
    id: 'sts-002',
    sql: `
      ALTER TABLE sts_sessions ADD COLUMN secret_access_key TEXT;
      ALTER TABLE sts_sessions ADD COLUMN session_token_sha256 TEXT;
      ALTER TABLE sts_sessions ADD COLUMN principal_arn TEXT;
    `,
  },
];
