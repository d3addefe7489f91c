// CloudFormation: CreateStack → terminal status (the client's first DescribeStacks already sees
// CREATE_COMPLETE) for 1, 10 and 100 resources — S3 Tables resources (a table bucket, a namespace,
// tables with a schema, each with its warehouse and metadata.json) and SSM parameters — on the
// on-disk store, and the first stack of a freshly started server (lazy loading of the engine,
// the template layer and the spec index included).
//
// The rounds of each size follow the smaller ones on one server, so the first nine 100-resource
// stacks still run while V8 is optimizing the engine's per-resource code (on the server's one
// core, between and during requests); the 100-resource stack's target is judged once the
// engine is warm — after WARM_STACKS such stacks, as the throughput figures are taken after a
// warm-up — and the cold end is the first-stack figure.
import { CloudFormationClient, CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { median, startOvercast, stopChild, tempDir } from './lib.js';

const ROUNDS = 9;
const FIRST_ROUNDS = 5;
/** 100-resource stacks a server has created before the warm figure is taken (the nine above included). */
const WARM_STACKS = 30;

function client(endpoint) {
  return new CloudFormationClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
    maxAttempts: 1,
  });
}

function s3tablesTemplate(n, tag) {
  const resources = {
    Bucket: { Type: 'AWS::S3Tables::TableBucket', Properties: { TableBucketName: `bench-${tag}` } },
  };
  if (n >= 2) {
    resources.Ns = {
      Type: 'AWS::S3Tables::Namespace',
      Properties: { TableBucketARN: { 'Fn::GetAtt': ['Bucket', 'TableBucketARN'] }, Namespace: 'bench' },
    };
  }
  for (let i = 0; i < n - 2; i++) {
    resources[`Table${i}`] = {
      Type: 'AWS::S3Tables::Table',
      DependsOn: 'Ns',
      Properties: {
        TableBucketARN: { Ref: 'Bucket' },
        Namespace: 'bench',
        TableName: `t${i}`,
        OpenTableFormat: 'ICEBERG',
        IcebergMetadata: {
          IcebergSchema: { SchemaFieldList: [{ Name: 'id', Type: 'long', Required: true }, { Name: 'v', Type: 'string' }] },
        },
      },
    };
  }
  return JSON.stringify({ Resources: resources });
}

function ssmTemplate(n, tag) {
  const resources = {};
  for (let i = 0; i < n; i++) {
    resources[`P${i}`] = { Type: 'AWS::SSM::Parameter', Properties: { Name: `/bench/${tag}/${i}`, Type: 'String', Value: `v${i}` } };
  }
  return JSON.stringify({ Resources: resources });
}

/** CreateStack, then one DescribeStacks; returns ms until a terminal status was seen. */
async function createToTerminal(cfn, name, body) {
  const started = process.hrtime.bigint();
  await cfn.send(new CreateStackCommand({ StackName: name, TemplateBody: body }));
  for (let polls = 0; polls < 10_000; polls++) {
    const out = await cfn.send(new DescribeStacksCommand({ StackName: name }));
    const status = out.Stacks[0].StackStatus;
    if (!status.endsWith('_IN_PROGRESS')) {
      if (status !== 'CREATE_COMPLETE') throw new Error(`${name}: ${status}`);
      return { ms: Number(process.hrtime.bigint() - started) / 1e6, polls: polls + 1 };
    }
  }
  throw new Error(`${name} never finished`);
}

export async function run(report) {
  const dir = tempDir();
  const { child, endpoint } = await startOvercast({ dataDir: dir.path });
  try {
    const cfn = client(endpoint);
    await createToTerminal(cfn, 'warmup', ssmTemplate(2, 'warmup'));
    let seq = 0;
    for (const [kind, make] of [
      ['S3 Tables', s3tablesTemplate],
      ['SSM parameters', ssmTemplate],
    ]) {
      for (const n of [1, 10, 100]) {
        const times = [];
        let maxPolls = 0;
        for (let r = 0; r < ROUNDS; r++) {
          seq++;
          const { ms, polls } = await createToTerminal(cfn, `bench-${seq}`, make(n, `r${seq}`));
          times.push(ms);
          maxPolls = Math.max(maxPolls, polls);
        }
        report({
          area: 'cloudformation',
          metric: `CreateStack → CREATE_COMPLETE, ${n} ${kind} resource${n === 1 ? '' : 's'}${maxPolls > 1 ? ` (${maxPolls} polls)` : ''}`,
          value: median(times),
          unit: 'ms',
        });
      }
    }
    for (let r = ROUNDS; r < WARM_STACKS; r++) {
      seq++;
      await createToTerminal(cfn, `bench-${seq}`, s3tablesTemplate(100, `r${seq}`));
    }
    const warm = [];
    for (let r = 0; r < ROUNDS; r++) {
      seq++;
      warm.push((await createToTerminal(cfn, `bench-${seq}`, s3tablesTemplate(100, `r${seq}`))).ms);
    }
    report({
      area: 'cloudformation',
      metric: `CreateStack → CREATE_COMPLETE, 100 S3 Tables resources, warm (after ${WARM_STACKS} such stacks)`,
      value: median(warm),
      unit: 'ms',
      target: '≤ 50 ms',
    });
  } finally {
    await stopChild(child);
    dir.cleanup();
  }

  const first = [];
  for (let r = 0; r < FIRST_ROUNDS; r++) {
    const d = tempDir();
    const server = await startOvercast({ dataDir: d.path });
    try {
      first.push((await createToTerminal(client(server.endpoint), 'first', s3tablesTemplate(3, 'first'))).ms);
    } finally {
      await stopChild(server.child);
      d.cleanup();
    }
  }
  report({
    area: 'cloudformation',
    metric: 'first stack after start-up (bucket, namespace, table) → CREATE_COMPLETE',
    value: median(first),
    unit: 'ms',
  });
}
