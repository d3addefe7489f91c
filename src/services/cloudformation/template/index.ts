/**
 * The template layer's public API (pure functions, no I/O): parse a template, validate it,
 * prepare it for an operation, resolve values, evaluate outputs, summarise it and say which
 * capabilities it needs. The types of the contract with the engine are in types.ts.
 */
export type * from './types.js';
export { parseTemplate, MAX_NESTING_DEPTH, MAX_NODES } from './parse.js';
export {
  validationError,
  formatError,
  templateError,
  templateSizeError,
  insufficientCapabilities,
  TEMPLATE_BODY_MAX_BYTES,
  TEMPLATE_URL_MAX_BYTES,
} from './errors.js';
export { prepareTemplate, resolveContext, validateTemplate } from './prepare.js';
export { resolveDynamicReferences } from './dynamic-references.js';
export { resolveValue, STATIC_SCOPE, DynamicValue, INTRINSICS, type Intrinsic } from './intrinsics.js';
export { evaluateOutputs, declaredExports, type EvaluatedOutput } from './outputs.js';
export {
  summary,
  validationSummary,
  requiredCapabilities,
  missingCapabilities,
  resourceDeclarations,
  type CapabilityRequirement,
} from './summary.js';
export { attributeAllowed, checkResourceTypes } from './structure.js';
export { declaredTransforms, usesLanguageExtensions, LANGUAGE_EXTENSIONS } from './language-extensions.js';
export { referencedIds, dependencyEdges, topologicalOrder } from './dependencies.js';
export { intrinsicName, isObject, walkObjects } from './values.js';
export { parameterKind, type PreviousParameters } from './parameters.js';
export { cidrSubnets } from './cidr.js';
export { pseudoParametersFor } from './pseudo.js';
