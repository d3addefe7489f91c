/**
 * The engine's one doorway into the template layer (`template/`): parsing, preparing a template
 * for an operation, resolving values against the resources that exist, evaluating outputs,
 * summaries and required capabilities. The template layer is imported lazily, on the first
 * CloudFormation operation, so it never weighs on server start-up.
 */
import type * as Template from '../template/index.js';
import type {
  ParameterInput,
  PrepareEnvironment,
  PreparedTemplate,
  ResolveContext,
  ResolveScope,
  TemplateDoc,
} from '../template/types.js';
import type { StoredOutput, StoredParameter } from './state.js';

type TemplateModule = typeof Template;
let mod: TemplateModule | undefined;

export async function loadTemplateLayer(): Promise<TemplateModule> {
  mod ??= await import('../template/index.js');
  return mod;
}

function t(): TemplateModule {
  if (!mod) throw new Error('template layer not loaded');
  return mod;
}

export function parse(text: string): TemplateDoc {
  return t().parseTemplate(text);
}

export interface Prepared {
  prepared: PreparedTemplate;
  rctx: ResolveContext;
}

export function prepare(
  doc: TemplateDoc,
  inputs: ParameterInput[],
  env: PrepareEnvironment,
  previous?: StoredParameter[],
): Prepared {
  const m = t();
  const prepared = m.prepareTemplate(doc, inputs, env, previous ? { parameters: previous } : undefined);
  return { prepared, rctx: m.resolveContext(prepared, env) };
}

export function resolve(value: unknown, scope: ResolveScope, rctx: ResolveContext): unknown {
  return t().resolveValue(value, scope, rctx);
}

export function outputs(p: Prepared, scope: ResolveScope): StoredOutput[] {
  return t()
    .evaluateOutputs(p.prepared, scope, p.rctx)
    .map((o) => ({
      key: o.key,
      value: o.value,
      ...(o.description !== undefined ? { description: o.description } : {}),
      ...(o.exportName !== undefined ? { exportName: o.exportName } : {}),
    }));
}

/** The error for capabilities `given` lacks, or undefined. */
export function missingCapabilities(doc: TemplateDoc, given: string[], viaChangeSet: boolean) {
  const m = t();
  return m.missingCapabilities(m.requiredCapabilities(doc, { viaChangeSet }).capabilities, given);
}

export function templateSummary(doc: TemplateDoc) {
  return t().summary(doc);
}

export function validationSummary(doc: TemplateDoc) {
  return t().validationSummary(doc);
}

export function storedParameters(p: PreparedTemplate): StoredParameter[] {
  return p.parameters.map((r) => ({
    key: r.key,
    value: r.value,
    ...(r.resolvedValue !== undefined ? { resolvedValue: r.resolvedValue } : {}),
    ...(r.noEcho ? { noEcho: true } : {}),
    type: r.type,
  }));
}
