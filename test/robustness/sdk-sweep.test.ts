/**
 * The sweep through the real clients: the AWS SDK for JavaScript v3 sends every operation each
 * service serves with each required member left out (the SDKs do not check), and again with a
 * middleware that corrupts the serialized request after the SDK built it — a body member of the
 * wrong JSON type, a truncated body, `null` or an array for the body, a list member `.member.0`
 * and an unknown action for the query protocol, truncated XML for S3. The client must then read
 * a service error it can name (a modeled exception or a code AWS uses), with a 4xx status and a
 * client fault — never a deserialization failure, never a 500.
 */
import * as cfnSdk from '@aws-sdk/client-cloudformation';
import * as s3Sdk from '@aws-sdk/client-s3';
import * as s3tSdk from '@aws-sdk/client-s3tables';
import * as ssmSdk from '@aws-sdk/client-ssm';
import * as stsSdk from '@aws-sdk/client-sts';
import { describe, expect, it } from '../helpers/fixture.js';
import { serviceModel, type ServiceId, type ServiceModel } from '../../src/model/service-model.js';
import { SERVICES } from '../../src/services/registry.js';
import type { TestServer } from '../helpers/server.js';
import { sampleInput, type Fixtures } from './model-inputs.js';
import { Findings, healthy, knownCodes, type Protocol } from './support.js';
import { servedOperations } from '../../src/services/service-routes.js';


interface HttpRequestLike {
  method: string;
  path: string;
  query: Record<string, string | string[] | null>;
  headers: Record<string, string>;
  body?: unknown;
}

type Corruption = (req: HttpRequestLike) => boolean;

function setBody(req: HttpRequestLike, body: string): true {
  req.body = body;
  for (const h of Object.keys(req.headers)) {
    if (/^(content-length|content-md5|x-amz-checksum-|x-amz-sdk-checksum|x-amz-trailer|x-amz-decoded-content-length)/i.test(h)) delete req.headers[h];
  }
  req.headers['content-length'] = String(Buffer.byteLength(body));
  return true;
}

const textBody = (req: HttpRequestLike) => (typeof req.body === 'string' ? req.body : undefined);

/** Corruptions of an already serialized request, per protocol; each returns false when it does not apply. */
const CORRUPTIONS: Record<Protocol, [string, Corruption][]> = {
  json: [
    ['first member an object', (req) => corruptJson(req)],
    ['truncated body', (req) => textBody(req) !== undefined && setBody(req, textBody(req)!.slice(0, -1))],
    ['body null', (req) => setBody(req, 'null')],
  ],
  'rest-json': [
    ['first member an object', (req) => corruptJson(req)],
    ['truncated body', (req) => textBody(req) !== undefined && textBody(req) !== '' && setBody(req, textBody(req)!.slice(0, -1))],
    ['body an array', (req) => textBody(req) !== undefined && setBody(req, '[1]')],
    ['label with %00', (req) => req.path.split('/').length > 2 && ((req.path = req.path.replace(/\/([^/]+)$/, '/%00$1')), true)],
  ],
  query: [
    ['list member.0', (req) => textBody(req) !== undefined && setBody(req, `${textBody(req)}&Tags.member.0.Key=k&Capabilities.member.-1=x`)],
    ['unknown action', (req) => textBody(req) !== undefined && setBody(req, textBody(req)!.replace(/Action=\w+/, 'Action=NoSuchAction'))],
    ['number member text', (req) => textBody(req) !== undefined && setBody(req, `${textBody(req)}&DurationSeconds=abc&TimeoutInMinutes=NaN&MaxResults=1e400`)],
  ],
  'rest-xml': [
    ['truncated XML', (req) => typeof req.body === 'string' && req.body.startsWith('<') && setBody(req, req.body.slice(0, Math.floor(req.body.length / 2)))],
    ['unknown XML root', (req) => typeof req.body === 'string' && req.body.includes('<') && setBody(req, '<NoSuchRoot/>')],
    ['bad max-keys and part number', (req) => ((req.query['max-keys'] = 'abc'), (req.query.partNumber = '0'), true)],
  ],
};

function corruptJson(req: HttpRequestLike): boolean {
  const text = textBody(req);
  if (!text) return false;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const first = Object.keys(body)[0];
    if (!first) return false;
    body[first] = { corrupted: [1, 2] };
    return setBody(req, JSON.stringify(body));
  } catch {
    return false;
  }
}

interface SdkService {
  id: ServiceId;
  protocol: Protocol;
  sdk: Record<string, unknown>;
  client: string;
  fixtures: () => Promise<Fixtures>;
}

interface ServiceErrorLike {
  name: string;
  message: string;
  $fault?: string;
  $metadata?: { httpStatusCode?: number };
}

const template = JSON.stringify({ Resources: { H: { Type: 'AWS::CloudFormation::WaitConditionHandle' } } });

function services(t: TestServer): SdkService[] {
  return [
    {
      id: 's3tables', protocol: 'rest-json', sdk: s3tSdk, client: 'S3TablesClient',
      fixtures: async () => {
        const c = new s3tSdk.S3TablesClient({ ...t.clientConfig, maxAttempts: 1 });
        const arn = (await c.send(new s3tSdk.CreateTableBucketCommand({ name: 'sdk-sweep' }))).arn!;
        await c.send(new s3tSdk.CreateNamespaceCommand({ tableBucketARN: arn, namespace: ['sdkns'] }));
        const table = await c.send(new s3tSdk.CreateTableCommand({ tableBucketARN: arn, namespace: 'sdkns', name: 'sdktable', format: 'ICEBERG' }));
        return { tableBucketARN: arn, namespace: 'sdkns', name: 'sdktable', tableARN: table.tableARN, tableArn: table.tableARN, resourceArn: table.tableARN };
      },
    },
    {
      id: 'ssm', protocol: 'json', sdk: ssmSdk, client: 'SSMClient',
      fixtures: async () => {
        await new ssmSdk.SSMClient({ ...t.clientConfig, maxAttempts: 1 }).send(new ssmSdk.PutParameterCommand({ Name: '/sdk/p', Value: 'v', Type: 'String' }));
        return { Name: '/sdk/p', Names: ['/sdk/p'], ResourceType: 'Parameter', ResourceId: '/sdk/p', Path: '/sdk' };
      },
    },
    {
      id: 'cloudformation', protocol: 'query', sdk: cfnSdk, client: 'CloudFormationClient',
      fixtures: async () => {
        await new cfnSdk.CloudFormationClient({ ...t.clientConfig, maxAttempts: 1 }).send(new cfnSdk.CreateStackCommand({ StackName: 'sdk-stack', TemplateBody: template }));
        await t.server.runtime.background.drain();
        return { StackName: 'sdk-stack', TemplateBody: template, ChangeSetName: 'sdk-cs', LogicalResourceId: 'H' };
      },
    },
    {
      id: 'sts', protocol: 'query', sdk: stsSdk, client: 'STSClient',
      fixtures: async () => ({ RoleArn: 'arn:aws:iam::000000000000:role/sdk', RoleSessionName: 'sdk', WebIdentityToken: 'token-sdk-0000' }),
    },
    {
      id: 's3', protocol: 'rest-xml', sdk: s3Sdk, client: 'S3Client',
      fixtures: async () => {
        const c = new s3Sdk.S3Client({ ...t.clientConfig, maxAttempts: 1 });
        await c.send(new s3Sdk.CreateBucketCommand({ Bucket: 'sdk-sweep' }));
        await c.send(new s3Sdk.PutObjectCommand({ Bucket: 'sdk-sweep', Key: 'k', Body: 'x' }));
        return { Bucket: 'sdk-sweep', Key: 'k', CopySource: 'sdk-sweep/k', UploadId: 'no-such-upload', PartNumber: 1 };
      },
    },
  ];
}

/** The names a client may surface: modeled exceptions, AWS codes, and S3's status names for HEAD. */
function acceptable(model: ServiceModel, protocol: Protocol, operation: string, err: ServiceErrorLike): string | undefined {
  const status = err.$metadata?.httpStatusCode;
  if (status === undefined) return undefined; // refused by the client before sending
  // The S3 client's own verdict on a 200 without the body it wanted (middleware-sdk-s3's
  // throw-200-exceptions): CopyObject without a copy source is a PutObject, on AWS too.
  if (err.message === 'S3 aborted request') return undefined;
  if (status >= 500) return `status ${status} ${err.name}: ${err.message}`;
  if (/Deserialization error|XML parse error|Unexpected token/i.test(err.message)) return `the client could not parse the error: ${err.message}`;
  if (err.$fault !== 'client') return `fault ${err.$fault}`;
  if (operation.startsWith('Head')) return undefined;
  if (!knownCodes(model, protocol).has(err.name)) return `unknown error name ${err.name} (${status}): ${err.message.slice(0, 120)}`;
  return undefined;
}

describe('hostile-input sweep through the SDK clients', () => {
  it('every served operation, required members left out and serialized requests corrupted, reads as a client error', async ({ server: t }) => {
    const findings = new Findings();
    for (const svc of services(t)) {
      const model = serviceModel(svc.id);
      const routes = await SERVICES.find((s) => s.id === svc.id)!.load();
      const fixtures = await svc.fixtures();
      const Client = svc.sdk[svc.client] as new (config: object) => {
        send(command: unknown): Promise<unknown>;
        middlewareStack: { add(mw: unknown, opts: object): void };
      };
      let corruption: Corruption | undefined;
      const client = new Client({ ...t.clientConfig, maxAttempts: 1 });
      client.middlewareStack.add(
        (next: (args: { request: HttpRequestLike }) => Promise<unknown>) => async (args: { request: HttpRequestLike }) => {
          if (corruption && !corruption(args.request)) throw new Error('not applicable');
          return next(args);
        },
        { step: 'finalizeRequest', priority: 'low', name: 'robustnessCorruption' },
      );
      for (const operation of servedOperations(routes)) {
        const Command = svc.sdk[`${operation}Command`] as (new (input: object) => unknown) | undefined;
        if (!Command || !model.operations[operation]) continue;
        const op = model.operations[operation]!;
        const shape = op.input ? model.shapes[op.input.shape]! : undefined;
        const base = sampleInput(model, operation, fixtures);
        // A body of known length, so the S3 client does not warn about streams.
        if (shape?.members?.Body && model.shapes[shape.members.Body.shape]?.type === 'blob') base.Body = 'x';
        const variants: [string, Record<string, unknown>, Corruption | undefined][] = [];
        for (const name of shape?.required ?? []) {
          if (shape!.members![name]!.location === 'uri') continue; // the SDK refuses to build the URI
          const input = { ...base };
          delete input[name];
          variants.push([`missing ${name}`, input, undefined]);
        }
        for (const [label, c] of CORRUPTIONS[svc.protocol]) variants.push([label, base, c]);
        for (const [label, input, c] of variants) {
          corruption = c;
          findings.count++;
          try {
            await client.send(new Command(input));
          } catch (err) {
            const e = err as ServiceErrorLike;
            if (e.message === 'not applicable') {
              findings.count--;
              continue;
            }
            const problem = acceptable(model, svc.protocol, operation, e);
            if (problem) findings.add(`${svc.id}.${operation} [${label}]`, problem);
          } finally {
            corruption = undefined;
          }
        }
      }
      if (!(await healthy(t))) findings.add(svc.id, 'health check failed');
    }
    expect(findings.report()).toBe('');
    expect(findings.count).toBeGreaterThan(300);
  });
});
