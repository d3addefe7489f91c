/**
 * Every intrinsic function, one entry per function in the typed INTRINSICS record (as cfn-lint
 * organises them), and `resolveValue`, which walks a template value and calls them. Functions
 * get their raw argument and a Resolver to evaluate nested values, so each one decides what it
 * evaluates (Fn::If evaluates only the chosen branch). `Ref: AWS::NoValue` yields NO_VALUE, which
 * removes the key or list item that holds it; dynamic references are resolved last
 * (dynamic-references.ts). Messages are AWS's (see errors.ts).
 */
import type { AwsError } from '../../../wire/errors.js';
import { cidrSubnets } from './cidr.js';
import {
  EQUALS_MESSAGE,
  getAttUndefinedResource,
  noExport,
  templateError,
  transformNotSupported,
  unresolvedDependencies,
  unsupportedFunction,
} from './errors.js';
import { applyDynamicReferences } from './dynamic-references.js';
import { pseudoValue } from './pseudo.js';
import { parseSub, subArgs, SUB_SHAPE_MESSAGE } from './sub.js';
import type { ResolveContext, ResolveScope } from './types.js';
import { intrinsicName, isObject, looseEquals, NO_VALUE, scalarString } from './values.js';

interface Resolver {
  ctx: ResolveContext;
  scope: ResolveScope;
  /** Resolves a nested value (NO_VALUE may come back). */
  value(v: unknown): unknown;
}

export interface Intrinsic {
  /** Only with `Transform: AWS::LanguageExtensions`. */
  languageExtension?: boolean;
  /** Only inside the Rules section. */
  ruleOnly?: boolean;
  resolve(arg: unknown, r: Resolver): unknown;
}

/** Thrown by STATIC_SCOPE: the value depends on a resource, so it cannot be known before provisioning. */
export class DynamicValue extends Error {
  constructor(readonly logicalId: string) {
    super(`depends on resource ${logicalId}`);
  }
}

/** A scope for values that must not depend on resources (conditions, rules, export names, transforms). */
export const STATIC_SCOPE: ResolveScope = {
  ref(logicalId) {
    throw new DynamicValue(logicalId);
  },
  getAtt(logicalId) {
    throw new DynamicValue(logicalId);
  },
};

const JOIN_MESSAGE =
  'every Fn::Join object requires two parameters, (1) a string delimiter and (2) a list of strings to be joined or a function that returns a list of strings (such as Fn::GetAZs) to be joined.';
const SPLIT_MESSAGE =
  'every Fn::Split object requires two parameters, (1) a string delimiter and (2) a string to be split or a function that returns a string to be split.';
const FIND_IN_MAP_MESSAGE =
  'every Fn::FindInMap object requires three parameters, the map name, map key and the attribute for return value';
const GETATT_MESSAGE =
  'every Fn::GetAtt object requires two non-empty parameters, the resource name and the resource attribute';

function section(r: Resolver): 'Resources' | 'Outputs' {
  return r.ctx.section === 'Outputs' ? 'Outputs' : 'Resources';
}

/** A name argument (Ref target, GetAtt parts): literal, or — with LanguageExtensions — a function returning a string. */
function nameArg(arg: unknown, r: Resolver, message: string): string {
  if (typeof arg === 'string') return arg;
  if (r.ctx.languageExtensions && intrinsicName(arg)) {
    const v = scalarString(r.value(arg));
    if (v !== undefined) return v;
  }
  throw templateError(message);
}

function refResource(name: string, r: Resolver): unknown {
  if (r.ctx.resources.has(name)) return r.scope.ref(name);
  throw unresolvedDependencies([name], section(r));
}

function getAttParts(arg: unknown, r: Resolver): [string, string] {
  if (typeof arg === 'string') {
    const dot = arg.indexOf('.');
    if (dot > 0 && dot < arg.length - 1) return [arg.slice(0, dot), arg.slice(dot + 1)];
    throw templateError(GETATT_MESSAGE);
  }
  if (!Array.isArray(arg) || arg.length !== 2) throw templateError(GETATT_MESSAGE);
  const res = nameArg(arg[0], r, GETATT_MESSAGE);
  const attr = typeof arg[1] === 'string' ? arg[1] : scalarString(r.value(arg[1]));
  if (!res || !attr) throw templateError(GETATT_MESSAGE);
  return [res, attr];
}

function getAtt(res: string, attr: string, r: Resolver): unknown {
  if (!r.ctx.declared.has(res)) throw getAttUndefinedResource(res);
  if (!r.ctx.resources.has(res)) throw unresolvedDependencies([res], section(r));
  return r.scope.getAtt(res, attr);
}

function notAString(variable: string): AwsError {
  return templateError(`variable ${variable} in Fn::Sub expression does not resolve to a string`);
}

function subVariable(variable: string, vars: Record<string, string>, r: Resolver): string {
  if (Object.prototype.hasOwnProperty.call(vars, variable)) return vars[variable]!;
  const ctx = r.ctx;
  let value: unknown;
  if (variable.startsWith('AWS::')) {
    value = pseudoValue(variable, ctx);
    if (value === undefined) throw unresolvedDependencies([variable], section(r));
  } else if (Object.prototype.hasOwnProperty.call(ctx.parameters, variable)) {
    value = ctx.parameters[variable];
  } else if (ctx.declared.has(variable)) {
    value = refResource(variable, r);
  } else {
    const dot = variable.indexOf('.');
    if (dot <= 0) throw unresolvedDependencies([variable], section(r));
    const res = variable.slice(0, dot);
    if (!ctx.declared.has(res)) {
      throw templateError(`instance of Fn::Sub references invalid resource attribute ${variable}`);
    }
    value = getAtt(res, variable.slice(dot + 1), r);
  }
  const s = scalarString(value);
  if (s === undefined) throw notAString(variable);
  return s;
}

function listOf(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

function booleanArg(value: unknown, message: string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw templateError(message);
}

function stringList(value: unknown, message: string): string[] {
  const list = listOf(value);
  if (!list) throw templateError(message);
  return list.map((x) => {
    const s = scalarString(x);
    if (s === undefined) throw templateError(message);
    return s;
  });
}

const andOr = (name: 'Fn::And' | 'Fn::Or'): Intrinsic => ({
  resolve(arg, r) {
    const message = `every ${name} object requires a list of at least 2 and at most 10 boolean parameters.`;
    if (!Array.isArray(arg) || arg.length < 2 || arg.length > 10) throw templateError(message);
    const values = arg.map((c) => booleanArg(r.value(c), message));
    return name === 'Fn::And' ? values.every(Boolean) : values.some(Boolean);
  },
});

export const INTRINSICS: Record<string, Intrinsic> = {
  Ref: {
    resolve(arg, r) {
      const name = nameArg(arg, r, 'every Ref object must have a single String value.');
      if (name.startsWith('AWS::')) {
        const v = pseudoValue(name, r.ctx);
        if (v !== undefined) return v;
      }
      if (Object.prototype.hasOwnProperty.call(r.ctx.parameters, name)) {
        const v = r.ctx.parameters[name]!;
        return Array.isArray(v) ? [...v] : v;
      }
      return refResource(name, r);
    },
  },
  'Fn::GetAtt': {
    resolve(arg, r) {
      const [res, attr] = getAttParts(arg, r);
      return getAtt(res, attr, r);
    },
  },
  'Fn::Sub': {
    resolve(arg, r) {
      const args = subArgs(arg);
      if (!args) throw templateError(SUB_SHAPE_MESSAGE);
      const vars: Record<string, string> = {};
      for (const [k, v] of Object.entries(args.vars)) {
        const s = scalarString(r.value(v));
        if (s === undefined) {
          throw templateError(
            'every value of the context object of every Fn::Sub object must be a string or a function that returns a string',
          );
        }
        vars[k] = s;
      }
      return parseSub(args.template)
        .map((p) => ('text' in p ? p.text : subVariable(p.variable, vars, r)))
        .join('');
    },
  },
  'Fn::Join': {
    resolve(arg, r) {
      if (!Array.isArray(arg) || arg.length !== 2 || typeof arg[0] !== 'string') throw templateError(JOIN_MESSAGE);
      return stringList(r.value(arg[1]), JOIN_MESSAGE).join(arg[0]);
    },
  },
  'Fn::Select': {
    resolve(arg, r) {
      const indexMessage = 'Fn::Select requires a list argument with a valid index value as its first element';
      if (!Array.isArray(arg) || arg.length < 1) throw templateError(indexMessage);
      const indexText = scalarString(r.value(arg[0]));
      if (indexText === undefined || !/^-?\d+$/.test(indexText.trim())) throw templateError(indexMessage);
      const index = Number(indexText.trim());
      const list = arg.length === 2 ? listOf(r.value(arg[1])) : undefined;
      if (!list) throw templateError('Fn::Select requires a list argument with two elements: an integer index and a list');
      if (index < 0 || index >= list.length) throw templateError(`Fn::Select cannot select nonexistent value at index ${index}`);
      return list[index];
    },
  },
  'Fn::Split': {
    resolve(arg, r) {
      if (!Array.isArray(arg) || arg.length !== 2 || typeof arg[0] !== 'string') throw templateError(SPLIT_MESSAGE);
      const source = scalarString(r.value(arg[1]));
      if (source === undefined) throw templateError(SPLIT_MESSAGE);
      return source.split(arg[0]);
    },
  },
  'Fn::If': {
    resolve(arg, r) {
      if (!Array.isArray(arg) || typeof arg[0] !== 'string') {
        throw templateError('Fn::If requires a list argument with the first element being a condition');
      }
      if (arg.length !== 3) throw templateError('Fn::If requires a list argument with three elements');
      const cond = r.ctx.conditions[arg[0]];
      if (cond === undefined) throw templateError(`unresolved condition dependency ${arg[0]} in Fn::If`);
      return r.value(cond ? arg[1] : arg[2]);
    },
  },
  'Fn::Equals': {
    resolve(arg, r) {
      // Outside Rules (whose functions compare lists) AWS compares two strings; a list, such as a
      // Ref to a CommaDelimitedList, is refused with this text (aws-cloudformation/cfn-lint#1639).
      if (!Array.isArray(arg) || arg.length !== 2) throw templateError(EQUALS_MESSAGE);
      const [a, b] = [r.value(arg[0]), r.value(arg[1])];
      const structured = (v: unknown) => Array.isArray(v) || isObject(v);
      if (r.ctx.section !== 'Rules' && (structured(a) || structured(b))) throw templateError(EQUALS_MESSAGE);
      return looseEquals(a, b);
    },
  },
  'Fn::And': andOr('Fn::And'),
  'Fn::Or': andOr('Fn::Or'),
  'Fn::Not': {
    resolve(arg, r) {
      if (!Array.isArray(arg) || arg.length !== 1) throw templateError('Fn::Not requires a list argument with one element');
      return !booleanArg(r.value(arg[0]), 'Fn::Not requires a list argument with one function token');
    },
  },
  Condition: {
    resolve(arg, r) {
      if (typeof arg !== 'string') throw templateError('All Conditions must be of type string');
      const cond = r.ctx.conditions[arg];
      if (cond === undefined) throw templateError(`unresolved condition dependency ${arg}`);
      return cond;
    },
  },
  'Fn::FindInMap': {
    resolve(arg, r) {
      const withDefault =
        r.ctx.languageExtensions && Array.isArray(arg) && arg.length === 4 && isObject(arg[3]) && 'DefaultValue' in arg[3];
      if (!Array.isArray(arg) || (arg.length !== 3 && !withDefault)) throw templateError(FIND_IN_MAP_MESSAGE);
      const keys = arg.slice(0, 3).map((k) => scalarString(r.value(k)));
      if (keys.some((k) => k === undefined)) throw templateError(FIND_IN_MAP_MESSAGE);
      const [map, top, second] = keys as [string, string, string];
      const mapping = r.ctx.mappings[map];
      const value = mapping?.[top]?.[second];
      if (value !== undefined) return r.value(value);
      if (withDefault) return r.value((arg[3] as Record<string, unknown>).DefaultValue);
      if (!mapping) throw templateError(`Mapping named '${map}' is not present in the 'Mappings' section of template.`);
      throw templateError(`Unable to get mapping for ${map}::${top}::${second}`);
    },
  },
  'Fn::GetAZs': {
    resolve(arg, r) {
      const region = scalarString(r.value(arg));
      if (region === undefined) throw templateError('every Fn::GetAZs object must have a String-typed value.');
      return [...r.ctx.env.availabilityZones(region === '' ? r.ctx.pseudo.region : region)];
    },
  },
  'Fn::ImportValue': {
    resolve(arg, r) {
      const name = scalarString(r.value(arg));
      if (name === undefined) throw templateError('every Fn::ImportValue object must have a String-typed value.');
      const value = r.ctx.env.exportValue(name);
      if (value === undefined) throw noExport(name);
      return value;
    },
  },
  'Fn::Base64': {
    resolve(arg, r) {
      const s = scalarString(r.value(arg));
      if (s === undefined) throw templateError('every Fn::Base64 object must have a String-typed value.');
      return Buffer.from(s, 'utf8').toString('base64');
    },
  },
  'Fn::Cidr': {
    resolve(arg, r) {
      if (!Array.isArray(arg) || arg.length !== 3) {
        throw templateError('Fn::Cidr requires a list argument with three elements: an IP block, a count and the CIDR bits');
      }
      return cidrSubnets(r.value(arg[0]), r.value(arg[1]), r.value(arg[2]));
    },
  },
  'Fn::Length': {
    languageExtension: true,
    resolve(arg, r) {
      const list = listOf(r.value(arg));
      if (!list) throw templateError('Fn::Length requires a list or a function that returns a list');
      return list.length;
    },
  },
  'Fn::ToJsonString': {
    languageExtension: true,
    resolve(arg, r) {
      const v = r.value(arg);
      if (typeof v !== 'object' || v === null) {
        throw templateError('Fn::ToJsonString requires an object or a list, or a function that returns one');
      }
      return JSON.stringify(v);
    },
  },
  'Fn::Transform': {
    resolve(arg) {
      const name = isObject(arg) ? scalarString(arg.Name) : undefined;
      throw transformNotSupported(name ?? 'Fn::Transform');
    },
  },
  'Fn::Contains': {
    ruleOnly: true,
    resolve(arg, r) {
      const message = 'Fn::Contains requires a list of strings and a string';
      if (!Array.isArray(arg) || arg.length !== 2) throw templateError(message);
      const list = stringList(r.value(arg[0]), message);
      return list.includes(scalarString(r.value(arg[1])) ?? '\u0000');
    },
  },
  'Fn::EachMemberEquals': {
    ruleOnly: true,
    resolve(arg, r) {
      const message = 'Fn::EachMemberEquals requires a list of strings and a string';
      if (!Array.isArray(arg) || arg.length !== 2) throw templateError(message);
      const value = scalarString(r.value(arg[1]));
      return stringList(r.value(arg[0]), message).every((m) => m === value);
    },
  },
  'Fn::EachMemberIn': {
    ruleOnly: true,
    resolve(arg, r) {
      const message = 'Fn::EachMemberIn requires two lists of strings';
      if (!Array.isArray(arg) || arg.length !== 2) throw templateError(message);
      const allowed = stringList(r.value(arg[1]), message);
      return stringList(r.value(arg[0]), message).every((m) => allowed.includes(m));
    },
  },
  // The EC2-backed rule functions: Overcast has no EC2 inventory, so they see none.
  'Fn::RefAll': {
    ruleOnly: true,
    resolve(arg, r) {
      const type = scalarString(arg);
      const types = r.ctx.parameterTypes ?? {};
      const out: string[] = [];
      for (const [k, t] of Object.entries(types)) {
        if (t !== type && t !== `List<${type}>`) continue;
        const v = r.ctx.parameters[k];
        if (Array.isArray(v)) out.push(...v);
        else if (v !== undefined) out.push(v);
      }
      return out;
    },
  },
  'Fn::ValueOf': {
    ruleOnly: true,
    resolve(arg) {
      if (!Array.isArray(arg) || arg.length !== 2) throw templateError('Fn::ValueOf requires a parameter name and an attribute');
      return [];
    },
  },
  'Fn::ValueOfAll': {
    ruleOnly: true,
    resolve(arg) {
      if (!Array.isArray(arg) || arg.length !== 2) throw templateError('Fn::ValueOfAll requires a parameter type and an attribute');
      return [];
    },
  },
};

function resolveNode(v: unknown, r: Resolver): unknown {
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const x of v) {
      const rv = resolveNode(x, r);
      if (rv !== NO_VALUE) out.push(rv);
    }
    return out;
  }
  if (isObject(v)) {
    const name = intrinsicName(v);
    if (name) {
      const fn = INTRINSICS[name];
      if (!fn || (fn.languageExtension && !r.ctx.languageExtensions) || (fn.ruleOnly && r.ctx.section !== 'Rules')) {
        throw unsupportedFunction(name, r.ctx.languageExtensions);
      }
      return fn.resolve(v[name], r);
    }
    const out: Record<string, unknown> = {};
    for (const k in v) {
      if (!Object.hasOwn(v, k)) continue;
      if (k.startsWith('Fn::')) throw unsupportedFunction(k, r.ctx.languageExtensions);
      const rv = resolveNode(v[k], r);
      if (rv !== NO_VALUE) out[k] = rv;
    }
    return out;
  }
  return v;
}

/** Resolves a value keeping NO_VALUE (for callers that need to see a removed value). */
export function resolveRaw(value: unknown, scope: ResolveScope, ctx: ResolveContext): unknown {
  const r: Resolver = { ctx, scope, value: (v) => resolveNode(v, r) };
  return resolveNode(value, r);
}

/**
 * Resolves every intrinsic function and dynamic reference in `value`. Keys and list items whose
 * value is `Ref: AWS::NoValue` disappear; if `value` itself resolves to NoValue the result is
 * undefined. Throws ValidationError with AWS's message on misuse.
 */
export function resolveValue(value: unknown, scope: ResolveScope, ctx: ResolveContext): unknown {
  const out = resolveRaw(value, scope, ctx);
  if (out === NO_VALUE) return undefined;
  return applyDynamicReferences(out, ctx);
}
