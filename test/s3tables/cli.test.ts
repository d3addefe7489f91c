/**
 * The S3 Tables quick start with the `aws` CLI v1, verbatim, against a test server: the metadata
 * location it prints must hold a metadata.json that the CLI itself (`aws s3 cp`) and an Iceberg
 * reader (icebird) can read.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { icebergMetadata } from 'icebird';
import { describe, expect, it } from '../helpers/fixture.js';

const run = promisify(execFile);


const QUICK_START = `
ARN=$(aws s3tables create-table-bucket --name analytics --query arn --output text)
aws s3tables create-namespace --table-bucket-arn "$ARN" --namespace sales
aws s3tables create-table --table-bucket-arn "$ARN" --namespace sales --name orders --format ICEBERG \\
  --metadata '{"iceberg":{"schema":{"fields":[{"name":"id","type":"long","required":true}]}}}'
aws s3tables get-table-metadata-location --table-bucket-arn "$ARN" --namespace sales --name orders
`;

describe('aws CLI quick start', () => {
  it('has the s3tables commands', async ({ server: t }) => {
    const { stdout } = await run('aws', ['s3tables', 'help'], { env: t.env, maxBuffer: 8 << 20 });
    for (const command of ['create-table-bucket', 'create-namespace', 'create-table', 'get-table-metadata-location', 'update-table-metadata-location']) {
      expect(stdout).toContain(command);
    }
  });

  it('runs verbatim and prints a metadata location holding a readable metadata.json', async ({ server: t }) => {
    // `set -e` and the markers only frame the quick start; its lines run as written.
    const script = `set -e\n${QUICK_START.trim().split('\n').reduce<string[]>((out, line) => {
      if (line.startsWith('aws ') || line.startsWith('ARN=')) out.push(`echo '@@@'`);
      out.push(line);
      return out;
    }, []).join('\n')}\n`;
    const { stdout } = await run('bash', ['-c', script], { env: t.env, maxBuffer: 8 << 20 });
    const outputs = stdout.split('@@@\n').slice(1);
    expect(outputs).toHaveLength(4);
    expect(JSON.parse(outputs[1]!)).toEqual({ tableBucketARN: 'arn:aws:s3tables:us-east-1:000000000000:bucket/analytics', namespace: ['sales'] });
    const created = JSON.parse(outputs[2]!) as { tableARN: string; versionToken: string };
    expect(created.tableARN).toMatch(/^arn:aws:s3tables:us-east-1:000000000000:bucket\/analytics\/table\/[0-9a-f-]{36}$/);
    const location = JSON.parse(outputs[3]!) as { metadataLocation: string; warehouseLocation: string; versionToken: string };
    expect(location.versionToken).toBe(created.versionToken);
    expect(location.metadataLocation).toMatch(new RegExp(`^${location.warehouseLocation}/metadata/00000-[0-9a-f-]{36}\\.metadata\\.json$`));

    // The CLI reads the file from the warehouse over S3 …
    const { stdout: body } = await run('aws', ['s3', 'cp', location.metadataLocation, '-'], { env: t.env, maxBuffer: 8 << 20 });
    const viaCli = JSON.parse(body) as Record<string, any>;
    expect(viaCli['format-version']).toBe(2);
    expect(viaCli.location).toBe(location.warehouseLocation);
    expect(viaCli.schemas[0].fields).toEqual([{ id: 1, name: 'id', required: true, type: 'long' }]);
    // … and so does an Iceberg reader.
    const warehouse = location.warehouseLocation.replace('s3://', '');
    const meta = await icebergMetadata({ tableUrl: `${t.endpoint}/${warehouse}`, metadataFileName: location.metadataLocation.split('/').pop()! });
    expect(meta['table-uuid']).toBe(viaCli['table-uuid']);
    expect(meta['current-schema-id']).toBe(0);
  });
});
