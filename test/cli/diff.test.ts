/**
 * `overcast diff` as users run it, against an `overcast start --port 0 --in-memory` spawned for
 * this file: no differences (exit 0), an update with IAM statement and security-group tables
 * (exit 1, the layout `cdk diff` prints, from @aws-cdk/cloudformation-diff), a YAML template, a
 * CDK cloud assembly directory, a stack that does not exist (everything added), usage and
 * connection errors (exit 2); `overcast deploy` printing the same diff before it updates a stack;
 * and the server's log naming the service, action and caller of every request for a service
 * Overcast does not emulate (sent by the aws CLI, in three protocols).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, startCliServer, type CliServer } from '../helpers/cli-server.js';
import { tempDir } from '../helpers/server.js';

let server: CliServer;
let endpoint: string;
let tmp: { path: string; cleanup: () => void };

beforeAll(async () => {
  tmp = tempDir('overcast-diff-');
  server = await startCliServer(['--port', '0', '--in-memory', '--log-level', 'warn']);
  endpoint = server.endpoint;
});

afterAll(async () => {
  await server?.stop();
  tmp?.cleanup();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          AWS_ENDPOINT_URL: endpoint,
          AWS_ACCESS_KEY_ID: '111122223333',
          AWS_SECRET_ACCESS_KEY: 'test',
          AWS_DEFAULT_REGION: 'us-east-1',
          NO_COLOR: '1',
          ...env,
        },
        timeout: 60_000,
      },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

const overcast = (args: string[], env?: NodeJS.ProcessEnv) => run(process.execPath, [BIN, ...args], env);

function writeFile(name: string, text: string): string {
  const file = join(tmp.path, name);
  writeFileSync(file, text);
  return file;
}

const param = (value: string) => ({ Type: 'AWS::SSM::Parameter', Properties: { Name: '/diff/setting', Type: 'String', Value: value } });
const BASE = { Resources: { Setting: param('one') } };
const CHANGED = {
  Resources: {
    Setting: param('two'),
    Role: {
      Type: 'AWS::IAM::Role',
      Properties: {
        AssumeRolePolicyDocument: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }] },
        Policies: [{ PolicyName: 'read', PolicyDocument: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::diff-data/*' }] } }],
      },
    },
    Group: {
      Type: 'AWS::EC2::SecurityGroup',
      Properties: { GroupDescription: 'web', SecurityGroupIngress: [{ IpProtocol: 'tcp', FromPort: 443, ToPort: 443, CidrIp: '0.0.0.0/0' }] },
    },
  },
};

describe('overcast diff', () => {
  it('says there are no differences (exit 0) for the deployed template', async () => {
    const base = writeFile('base.json', JSON.stringify(BASE));
    expect((await overcast(['deploy', base, '--stack-name', 'Diffed'])).code).toBe(0);
    const r = await overcast(['diff', base, '--stack-name', 'Diffed']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('There were no differences');
    expect(r.stdout).toContain('Number of stacks with differences: 0');
  });

  it('prints the changes with the IAM and security-group tables, exit 1, as cdk diff does', async () => {
    const changed = writeFile('changed.json', JSON.stringify(CHANGED));
    const r = await overcast(['diff', changed, '--stack-name', 'Diffed']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^Stack Diffed$/m);
    expect(r.stdout).toContain('IAM Statement Changes');
    expect(r.stdout).toContain('arn:aws:s3:::diff-data/*');
    expect(r.stdout).toContain('Security Group Changes');
    expect(r.stdout).toMatch(/\$\{Group\.GroupId\} .* In .* TCP 443 .* Everyone \(IPv4\)/);
    expect(r.stdout).toMatch(/\[\+\] AWS::IAM::Role Role/);
    expect(r.stdout).toMatch(/\[~\] AWS::SSM::Parameter Setting/);
    expect(r.stdout).toMatch(/\[-\] one/);
    expect(r.stdout).toMatch(/\[\+\] two/);
    expect(r.stdout).toContain('Number of stacks with differences: 1');
  });

  it('reads YAML and a CDK cloud assembly, and compares a missing stack with an empty one', async () => {
    const yaml = writeFile('changed.yaml', 'Resources:\n  Setting:\n    Type: AWS::SSM::Parameter\n    Properties: {Name: /diff/setting, Type: String, Value: three}\n');
    const fromYaml = await overcast(['diff', yaml, '--stack-name', 'Diffed']);
    expect(fromYaml.code, fromYaml.stderr).toBe(1);
    expect(fromYaml.stdout).toMatch(/\[\+\] three/);

    const assembly = join(tmp.path, 'cdk.out');
    mkdirSync(assembly);
    writeFileSync(join(assembly, 'Diffed.template.json'), JSON.stringify(BASE));
    writeFileSync(
      join(assembly, 'manifest.json'),
      JSON.stringify({ version: '48.0.0', artifacts: { Diffed: { type: 'aws:cloudformation:stack', environment: 'aws://unknown-account/unknown-region', properties: { templateFile: 'Diffed.template.json' } } } }),
    );
    const fromAssembly = await overcast(['diff', assembly, '--stack-name', 'Diffed']);
    expect(fromAssembly.code, fromAssembly.stderr).toBe(0);
    const otherStack = await overcast(['diff', assembly, '--stack-name', 'Nope']);
    expect(otherStack.code).toBe(2);
    expect(otherStack.stderr).toContain('no stack Nope in');

    const missing = await overcast(['diff', writeFile('new.json', JSON.stringify(BASE)), '--stack-name', 'NotDeployed']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/\[\+\] AWS::SSM::Parameter Setting/);
  });

  it('answers usage and connection errors with exit 2', async () => {
    const usage = await overcast(['diff', '--stack-name', 'Diffed']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('give one template');
    const noStackName = await overcast(['diff', 'x.json']);
    expect(noStackName.code).toBe(2);
    const down = await overcast(['diff', writeFile('again.json', JSON.stringify(BASE)), '--stack-name', 'Diffed'], { AWS_ENDPOINT_URL: 'http://127.0.0.1:9' });
    expect(down.code).toBe(2);
    expect(down.stderr).toContain('cannot reach Overcast');
  });

  it('overcast deploy prints the diff before it updates an existing stack', async () => {
    const yaml = writeFile('update.yaml', 'Resources:\n  Setting:\n    Type: AWS::SSM::Parameter\n    Properties: {Name: /diff/setting, Type: String, Value: four}\n');
    const r = await overcast(['deploy', yaml, '--stack-name', 'Diffed']);
    expect(r.code, r.stderr).toBe(0);
    const diffAt = r.stdout.search(/\[~\] AWS::SSM::Parameter Setting/);
    const updateAt = r.stdout.indexOf('UPDATE_IN_PROGRESS');
    expect(diffAt).toBeGreaterThanOrEqual(0);
    expect(updateAt).toBeGreaterThan(diffAt);
    expect(r.stdout).toMatch(/\[\+\] four/);
  });
});

describe('requests for services Overcast does not emulate', () => {
  it('are logged with the service, the action and the caller, whatever the protocol', async () => {
    const aws = (args: string[]) => run('aws', [...args, '--endpoint-url', endpoint]);
    const [json, query, rest] = await Promise.all([aws(['dynamodb', 'list-tables']), aws(['sns', 'list-topics']), aws(['eks', 'list-clusters'])]);
    for (const r of [json, query, rest]) expect(r.code).not.toBe(0);
    expect(json.stderr).toContain('not emulated');
    await new Promise((r) => setTimeout(r, 300)); // the log is written asynchronously
    const warnings = server.output().split('\n').filter((l) => l.includes('which Overcast does not emulate'));
    expect(warnings.find((l) => l.includes('request for dynamodb'))).toContain(': ListTables from 111122223333 (access key 111122223333)');
    expect(warnings.find((l) => l.includes('request for sns'))).toContain(': ListTopics from 111122223333');
    expect(warnings.find((l) => l.includes('request for eks'))).toContain(': GET /clusters from 111122223333');
  });
});
