/**
 * CloudFormation's template quotas ("CloudFormation quotas" in the User Guide): at most 500
 * resources, 200 parameters, 200 outputs, 200 mappings of at most 200 attributes each, and names
 * (logical ids of resources, parameters, outputs; mapping names) of at most 255 characters —
 * refused by ValidateTemplate, CreateStack, UpdateStack and CreateChangeSet alike before anything
 * else about the sections is judged. The count wording is AWS's as users report it ("Template
 * format error: Number of resources, 201, is greater than maximum allowed, 200" when the quota was
 * 200); the name-length wording follows the alphanumeric check's.
 */
import { formatError } from './errors.js';
import type { TemplateDoc } from './types.js';
import { isObject } from './values.js';

export const MAX_RESOURCES = 500;
export const MAX_PARAMETERS = 200;
export const MAX_OUTPUTS = 200;
export const MAX_MAPPINGS = 200;
export const MAX_MAPPING_ATTRIBUTES = 200;
export const MAX_NAME_LENGTH = 255;

const SECTIONS = [
  ['Resources', 'resources', 'Resource', MAX_RESOURCES],
  ['Parameters', 'parameters', 'Parameter', MAX_PARAMETERS],
  ['Mappings', 'mappings', 'Mapping', MAX_MAPPINGS],
  ['Outputs', 'outputs', 'Output', MAX_OUTPUTS],
] as const;

function countError(what: string, count: number, max: number) {
  return formatError(`Number of ${what}, ${count}, is greater than maximum allowed, ${max}`);
}

/** Throws the template-format error of the first quota `doc` exceeds. */
export function checkTemplateLimits(doc: TemplateDoc): void {
  for (const [section, plural, singular, max] of SECTIONS) {
    const members = (doc as Record<string, unknown>)[section];
    if (!isObject(members)) continue;
    const names = Object.keys(members);
    if (names.length > max) throw countError(plural, names.length, max);
    const long = names.find((n) => n.length > MAX_NAME_LENGTH);
    if (long !== undefined) throw formatError(`${singular} name ${long} exceeds the maximum length of ${MAX_NAME_LENGTH} characters.`);
  }
  if (!isObject(doc.Mappings)) return;
  for (const [name, map] of Object.entries(doc.Mappings)) {
    if (!isObject(map)) continue;
    for (const attrs of Object.values(map)) {
      const count = isObject(attrs) ? Object.keys(attrs).length : 0;
      if (count > MAX_MAPPING_ATTRIBUTES) throw countError(`attributes in mapping ${name}`, count, MAX_MAPPING_ATTRIBUTES);
    }
    if (Object.keys(map).length > MAX_MAPPING_ATTRIBUTES) {
      throw countError(`attributes in mapping ${name}`, Object.keys(map).length, MAX_MAPPING_ATTRIBUTES);
    }
  }
}
