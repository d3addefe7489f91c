/**
 * The SSM Parameter Store provider: PutParameter (String, StringList, SecureString; versions,
 * Overwrite, tiers, policies, allowed patterns, data types, tags), GetParameter(s) with
 * `name:version` / `name:label` selectors and ARNs, DeleteParameter(s), version labels and tags —
 * plain functions of (ctx, input) over the store, scoped by account and region. The CloudFormation
 * engine resolves `AWS::SSM::Parameter::Value<…>` parameters and `{{resolve:ssm:…}}` through
 * getParameter, and AWS::SSM::Parameter resources through putParameter/deleteParameter. Listings
 * (by path, describe, history) are in listing.ts. SecureString values are kept in clear; without
 * WithDecryption they come back as an opaque base64 blob, as from KMS.
 */
import { createHash } from 'node:crypto';
import type * as SSM from '@aws-sdk/client-ssm';
import { serviceModel } from '../../model/service-model.js';
import { validationMessage } from '../../model/validate.js';
import { perStore, type Ctx } from '../../runtime/runtime.js';
import { SsmRepo, type ParameterFields, type ParameterRow, type VersionRow } from '../../store/ssm-repo.js';
import { isAwsError } from '../../wire/errors.js';
import { callerIdentity } from '../sts/provider.js';
import { ssmErrors } from './errors.js';
import { checkReadableName, checkWritableName, invalidLabel, parameterArn, parentOf, parseReference } from './naming.js';
import { boundedRegexTest } from '../../patterns/bounded-regex.js';

export const repo = perStore((meta) => new SsmRepo(meta));

export function validate(operation: string, input: object): void {
  const message = validationMessage(serviceModel('ssm'), operation, input);
  if (message) throw ssmErrors.validation(message);
}

const MAX_VERSIONS = 100;
const MAX_TAGS = 50;
const MAX_LABELS = 10;
const STANDARD_MAX_VALUE = 4096;
const ADVANCED_MAX_VALUE = 8192;
const DATA_TYPES = ['text', 'aws:ec2:image', 'aws:ssm:integration'];
const POLICY_TYPES = ['Expiration', 'ExpirationNotification', 'NoChangeNotification'];
const DEFAULT_KEY_ID = 'alias/aws/ssm';

/** What GetParameter* return for a value: SecureStrings stay opaque unless decryption is asked for. */
function shownValue(fields: Pick<ParameterFields, 'type' | 'value' | 'key_id'>, decrypt: boolean | undefined): string {
  if (fields.type !== 'SecureString' || decrypt) return fields.value;
  const keyTag = createHash('sha256').update(fields.key_id ?? DEFAULT_KEY_ID).digest().subarray(0, 16);
  return Buffer.concat([Buffer.from([1, 2, 2, 0, 0x78]), keyTag, Buffer.from(fields.value, 'utf8')]).toString('base64');
}

export function toParameter(
  ctx: Ctx,
  name: string,
  fields: ParameterFields,
  decrypt: boolean | undefined,
  selector?: string,
): SSM.Parameter {
  return {
    Name: name,
    Type: fields.type as SSM.ParameterType,
    Value: shownValue(fields, decrypt),
    Version: fields.version,
    Selector: selector,
    LastModifiedDate: new Date(fields.last_modified),
    ARN: parameterArn(ctx, name),
    DataType: fields.data_type,
  };
}

function checkPolicies(text: string | undefined): number {
  if (text === undefined) return 0;
  let policies: unknown;
  try {
    policies = JSON.parse(text);
  } catch {
    throw ssmErrors.invalidPolicyAttribute();
  }
  if (!Array.isArray(policies)) throw ssmErrors.invalidPolicyAttribute();
  if (policies.length > 10) throw ssmErrors.policiesLimit();
  for (const p of policies as { Type?: unknown; Attributes?: unknown }[]) {
    if (!p || typeof p !== 'object') throw ssmErrors.invalidPolicyAttribute();
    if (typeof p.Type !== 'string' || !POLICY_TYPES.includes(p.Type)) throw ssmErrors.invalidPolicyType();
    if (!p.Attributes || typeof p.Attributes !== 'object') throw ssmErrors.invalidPolicyAttribute();
  }
  return policies.length;
}

function resolveTier(requested: string | undefined, previous: string | undefined, value: string, policyCount: number): string {
  if (requested === 'Standard' && previous === 'Advanced') {
    throw ssmErrors.validation(
      "This parameter uses the advanced-parameter tier. You can't downgrade a parameter from the advanced-parameter tier to the standard-parameter tier. If necessary, you can delete the advanced parameter and recreate it as a standard parameter.",
    );
  }
  let tier = requested ?? previous ?? 'Standard';
  if (tier === 'Intelligent-Tiering') {
    tier = previous === 'Advanced' || value.length > STANDARD_MAX_VALUE || policyCount > 0 ? 'Advanced' : 'Standard';
  }
  if (tier === 'Standard' && value.length > STANDARD_MAX_VALUE) {
    throw ssmErrors.validation(
      `Standard tier parameters support a maximum parameter value of ${STANDARD_MAX_VALUE} characters. To create a larger parameter value, upgrade the parameter to use the advanced-parameter tier. For more information, see https://docs.aws.amazon.com/systems-manager/latest/userguide/parameter-store-advanced-parameters.html`,
    );
  }
  if (value.length > ADVANCED_MAX_VALUE) {
    throw ssmErrors.validation(
      `Advanced tier parameters support a maximum parameter value of ${ADVANCED_MAX_VALUE} characters.`,
    );
  }
  if (tier === 'Standard' && policyCount > 0) {
    throw ssmErrors.validation(
      'Parameter policies are supported only for advanced-tier parameters. To use parameter policies, use the advanced-parameter tier.',
    );
  }
  return tier;
}

/** The client's own pattern runs time-limited (`(a+)+$` backtracks for minutes); giving up is a mismatch. */
function checkAllowedPattern(pattern: string | null | undefined, value: string): void {
  if (!pattern) return;
  let matched: boolean | undefined;
  try {
    matched = boundedRegexTest(pattern, value, 'u');
  } catch {
    throw ssmErrors.invalidAllowedPattern();
  }
  if (matched !== true) throw ssmErrors.patternMismatch(pattern);
}

function tagsObject(tags: SSM.Tag[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of tags ?? []) out[t.Key!] = t.Value ?? '';
  return out;
}

export function putParameter(ctx: Ctx, input: SSM.PutParameterRequest): SSM.PutParameterResult {
  validate('PutParameter', input);
  const name = input.Name!.trim();
  checkWritableName(ctx, name);
  const value = input.Value!;
  if (value.length === 0) {
    throw ssmErrors.validation(
      "1 validation error detected: Value '' at 'value' failed to satisfy constraint: Member must have length greater than or equal to 1",
    );
  }
  if (input.Overwrite && input.Tags?.length) {
    throw ssmErrors.validation(
      "Invalid request: tags and overwrite can't be used together. To create a parameter with tags, please remove overwrite flag. To update tags for an existing parameter, please use AddTagsToResource or RemoveTagsFromResource.",
    );
  }
  if (input.DataType !== undefined && !DATA_TYPES.includes(input.DataType)) {
    throw ssmErrors.validation(`The following data type is not supported: ${input.DataType} (Data type names are all lowercase.)`);
  }
  if ((input.Tags?.length ?? 0) > MAX_TAGS) throw ssmErrors.tooManyTags();
  const policyCount = checkPolicies(input.Policies);
  const r = repo(ctx);
  return ctx.rt.meta.tx(() => {
    const previous = r.get(ctx.account, ctx.region, name);
    if (previous && !input.Overwrite) throw ssmErrors.parameterAlreadyExists();
    const type = input.Type ?? previous?.type;
    if (!type) throw ssmErrors.validation('A parameter type is required when you create a parameter.');
    const allowedPattern = input.AllowedPattern ?? previous?.allowed_pattern ?? null;
    checkAllowedPattern(allowedPattern, value);
    const tier = resolveTier(input.Tier, previous?.tier, value, policyCount);
    const version = (previous?.version ?? 0) + 1;
    const fields: ParameterFields = {
      version,
      type,
      description: input.Description ?? previous?.description ?? null,
      key_id: type === 'SecureString' ? (input.KeyId ?? (previous?.type === 'SecureString' ? previous.key_id : null) ?? DEFAULT_KEY_ID) : null,
      allowed_pattern: allowedPattern,
      tier,
      policies: input.Policies ?? previous?.policies ?? null,
      data_type: input.DataType ?? previous?.data_type ?? 'text',
      last_modified: Date.now(),
      last_modified_user: callerIdentity(ctx).Arn,
      value,
    };
    if (previous && r.countVersions(ctx.account, ctx.region, name) >= MAX_VERSIONS) {
      const [oldest] = r.listVersions(ctx.account, ctx.region, name, 0, 1);
      if (oldest) {
        if ((JSON.parse(oldest.labels) as string[]).length > 0) throw ssmErrors.maxVersions(name, oldest.version);
        r.deleteVersion(ctx.account, ctx.region, name, oldest.version);
      }
    }
    const tags = previous ? previous.tags : JSON.stringify(tagsObject(input.Tags));
    r.put({ ...fields, account: ctx.account, region: ctx.region, name, parent: parentOf(name), tags });
    r.insertVersion({ ...fields, account: ctx.account, region: ctx.region, name, labels: '[]' });
    return { Version: version, Tier: tier as SSM.ParameterTier };
  });
}

interface Resolved {
  name: string;
  fields: ParameterFields;
  selector?: string;
}

/** Finds the version a reference (`name`, `name:3`, `name:label`, ARN) points at; undefined when none. */
function resolveReference(ctx: Ctx, reference: string): Resolved | undefined {
  const ref = parseReference(ctx, reference);
  if (!ref.local) return undefined;
  const r = repo(ctx);
  let name = ref.name;
  let row = r.get(ctx.account, ctx.region, name);
  if (!row && ref.fromArn && !name.startsWith('/')) {
    name = `/${name}`;
    row = r.get(ctx.account, ctx.region, name);
  }
  if (!row) {
    checkReadableName(ref.name);
    return undefined;
  }
  const sel = ref.selector;
  if (sel.kind === 'none') return { name, fields: row };
  if (sel.kind === 'version') {
    const v = r.getVersion(ctx.account, ctx.region, name, sel.version);
    if (!v) throw ssmErrors.versionNotFound(name, sel.version);
    return { name, fields: v, selector: sel.text };
  }
  const labelled = r
    .listVersions(ctx.account, ctx.region, name, 0, MAX_VERSIONS)
    .find((v) => (JSON.parse(v.labels) as string[]).includes(sel.label));
  return labelled ? { name, fields: labelled, selector: sel.text } : undefined;
}

export function getParameter(ctx: Ctx, input: SSM.GetParameterRequest): SSM.GetParameterResult {
  validate('GetParameter', input);
  const found = resolveReference(ctx, input.Name!);
  if (!found) throw ssmErrors.parameterNotFound();
  return { Parameter: toParameter(ctx, found.name, found.fields, input.WithDecryption, found.selector) };
}

export function getParameters(ctx: Ctx, input: SSM.GetParametersRequest): SSM.GetParametersResult {
  validate('GetParameters', input);
  const parameters: SSM.Parameter[] = [];
  const invalid: string[] = [];
  for (const reference of new Set(input.Names!)) {
    let found: Resolved | undefined;
    try {
      found = resolveReference(ctx, reference);
    } catch (err) {
      // Badly formed names and unknown versions are reported as invalid, not as an error (the
      // API reference: "parameters that aren't formatted correctly").
      if (!isAwsError(err)) throw err;
    }
    if (found) parameters.push(toParameter(ctx, found.name, found.fields, input.WithDecryption, found.selector));
    else invalid.push(reference);
  }
  return { Parameters: parameters, InvalidParameters: invalid };
}

export function deleteParameter(ctx: Ctx, input: SSM.DeleteParameterRequest): SSM.DeleteParameterResult {
  validate('DeleteParameter', input);
  const name = input.Name!.trim();
  if (!repo(ctx).delete(ctx.account, ctx.region, name)) {
    checkReadableName(name);
    throw ssmErrors.parameterNotFound();
  }
  return {};
}

export function deleteParameters(ctx: Ctx, input: SSM.DeleteParametersRequest): SSM.DeleteParametersResult {
  validate('DeleteParameters', input);
  const deleted: string[] = [];
  const invalid: string[] = [];
  const r = repo(ctx);
  ctx.rt.meta.tx(() => {
    for (const name of new Set(input.Names!)) {
      if (r.delete(ctx.account, ctx.region, name.trim())) deleted.push(name);
      else invalid.push(name);
    }
  });
  return { DeletedParameters: deleted, InvalidParameters: invalid };
}

function requireParameter(ctx: Ctx, name: string): ParameterRow {
  const row = repo(ctx).get(ctx.account, ctx.region, name);
  if (!row) throw ssmErrors.parameterNotFound();
  return row;
}

export function labelParameterVersion(ctx: Ctx, input: SSM.LabelParameterVersionRequest): SSM.LabelParameterVersionResult {
  validate('LabelParameterVersion', input);
  const r = repo(ctx);
  return ctx.rt.meta.tx(() => {
    const row = requireParameter(ctx, input.Name!);
    const version = input.ParameterVersion ?? row.version;
    const target = r.getVersion(ctx.account, ctx.region, row.name, version);
    if (!target) throw ssmErrors.versionNotFound(row.name, version);
    const invalid = input.Labels!.filter(invalidLabel);
    const wanted = input.Labels!.filter((l) => !invalidLabel(l));
    const current = JSON.parse(target.labels) as string[];
    const merged = [...current, ...wanted.filter((l) => !current.includes(l))];
    if (merged.length > MAX_LABELS) throw ssmErrors.labelLimit();
    // A label names one version at a time: attaching it here moves it off any other version.
    for (const other of r.listVersions(ctx.account, ctx.region, row.name, 0, MAX_VERSIONS)) {
      if (other.version === version) continue;
      const labels = JSON.parse(other.labels) as string[];
      const kept = labels.filter((l) => !wanted.includes(l));
      if (kept.length !== labels.length) r.setLabels(ctx.account, ctx.region, row.name, other.version, kept);
    }
    r.setLabels(ctx.account, ctx.region, row.name, version, merged);
    return { InvalidLabels: invalid, ParameterVersion: version };
  });
}

export function unlabelParameterVersion(
  ctx: Ctx,
  input: SSM.UnlabelParameterVersionRequest,
): SSM.UnlabelParameterVersionResult {
  validate('UnlabelParameterVersion', input);
  const r = repo(ctx);
  return ctx.rt.meta.tx(() => {
    const row = requireParameter(ctx, input.Name!);
    const target: VersionRow | undefined = r.getVersion(ctx.account, ctx.region, row.name, input.ParameterVersion!);
    if (!target) throw ssmErrors.versionNotFound(row.name, input.ParameterVersion!);
    const labels = JSON.parse(target.labels) as string[];
    const removed = input.Labels!.filter((l) => labels.includes(l));
    const invalid = input.Labels!.filter((l) => !labels.includes(l));
    r.setLabels(ctx.account, ctx.region, row.name, target.version, labels.filter((l) => !removed.includes(l)));
    return { RemovedLabels: removed, InvalidLabels: invalid };
  });
}

function taggedParameter(ctx: Ctx, resourceType: string | undefined, resourceId: string): ParameterRow {
  if (resourceType !== 'Parameter') throw ssmErrors.invalidResourceId();
  const row = repo(ctx).get(ctx.account, ctx.region, resourceId);
  if (!row) throw ssmErrors.invalidResourceId();
  return row;
}

export function addTagsToResource(ctx: Ctx, input: SSM.AddTagsToResourceRequest): SSM.AddTagsToResourceResult {
  validate('AddTagsToResource', input);
  ctx.rt.meta.tx(() => {
    const row = taggedParameter(ctx, input.ResourceType, input.ResourceId!);
    const tags = { ...(JSON.parse(row.tags) as Record<string, string>), ...tagsObject(input.Tags) };
    if (Object.keys(tags).length > MAX_TAGS) throw ssmErrors.tooManyTags();
    repo(ctx).setTags(ctx.account, ctx.region, row.name, JSON.stringify(tags));
  });
  return {};
}

export function removeTagsFromResource(ctx: Ctx, input: SSM.RemoveTagsFromResourceRequest): SSM.RemoveTagsFromResourceResult {
  validate('RemoveTagsFromResource', input);
  ctx.rt.meta.tx(() => {
    const row = taggedParameter(ctx, input.ResourceType, input.ResourceId!);
    const tags = JSON.parse(row.tags) as Record<string, string>;
    for (const key of input.TagKeys!) delete tags[key];
    repo(ctx).setTags(ctx.account, ctx.region, row.name, JSON.stringify(tags));
  });
  return {};
}

export function listTagsForResource(ctx: Ctx, input: SSM.ListTagsForResourceRequest): SSM.ListTagsForResourceResult {
  validate('ListTagsForResource', input);
  const row = taggedParameter(ctx, input.ResourceType, input.ResourceId!);
  const tags = JSON.parse(row.tags) as Record<string, string>;
  return { TagList: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })) };
}
