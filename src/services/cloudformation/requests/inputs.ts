/**
 * Request members shared by several actions, read as AWS reads them: Parameters (value or
 * UsePreviousValue), Tags (absent = keep, empty = remove) and the stack policy (body or URL from
 * Overcast's S3).
 */
import type * as CFN from '@aws-sdk/client-cloudformation';
import type { Ctx } from '../../../runtime/runtime.js';
import type { StackData } from '../engine/state.js';
import type { ParameterInput } from '../template/types.js';
import { validation } from './errors.js';
import { fetchTemplateUrl } from '../engine/template-source.js';

export function parameterInputs(params: CFN.Parameter[] | undefined): ParameterInput[] {
  return (params ?? [])
    .filter((p) => p.ParameterKey !== undefined)
    .map((p) => ({
      ParameterKey: p.ParameterKey!,
      ...(p.ParameterValue !== undefined ? { ParameterValue: p.ParameterValue } : {}),
      ...(p.UsePreviousValue ? { UsePreviousValue: true } : {}),
    }));
}

/** The model's length limits on a stack tag (TagKey 128, TagValue 256), checked in Coral's words. */
const TAG_LIMITS = [
  ['Key', 'key', 128],
  ['Value', 'value', 256],
] as const;

export function tagsOf(tags: CFN.Tag[] | undefined): CFN.Tag[] {
  const out = (tags ?? []).map((t) => ({ Key: t.Key ?? '', Value: t.Value ?? '' }));
  if (out.length > 50) {
    throw validation(
      "1 validation error detected: Value at 'tags' failed to satisfy constraint: Member must have length less than or equal to 50",
    );
  }
  out.forEach((tag, i) => {
    for (const [field, member, max] of TAG_LIMITS) {
      if (tag[field].length > max) {
        throw validation(
          `1 validation error detected: Value '${tag[field]}' at 'tags.${i + 1}.member.${member}' failed to satisfy constraint: Member must have length less than or equal to ${max}`,
        );
      }
    }
  });
  return out;
}

/** StackPolicyBody (and StackPolicyDuringUpdateBody) are at most 16,384 characters in the model. */
const STACK_POLICY_MAX = 16_384;

function checkStackPolicyBodyLength(body: string | undefined, member: 'stackPolicyBody' | 'stackPolicyDuringUpdateBody'): void {
  if (body === undefined || body.length <= STACK_POLICY_MAX) return;
  throw validation(
    `1 validation error detected: Value '${body}' at '${member}' failed to satisfy constraint: Member must have length less than or equal to ${STACK_POLICY_MAX}`,
  );
}

export async function stackPolicyText(
  ctx: Ctx,
  body: string | undefined,
  url: string | undefined,
  member: 'stackPolicyBody' | 'stackPolicyDuringUpdateBody' = 'stackPolicyBody',
): Promise<string | undefined> {
  if (body !== undefined && url !== undefined) {
    throw validation('You cannot specify both StackPolicyURL and StackPolicyBody');
  }
  checkStackPolicyBodyLength(body, member);
  const text = body ?? (url !== undefined ? await fetchTemplateUrl(ctx, url) : undefined);
  if (text === undefined) return undefined;
  try {
    JSON.parse(text);
  } catch {
    throw validation('Error validating stack policy: Invalid stack policy');
  }
  return text;
}

/** The stack settings a CreateChangeSet or UpdateStack asks for, over the stack's `before`. */
export function requestedSettings(
  before: StackData,
  input: { Tags?: CFN.Tag[]; Capabilities?: string[]; NotificationARNs?: string[]; RoleARN?: string },
): Omit<StackData, 'parameters' | 'outputs'> {
  return {
    ...before,
    ...(input.Tags !== undefined ? { tags: tagsOf(input.Tags) } : {}),
    capabilities: input.Capabilities ?? [],
    ...(input.NotificationARNs !== undefined ? { notificationArns: input.NotificationARNs } : {}),
    ...(input.RoleARN ? { roleArn: input.RoleARN } : {}),
  };
}
