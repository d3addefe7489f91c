/**
 * The typed Properties of the resource types Overcast runs (spec/property-types.ts) are generated
 * from the spec index and cover exactly the registry's types; typed reading coerces the scalars a
 * template writes as strings and refuses what the schema refuses.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { realResourceTypes } from '../../../src/services/cloudformation/resources/registry.js';
import { typedProperties } from '../../../src/services/cloudformation/resources/typed-properties.js';

describe('typed resource properties', () => {
  it('are what the spec index gives, for every type with a real provider', () => {
    expect(() => execFileSync(process.execPath, ['scripts/build-resource-types.mjs', '--check'], { stdio: 'pipe' })).not.toThrow();
    const text = readFileSync(new URL('../../../src/services/cloudformation/spec/property-types.ts', import.meta.url), 'utf8');
    const typed = [...text.matchAll(/^ {2}'(AWS::[^']+)': /gm)].map((m) => m[1]);
    expect(typed.sort()).toEqual(realResourceTypes());
  });

  it('turns strings into the numbers and booleans the schema declares, and back', () => {
    const p = typedProperties({ logicalId: 'T' }, 'AWS::S3Tables::Table', {
      TableBucketARN: 'arn:aws:s3tables:us-east-1:000000000000:bucket/b',
      Namespace: 'ns',
      TableName: 't',
      OpenTableFormat: 'ICEBERG',
      Compaction: { Status: 'enabled', TargetFileSizeMB: '256' },
      IcebergMetadata: { IcebergSchema: { SchemaFieldList: [{ Name: 'id', Type: 'long', Required: 'true', Id: '1' }] } },
    });
    expect(p.Compaction).toEqual({ Status: 'enabled', TargetFileSizeMB: 256 });
    expect(p.IcebergMetadata?.IcebergSchema?.SchemaFieldList[0]).toEqual({ Name: 'id', Type: 'long', Required: true, Id: 1 });
    const ssm = typedProperties({ logicalId: 'P' }, 'AWS::SSM::Parameter', { Type: 'String', Value: 42, Tags: { n: 7 } });
    expect(ssm).toEqual({ Type: 'String', Value: '42', Tags: { n: '7' } });
  });

  it('refuses properties the schema refuses, in CloudFormation words', () => {
    expect(() => typedProperties({ logicalId: 'N' }, 'AWS::S3Tables::Namespace', { Namespace: 'ns', Extra: 1 })).toThrow(
      'Properties validation failed for resource N with message: [#: required key [TableBucketARN] not found, #: extraneous key [Extra] is not permitted]',
    );
  });
});
