/**
 * The few reads the dashboard makes outside the providers: which accounts and regions hold
 * stacks or table buckets, found by skipping along the (account, region) indexes one seek per
 * pair rather than reading every row.
 */
import type { MetadataStore } from './database.js';

const SOURCES = [
  'SELECT account, region FROM cfn_stacks WHERE (account, region) > (?, ?) ORDER BY account, region LIMIT 1',
  'SELECT account, region FROM s3t_buckets WHERE (account, region) > (?, ?) ORDER BY account, region LIMIT 1',
];

export function knownPlaces(store: MetadataStore, max = 50): { account: string; region: string }[] {
  const seen = new Map<string, { account: string; region: string }>();
  for (const sql of SOURCES) {
    let last = { account: '', region: '' };
    for (let i = 0; i < max; i++) {
      const row = store.stmt(sql).get(last.account, last.region) as { account: string; region: string } | undefined;
      if (!row) break;
      seen.set(`${row.account} ${row.region}`, row);
      last = row;
    }
  }
  return [...seen.values()].sort((a, b) => a.account.localeCompare(b.account) || a.region.localeCompare(b.region)).slice(0, max);
}
