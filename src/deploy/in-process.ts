/**
 * `deployStack` and `deleteStack` of the in-process API: the options of `DeployStackOptions`
 * turned into the one deploy flow's request (a template object, file or text; parameter values of
 * any simple type), run over the provider functions, and its outcome turned into the API's result
 * — outputs, physical ids, resources, events — or a `DeployStackError` naming each failed
 * resource and its reason. Also the CDK bootstrap-version parameter a synthesized template reads.
 */
import { readFile } from 'node:fs/promises';
import type * as CFN from '@aws-sdk/client-cloudformation';
import {
  DeployStackError,
  type DeployedResource,
  type DeployStackOptions,
  type DeployStackResult,
  type ParameterValue,
  type StackFailure,
} from '../api-types.js';
import type { Ctx, Runtime } from '../runtime/runtime.js';
import { isAwsError } from '../wire/errors.js';
import { deploy } from './flow.js';
import { describeLocal, localStackActions, type LocalEngine } from './local-actions.js';

const DEFAULT_TIMEOUT_MS = 300_000;
/** The version `cdk bootstrap` (aws-cdk 2.1148) writes to `/cdk-bootstrap/<qualifier>/version`. */
const CDK_BOOTSTRAP_VERSION = '33';
const CDK_BOOTSTRAP_PARAMETER = /^\/cdk-bootstrap\/[A-Za-z0-9_-]+\/version$/;

export interface InProcessEngine extends LocalEngine {
  parse: (text: string) => unknown;
}

function parameterValues(values: Record<string, ParameterValue> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]));
}

async function templateTextOf(o: DeployStackOptions): Promise<string> {
  const given = [o.template !== undefined, o.templateFile !== undefined, o.templateBody !== undefined].filter(Boolean).length;
  if (given !== 1) throw new TypeError('deployStack: give exactly one of template, templateFile or templateBody');
  if (o.template !== undefined) return JSON.stringify(o.template);
  if (o.templateFile !== undefined) return readFile(o.templateFile, 'utf8');
  return o.templateBody!;
}

function failuresOf(events: CFN.StackEvent[]): StackFailure[] {
  return events
    .filter((e) => e.ResourceStatus?.endsWith('_FAILED') && e.ResourceStatusReason)
    .map((e) => ({ logicalId: e.LogicalResourceId!, type: e.ResourceType!, status: e.ResourceStatus!, reason: e.ResourceStatusReason! }));
}

/** The rejection of an operation that ended `stack`'s way: its failed resources, with reasons, in the message. */
function failure(verb: string, stack: Pick<CFN.Stack, 'StackName' | 'StackId' | 'StackStatus' | 'StackStatusReason'>, events: CFN.StackEvent[]): DeployStackError {
  const failures = failuresOf(events);
  const lines = [`Stack ${stack.StackName} failed to ${verb}: ${stack.StackStatus}`];
  const resourceFailures = failures.filter((f) => f.type !== 'AWS::CloudFormation::Stack');
  for (const f of resourceFailures.length ? resourceFailures : failures) {
    lines.push(`  ${f.logicalId} (${f.type}) ${f.status}: ${f.reason}`);
  }
  if (!failures.length && stack.StackStatusReason) lines.push(`  ${stack.StackStatusReason}`);
  return new DeployStackError(lines.join('\n'), stack.StackName!, stack.StackId ?? '', stack.StackStatus!, failures, events);
}

function resourcesOf(e: LocalEngine, ctx: Ctx, stackId: string): DeployedResource[] {
  const out: DeployedResource[] = [];
  let token: string | undefined;
  do {
    const page = e.cfn.listStackResources(ctx, { StackName: stackId, ...(token ? { NextToken: token } : {}) });
    for (const r of page.StackResourceSummaries ?? []) {
      const [logicalId, physicalId] = [r.LogicalResourceId ?? '', r.PhysicalResourceId ?? ''];
      out.push({ logicalId, physicalId, type: r.ResourceType ?? '', status: r.ResourceStatus ?? '' });
    }
    token = page.NextToken;
  } while (token);
  return out;
}

function resultOf(e: LocalEngine, ctx: Ctx, stack: CFN.Stack, changed: boolean, events: CFN.StackEvent[]): DeployStackResult {
  const resources = resourcesOf(e, ctx, stack.StackId!);
  return {
    stackName: stack.StackName!,
    stackId: stack.StackId!,
    status: stack.StackStatus!,
    changed,
    outputs: Object.fromEntries((stack.Outputs ?? []).map((o) => [o.OutputKey!, o.OutputValue ?? ''])),
    physicalResourceIds: Object.fromEntries(resources.map((r) => [r.logicalId, r.physicalId])),
    resources,
    events,
  };
}

/** Creates the CDK bootstrap-version SSM parameters a template reads by default, when missing. */
async function ensureCdkBootstrapVersion(e: InProcessEngine, ctx: Ctx, o: DeployStackOptions, text: string): Promise<void> {
  let doc: { Parameters?: Record<string, { Type?: unknown; Default?: unknown }> };
  try {
    doc = (o.template as typeof doc | undefined) ?? (e.parse(text) as typeof doc);
  } catch {
    return; // the deploy itself reports the template's error
  }
  const wanted = Object.entries(doc.Parameters ?? {}).filter(
    ([key, p]) =>
      typeof p?.Type === 'string' &&
      p.Type.startsWith('AWS::SSM::Parameter::Value<') &&
      typeof p.Default === 'string' &&
      CDK_BOOTSTRAP_PARAMETER.test(p.Default) &&
      o.parameters?.[key] === undefined,
  );
  if (!wanted.length) return;
  const ssm = await import('../services/ssm/provider.js');
  for (const [, p] of wanted) {
    const name = p.Default as string;
    try {
      ssm.getParameter(ctx, { Name: name });
    } catch (err) {
      if (!isAwsError(err) || err.code !== 'ParameterNotFound') throw err;
      ssm.putParameter(ctx, { Name: name, Type: 'String', Value: CDK_BOOTSTRAP_VERSION });
    }
  }
}

export async function deployStackInProcess(rt: Runtime, e: InProcessEngine, ctx: () => Ctx, o: DeployStackOptions): Promise<DeployStackResult> {
  if (!o || typeof o.stackName !== 'string') throw new TypeError('deployStack: stackName is required');
  const text = await templateTextOf(o);
  if (o.cdkBootstrapVersion !== false) await ensureCdkBootstrapVersion(e, ctx(), o, text);
  const outcome = await deploy(localStackActions(rt, e, ctx, o.timeoutMs ?? DEFAULT_TIMEOUT_MS), {
    stackName: o.stackName,
    template: { text },
    parameters: parameterValues(o.parameters),
    ...(o.capabilities ? { capabilities: o.capabilities } : {}),
    ...(o.tags ? { tags: o.tags } : {}),
    ...(o.disableRollback ? { disableRollback: true } : {}),
  });
  switch (outcome.kind) {
    case 'unchanged':
      return resultOf(e, ctx(), outcome.stack, false, []);
    case 'deployed':
      return resultOf(e, ctx(), outcome.stack, true, outcome.events);
    case 'blocked':
      throw failure('delete', outcome.stack, outcome.events);
    case 'failed':
      throw failure('deploy', outcome.stack ?? { StackName: o.stackName, StackStatus: outcome.status as CFN.StackStatus }, outcome.events);
  }
}

export async function deleteStackInProcess(rt: Runtime, e: InProcessEngine, ctx: () => Ctx, stackName: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
  const stack = await describeLocal(e, ctx(), stackName);
  if (!stack || stack.StackStatus === 'DELETE_COMPLETE') return;
  const actions = localStackActions(rt, e, ctx, timeoutMs);
  const since = Date.now();
  await actions.delete(stack.StackId!);
  const after = await actions.settle(stack.StackId!, since);
  if (after.stack?.StackStatus === 'DELETE_COMPLETE') return;
  throw failure('delete', after.stack ?? stack, after.events);
}
