/**
 * Template parameters: the declared types (String, Number, List<Number>, CommaDelimitedList, the
 * AWS-specific EC2/Route 53 types and List<…> of them, `AWS::SSM::Parameter::Name` and
 * `AWS::SSM::Parameter::Value<…>`), the static checks of each declaration, and the resolution of
 * the values a request gives (defaults, UsePreviousValue, SSM look-ups) with AWS's constraint
 * messages (AllowedValues, AllowedPattern, Min/MaxLength, Min/MaxValue, ConstraintDescription).
 *
 * resolveParameters is one long function on purpose: each parameter's value and its constraint
 * checks, in AWS's order.
 */
import { bracketList, formatError, validationError } from './errors.js';
import { parameterValueSizeError } from './limits.js';
import type { ParameterDeclaration, ParameterInput, PrepareEnvironment, ResolvedParameter, TemplateDoc } from './types.js';
import { isObject, LOGICAL_ID, scalarString } from './values.js';
import { boundedRegexTest } from '../../../patterns/bounded-regex.js';

const AWS_SPECIFIC_TYPES = [
  'AWS::EC2::AvailabilityZone::Name',
  'AWS::EC2::Image::Id',
  'AWS::EC2::Instance::Id',
  'AWS::EC2::KeyPair::KeyName',
  'AWS::EC2::SecurityGroup::GroupName',
  'AWS::EC2::SecurityGroup::Id',
  'AWS::EC2::Subnet::Id',
  'AWS::EC2::Volume::Id',
  'AWS::EC2::VPC::Id',
  'AWS::Route53::HostedZone::Id',
] as const;

const SCALAR_TYPES = new Set<string>(['String', 'Number', ...AWS_SPECIFIC_TYPES]);
const LIST_TYPES = new Set<string>(['CommaDelimitedList', 'List<Number>', 'List<String>', ...AWS_SPECIFIC_TYPES.map((t) => `List<${t}>`)]);

/** What a parameter type means for its value. */
interface ParameterKind {
  /** Ref yields a list. */
  list: boolean;
  /** Values (or list members) must be numbers. */
  number: boolean;
  /** The value is an SSM parameter name whose current value is what Ref yields. */
  ssmValue: boolean;
  /** The value is an SSM parameter name that must exist. */
  ssmName: boolean;
}

/** The kind of a parameter type, or undefined when AWS does not know the type. */
export function parameterKind(type: string): ParameterKind | undefined {
  const ssm = /^AWS::SSM::Parameter::Value<(.+)>$/.exec(type);
  if (ssm) {
    const inner = ssm[1]!;
    if (inner !== 'String' && !SCALAR_TYPES.has(inner) && !LIST_TYPES.has(inner)) return undefined;
    if (inner === 'Number' || inner === 'List<Number>') return undefined;
    return { list: LIST_TYPES.has(inner), number: false, ssmValue: true, ssmName: false };
  }
  if (type === 'AWS::SSM::Parameter::Name') return { list: false, number: false, ssmValue: false, ssmName: true };
  if (SCALAR_TYPES.has(type)) return { list: false, number: type === 'Number', ssmValue: false, ssmName: false };
  if (LIST_TYPES.has(type) && type !== 'List<String>') {
    return { list: true, number: type === 'List<Number>', ssmValue: false, ssmName: false };
  }
  return undefined;
}

const PARAMETER_KEYS = new Set([
  'Type',
  'Default',
  'Description',
  'NoEcho',
  'AllowedValues',
  'AllowedPattern',
  'MinLength',
  'MaxLength',
  'MinValue',
  'MaxValue',
  'ConstraintDescription',
]);

/** Static checks of the Parameters section (types, keys, default shapes). */
export function validateParameterDeclarations(doc: TemplateDoc): void {
  const params = doc.Parameters;
  if (params === undefined) return;
  if (!isObject(params)) throw formatError('Every Parameters member must be an object.');
  for (const [name, decl] of Object.entries(params)) {
    if (!LOGICAL_ID.test(name)) throw formatError(`Parameter name ${name} is non alphanumeric.`);
    if (!isObject(decl)) throw formatError('Any Parameters member must be a JSON object.');
    for (const key of Object.keys(decl)) {
      if (!PARAMETER_KEYS.has(key)) throw validationError(`Invalid template parameter property '${key}'`);
    }
    if (decl.Type === undefined) throw formatError('Every Parameters object must contain a Type member.');
    if (typeof decl.Type !== 'string' || !parameterKind(decl.Type)) {
      throw formatError(`Unrecognized parameter type: ${String(decl.Type)}`);
    }
    if (decl.Default !== undefined && scalarString(decl.Default) === undefined) {
      throw formatError('Every Default member must be a string.');
    }
    if (decl.AllowedValues !== undefined) {
      if (!Array.isArray(decl.AllowedValues)) throw formatError('Every AllowedValues member must be a list.');
      if (decl.AllowedValues.some((v) => scalarString(v) === undefined)) {
        throw formatError('Every AllowedValues value must be a string.');
      }
    }
    if (decl.AllowedPattern !== undefined) {
      if (typeof decl.AllowedPattern !== 'string') throw formatError('Every AllowedPattern member must be a string.');
      try {
        new RegExp(decl.AllowedPattern, 'u');
      } catch {
        throw validationError(`Parameter '${name}' AllowedPattern must be a valid regular expression.`);
      }
    }
    for (const key of ['MinLength', 'MaxLength', 'MinValue', 'MaxValue'] as const) {
      const v = decl[key];
      if (v !== undefined && !isNumeric(scalarString(v))) {
        throw formatError(`Every ${key} member must be a number.`);
      }
    }
  }
}

function isNumeric(text: string | undefined): boolean {
  return text !== undefined && /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/.test(text);
}

function num(v: unknown): number | undefined {
  const s = scalarString(v);
  return isNumeric(s) ? Number(s) : undefined;
}

/** AWS prints integral limits without a fraction (`at least 8 characters`). */
function show(n: number): string {
  return Number.isInteger(n) ? String(n) : String(n);
}

function splitList(value: string): string[] {
  return value.split(',').map((s) => s.trim());
}

/** The constraint violation of one value (or list member), or undefined. */
function constraintProblem(name: string, decl: ParameterDeclaration, kind: ParameterKind, value: string): string | undefined {
  const generic = (() => {
    if (decl.AllowedValues && !decl.AllowedValues.some((a) => scalarString(a) === value)) {
      return `Parameter '${name}' must be one of AllowedValues`;
    }
    if (kind.number) {
      if (!isNumeric(value)) return `Parameter '${name}' must be a number`;
      const n = Number(value);
      const min = num(decl.MinValue);
      const max = num(decl.MaxValue);
      if (min !== undefined && n < min) return `Parameter '${name}' must be a number not less than ${show(min)}`;
      if (max !== undefined && n > max) return `Parameter '${name}' must be a number not greater than ${show(max)}`;
      return undefined;
    }
    const minLength = num(decl.MinLength);
    const maxLength = num(decl.MaxLength);
    const length = [...value].length;
    if (minLength !== undefined && length < minLength) {
      return `Parameter '${name}' must contain at least ${show(minLength)} characters`;
    }
    if (maxLength !== undefined && length > maxLength) {
      return `Parameter '${name}' must contain at most ${show(maxLength)} characters`;
    }
    // The template's own pattern runs time-limited (`(a+)+$` backtracks for minutes); giving up is a mismatch.
    if (typeof decl.AllowedPattern === 'string' && boundedRegexTest(`^(?:${decl.AllowedPattern})$`, value, 'u') !== true) {
      return `Parameter '${name}' must match pattern ${decl.AllowedPattern}`;
    }
    return undefined;
  })();
  if (generic && typeof decl.ConstraintDescription === 'string') {
    return `Parameter '${name}' failed to satisfy constraint: ${decl.ConstraintDescription}`;
  }
  return generic;
}

export function isNoEcho(decl: ParameterDeclaration): boolean {
  return decl.NoEcho === true || (typeof decl.NoEcho === 'string' && decl.NoEcho.toLowerCase() === 'true');
}

/** The previous operation's parameters, for UsePreviousValue (DescribeStacks' values: SSM names, not values). */
export interface PreviousParameters {
  parameters: Array<{ key: string; value: string }>;
}

interface ResolveParametersOptions {
  /** Skip every error and every value that cannot be had (used to expand transforms before validation). */
  lenient?: boolean;
}

/**
 * Resolves the parameter values of one operation, in declaration order. Throws, in AWS's
 * precedence: malformed UsePreviousValue inputs, `Parameter values specified for a template which
 * does not require them.`, `Parameters: [X] do not exist in the template`, `Parameters: [A, B]
 * must have values`, constraint violations, SSM parameters that cannot be fetched.
 */
export function resolveParameters(
  doc: TemplateDoc,
  inputs: ParameterInput[],
  env: Pick<PrepareEnvironment, 'ssmParameter'>,
  previous?: PreviousParameters,
  options: ResolveParametersOptions = {},
): ResolvedParameter[] {
  const lenient = options.lenient === true;
  const decls = isObject(doc.Parameters) ? (doc.Parameters as Record<string, ParameterDeclaration>) : {};
  const given = new Map<string, ParameterInput>();
  for (const input of inputs) given.set(input.ParameterKey, input);
  if (!lenient) {
    for (const input of inputs) {
      if (!input.UsePreviousValue) continue;
      const key = input.ParameterKey;
      if (input.ParameterValue !== undefined && input.ParameterValue !== '') {
        throw validationError(
          `Invalid input for parameter key ${key}. Cannot specify usePreviousValue as true and non empty value for a parameter`,
        );
      }
      if (key in decls && !previous?.parameters.some((p) => p.key === key)) {
        throw validationError(
          `Invalid input for parameter key ${key}. Cannot specify usePreviousValue as true for a parameter key not in the previous template`,
        );
      }
    }
    if (doc.Parameters === undefined && inputs.length > 0) {
      throw validationError('Parameter values specified for a template which does not require them.');
    }
    const unknown = inputs.map((i) => i.ParameterKey).filter((k) => !(k in decls));
    if (unknown.length) throw validationError(`Parameters: ${bracketList(unknown)} do not exist in the template`);
  }
  const raw = new Map<string, string>();
  const missing: string[] = [];
  for (const [key, decl] of Object.entries(decls)) {
    const input = given.get(key);
    let value: string | undefined;
    if (input?.UsePreviousValue) value = previous?.parameters.find((p) => p.key === key)?.value;
    else if (input?.ParameterValue !== undefined) value = input.ParameterValue;
    else value = scalarString(decl.Default);
    if (value === undefined) missing.push(key);
    else raw.set(key, value);
  }
  if (missing.length && !lenient) throw validationError(`Parameters: ${bracketList(missing)} must have values`);
  if (!lenient) {
    for (const [key, value] of raw) {
      const tooLarge = parameterValueSizeError(key, value);
      if (tooLarge) throw tooLarge;
    }
  }

  const out: ResolvedParameter[] = [];
  const unfetchable: string[] = [];
  for (const [key, decl] of Object.entries(decls)) {
    const value = raw.get(key);
    const kind = typeof decl.Type === 'string' ? parameterKind(decl.Type) : undefined;
    if (value === undefined || !kind) continue;
    if (!lenient) {
      const members = kind.list && !kind.ssmValue ? splitList(value) : [value];
      for (const m of members) {
        const problem = constraintProblem(key, decl, kind, m);
        if (problem) throw validationError(problem);
      }
    }
    const param: ResolvedParameter = {
      key,
      value,
      refValue: kind.list ? splitList(value) : value,
      noEcho: isNoEcho(decl),
      type: decl.Type,
    };
    if (kind.ssmValue || kind.ssmName) {
      const fetched = env.ssmParameter(value);
      if (fetched === undefined) {
        unfetchable.push(value);
        if (lenient) continue;
      } else if (kind.ssmValue) {
        param.resolvedValue = fetched;
        param.refValue = kind.list ? splitList(fetched) : fetched;
      }
    }
    out.push(param);
  }
  if (unfetchable.length && !lenient) {
    throw validationError(`Unable to fetch parameters ${bracketList(unfetchable)} from parameter store for this account.`);
  }
  return out;
}

/** What Ref of each parameter yields, keyed by name. */
export function parameterRefValues(params: ResolvedParameter[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const p of params) out[p.key] = p.refValue;
  return out;
}
