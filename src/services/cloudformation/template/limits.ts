/**
 * CloudFormation's template quotas ("CloudFormation quotas" in the User Guide): at most 500
 * resources, 200 parameters, 200 outputs, 200 mappings of at most 200 attributes each, names
 * (logical ids of resources, parameters, outputs; mapping names) of at most 255 characters,
 * parameter descriptions of 4,000 characters and output descriptions of 1,024 bytes, 60 dynamic
 * references a template and 4,096 bytes a parameter value — refused by ValidateTemplate,
 * CreateStack, UpdateStack and CreateChangeSet alike before anything else about the sections is
 * judged (a parameter value when the values are read). Each section's count has its own wording
 * at AWS; the SECTIONS table carries it, with where it was seen.
 */
import { formatError, validationError } from './errors.js';
import type { TemplateDoc } from './types.js';
import { isObject, pushAll } from './values.js';

const MAX_RESOURCES = 500;
const MAX_PARAMETERS = 200;
const MAX_OUTPUTS = 200;
const MAX_MAPPINGS = 200;
const MAX_MAPPING_ATTRIBUTES = 200;
const MAX_NAME_LENGTH = 255;
const MAX_DYNAMIC_REFERENCES = 60;
const MAX_PARAMETER_VALUE_BYTES = 4096;

type CountMessage = (count: number, max: number) => string;

/**
 * [section, singular used in the name-length message, quota, count message]. Reported texts
 * (ValidationError, "Template format error: " prefix), each from AWS when the quota was lower:
 * resources "Number of resources, 211, is greater than maximum allowed, 200"
 * (amplify-education/serverless-log-forwarding#26, serverless/serverless#2387); parameters
 * "Parameter count 63 is greater than max allowed 60" (aws/aws-cdk#8736, remind101/empire#861);
 * outputs "Outputs count 64 is greater than max allowed 60" (rubyonjets/jets#392). No report of
 * the mappings text was found: it follows the Outputs form, the section name before "count".
 */
const SECTIONS: readonly (readonly [string, string, number, CountMessage])[] = [
  ['Resources', 'Resource', MAX_RESOURCES, (n, max) => `Number of resources, ${n}, is greater than maximum allowed, ${max}`],
  ['Parameters', 'Parameter', MAX_PARAMETERS, (n, max) => `Parameter count ${n} is greater than max allowed ${max}`],
  ['Mappings', 'Mapping', MAX_MAPPINGS, (n, max) => `Mappings count ${n} is greater than max allowed ${max}`],
  ['Outputs', 'Output', MAX_OUTPUTS, (n, max) => `Outputs count ${n} is greater than max allowed ${max}`],
];

// Inferred, no AWS report found: the attribute count in the Outputs/Mappings form, naming the
// mapping; the name length in the form of the alphanumeric check ("Resource name X is non
// alphanumeric."); the dynamic-reference count in the resources form.
const attributesMessage = (mapping: string, n: number) =>
  `Mapping ${mapping} attributes count ${n} is greater than max allowed ${MAX_MAPPING_ATTRIBUTES}`;
const nameMessage = (singular: string, name: string) => `${singular} name ${name} exceeds the maximum length of ${MAX_NAME_LENGTH} characters.`;
const dynamicReferencesMessage = (n: number) =>
  `Number of dynamic references, ${n}, is greater than maximum allowed, ${MAX_DYNAMIC_REFERENCES}`;

/**
 * Descriptions inside sections: a parameter's at most 4,000 characters, an output's at most 1,024
 * bytes (the template's own, 1,024 bytes, is checked with the top-level keys). Inferred wording:
 * the template Description's reported text ("'Description' length is greater than 1024.").
 */
const DESCRIPTIONS = [
  ['Parameters', 4000, (s: string) => s.length],
  ['Outputs', 1024, (s: string) => Buffer.byteLength(s, 'utf8')],
] as const;

const DYNAMIC_REFERENCE = /\{\{resolve:[^}]*\}\}/g;

/** `{{resolve:…}}` occurrences in every string of the template (keys included, as text is text). */
function countDynamicReferences(doc: unknown): number {
  let count = 0;
  const stack: unknown[] = [doc];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') count += v.includes('{{resolve:') ? (v.match(DYNAMIC_REFERENCE)?.length ?? 0) : 0;
    else if (Array.isArray(v)) pushAll(stack, v);
    else if (isObject(v)) {
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue;
        if (k.includes('{{resolve:')) count += k.match(DYNAMIC_REFERENCE)?.length ?? 0;
        stack.push(v[k]);
      }
    }
  }
  return count;
}

/** Throws the template-format error of the first quota `doc` exceeds. */
export function checkTemplateLimits(doc: TemplateDoc): void {
  for (const [section, singular, max, message] of SECTIONS) {
    const members = (doc as Record<string, unknown>)[section];
    if (!isObject(members)) continue;
    const names = Object.keys(members);
    if (names.length > max) throw formatError(message(names.length, max));
    const long = names.find((n) => n.length > MAX_NAME_LENGTH);
    if (long !== undefined) throw formatError(nameMessage(singular, long));
  }
  if (isObject(doc.Mappings)) {
    for (const [name, map] of Object.entries(doc.Mappings)) {
      if (!isObject(map)) continue;
      const counts = [Object.keys(map).length, ...Object.values(map).map((a) => (isObject(a) ? Object.keys(a).length : 0))];
      const over = counts.find((n) => n > MAX_MAPPING_ATTRIBUTES);
      if (over !== undefined) throw formatError(attributesMessage(name, over));
    }
  }
  for (const [section, max, size] of DESCRIPTIONS) {
    const members = (doc as Record<string, unknown>)[section];
    if (!isObject(members)) continue;
    for (const member of Object.values(members)) {
      const d = isObject(member) ? member.Description : undefined;
      if (typeof d === 'string' && size(d) > max) throw formatError(`'Description' length is greater than ${max}.`);
    }
  }
  const references = countDynamicReferences(doc);
  if (references > MAX_DYNAMIC_REFERENCES) throw formatError(dynamicReferencesMessage(references));
}

/**
 * A parameter value over 4,096 bytes (UTF-8), or undefined. Inferred wording (none reported): the
 * form of the other per-parameter refusals, `Parameter 'X' …`.
 */
export function parameterValueSizeError(key: string, value: string) {
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes <= MAX_PARAMETER_VALUE_BYTES) return undefined;
  return validationError(`Parameter '${key}' value is ${bytes} bytes, greater than the maximum allowed, ${MAX_PARAMETER_VALUE_BYTES}`);
}
