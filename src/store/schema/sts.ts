/**
 * STS's table: the temporary credentials Overcast has issued (AssumeRole, GetSessionToken,
 * AssumeRoleWithWebIdentity), keyed by access key id, with the identity they act as, so
 * GetCallerIdentity answers for them — also after a restart — and expired ones are refused.
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
];
