/**
 * IAM-style unique ids (`AIDA…`, `AROA…`, `AGPA…`), derived from a seed so the same user, role or
 * group always gets the same one: STS answers with them, and CloudFormation's IAM resources
 * report them, which imports this module rather than the whole STS provider.
 */
import { createHash } from 'node:crypto';

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

// Every write names its caller (SSM's LastModifiedUser): a hash per call cost more than the write's SQL.
const known = new Map<string, string>();

/** A stable IAM-style unique id: prefix + 17 characters derived from `seed`. */
export function uniqueId(prefix: string, seed: string): string {
  const key = `${prefix}/${seed}`;
  const hit = known.get(key);
  if (hit) return hit;
  const digest = createHash('sha256').update(seed).digest();
  let out = prefix;
  for (let i = 0; out.length < prefix.length + 17; i++) out += ID_ALPHABET[digest[i]! % 32];
  if (known.size >= 4096) known.clear();
  known.set(key, out);
  return out;
}
