/**
 * `overcast deploy <template> --stack-name NAME [--parameter K=V …] [--no-rollback]`: the one
 * deploy flow (src/deploy/flow.ts) over the CloudFormation API of a running Overcast (endpoint
 * from AWS_ENDPOINT_URL), printing first what an update changes (the diff `overcast diff`
 * prints), then the stack's events as resources move — one line per event, like the CDK's
 * progress display — and then the outputs. Also home to what `overcast destroy` shares:
 * the client settings, the event watcher and the failure summary.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { CloudFormationClient, Stack, StackEvent } from '@aws-sdk/client-cloudformation';
import { deploy as deployFlow, type StackActions, type TemplateInput } from '../deploy/flow.js';
import { accountFromAccessKey } from '../wire/sigv4.js';
import { CliError, clientSettings, cloudFormationClient, endpointOf, explain } from './client.js';
import { usageLine } from './help.js';

export { CliError, cloudFormationClient, endpointOf, explain };

const useColor = process.stdout.isTTY === true && !process.env.NO_COLOR;

function paint(status: string, text: string): string {
  if (!useColor) return text;
  const code = /FAILED|ROLLBACK/.test(status) ? 31 : status.endsWith('_COMPLETE') ? 32 : 33;
  return `\u001b[${code}m${text}\u001b[0m`;
}

function isStackEvent(e: StackEvent): boolean {
  return e.ResourceType === 'AWS::CloudFormation::Stack' && e.PhysicalResourceId === e.StackId;
}

function settled(status: string): boolean {
  return !status.endsWith('_IN_PROGRESS') || status === 'REVIEW_IN_PROGRESS';
}

/** One progress line: `stack | n | 12:00:01 | STATUS | Type | LogicalId reason`. */
function progressLine(stackName: string, done: number, e: StackEvent): string {
  const time = (e.Timestamp ?? new Date()).toLocaleTimeString('en-US');
  const status = e.ResourceStatus ?? '';
  const reason = e.ResourceStatusReason ? ` ${e.ResourceStatusReason}` : '';
  const cells = [stackName, String(done).padStart(3), time.padStart(11), paint(status, status.padEnd(28)), (e.ResourceType ?? '').padEnd(30)];
  return `${cells.join(' | ')} | ${e.LogicalResourceId}${reason}`;
}

interface WatchResult {
  stack?: Stack;
  events: StackEvent[];
}

/**
 * Prints the events of the operation that started at `since` until the stack settles, and
 * returns its final description (undefined when it is gone). Events are read newest first down to
 * the last one already printed; the stack's own terminal event ends the watch, a DescribeStacks
 * every few polls guards against missing it.
 */
export async function watchStack(
  cfn: CloudFormationClient,
  stackId: string,
  stackName: string,
  since: number,
  out: (line: string) => void,
): Promise<WatchResult> {
  const { DescribeStackEventsCommand, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  const seen = new Set<string>();
  const printed: StackEvent[] = [];
  // The counter: resources whose latest event is a *_COMPLETE one.
  const latest = new Map<string, string>();
  const done = () => [...latest.values()].filter((s) => s.endsWith('_COMPLETE')).length;
  const poll = async (): Promise<StackEvent[]> => {
    const fresh: StackEvent[] = [];
    let token: string | undefined;
    pages: do {
      const page = await cfn.send(new DescribeStackEventsCommand({ StackName: stackId, NextToken: token }));
      for (const e of page.StackEvents ?? []) {
        if (seen.has(e.EventId!) || (e.Timestamp?.getTime() ?? 0) < since) break pages;
        fresh.push(e);
      }
      token = page.NextToken;
    } while (token);
    fresh.reverse();
    for (const e of fresh) {
      seen.add(e.EventId!);
      printed.push(e);
      if (!isStackEvent(e)) latest.set(e.LogicalResourceId ?? '', e.ResourceStatus ?? '');
      out(progressLine(stackName, done(), e));
    }
    return fresh;
  };
  const describe = async (): Promise<Stack | undefined> => {
    try {
      return (await cfn.send(new DescribeStacksCommand({ StackName: stackId }))).Stacks?.[0];
    } catch (err) {
      if (/does not exist/.test((err as Error).message)) return undefined;
      throw err;
    }
  };
  for (let round = 1; ; round++) {
    const fresh = await poll();
    const last = [...fresh].reverse().find(isStackEvent);
    if ((last && settled(last.ResourceStatus ?? '')) || round % 10 === 0) {
      const stack = await describe();
      if (!stack || settled(stack.StackStatus ?? '')) {
        await poll();
        return { ...(stack ? { stack } : {}), events: printed };
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The `Failed resources:` block of a failed operation, as the CDK prints it. */
export function failureLines(stackName: string, events: StackEvent[]): string[] {
  const failed = events.filter((e) => e.ResourceStatus?.endsWith('_FAILED') && !isStackEvent(e));
  if (!failed.length) return [];
  return ['', 'Failed resources:', ...failed.map((e) => progressLine(stackName, 0, e).replace(/ \|\s+0 \|/, ' |'))];
}

function outputLines(stack: Stack): string[] {
  const outputs = stack.Outputs ?? [];
  if (!outputs.length) return [];
  return ['', 'Outputs:', ...outputs.map((o) => `${stack.StackName}.${o.OutputKey} = ${o.OutputValue}`)];
}

interface DeployArgs {
  template: string;
  stackName: string;
  parameters: Record<string, string>;
  disableRollback: boolean;
}

function parseDeployArgs(argv: string[]): DeployArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      'stack-name': { type: 'string' },
      parameter: { type: 'string', multiple: true, short: 'p' },
      'no-rollback': { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1) throw new CliError('give one template: overcast deploy TEMPLATE --stack-name NAME');
  if (!values['stack-name']) throw new CliError('--stack-name is required');
  const parameters: Record<string, string> = {};
  for (const p of values.parameter ?? []) {
    const eq = p.indexOf('=');
    if (eq <= 0) throw new CliError(`--parameter takes KEY=VALUE, got '${p}'`);
    parameters[p.slice(0, eq)] = p.slice(eq + 1);
  }
  return { template: positionals[0]!, stackName: values['stack-name'], parameters, disableRollback: values['no-rollback'] === true };
}

/** The deploy flow's actions over the CloudFormation API of a running Overcast, printing progress. */
async function apiActions(cfn: CloudFormationClient, stackName: string, out: (line: string) => void): Promise<StackActions> {
  const sdk = await import('@aws-sdk/client-cloudformation');
  return {
    describe: async (name) => {
      try {
        return (await cfn.send(new sdk.DescribeStacksCommand({ StackName: name }))).Stacks?.[0];
      } catch (err) {
        if (/does not exist/.test((err as Error).message)) return undefined;
        throw err;
      }
    },
    create: (input) => cfn.send(new sdk.CreateStackCommand(input)),
    update: (input) => cfn.send(new sdk.UpdateStackCommand(input)),
    delete: async (stackId) => {
      await cfn.send(new sdk.DeleteStackCommand({ StackName: stackId }));
    },
    templateParameters: async (source) =>
      ((await cfn.send(new sdk.GetTemplateSummaryCommand(source))).Parameters ?? []).map((p) => p.ParameterKey!),
    settle: (stackId, since) => watchStack(cfn, stackId, stackName, since, out),
    stage: (text) => stageTemplate(text),
  };
}

/** Puts a large template into Overcast's S3 (a bucket of the caller's account and region) for TemplateURL. */
async function stageTemplate(text: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const { CreateBucketCommand, PutObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
  const settings = clientSettings(env);
  const s3 = new S3Client({ ...settings, forcePathStyle: true });
  const bucket = `overcast-templates-${accountFromAccessKey(settings.credentials.accessKeyId)}-${settings.region}`;
  try {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (err) {
    if ((err as Error).name !== 'BucketAlreadyOwnedByYou') throw err;
  }
  const key = `${randomUUID()}.template`;
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: text }));
  return `s3://${bucket}/${key}`;
}

async function templateOf(template: string): Promise<TemplateInput> {
  if (/^(s3|https?):\/\//.test(template)) return { url: template };
  try {
    return { text: await readFile(template, 'utf8') };
  } catch (err) {
    throw new CliError(`cannot read ${template}: ${(err as Error).message}`);
  }
}

/** Before an existing stack is updated: what changes, as `overcast diff` (and `cdk deploy`) show it. */
async function showDiff(cfn: CloudFormationClient, stackName: string, template: TemplateInput, out: (line: string) => void): Promise<void> {
  if (!('text' in template)) return;
  const { DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  let status: string | undefined;
  try {
    status = (await cfn.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks?.[0]?.StackStatus;
  } catch (err) {
    if (/does not exist/.test((err as Error).message)) return;
    throw err;
  }
  if (!status || ['ROLLBACK_COMPLETE', 'ROLLBACK_FAILED', 'REVIEW_IN_PROGRESS'].includes(status)) return;
  const { stackDiff } = await import('./diff.js');
  const d = await stackDiff(cfn, stackName, template.text);
  if (d.differs) for (const line of d.text.trimEnd().split('\n')) out(line);
}

/** Runs the deploy; returns the exit code. */
export async function runDeploy(args: DeployArgs, out: (line: string) => void): Promise<number> {
  const cfn = await cloudFormationClient();
  const template = await templateOf(args.template);
  await showDiff(cfn, args.stackName, template, out);
  const outcome = await deployFlow(
    await apiActions(cfn, args.stackName, out),
    { stackName: args.stackName, template, parameters: args.parameters, disableRollback: args.disableRollback },
    { note: out },
  );
  switch (outcome.kind) {
    case 'unchanged':
      out(`✅  ${args.stackName} (no changes)`);
      for (const line of outputLines(outcome.stack)) out(line);
      return 0;
    case 'deployed':
      out('');
      out(`✅  ${args.stackName} (${outcome.stack.StackStatus})`);
      for (const line of outputLines(outcome.stack)) out(line);
      out('');
      out(`Stack ARN:\n${outcome.stack.StackId}`);
      return 0;
    case 'blocked':
      out(`❌  ${args.stackName}: could not delete the failed stack (${outcome.stack.StackStatus})`);
      return 1;
    case 'failed': {
      for (const line of failureLines(args.stackName, outcome.events)) out(line);
      const reason = outcome.stack?.StackStatusReason ? ` (${outcome.stack.StackStatusReason})` : '';
      out(`❌  ${args.stackName} failed to deploy: ${outcome.status}${reason}`);
      return 1;
    }
  }
}

export async function deploy(argv: string[]): Promise<void> {
  let args: DeployArgs;
  try {
    args = parseDeployArgs(argv);
  } catch (err) {
    process.stderr.write(`${usageLine('deploy', err, ['--stack-name', '--parameter', '--no-rollback', '--help'])}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    process.exitCode = await runDeploy(args, (line) => process.stdout.write(`${line}\n`));
  } catch (err) {
    process.stderr.write(`overcast deploy: ${err instanceof CliError ? err.message : explain(err)}\n`);
    process.exitCode = 1;
  }
}
