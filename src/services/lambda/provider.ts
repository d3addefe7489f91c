/**
 * The Lambda provider: Lambda's rules as plain functions of (ctx, input), shared by the Lambda
 * API and the CloudFormation engine (AWS::Lambda::*, custom resources). This is the module other
 * services import; the implementation lives in the modules re-exported here.
 */
export {
  createFunction,
  getFunction,
  getFunctionConfiguration,
  listFunctions,
  deleteFunction,
  updateFunctionCode,
  updateFunctionConfiguration,
  codePackage,
} from './functions.js';
export { publishVersion, listVersionsByFunction, createAlias, getAlias, updateAlias, deleteAlias, listAliases } from './versions.js';
export {
  publishLayerVersion,
  getLayerVersion,
  getLayerVersionByArn,
  listLayerVersions,
  listLayers,
  deleteLayerVersion,
  addLayerVersionPermission,
  removeLayerVersionPermission,
  getLayerVersionPolicy,
} from './layers.js';
export { addPermission, removePermission, getPolicy } from './permissions.js';
export { tagResource, untagResource, listTags } from './tags.js';
export { defaultConfig } from './configuration.js';
export { invoke, runFunction, type FunctionRun } from './invoke.js';
export { functionArn, isValidName, layerArn, parseFunctionArn, parseFunctionName, splitVersionArn } from './naming.js';
