/**
 * `overcast diff TEMPLATE --stack-name NAME`: the difference between a template and the stack
 * deployed on a running Overcast, computed and printed by @aws-cdk/cloudformation-diff — the
 * library behind `cdk diff` (`fullDiff` + `formatDifferences`, with its IAM statement and
 * security-group tables) — so it reads exactly as `cdk diff` does. TEMPLATE is a JSON or YAML
 * file, or a CDK app's cloud assembly (`cdk.out`), whose manifest names the stack's synthesized
 * template. Exit code 1 when they differ, 0 when not, like `cdk diff --fail`; a stack that does not
 * exist compares against an empty template. `overcast deploy` prints the same diff before it
 * updates a stack (`stackDiff`).
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { CliError, cloudFormationClient, explain } from './client.js';
import { usageLine } from './help.js';

/** The template a cloud assembly holds for `stackName` (by artifact id or stack name). */
async function assemblyTemplate(dir: string, stackName: string): Promise<string> {
  let manifest: { artifacts?: Record<string, { type?: string; properties?: { templateFile?: string; stackName?: string } }> };
  try {
    manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as typeof manifest;
  } catch (err) {
    throw new CliError(`${dir} is not a cloud assembly (no readable manifest.json): ${(err as Error).message}`);
  }
  const stacks = Object.entries(manifest.artifacts ?? {}).filter(([, a]) => a.type === 'aws:cloudformation:stack');
  const found = stacks.find(([id, a]) => id === stackName || a.properties?.stackName === stackName);
  if (!found?.[1].properties?.templateFile) {
    throw new CliError(`no stack ${stackName} in ${dir} (stacks: ${stacks.map(([id]) => id).join(', ') || 'none'})`);
  }
  return readFile(join(dir, found[1].properties.templateFile), 'utf8');
}

/** The template text TEMPLATE names (a file, or a cloud assembly directory). */
async function localTemplate(path: string, stackName: string): Promise<string> {
  let isDir: boolean;
  try {
    isDir = (await stat(path)).isDirectory();
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${(err as Error).message}`);
  }
  return isDir ? assemblyTemplate(path, stackName) : readFile(path, 'utf8');
}

async function parsed(text: string, what: string): Promise<Record<string, unknown>> {
  const { parseTemplate } = await import('../services/cloudformation/template/index.js');
  try {
    return parseTemplate(text) as unknown as Record<string, unknown>;
  } catch (err) {
    throw new CliError(`${what}: ${(err as Error).message}`);
  }
}

/** The deployed stack's template (Original stage, as `cdk diff` reads it); `{}` when there is no stack. */
async function deployedTemplate(cfn: CloudFormationClient, stackName: string): Promise<Record<string, unknown>> {
  const { GetTemplateCommand } = await import('@aws-sdk/client-cloudformation');
  try {
    const out = await cfn.send(new GetTemplateCommand({ StackName: stackName, TemplateStage: 'Original' }));
    return parsed(out.TemplateBody ?? '{}', `the template of ${stackName}`);
  } catch (err) {
    if (/does not exist/.test((err as Error).message)) return {};
    throw err;
  }
}

/** The formatted difference between the deployed stack and `text`; `differs` false when none. */
export async function stackDiff(cfn: CloudFormationClient, stackName: string, text: string): Promise<{ differs: boolean; text: string }> {
  const [before, after] = await Promise.all([deployedTemplate(cfn, stackName), parsed(text, 'the template')]);
  const { fullDiff, formatDifferences } = await import('@aws-cdk/cloudformation-diff');
  const diff = fullDiff(before, after);
  if (diff.isEmpty) return { differs: false, text: 'There were no differences\n' };
  let out = '';
  const sink = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  formatDifferences(sink, diff);
  return { differs: true, text: out };
}

async function runDiff(args: { template: string; stackName: string }, out: (text: string) => void): Promise<number> {
  const text = await localTemplate(args.template, args.stackName);
  const cfn = await cloudFormationClient();
  const d = await stackDiff(cfn, args.stackName, text);
  out(`Stack ${args.stackName}\n`);
  out(d.text);
  out(`\n✨  Number of stacks with differences: ${d.differs ? 1 : 0}\n`);
  return d.differs ? 1 : 0;
}

export async function diff(argv: string[]): Promise<void> {
  let args: { template: string; stackName: string };
  try {
    const { values, positionals } = parseArgs({ args: argv, options: { 'stack-name': { type: 'string' } }, allowPositionals: true, strict: true });
    if (positionals.length !== 1) throw new Error('give one template: overcast diff TEMPLATE --stack-name NAME');
    if (!values['stack-name']) throw new Error('--stack-name is required');
    args = { template: positionals[0]!, stackName: values['stack-name'] };
  } catch (err) {
    process.stderr.write(`${usageLine('diff', err, ['--stack-name', '--help'])}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    process.exitCode = await runDiff(args, (t) => process.stdout.write(t));
  } catch (err) {
    process.stderr.write(`overcast diff: ${err instanceof CliError ? err.message : explain(err)}\n`);
    process.exitCode = 2;
  }
}
