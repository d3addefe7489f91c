/**
 * GetTemplateSummary (a template from TemplateBody or TemplateURL, or a stack's current one) and
 * ValidateTemplate: structure checks only — no parameter values, nothing provisioned — answered
 * by the template layer's summaries.
 */
import type * as CFN from '@aws-sdk/client-cloudformation';
import type { Ctx } from '../../runtime/runtime.js';
import { cfnErrors, checkInput, validation } from './requests/errors.js';
import { parseTemplate, summary, validationSummary } from './template/index.js';
import { requireStack } from './requests/lookup.js';
import { templateText } from './engine/template-source.js';

export async function getTemplateSummary(ctx: Ctx, input: CFN.GetTemplateSummaryInput): Promise<CFN.GetTemplateSummaryOutput> {
  checkInput('GetTemplateSummary', input);
  const sources = [input.TemplateBody, input.TemplateURL, input.StackName, input.StackSetName].filter((v) => v !== undefined);
  if (sources.length !== 1) {
    throw validation('Exactly one of TemplateBody, TemplateUrl, StackName or StackSetName must be specified.');
  }
  if (input.StackSetName !== undefined) throw validation(`StackSet ${input.StackSetName} not found`);
  let text: string;
  if (input.StackName !== undefined) {
    const stack = requireStack(ctx, input.StackName, cfnErrors.stackWithIdNotFound);
    text = stack.template ?? '{"Resources":{}}';
  } else {
    text = (await templateText(ctx, input, { allowPrevious: false }))!;
  }
  return summary(parseTemplate(text));
}

export async function validateTemplate(ctx: Ctx, input: CFN.ValidateTemplateInput): Promise<CFN.ValidateTemplateOutput> {
  checkInput('ValidateTemplate', input);
  const text = (await templateText(ctx, input, { allowPrevious: false }))!;
  return validationSummary(parseTemplate(text));
}
