/**
 * Fn::Cidr: carve `count` consecutive subnets of `cidrBits` host bits out of an IPv4 or IPv6
 * block (cidrBits 8 in IPv4 → /24 subnets; 64 in IPv6 → /64), starting at the block's network
 * address. IPv6 results use the compressed lower-case form AWS returns.
 */
import { templateError } from './errors.js';

function fail(detail: string): never {
  throw templateError(`Fn::Cidr ${detail}`);
}

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let v = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    v = (v << 8n) | BigInt(Number(p));
  }
  return v;
}

function parseIpv6(text: string): bigint | undefined {
  let head = text;
  let tail = '';
  const dbl = text.indexOf('::');
  if (dbl >= 0) {
    if (text.indexOf('::', dbl + 1) >= 0) return undefined;
    head = text.slice(0, dbl);
    tail = text.slice(dbl + 2);
  }
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = dbl >= 0 ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  if (groups.length !== 8 || (dbl >= 0 && h.length + t.length > 7)) return undefined;
  let v = 0n;
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
    v = (v << 16n) | BigInt(parseInt(g, 16));
  }
  return v;
}

function formatIpv4(v: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 255n)).join('.');
}

function formatIpv6(v: bigint): string {
  const groups = [];
  for (let s = 112n; s >= 0n; s -= 16n) groups.push(Number((v >> s) & 0xffffn));
  // Longest run of zero groups (length ≥ 2) becomes `::`.
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

function intArg(value: unknown, what: string): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
  if (text === undefined || !/^\d+$/.test(text)) fail(`requires ${what} to be an integer`);
  return Number(text);
}

/** The subnets of Fn::Cidr [ipBlock, count, cidrBits]. */
export function cidrSubnets(ipBlock: unknown, countArg: unknown, bitsArg: unknown): string[] {
  if (typeof ipBlock !== 'string') fail('requires an IP block in CIDR notation as its first element');
  const slash = ipBlock.indexOf('/');
  if (slash < 0) fail(`IP block ${ipBlock} is not in CIDR notation`);
  const addrText = ipBlock.slice(0, slash);
  const prefixText = ipBlock.slice(slash + 1);
  const v6 = addrText.includes(':');
  const width = v6 ? 128 : 32;
  const addr = v6 ? parseIpv6(addrText) : parseIpv4(addrText);
  if (addr === undefined || !/^\d+$/.test(prefixText) || Number(prefixText) > width) {
    fail(`IP block ${ipBlock} is not a valid CIDR block`);
  }
  const prefix = Number(prefixText);
  const count = intArg(countArg, 'the count');
  const bits = intArg(bitsArg, 'the CIDR bits');
  if (count < 1 || count > 256) fail('count must be between 1 and 256');
  const subnetPrefix = width - bits;
  if (bits < 1 || subnetPrefix < prefix) fail(`cannot carve /${subnetPrefix} subnets out of ${ipBlock}`);
  if (BigInt(count) > 1n << BigInt(subnetPrefix - prefix)) {
    fail(`cannot carve ${count} /${subnetPrefix} subnets out of ${ipBlock}`);
  }
  const w = BigInt(width);
  const mask = ((1n << w) - 1n) ^ ((1n << BigInt(width - prefix)) - 1n);
  const network = addr & mask;
  const step = 1n << BigInt(bits);
  const out: string[] = [];
  for (let i = 0n; i < BigInt(count); i++) {
    const sub = network + i * step;
    out.push(`${v6 ? formatIpv6(sub) : formatIpv4(sub)}/${subnetPrefix}`);
  }
  return out;
}
