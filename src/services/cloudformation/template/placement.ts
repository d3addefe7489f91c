/**
 * Where an intrinsic function may stand and what its arguments may depend on, as CloudFormation
 * checks it before anything is evaluated (ValidateTemplate and CreateStack alike): the functions
 * the Conditions section refuses, Fn::Equals operands that can only be lists, and the values that
 * must be known before any resource exists (the attribute of Fn::ImportValue, the Name of an
 * output's Export). One table per rule; each message is AWS's, with where it was seen.
 */
import { EQUALS_MESSAGE, formatError, templateError } from './errors.js';
import { parameterKind } from './parameters.js';
import { parseSub, subArgs } from './sub.js';
import type { TemplateDoc } from './types.js';
import { intrinsicName, isObject, isPseudoParameter, walkObjects } from './values.js';

/**
 * Functions the Conditions section refuses wherever they stand in a condition, with AWS's words:
 * "Template error: Cannot use Fn::ImportValue in Conditions." (aws/aws-cdk#32238, whose title
 * quotes the ValidationError AWS returned for a CDK condition over an imported value).
 */
const REFUSED_IN_CONDITIONS: Record<string, string> = {
  'Fn::ImportValue': 'Cannot use Fn::ImportValue in Conditions.',
};

/** Whether `value` is `{Ref: P}` for a parameter whose Ref yields a list (CommaDelimitedList, List<…>). */
function refToListParameter(value: unknown, doc: TemplateDoc): boolean {
  if (intrinsicName(value) !== 'Ref') return false;
  const target = (value as { Ref: unknown }).Ref;
  const params = isObject(doc.Parameters) ? doc.Parameters : {};
  const decl = typeof target === 'string' ? params[target] : undefined;
  const type = isObject(decl) && typeof decl.Type === 'string' ? decl.Type : undefined;
  return type !== undefined && parameterKind(type)?.list === true;
}

/**
 * Checks every condition expression for functions the section refuses and for an Fn::Equals
 * operand that is a list parameter's Ref. AWS finds the latter statically: ValidateTemplate
 * already answers it (aws-cloudformation/cfn-lint#1639 shows validate-template and
 * CreateChangeSet giving the same text).
 */
export function checkConditionPlacement(doc: TemplateDoc): void {
  if (!isObject(doc.Conditions)) return;
  walkObjects(Object.values(doc.Conditions), (v) => {
    const name = intrinsicName(v);
    if (name !== undefined && REFUSED_IN_CONDITIONS[name]) throw templateError(REFUSED_IN_CONDITIONS[name]);
    const arg = name === undefined ? undefined : v[name];
    if (name === 'Fn::Equals' && Array.isArray(arg) && arg.some((x) => refToListParameter(x, doc))) {
      throw templateError(EQUALS_MESSAGE);
    }
  });
}

/**
 * Whether a value must wait for provisioning: it reads a resource (Ref, Fn::GetAtt, a `${Res}` or
 * `${Res.Attr}` in Fn::Sub), an imported value or the Availability Zones. `isResource` says which
 * names count as resources; parameters and pseudo parameters are known up front.
 */
function dependsOnProvisioning(value: unknown, isResource: (name: string) => boolean): boolean {
  if (Array.isArray(value)) return value.some((v) => dependsOnProvisioning(v, isResource));
  if (!isObject(value)) return false;
  const name = intrinsicName(value);
  if (name === 'Fn::ImportValue' || name === 'Fn::GetAZs' || name === 'Fn::GetAtt') return true;
  if (name === 'Ref' && typeof value.Ref === 'string' && isResource(value.Ref)) return true;
  if (name === 'Fn::Sub') {
    const args = subArgs(value[name]);
    if (args) {
      for (const p of parseSub(args.template)) {
        if ('variable' in p && !(p.variable in args.vars) && isResource(p.variable.split('.')[0]!)) return true;
      }
    }
  }
  return Object.values(value).some((v) => dependsOnProvisioning(v, isResource));
}

/**
 * The attribute of Fn::ImportValue names an export, so it must be known before any resource
 * exists. AWS's text, as users report it for a Ref to a resource inside Fn::ImportValue — and for
 * a misspelt parameter name there, which AWS takes for something that is not a parameter and so
 * answers the same way (hence "not a parameter or pseudo parameter" rather than "a resource").
 */
export function checkImportValueArgument(arg: unknown, parameters: ReadonlySet<string>): void {
  const notKnownUpFront = (name: string) => !parameters.has(name) && !isPseudoParameter(name);
  if (dependsOnProvisioning(arg, notKnownUpFront)) {
    throw templateError('the attribute in Fn::ImportValue must not depend on any resources, imported values, or Fn::GetAZs');
  }
}

/** An output's Export Name, likewise (reference §4.7, reported wording, two spaces included). */
export function checkExportName(outputId: string, exportValue: unknown, resources: Record<string, unknown>): void {
  const isResource = (name: string) => name in resources;
  if (!isObject(exportValue) || !('Name' in exportValue) || dependsOnProvisioning(exportValue.Name, isResource)) {
    throw formatError(
      `Output ${outputId} is malformed.  The Name field of Export must not depend on any resources, imported values, or Fn::GetAZs.`,
    );
  }
}
