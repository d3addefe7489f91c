/**
 * Static validation, as ValidateTemplate, GetTemplateSummary, CreateStack and CreateChangeSet run
 * it before anything is evaluated: sections, logical ids, resource declarations and types,
 * intrinsic functions and their targets (Ref, Fn::GetAtt attributes from the spec index, Fn::Sub
 * variables, Fn::If conditions), DependsOn, outputs and exports, cycles — in AWS's words and,
 * where known, AWS's precedence.
 *
 * validateStructure is one long function on purpose: its checks run in AWS's order of precedence.
 */
import { isKnownType, resourceType } from '../spec/resource-types.js';
import { validateConditions } from './conditions.js';
import {
  bracketList,
  formatError,
  getAttUndefinedResource,
  getAttUnsupportedAttribute,
  nullValue,
  templateError,
  unresolvedDependencies,
  validationError,
} from './errors.js';
import { dependencyEdges, dependsOnList, topologicalOrder } from './dependencies.js';
import { transformNotSupported, unsupportedFunction } from './errors.js';
import { INTRINSICS } from './intrinsics.js';
import { declaredTransforms, LANGUAGE_EXTENSIONS } from './language-extensions.js';
import { checkTemplateLimits } from './limits.js';
import { validateParameterDeclarations } from './parameters.js';
import { checkConditionPlacement, checkExportName, checkImportValueArgument } from './placement.js';
import { validateRules } from './rules.js';
import { parseSub, subArgs, SUB_SHAPE_MESSAGE } from './sub.js';
import type { ResourceDeclaration, TemplateDoc } from './types.js';
import { intrinsicName, isObject, isPseudoParameter, LOGICAL_ID } from './values.js';

const SECTIONS = new Set([
  'AWSTemplateFormatVersion',
  'Description',
  'Metadata',
  'Parameters',
  'Rules',
  'Mappings',
  'Conditions',
  'Transform',
  'Resources',
  'Outputs',
  'Hooks',
]);
const RESOURCE_KEYS = new Set([
  'Type',
  'Properties',
  'DependsOn',
  'Condition',
  'DeletionPolicy',
  'UpdateReplacePolicy',
  'UpdatePolicy',
  'CreationPolicy',
  'Metadata',
  'Description',
]);
const OUTPUT_KEYS = new Set(['Value', 'Description', 'Export', 'Condition']);
export const DELETION_POLICIES = ['Delete', 'Retain', 'RetainExceptOnCreate', 'Snapshot'];
export const UPDATE_REPLACE_POLICIES = ['Delete', 'Retain', 'Snapshot'];

// Whether a null occurs at all: the walk that names its path builds a string per node, so it runs
// only for the rare template that holds one.
function hasNull(value: unknown): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.some(hasNull);
  if (isObject(value)) {
    for (const k in value) if (Object.hasOwn(value, k) && hasNull(value[k])) return true;
  }
  return false;
}

function firstNull(value: unknown, path: string): string | undefined {
  if (value === null) return path || '/';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = firstNull(value[i], `${path}/${i}`);
      if (p) return p;
    }
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      const p = firstNull(v, `${path}/${k}`);
      if (p) return p;
    }
  }
  return undefined;
}

/** Checks of the raw document that come before anything else (sections, version, nulls, transforms). */
export function validateTopLevel(doc: TemplateDoc): void {
  const bad = Object.keys(doc).filter((k) => !SECTIONS.has(k));
  if (bad.length) throw validationError(`Invalid template property or properties ${bracketList(bad)}`);
  if (doc.AWSTemplateFormatVersion !== undefined && doc.AWSTemplateFormatVersion !== '2010-09-09') {
    throw formatError('unsupported value for AWSTemplateFormatVersion.');
  }
  if (doc.Description !== undefined) {
    if (typeof doc.Description !== 'string') throw formatError('Every Description member must be a string.');
    if (Buffer.byteLength(doc.Description) > 1024) throw formatError("'Description' length is greater than 1024.");
  }
  const nullAt = hasNull(doc) ? firstNull(doc, '') : undefined;
  if (nullAt) throw nullValue(nullAt);
  for (const t of declaredTransforms(doc)) if (t !== LANGUAGE_EXTENSIONS) throw transformNotSupported(t);
}

/** Whether `attribute` can be read with Fn::GetAtt from a resource of `type`. */
export function attributeAllowed(type: string, attribute: string): boolean {
  if (type.startsWith('Custom::') || type === 'AWS::CloudFormation::CustomResource') return true;
  if (type === 'AWS::CloudFormation::Stack' && /^Outputs\../.test(attribute)) return true;
  const spec = resourceType(type);
  if (!spec) return true;
  return spec.a.includes(attribute);
}

interface WalkState {
  params: Set<string>;
  types: Record<string, string>;
  conditions: Set<string>;
  mappings: Set<string>;
  le: boolean;
  unresolved: string[];
}

function unresolved(state: WalkState, name: string): void {
  if (!state.unresolved.includes(name)) state.unresolved.push(name);
}

function checkAttribute(state: WalkState, res: string, attr: unknown): void {
  if (typeof attr !== 'string') return;
  const type = state.types[res];
  if (type !== undefined && !attributeAllowed(type, attr)) throw getAttUnsupportedAttribute(res, attr);
}

/** Checks the intrinsic functions of a Resources or Outputs value and collects unresolved references. */
function walk(value: unknown, state: WalkState): void {
  if (Array.isArray(value)) {
    for (const v of value) walk(v, state);
    return;
  }
  if (!isObject(value)) return;
  const name = intrinsicName(value);
  if (!name) {
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      if (k.startsWith('Fn::') && Object.keys(value).length > 1) throw unsupportedFunction(k, state.le);
      walk(value[k], state);
    }
    return;
  }
  const fn = INTRINSICS[name];
  if (!fn || fn.ruleOnly || (fn.languageExtension && !state.le)) throw unsupportedFunction(name, state.le);
  const arg = value[name];
  switch (name) {
    case 'Ref':
      if (typeof arg === 'string') {
        if (!isPseudoParameter(arg) && !state.params.has(arg) && !(arg in state.types)) unresolved(state, arg);
      } else if (state.le && intrinsicName(arg)) walk(arg, state);
      else throw templateError('every Ref object must have a single String value.');
      return;
    case 'Fn::GetAtt': {
      const parts = typeof arg === 'string' ? [arg.slice(0, arg.indexOf('.')), arg.slice(arg.indexOf('.') + 1)] : arg;
      if (!Array.isArray(parts) || parts.length !== 2 || !parts[0] || !parts[1] || (typeof arg === 'string' && !arg.includes('.'))) {
        throw templateError('every Fn::GetAtt object requires two non-empty parameters, the resource name and the resource attribute');
      }
      if (typeof parts[0] === 'string') {
        if (!(parts[0] in state.types)) throw getAttUndefinedResource(parts[0]);
        checkAttribute(state, parts[0], parts[1]);
      }
      walk(parts, state);
      return;
    }
    case 'Fn::Sub': {
      const args = subArgs(arg);
      if (!args) throw templateError(SUB_SHAPE_MESSAGE);
      for (const part of parseSub(args.template)) {
        if (!('variable' in part) || part.variable in args.vars) continue;
        const v = part.variable;
        if (v.startsWith('AWS::')) {
          if (!isPseudoParameter(v)) unresolved(state, v);
        } else if (!state.params.has(v) && !(v in state.types)) {
          const dot = v.indexOf('.');
          if (dot <= 0) unresolved(state, v);
          else if (!(v.slice(0, dot) in state.types)) {
            throw templateError(`instance of Fn::Sub references invalid resource attribute ${v}`);
          } else checkAttribute(state, v.slice(0, dot), v.slice(dot + 1));
        }
      }
      walk(Object.values(args.vars), state);
      return;
    }
    case 'Fn::If':
      if (!Array.isArray(arg) || typeof arg[0] !== 'string') {
        throw templateError('Fn::If requires a list argument with the first element being a condition');
      }
      if (arg.length !== 3) throw templateError('Fn::If requires a list argument with three elements');
      if (!state.conditions.has(arg[0])) throw templateError(`unresolved condition dependency ${arg[0]} in Fn::If`);
      walk(arg.slice(1), state);
      return;
    case 'Fn::FindInMap':
      if (Array.isArray(arg) && arg.length === 3 && typeof arg[0] === 'string' && !state.mappings.has(arg[0])) {
        throw templateError(`Mapping named '${arg[0]}' is not present in the 'Mappings' section of template.`);
      }
      walk(arg, state);
      return;
    case 'Fn::ImportValue':
      checkImportValueArgument(arg, state.params);
      walk(arg, state);
      return;
    case 'Fn::Transform':
      fn.resolve(arg, undefined as never);
      return;
    default:
      walk(arg, state);
  }
}

function validateMappings(doc: TemplateDoc): void {
  const mappings = doc.Mappings;
  if (mappings === undefined) return;
  if (!isObject(mappings)) throw formatError('Every Mappings member must be an object.');
  for (const [name, map] of Object.entries(mappings)) {
    if (!isObject(map)) throw formatError(`Every Mappings member ${name} must be a map`);
    for (const [key, attrs] of Object.entries(map)) {
      if (!isObject(attrs)) throw formatError(`Every Mappings member ${key} must be a map`);
      for (const v of Object.values(attrs)) {
        if (isObject(v)) throw formatError('Every Mappings attribute must be a String or a List.');
      }
    }
  }
}

/**
 * "Unrecognized resource types: [A, B]" for the `types` CloudFormation does not know, or whose
 * transform (SAM's) `doc` does not declare.
 */
export function checkResourceTypes(doc: TemplateDoc, types: Iterable<string>): void {
  const unknownTypes: string[] = [];
  for (const type of types) {
    const spec = resourceType(type);
    const unknown = !isKnownType(type) || (spec?.tr !== undefined && !declaredTransforms(doc).includes(spec.tr));
    if (unknown && !unknownTypes.includes(type)) unknownTypes.push(type);
  }
  if (unknownTypes.length) throw formatError(`Unrecognized resource types: ${bracketList(unknownTypes)}`);
}

/**
 * Validates a template whose transforms are already applied (the Processed stage). `le` says
 * whether AWS::LanguageExtensions was declared (it widens what functions may appear where).
 */
export function validateStructure(doc: TemplateDoc, le: boolean): void {
  checkTemplateLimits(doc);
  const resources = doc.Resources;
  if (!isObject(resources) || Object.keys(resources).length === 0) {
    throw formatError('At least one Resources member must be defined.');
  }
  const types: Record<string, string> = {};
  for (const [id, res] of Object.entries(resources)) {
    if (!LOGICAL_ID.test(id)) throw formatError(`Resource name ${id} is non alphanumeric.`);
    if (!isObject(res)) throw formatError('Any Resources member must be a JSON object.');
    if (typeof res.Type !== 'string' || res.Type === '') {
      throw formatError(`[/Resources/${id}] Every Resources object must contain a Type member.`);
    }
    for (const key of Object.keys(res)) {
      if (!RESOURCE_KEYS.has(key)) throw validationError(`Invalid template resource property '${key}'`);
    }
    types[id] = res.Type;
  }
  checkResourceTypes(doc, Object.values(types));

  validateParameterDeclarations(doc);
  const params = new Set(Object.keys(isObject(doc.Parameters) ? doc.Parameters : {}));
  const clash = Object.keys(types).filter((id) => params.has(id));
  if (clash.length) {
    throw templateError(`all resources and parameters must have unique names. Common name(s):${bracketList(clash)}`);
  }
  validateMappings(doc);
  validateConditions(doc);
  checkConditionPlacement(doc);
  validateRules(doc);

  const state: WalkState = {
    params,
    types,
    conditions: new Set(Object.keys(isObject(doc.Conditions) ? doc.Conditions : {})),
    mappings: new Set(Object.keys(isObject(doc.Mappings) ? doc.Mappings : {})),
    le,
    unresolved: [],
  };
  for (const [id, res] of Object.entries(resources as Record<string, ResourceDeclaration>)) {
    const d = res.DependsOn;
    if (d !== undefined) {
      if (Array.isArray(d)) {
        if (d.some((x) => typeof x !== 'string')) throw formatError('Every DependsOn value must be a string.');
      } else if (typeof d !== 'string') throw formatError('DependsOn must be a string or list of strings.');
      for (const target of dependsOnList(res)) if (!(target in types)) unresolved(state, target);
    }
    if (res.Condition !== undefined) {
      if (typeof res.Condition !== 'string') throw formatError('Every Condition member must be a string.');
      if (!state.conditions.has(res.Condition)) throw formatError(`Condition ${res.Condition} is not defined.`);
    }
    for (const [attr, allowed] of [
      ['DeletionPolicy', DELETION_POLICIES],
      ['UpdateReplacePolicy', UPDATE_REPLACE_POLICIES],
    ] as const) {
      const v = res[attr];
      if (v === undefined) continue;
      if (le && intrinsicName(v)) walk(v, state);
      else if (typeof v !== 'string' || !allowed.includes(v)) {
        throw formatError(`Unrecognized ${attr} ${typeof v === 'string' ? v : JSON.stringify(v)} for resource ${id}`);
      }
    }
    if (res.Properties !== undefined && !isObject(res.Properties)) {
      throw formatError(`[/Resources/${id}/Properties] Every Properties member must be an object.`);
    }
    walk(res.Properties, state);
    walk(res.Metadata, state);
    walk(res.UpdatePolicy, state);
    walk(res.CreationPolicy, state);
  }
  if (state.unresolved.length) throw unresolvedDependencies(state.unresolved, 'Resources');
  // Cycles through references outside Fn::If; the rest are found once conditions are known.
  const ids = Object.keys(types);
  topologicalOrder(ids, dependencyEdges(resources as Record<string, ResourceDeclaration>, new Set(ids), {}));

  const outputs = doc.Outputs;
  if (outputs === undefined) return;
  if (!isObject(outputs)) throw formatError('Every Outputs member must be an object.');
  for (const [id, out] of Object.entries(outputs)) {
    if (!LOGICAL_ID.test(id)) throw formatError(`Output name ${id} is non alphanumeric.`);
    if (!isObject(out)) throw formatError('Every Outputs member must contain a Value object');
    const bad = Object.keys(out).filter((k) => !OUTPUT_KEYS.has(k));
    if (bad.length) throw formatError(`Invalid outputs property : ${bracketList(bad)}`);
    if (!('Value' in out)) throw formatError('Every Outputs member must contain a Value object');
    if (Array.isArray(out.Value)) {
      throw formatError('The Value field of every Outputs member must evaluate to a String and not a List.');
    }
    if (isObject(out.Value) && !intrinsicName(out.Value)) {
      throw formatError('The Value field of every Outputs member must evaluate to a String and not a Map.');
    }
    if (out.Condition !== undefined) {
      if (typeof out.Condition !== 'string') throw formatError('Every Condition member must be a string.');
      if (!state.conditions.has(out.Condition)) throw formatError(`Condition ${out.Condition} is not defined.`);
    }
    if (out.Export !== undefined) {
      checkExportName(id, out.Export, types);
      walk((out.Export as Record<string, unknown>).Name, state);
    }
    walk(out.Value, state);
  }
  if (state.unresolved.length) throw unresolvedDependencies(state.unresolved, 'Outputs');
}
