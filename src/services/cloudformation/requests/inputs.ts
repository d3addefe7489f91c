/**
 * Request members shared by several actions, read as AWS reads them: Parameters (value or
 * UsePreviousValue), Tags (absent = keep, empty = remove), the stack policy (body or URL from
 * Overcast's S3), and whether two sets of stack settings differ (an update that changes only tags
 * or notification topics is still an update).
 */
import type * as CFN from '@aws-sdk/client-cloudformation';
import type { Ctx } from '../../../server/runtime.js';
import type { ParameterInput } from '../template/types.js';
import { validation } from './errors.js';
import type { StackData } from '../engine/state.js';
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

export function tagsOf(tags: CFN.Tag[] | undefined): CFN.Tag[] {
  const out = (tags ?? []).map((t) => ({ Key: t.Key ?? '', Value: t.Value ?? '' }));
  if (out.length > 50) {
    throw validation(
      "1 validation error detected: Value at 'tags' failed to satisfy constraint: Member must have length less than or equal to 50",
    );
  }
  return out;
}

export async function stackPolicyText(ctx: Ctx, body: string | undefined, url: string | undefined): Promise<string | undefined> {
  if (body !== undefined && url !== undefined) {
    throw validation('You cannot specify both StackPolicyURL and StackPolicyBody');
  }
  const text = body ?? (url !== undefined ? await fetchTemplateUrl(ctx, url) : undefined);
  if (text === undefined) return undefined;
  try {
    JSON.parse(text);
  } catch {
    throw validation('Error validating stack policy: Invalid stack policy');
  }
  return text;
}

function sameList<T>(a: T[] | undefined, b: T[] | undefined, key: (t: T) => string): boolean {
  const ka = (a ?? []).map(key).sort();
  const kb = (b ?? []).map(key).sort();
  return ka.length === kb.length && ka.every((x, i) => x === kb[i]);
}

/** Whether the stack-level settings an update carries equal the stack's (tags, topics, parameters). */
export function sameSettings(before: StackData, after: StackData): boolean {
  return (
    sameList(before.tags, after.tags, (t) => `${t.Key}=${t.Value}`) &&
    sameList(before.notificationArns, after.notificationArns, (s) => s) &&
    sameList(before.parameters, after.parameters, (p) => `${p.key}=${p.value}`)
  );
}
