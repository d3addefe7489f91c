/**
 * ECR's tables: repositories (per account and region, by name; settings, policies and tags as one
 * JSON document), their images (by digest, with the manifest) and image tags (each naming one
 * digest, found from either side by index).
 */
import type { Migration } from '../database.js';

export const ecrMigrations: Migration[] = [
  {
    id: 'ecr-001',
    sql: `
      CREATE TABLE ecr_repositories (
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (account, region, name)
      ) WITHOUT ROWID;

      CREATE TABLE ecr_images (
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        repo TEXT NOT NULL,
        digest TEXT NOT NULL,
        pushed_at INTEGER NOT NULL,
        media_type TEXT NOT NULL,
        size INTEGER NOT NULL,
        manifest TEXT NOT NULL,
        PRIMARY KEY (account, region, repo, digest)
      ) WITHOUT ROWID;

      CREATE TABLE ecr_tags (
        account TEXT NOT NULL,
        region TEXT NOT NULL,
        repo TEXT NOT NULL,
        tag TEXT NOT NULL,
        digest TEXT NOT NULL,
        PRIMARY KEY (account, region, repo, tag)
      ) WITHOUT ROWID;
      CREATE INDEX ecr_tags_by_digest ON ecr_tags (account, region, repo, digest);
    `,
  },
];
