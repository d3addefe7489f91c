/**
 * `overcast stacks [--all]`: a table of the stacks on a running Overcast (endpoint from
 * AWS_ENDPOINT_URL) — name, status, when it last changed and the status reason — newest first.
 * Deleted stacks are listed only with `--all`.
 */
import { parseArgs } from 'node:util';
import type { StackSummary } from '@aws-sdk/client-cloudformation';
import { cloudFormationClient, explain } from './deploy.js';
import { usageLine } from './help.js';

/** Renders rows as a left-aligned table with a header. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)];
}

async function runStacks(all: boolean, out: (line: string) => void): Promise<number> {
  const cfn = await cloudFormationClient();
  const { ListStacksCommand } = await import('@aws-sdk/client-cloudformation');
  const stacks: StackSummary[] = [];
  let token: string | undefined;
  do {
    const page = await cfn.send(new ListStacksCommand({ NextToken: token }));
    stacks.push(...(page.StackSummaries ?? []).filter((s) => all || s.StackStatus !== 'DELETE_COMPLETE'));
    token = page.NextToken;
  } while (token);
  if (!stacks.length) {
    out(all ? 'No stacks.' : 'No stacks. (overcast stacks --all lists deleted ones too)');
    return 0;
  }
  const when = (s: StackSummary) => (s.DeletionTime ?? s.LastUpdatedTime ?? s.CreationTime)?.toISOString().replace(/\.\d+Z$/, 'Z') ?? '';
  const rows = stacks.map((s) => [s.StackName ?? '', s.StackStatus ?? '', when(s), s.StackStatusReason ?? '']);
  for (const line of table(['NAME', 'STATUS', 'LAST CHANGE', 'REASON'], rows)) out(line);
  return 0;
}

export async function stacks(argv: string[]): Promise<void> {
  let all: boolean;
  try {
    const { values } = parseArgs({ args: argv, options: { all: { type: 'boolean' } }, strict: true });
    all = values.all === true;
  } catch (err) {
    process.stderr.write(`${usageLine('stacks', err, ['--all', '--help'])}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    process.exitCode = await runStacks(all, (line) => process.stdout.write(`${line}\n`));
  } catch (err) {
    process.stderr.write(`overcast stacks: ${explain(err)}\n`);
    process.exitCode = 1;
  }
}
