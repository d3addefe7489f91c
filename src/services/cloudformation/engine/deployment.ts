/**
 * A deployment: a template parsed and prepared for one create or update of a stack — the part of
 * starting an operation that must fail the request itself (template errors, parameters, rules,
 * capabilities; all ValidationError or InsufficientCapabilitiesException) — with the stack's new
 * settings, plus the outputs and stored parameters the engine derives from it. The template layer
 * (`template/`) is pure; this module feeds it the environment of the stack's account and region.
 */
import { randomUUID } from 'node:crypto';
import type { Ctx } from '../../../runtime/runtime.js';
import {
  checkResourceTypes,
  evaluateOutputs,
  missingCapabilities,
  parseTemplate,
  prepareTemplate,
  requiredCapabilities,
  resourceDeclarations,
  resolveContext,
  type ParameterInput,
  type PreparedTemplate,
  type ResolveContext,
  type ResolveScope,
  type TemplateDoc,
} from '../template/index.js';
import { prepareEnvironment, pseudoParameters } from './environment.js';
import type { OperationJournal, StackData, StoredOutput, StoredParameter } from './state.js';

export interface Deployment {
  prepared: PreparedTemplate;
  rctx: ResolveContext;
  template: string;
  description: string | null;
  /** The stack's new settings (outputs are filled in at commit). */
  data: StackData;
  /** Resources the change set imports instead of creating: logical id → the type's identifier. */
  adopt?: Record<string, Record<string, string>>;
}

interface DeploymentRequest {
  stackName: string;
  stackId: string;
  template: string;
  doc?: TemplateDoc;
  parameters: ParameterInput[];
  previousParameters?: StoredParameter[];
  capabilities: string[];
  /** Change sets may use transforms without CAPABILITY_AUTO_EXPAND. */
  viaChangeSet?: boolean;
  /** The stack's new settings, parameters and outputs aside. */
  settings: Omit<StackData, 'parameters' | 'outputs'>;
}

function storedParameters(p: PreparedTemplate): StoredParameter[] {
  return p.parameters.map((r) => ({
    key: r.key,
    value: r.value,
    ...(r.resolvedValue !== undefined ? { resolvedValue: r.resolvedValue } : {}),
    ...(r.noEcho ? { noEcho: true } : {}),
    type: r.type,
  }));
}

/** Parses and prepares a template for an operation; throws the request's error. */
export function prepareDeployment(ctx: Ctx, req: DeploymentRequest): Deployment {
  const doc = req.doc ?? parseTemplate(req.template);
  // Unknown types are the request's first error, before missing capabilities.
  checkResourceTypes(doc, resourceDeclarations(doc).map(([, decl]) => decl.Type));
  const env = prepareEnvironment(ctx, pseudoParameters(ctx, req.stackName, req.stackId, req.settings.notificationArns));
  const missing = missingCapabilities(requiredCapabilities(doc, { viaChangeSet: req.viaChangeSet === true }).capabilities, req.capabilities);
  if (missing) throw missing;
  const prepared = prepareTemplate(doc, req.parameters, env, req.previousParameters ? { parameters: req.previousParameters } : undefined);
  const transforms = doc.Transform === undefined ? [] : Array.isArray(doc.Transform) ? doc.Transform : [doc.Transform];
  const { outputs: _outputs, ...settings } = req.settings as StackData;
  const data: StackData = {
    ...settings,
    parameters: storedParameters(prepared),
    ...(transforms.length ? { transforms: transforms.map(String), processed: JSON.stringify(prepared.processed) } : {}),
  };
  if (!transforms.length) {
    delete data.transforms;
    delete data.processed;
  }
  return {
    prepared,
    rctx: resolveContext(prepared, env),
    template: req.template,
    description: typeof doc.Description === 'string' ? doc.Description : null,
    data,
  };
}

/** The stack's outputs as stored, evaluated against the resources that exist (`scope`). */
export function stackOutputs(d: Deployment, scope: ResolveScope): StoredOutput[] {
  return evaluateOutputs(d.prepared, scope, d.rctx).map((o) => ({
    key: o.key,
    value: o.value,
    ...(o.description !== undefined ? { description: o.description } : {}),
    ...(o.exportName !== undefined ? { exportName: o.exportName } : {}),
  }));
}

export function newJournal(type: OperationJournal['type'], extra: Partial<OperationJournal> = {}): OperationJournal {
  return { id: randomUUID(), type, ...extra };
}
