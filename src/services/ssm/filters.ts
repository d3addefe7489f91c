/**
 * ParameterFilters (DescribeParameters, GetParametersByPath) and the legacy Filters of
 * DescribeParameters: which keys and options each operation accepts, AWS's error for each misuse,
 * and whether a parameter matches. A filter's values are alternatives; filters combine with AND.
 * Name and Path compare names with a leading slash either way (`/a` and `a` are both at `/`).
 */
import type * as SSM from '@aws-sdk/client-ssm';
import type { ParameterRow } from '../../store/ssm-repo.js';
import { ssmErrors } from './errors.js';
import { checkPath, parentOf } from './naming.js';

type FilterContext = 'describe' | 'by-path';

const TYPES = ['String', 'StringList', 'SecureString'];
const TIERS = ['Standard', 'Advanced', 'Intelligent-Tiering'];
const NEEDS_VALUES = new Set(['Name', 'Type', 'Path', 'Tier', 'KeyId', 'DataType']);

export interface NormalizedFilter {
  key: string;
  option: string;
  values: string[];
}

function defaultOption(key: string): string {
  return key === 'Path' ? 'OneLevel' : 'Equals';
}

/** Checks ParameterFilters the way the service does; returns them with their default options. */
export function checkParameterFilters(
  filters: SSM.ParameterStringFilter[] | undefined,
  context: FilterContext,
): NormalizedFilter[] {
  const out: NormalizedFilter[] = [];
  const seen = new Set<string>();
  for (const f of filters ?? []) {
    const key = f.Key!;
    const option = f.Option ?? defaultOption(key);
    const values = f.Values ?? [];
    if (context === 'describe' && key === 'Label') {
      throw ssmErrors.invalidFilterKey(
        'The following filter key is not valid: Label. Valid filter keys include: [Path, Name, Type, KeyId, Tier].',
      );
    }
    if (context === 'by-path' && ['Name', 'Path', 'Tier', 'DataType'].includes(key)) {
      throw ssmErrors.invalidFilterKey(`The following filter key is not valid: ${key}. Valid filter keys include: [Type, KeyId].`);
    }
    if (NEEDS_VALUES.has(key) && values.length === 0) {
      throw ssmErrors.invalidFilterValue(`The following filter values are missing : null for filter key ${key}.`);
    }
    if (seen.has(key)) {
      throw ssmErrors.invalidFilterKey(
        `The following filter is duplicated in the request: ${key}. A request can contain only one occurrence of a specific filter.`,
      );
    }
    seen.add(key);
    if (key === 'Path') {
      if (option !== 'OneLevel' && option !== 'Recursive') {
        throw ssmErrors.invalidFilterOption(
          `The following filter option is not valid: ${option}. Valid options include: [Recursive, OneLevel].`,
        );
      }
      for (const v of values) {
        if (/^\/(aws|ssm)/i.test(v)) {
          throw ssmErrors.validation(
            'Filters for common parameters can\'t be prefixed with "aws" or "ssm" (case-insensitive). When using global parameters, please specify within a global namespace.',
          );
        }
        checkPath(v);
      }
    } else if (key === 'Label') {
      if (option !== 'Equals') {
        throw ssmErrors.invalidFilterOption(`The following filter option is not valid: ${option}. Valid options include: [Equals].`);
      }
    } else {
      const allowed = key === 'Name' ? ['Equals', 'BeginsWith', 'Contains'] : ['Equals', 'BeginsWith'];
      if (!allowed.includes(option)) {
        throw ssmErrors.invalidFilterOption(
          `The following filter option is not valid: ${option}. Valid options include: [${allowed.join(', ')}].`,
        );
      }
    }
    const enumValues = key === 'Type' ? TYPES : key === 'Tier' ? TIERS : undefined;
    if (enumValues && option === 'Equals') {
      for (const v of values) {
        if (!enumValues.includes(v)) {
          throw ssmErrors.invalidFilterOption(
            `The following filter value is not valid: ${v}. Valid values include: [${enumValues.join(', ')}].`,
          );
        }
      }
    }
    out.push({ key, option, values: key === 'Path' ? values.map((v) => checkPath(v)) : values });
  }
  return out;
}

/** The legacy DescribeParameters Filters (Name prefix, Type, KeyId) as ParameterFilters. */
export function legacyFilters(filters: SSM.ParametersFilter[] | undefined): NormalizedFilter[] {
  return (filters ?? []).map((f) => ({
    key: f.Key!,
    option: f.Key === 'Name' ? 'BeginsWith' : 'Equals',
    values: f.Values ?? [],
  }));
}

function slashed(name: string): string {
  return `/${name.replace(/^\/+/, '')}`;
}

function compare(option: string, actual: string, wanted: string): boolean {
  if (option === 'BeginsWith') return actual.startsWith(wanted);
  if (option === 'Contains') return actual.includes(wanted);
  return actual === wanted;
}

/**
 * True when `row` passes every filter. `labelsOf` lists the labels of the parameter's versions
 * (only called for a Label filter).
 */
export function matches(row: ParameterRow, filters: NormalizedFilter[], labelsOf: () => string[]): boolean {
  for (const f of filters) {
    switch (f.key) {
      case 'Name': {
        const name = slashed(row.name);
        const values = f.option === 'Contains' ? f.values : f.values.map(slashed);
        if (!values.some((v) => compare(f.option, name, v))) return false;
        break;
      }
      case 'Path': {
        const parent = parentOf(row.name);
        const name = slashed(row.name);
        const ok = f.values.some((p) =>
          f.option === 'Recursive' ? p === '/' || name.startsWith(`${p}/`) : parent === p,
        );
        if (!ok) return false;
        break;
      }
      case 'Type':
        if (!f.values.some((v) => compare(f.option, row.type, v))) return false;
        break;
      case 'KeyId':
        if (!row.key_id || !f.values.some((v) => compare(f.option, row.key_id!, v))) return false;
        break;
      case 'Tier':
        if (!f.values.some((v) => compare(f.option, row.tier, v))) return false;
        break;
      case 'DataType':
        if (!f.values.some((v) => compare(f.option, row.data_type, v))) return false;
        break;
      case 'Label': {
        const labels = labelsOf();
        if (!f.values.some((v) => labels.includes(v))) return false;
        break;
      }
      default: {
        if (!f.key.startsWith('tag:')) return false;
        const tags = JSON.parse(row.tags) as Record<string, string>;
        const value = tags[f.key.slice(4)];
        if (value === undefined) return false;
        // A tag filter without values asks only whether the tag exists.
        if (f.values.length > 0 && !f.values.some((v) => compare(f.option, value, v))) return false;
      }
    }
  }
  return true;
}
