/**
 * The one deploy flow behind `overcast deploy` and the in-process API's `deployStack`, over the
 * few CloudFormation actions it needs (`StackActions`: the CLI gives them over the API, the
 * in-process API through the provider functions): a template too large for TemplateBody is staged
 * where TemplateURL can name it (51,200 bytes, as the API allows); a stack its creation left
 * unusable (ROLLBACK_COMPLETE, ROLLBACK_FAILED, REVIEW_IN_PROGRESS) is deleted first, as the CDK
 * does; an update keeps the previous value of every parameter not given (UsePreviousValue, as
 * `aws cloudformation deploy` does); "No updates are to be performed." is a result, not a failure.
 */
import type * as CFN from '@aws-sdk/client-cloudformation';

/** The largest TemplateBody CloudFormation accepts; larger templates go by TemplateURL. */
export const TEMPLATE_BODY_MAX_BYTES = 51_200;
export const ALL_CAPABILITIES: CFN.Capability[] = ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'];
const REPLACED_FIRST = ['ROLLBACK_COMPLETE', 'ROLLBACK_FAILED', 'REVIEW_IN_PROGRESS'];
const NO_UPDATES = 'No updates are to be performed.';

type Started = { StackId?: string; OperationId?: string };
type TemplateSource = { TemplateBody: string } | { TemplateURL: string };

export interface StackActions {
  /** The stack of that name, or undefined when there is none. */
  describe(stackName: string): Promise<CFN.Stack | undefined>;
  create(input: CFN.CreateStackInput): Promise<Started>;
  /** Rejects with an error whose message is NO_UPDATES when nothing would change. */
  update(input: CFN.UpdateStackInput): Promise<Started>;
  delete(stackId: string): Promise<void>;
  /** The parameter names a template declares (GetTemplateSummary). */
  templateParameters(source: TemplateSource): Promise<string[]>;
  /** Waits for the stack's current operation to settle: its final description (none when gone) and the operation's events, oldest first. */
  settle(stackId: string, since: number, operationId?: string): Promise<{ stack?: CFN.Stack; events: CFN.StackEvent[] }>;
  /** Puts a template too large for TemplateBody where a TemplateURL reaches it. */
  stage(text: string): Promise<string>;
}

export type TemplateInput = { text: string } | { url: string };

interface DeployRequest {
  stackName: string;
  template: TemplateInput;
  parameters?: Record<string, string>;
  capabilities?: string[];
  tags?: Record<string, string>;
  disableRollback?: boolean;
}

type DeployOutcome =
  | { kind: 'unchanged'; stack: CFN.Stack }
  | { kind: 'deployed'; stack: CFN.Stack; events: CFN.StackEvent[] }
  /** The operation ended otherwise (`stack` undefined: it is gone). */
  | { kind: 'failed'; stack?: CFN.Stack; status: string; events: CFN.StackEvent[] }
  /** The unusable stack in the way could not be deleted. */
  | { kind: 'blocked'; stack: CFN.Stack; events: CFN.StackEvent[] };

interface DeployHooks {
  /** A sentence on what happens next ("creating stack..."). */
  note?(message: string): void;
}

async function sourceOf(actions: StackActions, template: TemplateInput): Promise<TemplateSource> {
  if ('url' in template) return { TemplateURL: template.url };
  if (Buffer.byteLength(template.text, 'utf8') <= TEMPLATE_BODY_MAX_BYTES) return { TemplateBody: template.text };
  return { TemplateURL: await actions.stage(template.text) };
}

export async function deploy(actions: StackActions, req: DeployRequest, hooks: DeployHooks = {}): Promise<DeployOutcome> {
  const source = await sourceOf(actions, req.template);
  let existing = await actions.describe(req.stackName);
  if (existing && REPLACED_FIRST.includes(existing.StackStatus ?? '')) {
    hooks.note?.(`${req.stackName}: deleting the stack left in ${existing.StackStatus} first`);
    const since = Date.now();
    await actions.delete(existing.StackId!);
    const gone = await actions.settle(existing.StackId!, since);
    if (gone.stack && gone.stack.StackStatus !== 'DELETE_COMPLETE') return { kind: 'blocked', stack: gone.stack, events: gone.events };
    existing = undefined;
  }
  const parameters = req.parameters ?? {};
  const given: CFN.Parameter[] = Object.entries(parameters).map(([ParameterKey, ParameterValue]) => ({ ParameterKey, ParameterValue }));
  const common = {
    StackName: req.stackName,
    ...source,
    Capabilities: (req.capabilities ?? ALL_CAPABILITIES) as CFN.Capability[],
    ...(req.tags ? { Tags: Object.entries(req.tags).map(([Key, Value]) => ({ Key, Value })) } : {}),
    ...(req.disableRollback ? { DisableRollback: true } : {}),
  };
  const since = Date.now() - 1;
  let started: Started;
  if (!existing) {
    hooks.note?.(`${req.stackName}: creating stack...`);
    started = await actions.create({ ...common, Parameters: given });
  } else {
    const previous = new Set((existing.Parameters ?? []).map((p) => p.ParameterKey));
    const kept = (await actions.templateParameters(source))
      .filter((k) => previous.has(k) && parameters[k] === undefined)
      .map((ParameterKey) => ({ ParameterKey, UsePreviousValue: true }));
    hooks.note?.(`${req.stackName}: updating stack...`);
    try {
      started = await actions.update({ ...common, Parameters: [...given, ...kept] });
    } catch (err) {
      if ((err as Error).message === NO_UPDATES) return { kind: 'unchanged', stack: existing };
      throw err;
    }
  }
  const { stack, events } = await actions.settle(started.StackId!, since, started.OperationId);
  const status = stack?.StackStatus ?? 'DELETE_COMPLETE';
  if (stack && (status === 'CREATE_COMPLETE' || status === 'UPDATE_COMPLETE')) return { kind: 'deployed', stack, events };
  return { kind: 'failed', ...(stack ? { stack } : {}), status, events };
}
