/**
 * `overcast deploy <template> --stack-name NAME [--parameter K=V …] [--no-rollback]`: creates or
 * updates a stack on a running Overcast over the CloudFormation API (endpoint from
 * AWS_ENDPOINT_URL), prints the stack's events as resources move — one line per event, like the
 * CDK's progress display — and then the outputs. Also home to what `overcast destroy` shares:
 * the client settings, the event watcher and the failure summary.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { CloudFormationClient, Parameter, Stack, StackEvent } from '@aws-sdk/client-cloudformation';
import { DEFAULT_HOST, DEFAULT_PORT } from '../config.js';
import { usageLine } from './help.js';

/** Larger templates must come from S3 (`overcast deploy s3://bucket/key`), as with the API. */
const TEMPLATE_BODY_MAX_BYTES = 51_200;
const ALL_CAPABILITIES = ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'] as const;

/** A failure the command reports as `overcast <command>: message` with exit code 1. */
export class CliError extends Error {}

export function endpointOf(env: NodeJS.ProcessEnv = process.env): string {
  return (env.AWS_ENDPOINT_URL || `http://${DEFAULT_HOST}:${DEFAULT_PORT}`).replace(/\/+$/, '');
}

/** A CloudFormation client for the running Overcast (credentials from the environment, else test/test). */
export async function cloudFormationClient(env: NodeJS.ProcessEnv = process.env): Promise<CloudFormationClient> {
  // The SDK's notice about future Node versions is noise in a local tool's output.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const { CloudFormationClient } = await import('@aws-sdk/client-cloudformation');
  const hasKeys = Boolean(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY);
  return new CloudFormationClient({
    endpoint: env.AWS_ENDPOINT_URL_CLOUDFORMATION || endpointOf(env),
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    credentials: {
      accessKeyId: hasKeys ? env.AWS_ACCESS_KEY_ID! : 'test',
      secretAccessKey: hasKeys ? env.AWS_SECRET_ACCESS_KEY! : 'test',
      ...(hasKeys && env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
    },
    maxAttempts: 2,
  });
}

/** Turns the SDK's errors into one readable line (connection refused → is Overcast running?). */
export function explain(err: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const e = err as { name?: string; message?: string; code?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(e.message ?? '')) {
    return `cannot reach Overcast at ${endpointOf(env)} (start it with: overcast start)`;
  }
  return e.message ?? String(err);
}

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
export function progressLine(stackName: string, done: number, e: StackEvent): string {
  const time = (e.Timestamp ?? new Date()).toLocaleTimeString('en-US');
  const status = e.ResourceStatus ?? '';
  const reason = e.ResourceStatusReason ? ` ${e.ResourceStatusReason}` : '';
  const cells = [stackName, String(done).padStart(3), time.padStart(11), paint(status, status.padEnd(28)), (e.ResourceType ?? '').padEnd(30)];
  return `${cells.join(' | ')} | ${e.LogicalResourceId}${reason}`;
}

export interface WatchResult {
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

export function outputLines(stack: Stack): string[] {
  const outputs = stack.Outputs ?? [];
  if (!outputs.length) return [];
  return ['', 'Outputs:', ...outputs.map((o) => `${stack.StackName}.${o.OutputKey} = ${o.OutputValue}`)];
}

export interface DeployArgs {
  template: string;
  stackName: string;
  parameters: Record<string, string>;
  disableRollback: boolean;
}

export function parseDeployArgs(argv: string[]): DeployArgs {
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

async function templateSource(template: string): Promise<{ TemplateBody: string } | { TemplateURL: string }> {
  if (/^(s3|https?):\/\//.test(template)) return { TemplateURL: template };
  let body: string;
  try {
    body = await readFile(template, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${template}: ${(err as Error).message}`);
  }
  if (Buffer.byteLength(body, 'utf8') > TEMPLATE_BODY_MAX_BYTES) {
    throw new CliError(
      `${template} is larger than ${TEMPLATE_BODY_MAX_BYTES} bytes: upload it (aws s3 cp ${template} s3://BUCKET/KEY) and deploy s3://BUCKET/KEY`,
    );
  }
  return { TemplateBody: body };
}

/** Runs the deploy; returns the exit code. */
export async function runDeploy(args: DeployArgs, out: (line: string) => void): Promise<number> {
  const cfn = await cloudFormationClient();
  const { CreateStackCommand, DeleteStackCommand, DescribeStacksCommand, GetTemplateSummaryCommand, UpdateStackCommand } = await import(
    '@aws-sdk/client-cloudformation'
  );
  const source = await templateSource(args.template);
  let existing: Stack | undefined;
  try {
    existing = (await cfn.send(new DescribeStacksCommand({ StackName: args.stackName }))).Stacks?.[0];
  } catch (err) {
    if (!/does not exist/.test((err as Error).message)) throw err;
  }
  // A stack whose creation failed cannot be updated: it is deleted first (as the CDK does).
  if (existing && ['ROLLBACK_COMPLETE', 'ROLLBACK_FAILED', 'REVIEW_IN_PROGRESS'].includes(existing.StackStatus ?? '')) {
    out(`${args.stackName}: deleting the stack left in ${existing.StackStatus} first`);
    const since = Date.now();
    await cfn.send(new DeleteStackCommand({ StackName: existing.StackId }));
    const gone = await watchStack(cfn, existing.StackId!, args.stackName, since, out);
    if (gone.stack && gone.stack.StackStatus !== 'DELETE_COMPLETE') {
      out(`❌  ${args.stackName}: could not delete the failed stack (${gone.stack.StackStatus})`);
      return 1;
    }
    existing = undefined;
  }
  const given: Parameter[] = Object.entries(args.parameters).map(([ParameterKey, ParameterValue]) => ({ ParameterKey, ParameterValue }));
  const common = { StackName: args.stackName, ...source, Capabilities: [...ALL_CAPABILITIES], DisableRollback: args.disableRollback };
  const since = Date.now() - 1;
  let stackId: string;
  if (!existing) {
    out(`${args.stackName}: creating stack...`);
    stackId = (await cfn.send(new CreateStackCommand({ ...common, Parameters: given }))).StackId!;
  } else {
    // Parameters not given keep their previous values, as `aws cloudformation deploy` does.
    const summary = await cfn.send(new GetTemplateSummaryCommand(source));
    const previous = new Set((existing.Parameters ?? []).map((p) => p.ParameterKey));
    const kept = (summary.Parameters ?? [])
      .map((p) => p.ParameterKey!)
      .filter((k) => previous.has(k) && args.parameters[k] === undefined)
      .map((ParameterKey) => ({ ParameterKey, UsePreviousValue: true }));
    out(`${args.stackName}: updating stack...`);
    try {
      stackId = (await cfn.send(new UpdateStackCommand({ ...common, Parameters: [...given, ...kept] }))).StackId!;
    } catch (err) {
      if ((err as Error).message !== 'No updates are to be performed.') throw err;
      out(`✅  ${args.stackName} (no changes)`);
      for (const line of outputLines(existing)) out(line);
      return 0;
    }
  }
  const { stack, events } = await watchStack(cfn, stackId, args.stackName, since, out);
  const status = stack?.StackStatus ?? 'DELETE_COMPLETE';
  if (stack && (status === 'CREATE_COMPLETE' || status === 'UPDATE_COMPLETE')) {
    out('');
    out(`✅  ${args.stackName} (${status})`);
    for (const line of outputLines(stack)) out(line);
    out('');
    out(`Stack ARN:\n${stackId}`);
    return 0;
  }
  for (const line of failureLines(args.stackName, events)) out(line);
  out(`❌  ${args.stackName} failed to deploy: ${status}${stack?.StackStatusReason ? ` (${stack.StackStatusReason})` : ''}`);
  return 1;
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
