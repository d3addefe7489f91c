/**
 * What GetTemplateSummary and ValidateTemplate report about a template (parameters, required
 * capabilities with their reason, resource types, version, description, metadata, declared
 * transforms, resource identifiers), and `requiredCapabilities`, which the engine uses for
 * InsufficientCapabilitiesException: IAM resources need CAPABILITY_IAM, IAM resources with custom
 * names CAPABILITY_NAMED_IAM, and a template with transforms CAPABILITY_AUTO_EXPAND when it is
 * created or updated directly (not through a change set).
 */
import type * as CFN from '@aws-sdk/client-cloudformation';
import { resourceType } from '../spec/resource-types.js';
import { insufficientCapabilities } from './errors.js';
import { declaredTransforms } from './language-extensions.js';
import { isNoEcho } from './parameters.js';
import { validateTemplate } from './prepare.js';
import type { ParameterDeclaration, ResourceDeclaration, TemplateDoc } from './types.js';
import { isObject, scalarString } from './values.js';
import type { AwsError } from '../../../wire/errors.js';

/** IAM types that need CAPABILITY_IAM (AWS's documented list), with the property that names them. */
const IAM_TYPES: Record<string, string | undefined> = {
  'AWS::IAM::AccessKey': undefined,
  'AWS::IAM::Group': 'GroupName',
  'AWS::IAM::GroupPolicy': undefined,
  'AWS::IAM::InstanceProfile': 'InstanceProfileName',
  'AWS::IAM::ManagedPolicy': 'ManagedPolicyName',
  'AWS::IAM::Policy': undefined,
  'AWS::IAM::Role': 'RoleName',
  'AWS::IAM::RolePolicy': undefined,
  'AWS::IAM::User': 'UserName',
  'AWS::IAM::UserPolicy': undefined,
  'AWS::IAM::UserToGroupAddition': undefined,
};

/** Resource declarations of a template, including those inside Fn::ForEach fragments (not yet expanded). */
export function resourceDeclarations(doc: TemplateDoc): Array<[string, ResourceDeclaration]> {
  const out: Array<[string, ResourceDeclaration]> = [];
  const visit = (section: unknown, depth: number) => {
    if (!isObject(section) || depth > 20) return;
    for (const [id, decl] of Object.entries(section)) {
      if (id.startsWith('Fn::ForEach::') && Array.isArray(decl)) visit(decl[2], depth + 1);
      else if (isObject(decl) && typeof decl.Type === 'string') out.push([id, decl as unknown as ResourceDeclaration]);
    }
  };
  visit(doc.Resources, 0);
  return out;
}

export interface CapabilityRequirement {
  /** e.g. ['CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'] */
  capabilities: string[];
  /** `The following resource(s) require capabilities: [AWS::IAM::Role]`, when any are required. */
  reason?: string;
}

/**
 * The capabilities a template requires. `viaChangeSet`: transforms need no CAPABILITY_AUTO_EXPAND
 * when the template goes through a change set (AWS's rule).
 */
export function requiredCapabilities(doc: TemplateDoc, options: { viaChangeSet?: boolean } = {}): CapabilityRequirement {
  let iam = false;
  let named = false;
  const types: string[] = [];
  for (const [, decl] of resourceDeclarations(doc)) {
    if (!(decl.Type in IAM_TYPES)) continue;
    iam = true;
    const nameProp = IAM_TYPES[decl.Type];
    if (nameProp && isObject(decl.Properties) && decl.Properties[nameProp] !== undefined) named = true;
    if (!types.includes(decl.Type)) types.push(decl.Type);
  }
  const capabilities: string[] = [];
  if (named) capabilities.push('CAPABILITY_NAMED_IAM');
  else if (iam) capabilities.push('CAPABILITY_IAM');
  const transforms = declaredTransforms(doc);
  if (transforms.length && !options.viaChangeSet) capabilities.push('CAPABILITY_AUTO_EXPAND');
  const reasonTypes = types.length ? types : capabilities.length ? transforms : [];
  return {
    capabilities,
    ...(capabilities.length ? { reason: `The following resource(s) require capabilities: [${reasonTypes.join(', ')}]` } : {}),
  };
}

/** The InsufficientCapabilitiesException for what `given` lacks, or undefined (NAMED_IAM covers IAM). */
export function missingCapabilities(required: string[], given: string[] = []): AwsError | undefined {
  const missing = required.filter(
    (c) => !given.includes(c) && !(c === 'CAPABILITY_IAM' && given.includes('CAPABILITY_NAMED_IAM')),
  );
  return missing.length ? insufficientCapabilities(missing) : undefined;
}

function parameterDeclarations(doc: TemplateDoc): Array<[string, ParameterDeclaration]> {
  return Object.entries(isObject(doc.Parameters) ? (doc.Parameters as Record<string, ParameterDeclaration>) : {});
}

/** GetTemplateSummary's answer for a template (validated first, like AWS). */
export function summary(doc: TemplateDoc): CFN.GetTemplateSummaryOutput {
  const processed = validateTemplate(doc);
  const caps = requiredCapabilities(doc);
  const resources = resourceDeclarations(processed);
  const types: string[] = [];
  const byType = new Map<string, string[]>();
  for (const [id, decl] of resources) {
    if (!types.includes(decl.Type)) types.push(decl.Type);
    const ids = byType.get(decl.Type) ?? [];
    ids.push(id);
    byType.set(decl.Type, ids);
  }
  const identifiers: CFN.ResourceIdentifierSummary[] = [];
  for (const [type, ids] of byType) {
    const id = resourceType(type)?.id;
    // One string per identifier, its properties comma-joined: the CDK splits a composite one on ','.
    if (id?.length) identifiers.push({ ResourceType: type, LogicalResourceIds: ids, ResourceIdentifiers: [id.join(',')] });
  }
  const out: CFN.GetTemplateSummaryOutput = {
    Parameters: parameterDeclarations(doc).map(([key, p]) => {
      const d: CFN.ParameterDeclaration = { ParameterKey: key, ParameterType: p.Type, NoEcho: isNoEcho(p) };
      const def = scalarString(p.Default);
      if (def !== undefined) d.DefaultValue = def;
      if (typeof p.Description === 'string') d.Description = p.Description;
      d.ParameterConstraints = Array.isArray(p.AllowedValues)
        ? { AllowedValues: p.AllowedValues.map((v) => scalarString(v) ?? String(v)) }
        : {};
      return d;
    }),
    Capabilities: caps.capabilities as CFN.Capability[],
    ResourceTypes: types,
    DeclaredTransforms: declaredTransforms(doc),
    ResourceIdentifierSummaries: identifiers,
  };
  if (caps.reason) out.CapabilitiesReason = caps.reason;
  if (typeof doc.AWSTemplateFormatVersion === 'string') out.Version = doc.AWSTemplateFormatVersion;
  if (typeof doc.Description === 'string') out.Description = doc.Description;
  if (doc.Metadata !== undefined) out.Metadata = JSON.stringify(doc.Metadata);
  return out;
}

/** ValidateTemplate's answer for a template (validated first). */
export function validationSummary(doc: TemplateDoc): CFN.ValidateTemplateOutput {
  const s = summary(doc);
  const out: CFN.ValidateTemplateOutput = {
    Parameters: (s.Parameters ?? []).map((p) => {
      const t: CFN.TemplateParameter = { ParameterKey: p.ParameterKey, NoEcho: p.NoEcho };
      if (p.DefaultValue !== undefined) t.DefaultValue = p.DefaultValue;
      if (p.Description !== undefined) t.Description = p.Description;
      return t;
    }),
    Capabilities: s.Capabilities ?? [],
    DeclaredTransforms: s.DeclaredTransforms ?? [],
  };
  if (s.CapabilitiesReason) out.CapabilitiesReason = s.CapabilitiesReason;
  if (s.Description !== undefined) out.Description = s.Description;
  return out;
}
