/**
 * The CloudFormation provider: every action as a plain typed function `(ctx, input) → output`,
 * gathered from the modules that implement them (stacks, change sets, reads, templates, exports,
 * drift, refactors).
 */
export {
  createStack,
  updateStack,
  deleteStack,
  updateTerminationProtection,
  cancelUpdateStack,
  continueUpdateRollback,
  rollbackStack,
  setStackPolicy,
  getStackPolicy,
} from './stacks.js';
export {
  describeStacks,
  listStacks,
  describeStackEvents,
  describeStackResource,
  describeStackResources,
  listStackResources,
  getTemplate,
} from './describe.js';
export { createChangeSet, describeChangeSet, executeChangeSet, deleteChangeSet, listChangeSets } from './change-sets.js';
export { getTemplateSummary, validateTemplate } from './templates.js';
export { listExports, listImports } from './list-exports.js';
export { detectStackDrift, detectStackResourceDrift, describeStackDriftDetectionStatus, describeStackResourceDrifts } from './drift.js';
export { createStackRefactor, describeStackRefactor, executeStackRefactor, listStackRefactors, listStackRefactorActions } from './refactors.js';
