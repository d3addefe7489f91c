/**
 * The contract between the template layer (parsing, parameters, rules, conditions, mappings,
 * transforms, intrinsic functions, the dependency graph) and the stack engine that runs
 * operations. The template layer is pure: it never calls providers; whatever it needs from
 * outside (SSM values, exports, physical ids and attributes of resources) comes through the
 * callbacks and scopes below. All template errors are AwsError ValidationError with AWS's wording.
 */

/** A template as written, parsed from JSON or YAML (short forms expanded to long form). */
export interface TemplateDoc {
  AWSTemplateFormatVersion?: string;
  Description?: string;
  Metadata?: Record<string, unknown>;
  Parameters?: Record<string, ParameterDeclaration>;
  Rules?: Record<string, unknown>;
  Mappings?: Record<string, Record<string, Record<string, unknown>>>;
  Conditions?: Record<string, unknown>;
  Transform?: string | string[];
  Resources: Record<string, ResourceDeclaration>;
  Outputs?: Record<string, OutputDeclaration>;
  [section: string]: unknown;
}

export interface ParameterDeclaration {
  Type: string;
  Default?: unknown;
  Description?: string;
  NoEcho?: boolean | string;
  AllowedValues?: unknown[];
  AllowedPattern?: string;
  MinLength?: number | string;
  MaxLength?: number | string;
  MinValue?: number | string;
  MaxValue?: number | string;
  ConstraintDescription?: string;
}

export interface ResourceDeclaration {
  Type: string;
  Properties?: Record<string, unknown>;
  DependsOn?: string | string[];
  Condition?: string;
  DeletionPolicy?: unknown;
  UpdateReplacePolicy?: unknown;
  UpdatePolicy?: unknown;
  CreationPolicy?: unknown;
  Metadata?: unknown;
}

export interface OutputDeclaration {
  Value: unknown;
  Description?: string;
  Export?: { Name: unknown };
  Condition?: string;
}

/** A parameter value as given to CreateStack/UpdateStack/CreateChangeSet. */
export interface ParameterInput {
  ParameterKey: string;
  ParameterValue?: string;
  UsePreviousValue?: boolean;
  ResolvedValue?: string;
}

/** The values of pseudo parameters for one stack operation. */
export interface PseudoParameters {
  accountId: string;
  region: string;
  partition: string;
  urlSuffix: string;
  stackName: string;
  stackId: string;
  notificationArns: string[];
}

export interface ResolvedParameter {
  key: string;
  /** What DescribeStacks shows as ParameterValue (the SSM name for SSM-typed ones; `****` is applied by the API for NoEcho). */
  value: string;
  /** For SSM-typed parameters: the value fetched from Parameter Store. */
  resolvedValue?: string;
  /** What Ref yields: a string, or a list for list types. */
  refValue: string | string[];
  noEcho: boolean;
  type: string;
}

/** Lookups the template layer needs from the outside world while preparing a template. */
export interface PrepareEnvironment {
  pseudo: PseudoParameters;
  /** Current value of an SSM parameter (for `AWS::SSM::Parameter::Value<…>` types); undefined if missing. */
  ssmParameter(name: string): string | undefined;
  /** Value exported under `name` in the stack's account and region; undefined if none. */
  exportValue(name: string): string | undefined;
  /** Availability zones of a region, for Fn::GetAZs. */
  availabilityZones(region: string): string[];
}

/** What an evaluated resource looks like before its properties are resolved. */
export interface PreparedResource {
  logicalId: string;
  type: string;
  /** Properties with intrinsics still in place; resolve with the scope once dependencies exist. */
  properties: Record<string, unknown>;
  /** Logical ids this resource must follow: DependsOn plus Ref/GetAtt/Sub references. */
  dependsOn: string[];
  deletionPolicy: 'Delete' | 'Retain' | 'RetainExceptOnCreate' | 'Snapshot';
  updateReplacePolicy: 'Delete' | 'Retain' | 'Snapshot';
  metadata?: unknown;
  /** The declaration exactly as in the template (for change detection of non-property changes). */
  declaration: ResourceDeclaration;
}

/** A template with parameters, rules, conditions and transforms applied. */
export interface PreparedTemplate {
  doc: TemplateDoc;
  /** The template after transforms (GetTemplate's Processed stage). */
  processed: TemplateDoc;
  parameters: ResolvedParameter[];
  conditions: Record<string, boolean>;
  /** Only the resources whose Condition holds. */
  resources: Record<string, PreparedResource>;
  /** Outputs whose Condition holds, unresolved. */
  outputs: Record<string, OutputDeclaration>;
  /** Creation order (dependencies first); delete in reverse. */
  order: string[];
  /** Export names imported through Fn::ImportValue. */
  imports: string[];
  /** True when the template declares `AWS::LanguageExtensions`. */
  languageExtensions: boolean;
  /** Every logical id of the processed template, whatever its Condition (Ref to a conditioned-out one is an error, not a typo). */
  declared: string[];
}

/** What resolving an intrinsic needs at run time: the state of resources already created. */
export interface ResolveScope {
  /** Ref of a resource: its physical id (or a provider-specific value). */
  ref(logicalId: string): string;
  /** Fn::GetAtt of a resource. Throw a ValidationError for unsupported attributes. */
  getAtt(logicalId: string, attribute: string): unknown;
  /** True when the resource's attributes are secret (a custom resource that answered NoEcho). */
  secret?(logicalId: string): boolean;
}

/** Which part of the template a value comes from; decides the functions allowed and the error wording. */
type TemplateSection = 'Resources' | 'Outputs' | 'Conditions' | 'Rules';

/**
 * Everything `resolveValue` needs besides the scope. Build it with `resolveContext(prepared, env)`;
 * it holds no state of its own, so one context serves a whole operation.
 */
export interface ResolveContext {
  pseudo: PseudoParameters;
  /** What Ref of each parameter yields (lists for list types; SSM types already resolved). */
  parameters: Record<string, string | string[]>;
  /** Parameter types, for the rule functions (`Fn::RefAll`, `Fn::ValueOfAll`). */
  parameterTypes?: Record<string, string>;
  conditions: Record<string, boolean>;
  mappings: Record<string, Record<string, Record<string, unknown>>>;
  /** Logical ids of the resources that exist in this operation (their Condition holds). */
  resources: ReadonlySet<string>;
  /** Every logical id declared in the (processed) template, whatever its Condition. */
  declared: ReadonlySet<string>;
  env: Pick<PrepareEnvironment, 'exportValue' | 'availabilityZones' | 'ssmParameter'>;
  /** True when the template declares `AWS::LanguageExtensions`. */
  languageExtensions: boolean;
  /** Default 'Resources'. */
  section?: TemplateSection;
}
