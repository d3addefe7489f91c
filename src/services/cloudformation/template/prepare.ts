/**
 * `prepareTemplate`: everything that happens to a template before its first resource is touched,
 * in AWS's order — top-level checks, parameter declarations, transforms
 * (AWS::LanguageExtensions → the Processed stage), structural validation, parameter values,
 * conditions, rules, resources filtered by their Condition, references to conditioned-out
 * resources, dependency edges and the creation order. Also `resolveContext`, which turns a
 * prepared template and an environment into what `resolveValue` needs.
 *
 * prepareTemplate is one long function on purpose: it is the pipeline itself, stage by stage in
 * AWS's order.
 */
import { evaluateConditions } from './conditions.js';
import { unresolvedDependencies } from './errors.js';
import { dependencyEdges, dependsOnList, referencedIds, referencingParts, topologicalOrder } from './dependencies.js';
import { resolveRaw, STATIC_SCOPE } from './intrinsics.js';
import { applyLanguageExtensions, usesLanguageExtensions } from './language-extensions.js';
import { parameterRefValues, resolveParameters, validateParameterDeclarations, type PreviousParameters } from './parameters.js';
import { evaluateRules } from './rules.js';
import type {
  OutputDeclaration,
  ParameterInput,
  PreparedResource,
  PreparedTemplate,
  PrepareEnvironment,
  ResolveContext,
  ResourceDeclaration,
  ResolvedParameter,
  TemplateDoc,
} from './types.js';
import { DELETION_POLICIES, UPDATE_REPLACE_POLICIES, validateStructure, validateTopLevel } from './structure.js';
import { intrinsicName, isObject, pushAll, pushValues, scalarString } from './values.js';

function mappingsOf(doc: TemplateDoc): ResolveContext['mappings'] {
  return isObject(doc.Mappings) ? (doc.Mappings as ResolveContext['mappings']) : {};
}

function baseContext(
  doc: TemplateDoc,
  params: ResolvedParameter[],
  env: PrepareEnvironment,
  le: boolean,
  declared: string[],
): Omit<ResolveContext, 'conditions' | 'section'> {
  const parameterTypes: Record<string, string> = {};
  for (const p of params) parameterTypes[p.key] = p.type;
  return {
    pseudo: env.pseudo,
    parameters: parameterRefValues(params),
    parameterTypes,
    mappings: mappingsOf(doc),
    resources: new Set(),
    declared: new Set(declared),
    env,
    languageExtensions: le,
  };
}

/**
 * Applies transforms and validates a template without parameter values (defaults only), as
 * ValidateTemplate and GetTemplateSummary do. Returns the processed template.
 */
export function validateTemplate(doc: TemplateDoc, env?: PrepareEnvironment, inputs: ParameterInput[] = []): TemplateDoc {
  validateTopLevel(doc);
  validateParameterDeclarations(doc);
  const le = usesLanguageExtensions(doc);
  let processed = doc;
  if (le) {
    const e: PrepareEnvironment = env ?? {
      pseudo: {
        accountId: '000000000000',
        region: 'us-east-1',
        partition: 'aws',
        urlSuffix: 'amazonaws.com',
        stackName: 'stack',
        stackId: 'stack',
        notificationArns: [],
      },
      ssmParameter: () => undefined,
      exportValue: () => undefined,
      availabilityZones: () => [],
    };
    const params = resolveParameters(doc, inputs, e, undefined, { lenient: true });
    processed = applyLanguageExtensions(doc, { ...baseContext(doc, params, e, true, []), conditions: {} });
  }
  validateStructure(processed, le);
  return processed;
}

function policy<T extends string>(value: unknown, allowed: readonly string[], fallback: T, ctx: ResolveContext): T {
  let v = value;
  if (intrinsicName(v)) v = resolveRaw(v, STATIC_SCOPE, ctx);
  const s = scalarString(v);
  return s !== undefined && allowed.includes(s) ? (s as T) : fallback;
}

/** AWS's default DeletionPolicy: Snapshot for RDS clusters and for DB instances outside a cluster. */
function defaultDeletionPolicy(decl: ResourceDeclaration): PreparedResource['deletionPolicy'] {
  if (decl.Type === 'AWS::RDS::DBCluster') return 'Snapshot';
  if (decl.Type === 'AWS::RDS::DBInstance' && (!isObject(decl.Properties) || decl.Properties.DBClusterIdentifier === undefined)) {
    return 'Snapshot';
  }
  return 'Delete';
}

function importNames(values: unknown[], ctx: ResolveContext): string[] {
  const names: string[] = [];
  const stack = [...values];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) pushAll(stack, v);
    else if (isObject(v)) {
      if (intrinsicName(v) === 'Fn::ImportValue') {
        try {
          const name = scalarString(resolveRaw(v['Fn::ImportValue'], STATIC_SCOPE, ctx));
          if (name !== undefined && !names.includes(name)) names.push(name);
        } catch {
          // reported when the value is resolved
        }
      } else pushValues(stack, v);
    }
  }
  return names.sort();
}

/**
 * Prepares a template for one operation. `previous` gives the stack's current parameters
 * (for UsePreviousValue; SSM-typed ones by name, re-read through `env.ssmParameter`).
 * Throws ValidationError with AWS's wording for every template and parameter problem.
 */
export function prepareTemplate(
  doc: TemplateDoc,
  parameterInputs: ParameterInput[],
  env: PrepareEnvironment,
  previous?: PreviousParameters,
): PreparedTemplate {
  validateTopLevel(doc);
  validateParameterDeclarations(doc);
  const le = usesLanguageExtensions(doc);
  let processed = doc;
  if (le) {
    const lenient = resolveParameters(doc, parameterInputs, env, previous, { lenient: true });
    processed = applyLanguageExtensions(doc, { ...baseContext(doc, lenient, env, true, []), conditions: {} });
  }
  validateStructure(processed, le);
  const parameters = resolveParameters(doc, parameterInputs, env, previous);
  const declaredResources = processed.Resources as Record<string, ResourceDeclaration>;
  const declared = Object.keys(declaredResources);
  const base = baseContext(processed, parameters, env, le, declared);
  const conditions = evaluateConditions(processed, base);
  const ctx: ResolveContext = { ...base, conditions };
  evaluateRules(doc, ctx);

  const holds = (c: unknown) => c === undefined || conditions[c as string] === true;
  const activeIds = declared.filter((id) => holds(declaredResources[id]!.Condition));
  const active = new Set(activeIds);
  ctx.resources = active;

  // A live reference to a resource whose Condition is false is unresolved, as on AWS.
  const dangling: string[] = [];
  const note = (id: string) => {
    if (declared.includes(id) && !active.has(id) && !dangling.includes(id)) dangling.push(id);
  };
  for (const id of activeIds) {
    const decl = declaredResources[id]!;
    for (const d of dependsOnList(decl)) note(d);
    const refs = new Set<string>();
    for (const part of referencingParts(decl)) referencedIds(part, conditions, refs);
    refs.forEach(note);
  }
  if (dangling.length) throw unresolvedDependencies(dangling, 'Resources');

  const outputs: Record<string, OutputDeclaration> = {};
  for (const [key, out] of Object.entries(isObject(processed.Outputs) ? processed.Outputs : {})) {
    if (holds(out.Condition)) outputs[key] = out;
  }
  for (const out of Object.values(outputs)) referencedIds([out.Value, out.Export], conditions).forEach(note);
  if (dangling.length) throw unresolvedDependencies(dangling, 'Outputs');

  const edges = dependencyEdges(declaredResources, active, conditions);
  const order = topologicalOrder(activeIds, edges);
  const resources: Record<string, PreparedResource> = {};
  for (const id of activeIds) {
    const decl = declaredResources[id]!;
    resources[id] = {
      logicalId: id,
      type: decl.Type,
      properties: isObject(decl.Properties) ? decl.Properties : {},
      dependsOn: edges[id] ?? [],
      deletionPolicy: policy(decl.DeletionPolicy, DELETION_POLICIES, defaultDeletionPolicy(decl), ctx),
      updateReplacePolicy: policy(decl.UpdateReplacePolicy, UPDATE_REPLACE_POLICIES, 'Delete', ctx),
      ...(decl.Metadata !== undefined ? { metadata: decl.Metadata } : {}),
      declaration: decl,
    };
  }
  const imports = importNames(
    [...activeIds.map((id) => declaredResources[id]!.Properties), ...Object.values(outputs).map((o) => o.Value)],
    ctx,
  );
  return {
    doc,
    processed,
    parameters,
    conditions,
    resources,
    outputs,
    order,
    imports,
    languageExtensions: le,
    declared,
  };
}

/** What `resolveValue` needs for a prepared template in an environment (section: Resources). */
export function resolveContext(prepared: PreparedTemplate, env: PrepareEnvironment): ResolveContext {
  const base = baseContext(prepared.processed, prepared.parameters, env, prepared.languageExtensions, prepared.declared);
  return { ...base, resources: new Set(Object.keys(prepared.resources)), conditions: prepared.conditions };
}
