/**
 * ECR's rows: repositories, images and image tags of one account and region. Every lookup is by
 * key or index; listings start after the last name or digest returned, so a page costs the page.
 */
import type { MetadataStore } from './database.js';

export interface RepositoryRow {
  account: string;
  region: string;
  name: string;
  created_at: number;
  data: string;
}

export interface ImageRow {
  account: string;
  region: string;
  repo: string;
  digest: string;
  pushed_at: number;
  media_type: string;
  size: number;
  manifest: string;
}

export interface Scope {
  account: string;
  region: string;
}

export class EcrRepo {
  constructor(private readonly store: MetadataStore) {}

  tx<T>(fn: () => T): T {
    return this.store.tx(fn);
  }

  getRepository(s: Scope, name: string): RepositoryRow | undefined {
    return this.store
      .stmt('SELECT * FROM ecr_repositories WHERE account = ? AND region = ? AND name = ?')
      .get(s.account, s.region, name) as RepositoryRow | undefined;
  }

  listRepositories(s: Scope, after: string, limit: number): RepositoryRow[] {
    return this.store
      .stmt('SELECT * FROM ecr_repositories WHERE account = ? AND region = ? AND name > ? ORDER BY name LIMIT CAST(? AS INTEGER)')
      .all(s.account, s.region, after, limit) as RepositoryRow[];
  }

  insertRepository(row: RepositoryRow): void {
    this.store
      .stmt('INSERT INTO ecr_repositories (account, region, name, created_at, data) VALUES (?, ?, ?, ?, ?)')
      .run(row.account, row.region, row.name, row.created_at, row.data);
  }

  updateRepository(s: Scope, name: string, data: string): void {
    this.store.stmt('UPDATE ecr_repositories SET data = ? WHERE account = ? AND region = ? AND name = ?').run(data, s.account, s.region, name);
  }

  deleteRepository(s: Scope, name: string): void {
    this.store.stmt('DELETE FROM ecr_tags WHERE account = ? AND region = ? AND repo = ?').run(s.account, s.region, name);
    this.store.stmt('DELETE FROM ecr_images WHERE account = ? AND region = ? AND repo = ?').run(s.account, s.region, name);
    this.store.stmt('DELETE FROM ecr_repositories WHERE account = ? AND region = ? AND name = ?').run(s.account, s.region, name);
  }

  hasImages(s: Scope, repo: string): boolean {
    return this.store.stmt('SELECT 1 FROM ecr_images WHERE account = ? AND region = ? AND repo = ? LIMIT 1').get(s.account, s.region, repo) !== undefined;
  }

  getImage(s: Scope, repo: string, digest: string): ImageRow | undefined {
    return this.store
      .stmt('SELECT * FROM ecr_images WHERE account = ? AND region = ? AND repo = ? AND digest = ?')
      .get(s.account, s.region, repo, digest) as ImageRow | undefined;
  }

  listImages(s: Scope, repo: string, after: string, limit: number): ImageRow[] {
    return this.store
      .stmt('SELECT * FROM ecr_images WHERE account = ? AND region = ? AND repo = ? AND digest > ? ORDER BY digest LIMIT CAST(? AS INTEGER)')
      .all(s.account, s.region, repo, after, limit) as ImageRow[];
  }

  putImage(row: ImageRow): void {
    this.store
      .stmt(
        `INSERT INTO ecr_images (account, region, repo, digest, pushed_at, media_type, size, manifest) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (account, region, repo, digest) DO NOTHING`,
      )
      .run(row.account, row.region, row.repo, row.digest, row.pushed_at, row.media_type, row.size, row.manifest);
  }

  deleteImage(s: Scope, repo: string, digest: string): void {
    this.store.stmt('DELETE FROM ecr_tags WHERE account = ? AND region = ? AND repo = ? AND digest = ?').run(s.account, s.region, repo, digest);
    this.store.stmt('DELETE FROM ecr_images WHERE account = ? AND region = ? AND repo = ? AND digest = ?').run(s.account, s.region, repo, digest);
  }

  tagDigest(s: Scope, repo: string, tag: string): string | undefined {
    const row = this.store
      .stmt('SELECT digest FROM ecr_tags WHERE account = ? AND region = ? AND repo = ? AND tag = ?')
      .get(s.account, s.region, repo, tag) as { digest: string } | undefined;
    return row?.digest;
  }

  tagsOf(s: Scope, repo: string, digest: string): string[] {
    return (
      this.store
        .stmt('SELECT tag FROM ecr_tags WHERE account = ? AND region = ? AND repo = ? AND digest = ? ORDER BY tag')
        .all(s.account, s.region, repo, digest) as { tag: string }[]
    ).map((r) => r.tag);
  }

  putTag(s: Scope, repo: string, tag: string, digest: string): void {
    this.store
      .stmt(
        `INSERT INTO ecr_tags (account, region, repo, tag, digest) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (account, region, repo, tag) DO UPDATE SET digest = excluded.digest`,
      )
      .run(s.account, s.region, repo, tag, digest);
  }

  deleteTag(s: Scope, repo: string, tag: string): void {
    this.store.stmt('DELETE FROM ecr_tags WHERE account = ? AND region = ? AND repo = ? AND tag = ?').run(s.account, s.region, repo, tag);
  }
}
