/**
 * The template layer's errors, in AWS's words. Every template problem is an AwsError
 * `ValidationError` (HTTP 400); the messages come from reported AWS output (see
 * docs reference §5) or, where no report exists, from emulators that copied AWS closely
 * (Eucalyptus's CloudFormation clone). "Template format error:" marks static structure problems,
 * "Template error:" evaluation problems — as AWS does.
 */
import { AwsError } from '../../../wire/errors.js';

/** A plain `ValidationError` with exactly `message`. */
export function validationError(message: string): AwsError {
  return new AwsError('ValidationError', message, 400);
}

/** `Template format error: <detail>` — static structure problems. */
export function formatError(detail: string): AwsError {
  return validationError(`Template format error: ${detail}`);
}

/** `Template error: <detail>` — evaluation problems. */
export function templateError(detail: string): AwsError {
  return validationError(`Template error: ${detail}`);
}

/** Outside Rules, Fn::Equals compares two strings; anything else gets this text. */
export const EQUALS_MESSAGE = 'every Fn::Equals object requires a list of 2 string parameters.';

/** AWS lists names as `[A, B]` (Java's List.toString). */
export function bracketList(names: Iterable<string>): string {
  return `[${[...names].join(', ')}]`;
}

export function unresolvedDependencies(names: Iterable<string>, block: 'Resources' | 'Outputs'): AwsError {
  return formatError(`Unresolved resource dependencies ${bracketList(names)} in the ${block} block of the template`);
}

export function circularDependency(names: Iterable<string>): AwsError {
  return validationError(`Circular dependency between resources: ${bracketList(names)}`);
}

export function getAttUndefinedResource(logicalId: string): AwsError {
  return templateError(`instance of Fn::GetAtt references undefined resource ${logicalId}`);
}

export function getAttUnsupportedAttribute(logicalId: string, attribute: string): AwsError {
  return templateError(`resource ${logicalId} does not support attribute type ${attribute} in Fn::GetAtt`);
}

export function noExport(name: string): AwsError {
  return validationError(`No export named ${name} found`);
}

export function nullValue(path: string): AwsError {
  return formatError(`[${path}] 'null' values are not allowed in templates`);
}

/** The largest TemplateBody a request may carry, and the largest template read from TemplateURL. */
export const TEMPLATE_BODY_MAX_BYTES = 51_200;
export const TEMPLATE_URL_MAX_BYTES = 1_048_576;

/**
 * The error for an oversized template, or undefined when it fits. TemplateBody is checked like
 * any modeled member (Coral wording, as AWS answers for a body over 51,200 bytes); a TemplateURL
 * object over 1 MB gets the size message AWS reports for S3-hosted templates.
 */
export function templateSizeError(kind: 'TemplateBody' | 'TemplateURL', body: string): AwsError | undefined {
  const bytes = Buffer.byteLength(body, 'utf8');
  if (kind === 'TemplateBody') {
    if (bytes <= TEMPLATE_BODY_MAX_BYTES) return undefined;
    return validationError(
      `1 validation error detected: Value '${body.length > 64 ? body.slice(0, 64) + '…' : body}' at 'templateBody' failed to satisfy constraint: Member must have length less than or equal to ${TEMPLATE_BODY_MAX_BYTES}`,
    );
  }
  if (bytes <= TEMPLATE_URL_MAX_BYTES) return undefined;
  return validationError(`Template may not exceed ${TEMPLATE_URL_MAX_BYTES} bytes in size.`);
}

/** Missing capabilities: `InsufficientCapabilitiesException`, with AWS's space before the colon. */
export function insufficientCapabilities(missing: string[]): AwsError {
  return new AwsError('InsufficientCapabilitiesException', `Requires capabilities : ${bracketList(missing)}`, 400);
}

const BASE_FUNCTIONS =
  'Fn::Base64, Fn::GetAtt, Fn::GetAZs, Fn::ImportValue, Fn::Join, Fn::Split, Fn::FindInMap, Fn::Select, Ref, Fn::Equals, Fn::If, Fn::Not, Condition, Fn::And, Fn::Or, Fn::Contains, Fn::EachMemberEquals, Fn::EachMemberIn, Fn::ValueOf, Fn::ValueOfAll, Fn::RefAll, Fn::Sub, Fn::Cidr';

export function unsupportedFunction(name: string, languageExtensions = false): AwsError {
  const list = languageExtensions ? `${BASE_FUNCTIONS}, Fn::Length, Fn::ToJsonString, Fn::ForEach` : BASE_FUNCTIONS;
  return formatError(`Encountered unsupported function: ${name} Supported functions are: [${list}]`);
}

export function transformNotSupported(name: string): AwsError {
  return validationError(
    `Template format error: Transform ${name} is not supported by Overcast (supported: AWS::LanguageExtensions).`,
  );
}
