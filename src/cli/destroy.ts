/**
 * `overcast destroy NAME`: deletes a stack on a running Overcast (endpoint from AWS_ENDPOINT_URL)
 * and prints its events as resources go, like `cdk destroy`. A stack that does not exist is
 * nothing to do (exit 0, as DeleteStack itself); a stack that ends DELETE_FAILED exits 1 with the
 * reasons.
 */
import { parseArgs } from 'node:util';
import type { Stack } from '@aws-sdk/client-cloudformation';
import { cloudFormationClient, explain, failureLines, watchStack } from './deploy.js';
import { usageLine } from './help.js';

async function runDestroy(stackName: string, out: (line: string) => void): Promise<number> {
  const cfn = await cloudFormationClient();
  const { DeleteStackCommand, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  let stack: Stack | undefined;
  try {
    stack = (await cfn.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks?.[0];
  } catch (err) {
    if (!/does not exist/.test((err as Error).message)) throw err;
  }
  if (!stack) {
    out(`${stackName}: no such stack, nothing to destroy`);
    return 0;
  }
  out(`${stackName}: destroying...`);
  const since = Date.now() - 1;
  await cfn.send(new DeleteStackCommand({ StackName: stack.StackId }));
  const { stack: after, events } = await watchStack(cfn, stack.StackId!, stackName, since, out);
  if (!after || after.StackStatus === 'DELETE_COMPLETE') {
    out('');
    out(`✅  ${stackName}: destroyed`);
    return 0;
  }
  for (const line of failureLines(stackName, events)) out(line);
  out(`❌  ${stackName} failed to destroy: ${after.StackStatus}${after.StackStatusReason ? ` (${after.StackStatusReason})` : ''}`);
  return 1;
}

export async function destroy(argv: string[]): Promise<void> {
  let name: string;
  try {
    const { positionals } = parseArgs({ args: argv, options: {}, allowPositionals: true, strict: true });
    if (positionals.length !== 1) throw new Error('give the name of one stack: overcast destroy NAME');
    name = positionals[0]!;
  } catch (err) {
    process.stderr.write(`${usageLine('destroy', err, ['--help'])}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    process.exitCode = await runDestroy(name, (line) => process.stdout.write(`${line}\n`));
  } catch (err) {
    process.stderr.write(`overcast destroy: ${explain(err)}\n`);
    process.exitCode = 1;
  }
}
