/**
 * The defects the hostile-input sweep found, each pinned by the smallest request that showed it:
 * the request, AWS's answer (status, code, shape) and the state afterwards.
 */
import { createHash } from 'node:crypto';
import net from 'node:net';
import {
  CreateBucketCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  GetBucketTaggingCommand,
  ListObjectsV2Command,
  PutBucketCorsCommand,
  PutBucketTaggingCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import {
  CloudFormationClient,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  ListStacksCommand,
  UpdateStackCommand,
  UpdateTerminationProtectionCommand,
} from '@aws-sdk/client-cloudformation';
import { describe, expect, it } from '../helpers/fixture.js';
import type { TestServer } from '../helpers/server.js';
import { authorization, readError, send } from './support.js';


/** Writes `text` on a fresh connection and returns everything the server sends until it closes. */
async function rawExchange(t: TestServer, text: string | Buffer): Promise<string> {
  return (await rawBytes(t, text)).toString('utf8');
}

function rawBytes(t: TestServer, text: string | Buffer): Promise<Buffer> {
  const url = new URL(t.endpoint);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(text));
    const got: Buffer[] = [];
    socket.on('data', (d: Buffer) => got.push(d));
    socket.on('close', () => resolve(Buffer.concat(got)));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer')));
  });
}

describe('errors outside the codecs come in the shape of the service named', () => {
  it('a header section too large: S3 RequestHeaderSectionTooLarge, and the connection closes', async ({ server: t }) => {
    const answer = await rawExchange(t, `GET /bucket/${'k'.repeat(100_000)} HTTP/1.1\r\nhost: localhost\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toContain('<Error><Code>RequestHeaderSectionTooLarge</Code>');
    expect((await send(t.endpoint, { method: 'GET', path: '/_overcast/health' })).status).toBe(200);
  });

  it('the credential scope after an oversized request line still picks the shape (SSM: JSON)', async ({ server: t }) => {
    const answer = await rawExchange(t, 
      `POST /${'a'.repeat(100_000)} HTTP/1.1\r\nhost: localhost\r\nauthorization: ${authorization('ssm')}\r\ncontent-length: 2\r\n\r\n{}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\nx-amzn-errortype: ValidationException\r\n/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ __type: 'ValidationException' });
  });

  it('a HEAD request gets the status without a body', async ({ server: t }) => {
    const answer = await rawExchange(t, `HEAD /bucket/${'k'.repeat(100_000)} HTTP/1.1\r\nhost: localhost\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.endsWith('\r\n\r\n')).toBe(true);
  });

  it('bad percent-encoding for a query service: an XML ErrorResponse, not JSON', async ({ server: t }) => {
    const res = await send(t.endpoint, {
      method: 'POST',
      path: '/a%zz',
      headers: { authorization: authorization('cloudformation'), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'Action=ListExports&Version=2010-05-15',
    });
    expect(res.status).toBe(400);
    expect(res.body.toString()).toMatch(/^<ErrorResponse xmlns="http:\/\/cloudformation\.amazonaws\.com\/doc\/2010-05-15\/"><Error><Type>Sender<\/Type><Code>MalformedQueryString<\/Code>/);
  });
});

describe('a Content-Type fastify cannot parse still reaches the service', () => {
  it('S3 stores an object whose Content-Type is empty or not a media type, as AWS does', async ({ server: t }) => {
    const auth = { authorization: authorization('s3') };
    expect((await send(t.endpoint, { method: 'PUT', path: '/ct-bucket', headers: auth })).status).toBe(200);
    for (const [key, type] of [['empty', ''], ['garbage', 'garbage'], ['params', 'text/plain; ;;']] as const) {
      const put = await send(t.endpoint, { method: 'PUT', path: `/ct-bucket/${key}`, headers: { ...auth, 'content-type': type }, body: 'x' });
      expect(put.status, type).toBe(200);
      const head = await send(t.endpoint, { method: 'HEAD', path: `/ct-bucket/${key}`, headers: auth });
      expect(head.status).toBe(200);
    }
    expect((await send(t.endpoint, { method: 'HEAD', path: '/ct-bucket/garbage', headers: auth })).headers['content-type']).toBe('garbage');
  });

  it('SSM and S3 Tables answer in their own shape, never 500', async ({ server: t }) => {
    const ssm = await send(t.endpoint, {
      method: 'POST',
      path: '/',
      headers: { authorization: authorization('ssm'), 'x-amz-target': 'AmazonSSM.GetParameter', 'content-type': '' },
      body: '{"Name":"/nope"}',
    });
    expect([ssm.status, ssm.headers['x-amzn-errortype']]).toEqual([400, 'ParameterNotFound']);
    const s3t = await send(t.endpoint, {
      method: 'PUT',
      path: '/buckets',
      headers: { authorization: authorization('s3tables'), 'content-type': 'not a type' },
      body: '{"name":"ct-bucket"}',
    });
    expect(s3t.status).toBe(200);
  });
});

describe('S3 XML bodies are parsed as XML 1.0, expanding no entity of the client', () => {
  const md5 = (body: string) => createHash('md5').update(body).digest('base64');
  const putTagging = (t: TestServer, bucket: string, body: string) =>
    send(t.endpoint, {
      method: 'PUT',
      path: `/${bucket}?tagging`,
      headers: { authorization: authorization('s3'), 'content-md5': md5(body), 'content-type': 'application/xml' },
      body,
    });

  it('refuses DTDs, undefined entities, bad character references and runaway nesting with MalformedXML, changing nothing', async ({ server: t }) => {
    const s3 = new S3Client({ ...t.clientConfig, maxAttempts: 1 });
    await s3.send(new CreateBucketCommand({ Bucket: 'xml-bucket' }));
    await s3.send(new PutBucketTaggingCommand({ Bucket: 'xml-bucket', Tagging: { TagSet: [{ Key: 'k', Value: 'before' }] } }));
    const tag = (value: string) => `<Tagging><TagSet><Tag><Key>k</Key><Value>${value}</Value></Tag></TagSet></Tagging>`;
    const bodies = [
      `<!DOCTYPE t [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>${tag('&b;')}`,
      `<?xml version="1.0"?><!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]>${tag('&x;')}`,
      tag('&undefined;'),
      tag('a&#0;b'),
      tag('&#xD800;'),
      `<Tagging>${'<a>'.repeat(20_000)}${'</a>'.repeat(20_000)}</Tagging>`,
    ];
    for (const body of bodies) {
      const res = await putTagging(t, 'xml-bucket', body);
      expect([res.status, /<Code>(\w+)<\/Code>/.exec(res.body.toString())?.[1]], body.slice(0, 60)).toEqual([400, 'MalformedXML']);
    }
    const tags = await s3.send(new GetBucketTaggingCommand({ Bucket: 'xml-bucket' }));
    expect(tags.TagSet).toEqual([{ Key: 'k', Value: 'before' }]);
  });

  it("decodes character references: the SDK's line breaks in DeleteObjects keys delete the right object", async ({ server: t }) => {
    const s3 = new S3Client({ ...t.clientConfig, maxAttempts: 1 });
    await s3.send(new CreateBucketCommand({ Bucket: 'xml-keys' }));
    const key = 'line\nbreak\rreturn\u2028separator';
    await s3.send(new PutObjectCommand({ Bucket: 'xml-keys', Key: key, Body: 'x' }));
    // Listed back intact: a carriage return in a response is written as a reference.
    expect((await s3.send(new ListObjectsV2Command({ Bucket: 'xml-keys' }))).Contents?.map((o) => o.Key)).toEqual([key]);
    const res = await s3.send(new DeleteObjectsCommand({ Bucket: 'xml-keys', Delete: { Objects: [{ Key: key }] } }));
    expect(res.Deleted?.map((d) => d.Key)).toEqual([key]);
    expect((await s3.send(new ListObjectsV2Command({ Bucket: 'xml-keys' }))).KeyCount).toBe(0);
    const tagged = await putTagging(t, 'xml-keys', '<Tagging><TagSet><Tag><Key>&#65;&amp;</Key><Value><![CDATA[<&>]]></Value></Tag></TagSet></Tagging>');
    expect(tagged.status).toBeLessThan(300);
    expect((await s3.send(new GetBucketTaggingCommand({ Bucket: 'xml-keys' }))).TagSet).toEqual([{ Key: 'A&', Value: '<&>' }]);
  });
});

describe('a body over the limit is answered, not reset', () => {
  it('S3: an XML body over 2 MiB is MaxMessageLengthExceeded, and nothing changes', async ({ server: t }) => {
    const auth = { authorization: authorization('s3') };
    await send(t.endpoint, { method: 'PUT', path: '/big-bodies', headers: auth });
    const body = `<Tagging><TagSet>${' '.repeat(3 * 1024 * 1024)}</TagSet></Tagging>`;
    const res = await send(t.endpoint, { method: 'PUT', path: '/big-bodies?tagging', headers: { ...auth, 'content-type': 'application/xml' }, body });
    expect([res.status, /<Code>(\w+)<\/Code>/.exec(res.body.toString())?.[1]]).toEqual([400, 'MaxMessageLengthExceeded']);
    const after = await send(t.endpoint, { method: 'GET', path: '/big-bodies?tagging', headers: auth });
    expect(/<Code>(\w+)<\/Code>/.exec(after.body.toString())?.[1]).toBe('NoSuchTagSet');
  });

  it('JSON and query services: 413 with their own validation code (no model has RequestEntityTooLarge)', async ({ server: t }) => {
    const big = 'x'.repeat(17 * 1024 * 1024);
    const ssm = await send(t.endpoint, {
      method: 'POST',
      path: '/',
      headers: { authorization: authorization('ssm'), 'x-amz-target': 'AmazonSSM.PutParameter', 'content-type': 'application/x-amz-json-1.1' },
      body: JSON.stringify({ Name: '/big', Value: big, Type: 'String' }),
    });
    expect([ssm.status, ssm.headers['x-amzn-errortype']]).toEqual([413, 'ValidationException']);
    const cfn = await send(t.endpoint, {
      method: 'POST',
      path: '/',
      headers: { authorization: authorization('cloudformation'), 'content-type': 'application/x-www-form-urlencoded' },
      body: `Action=ValidateTemplate&Version=2010-05-15&TemplateBody=${big}`,
    });
    expect(cfn.status).toBe(413);
    expect(cfn.body.toString()).toContain('<Code>ValidationError</Code>');
    expect((await send(t.endpoint, { method: 'GET', path: '/_overcast/health' })).status).toBe(200);
  });
});

describe('non-ASCII header values go out as stored', () => {
  it('S3 returns a Content-Disposition with UTF-8 or Latin-1 bytes unchanged on GET and HEAD', async ({ server: t }) => {
    // Raw bytes: Node's own client mangles such a header on the way in (the same quirk).
    const exchange = (head: string, bytes = Buffer.alloc(0), body = '') =>
      rawBytes(t, Buffer.concat([Buffer.from(`${head}\r\nhost: localhost\r\nconnection: close\r\n`), bytes, Buffer.from(`\r\n${body}`)]));
    await exchange('PUT /disposition HTTP/1.1', Buffer.from('content-length: 0\r\n'));
    const value = Buffer.concat([Buffer.from('attachment; filename="r'), Buffer.from('é', 'utf8'), Buffer.from([0x20, 0xfc]), Buffer.from('.txt"')]);
    const put = await exchange('PUT /disposition/k HTTP/1.1', Buffer.concat([Buffer.from('content-length: 1\r\ncontent-disposition: '), value, Buffer.from('\r\n')]), 'x');
    expect(put.subarray(0, 15).toString()).toBe('HTTP/1.1 200 OK');
    for (const method of ['GET', 'HEAD']) {
      const res = await exchange(`${method} /disposition/k HTTP/1.1`);
      expect(res.subarray(0, 15).toString(), method).toBe('HTTP/1.1 200 OK');
      const at = res.indexOf('content-disposition: ') + 'content-disposition: '.length;
      expect(res.subarray(at, res.indexOf('\r\n', at)).equals(value), method).toBe(true);
    }
  });
});

describe('S3 response-* overrides must be header values', () => {
  it('InvalidArgument for what ISO-8859-1 cannot carry, naming the parameter; Latin-1 passes', async ({ server: t }) => {
    const s3 = new S3Client({ ...t.clientConfig, maxAttempts: 1 });
    await s3.send(new CreateBucketCommand({ Bucket: 'overrides' }));
    await s3.send(new PutObjectCommand({ Bucket: 'overrides', Key: 'k', Body: 'x' }));
    const auth = { authorization: authorization('s3') };
    for (const [param, value] of [
      ['response-content-disposition', 'attachment; filename="倉.txt"'],
      ['response-content-language', 'en😀'],
      ['response-content-type', 'text/plain\u0001'],
    ] as const) {
      for (const method of ['GET', 'HEAD']) {
        const res = await send(t.endpoint, { method, path: `/overrides/k?${param}=${encodeURIComponent(value)}`, headers: auth });
        expect(res.status, `${method} ${param}`).toBe(400);
        if (method === 'GET') {
          const xml = res.body.toString();
          expect(xml).toContain('<Code>InvalidArgument</Code><Message>Header value cannot be represented using ISO-8859-1.</Message>');
          expect(xml).toContain(`<ArgumentName>${param}</ArgumentName>`);
        }
      }
    }
    const ok = await s3.send(new GetObjectCommand({ Bucket: 'overrides', Key: 'k', ResponseContentDisposition: 'attachment; filename="ü©.txt"' }));
    expect(ok.ContentDisposition).toBe('attachment; filename="ü©.txt"');
  });
});

describe("S3: a request no operation matches is the client's mistake, not NotImplemented", () => {
  it('405 MethodNotAllowed naming the resource type; an empty bucket segment is InvalidBucketName', async ({ server: t }) => {
    const auth = { authorization: authorization('s3') };
    await send(t.endpoint, { method: 'PUT', path: '/routes-bucket', headers: auth });
    const cases: [string, string, number, string, string?][] = [
      ['PUT', '/?tagging', 405, 'MethodNotAllowed', 'SERVICE'],
      ['DELETE', '/', 405, 'MethodNotAllowed', 'SERVICE'],
      ['POST', '/routes-bucket/key', 405, 'MethodNotAllowed', 'OBJECT'],
      ['PATCH', '/routes-bucket', 405, 'MethodNotAllowed', 'BUCKET'],
      ['POST', '/routes-bucket?uploads', 405, 'MethodNotAllowed', 'BUCKET'],
      ['GET', '//key', 400, 'InvalidBucketName'],
      ['POST', '/routes-bucket', 501, 'NotImplemented'],
    ];
    for (const [method, path, status, code, resource] of cases) {
      const res = await send(t.endpoint, { method, path, headers: auth, body: method === 'POST' ? 'x' : undefined });
      const xml = res.body.toString();
      expect([res.status, /<Code>(\w+)<\/Code>/.exec(xml)?.[1]], `${method} ${path}`).toEqual([status, code]);
      if (resource) expect(xml).toContain(`<Method>${method}</Method><ResourceType>${resource}</ResourceType>`);
    }
  });
});

describe('CloudFormation checks every action against the model first', () => {
  it('an enum, a pattern, a length or a required member the model sets is a ValidationError, changing nothing', async ({ server: t }) => {
    const cfn = new CloudFormationClient({ ...t.clientConfig, maxAttempts: 1 });
    const template = JSON.stringify({ Resources: { H: { Type: 'AWS::CloudFormation::WaitConditionHandle' } } });
    await cfn.send(new CreateStackCommand({ StackName: 'model-checked', TemplateBody: template }));
    await t.server.runtime.background.drain();
    const failure = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (err) {
        const e = err as { name: string; message: string; $metadata: { httpStatusCode?: number } };
        return { name: e.name, status: e.$metadata.httpStatusCode, message: e.message };
      }
      return undefined;
    };
    expect(await failure(cfn.send(new DeleteStackCommand({ StackName: 'model-checked', DeletionMode: 'SOMETIMES' as never })))).toEqual({
      name: 'ValidationError',
      status: 400,
      message:
        "1 validation error detected: Value 'SOMETIMES' at 'deletionMode' failed to satisfy constraint: Member must satisfy enum value set: [STANDARD, FORCE_DELETE_STACK]",
    });
    expect(await failure(cfn.send(new DeleteStackCommand({ StackName: 'model-checked', ClientRequestToken: 'not a token!' })))).toMatchObject({
      name: 'ValidationError',
      message: expect.stringContaining("at 'clientRequestToken' failed to satisfy constraint: Member must satisfy regular expression pattern"),
    });
    expect(await failure(cfn.send(new UpdateTerminationProtectionCommand({ StackName: 'model-checked' } as never)))).toMatchObject({
      name: 'ValidationError',
      message: "1 validation error detected: Value null at 'enableTerminationProtection' failed to satisfy constraint: Member must not be null",
    });
    expect(await failure(cfn.send(new ListStacksCommand({ StackStatusFilter: ['SOMEWHERE' as never] })))).toMatchObject({ name: 'ValidationError' });
    const stacks = await cfn.send(new DescribeStacksCommand({ StackName: 'model-checked' }));
    expect(stacks.Stacks?.[0]?.StackStatus).toBe('CREATE_COMPLETE');
  });
});

describe('bytes that fail to parse after a complete request', () => {
  it('the request is answered first, then the error, so the client never takes the error for its fate', async ({ server: t }) => {
    await send(t.endpoint, { method: 'PUT', path: '/pipelined', headers: { authorization: authorization('s3') } });
    const answer = await rawExchange(t, 
      `PUT /pipelined/k HTTP/1.1\r\nhost: localhost\r\nauthorization: ${authorization('s3')}\r\ncontent-length: 4\r\n\r\nbodyEXTRA-NOT-HTTP\r\n\r\n`,
    );
    const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([200, 400]);
    const stored = await send(t.endpoint, { method: 'GET', path: '/pipelined/k', headers: { authorization: authorization('s3') } });
    expect(stored.body.toString()).toBe('body');
  });
});

describe('patterns a client supplies cannot stall the server', () => {
  it('S3 CORS: more than one wildcard in an origin or header is refused as AWS does; one is matched linearly', async ({ server: t }) => {
    const s3 = new S3Client({ ...t.clientConfig, maxAttempts: 1 });
    await s3.send(new CreateBucketCommand({ Bucket: 'cors-wildcards' }));
    const evil = `${'*a'.repeat(16)}*b`;
    for (const rule of [
      { AllowedMethods: ['GET'], AllowedOrigins: [evil] },
      { AllowedMethods: ['GET'], AllowedOrigins: ['*'], AllowedHeaders: [evil] },
    ]) {
      const err = await s3.send(new PutBucketCorsCommand({ Bucket: 'cors-wildcards', CORSConfiguration: { CORSRules: [rule] } })).catch((e: Error) => e);
      expect([(err as Error).name, (err as Error).message]).toEqual([
        'InvalidRequest',
        `${rule.AllowedHeaders ? 'AllowedHeader' : 'AllowedOrigin'} "${evil}" can not have more than one wildcard.`,
      ]);
    }
    await s3.send(
      new PutBucketCorsCommand({
        Bucket: 'cors-wildcards',
        CORSConfiguration: { CORSRules: [{ AllowedMethods: ['PUT'], AllowedOrigins: ['https://*.Example.com'], AllowedHeaders: ['x-amz-*'] }] },
      }),
    );
    const preflight = (origin: string, headers?: string) =>
      send(
        t.endpoint,
        {
          method: 'OPTIONS',
          path: '/cors-wildcards/k',
          headers: { origin, 'access-control-request-method': 'PUT', ...(headers ? { 'access-control-request-headers': headers } : {}) },
        },
        2_000,
      );
    expect((await preflight(`https://${'a'.repeat(5000)}.example.org`)).status).toBe(403);
    const ok = await preflight('https://www.example.COM', 'X-Amz-Date');
    expect([ok.status, ok.headers['access-control-allow-origin']]).toEqual([200, 'https://www.example.COM']);
  });
});

describe('SSM AllowedPattern runs time-limited', () => {
  it('a catastrophic pattern is a ParameterPatternMismatchException in well under a second, storing nothing', async ({ server: t }) => {
    const put = (Name: string, Value: string, AllowedPattern: string) =>
      send(
        t.endpoint,
        {
          method: 'POST',
          path: '/',
          headers: { authorization: authorization('ssm'), 'x-amz-target': 'AmazonSSM.PutParameter', 'content-type': 'application/x-amz-json-1.1' },
          body: JSON.stringify({ Name, Value, AllowedPattern, Type: 'String' }),
        },
        2_000,
      );
    const started = Date.now();
    const evil = await put('/redos', `${'a'.repeat(40)}!`, '^(a+)+$');
    expect([evil.status, evil.headers['x-amzn-errortype']]).toEqual([400, 'ParameterPatternMismatchException']);
    expect(Date.now() - started).toBeLessThan(1_000);
    const get = await send(t.endpoint, {
      method: 'POST',
      path: '/',
      headers: { authorization: authorization('ssm'), 'x-amz-target': 'AmazonSSM.GetParameter', 'content-type': 'application/x-amz-json-1.1' },
      body: JSON.stringify({ Name: '/redos' }),
    });
    expect(get.headers['x-amzn-errortype']).toBe('ParameterNotFound');
    expect((await put('/fine', 'abc', '^[a-z]+$')).status).toBe(200);
    expect((await put('/bad-pattern', 'abc', '(')).headers['x-amzn-errortype']).toBe('InvalidAllowedPatternException');
  });
});

describe('CloudFormation parameter AllowedPattern runs time-limited', () => {
  it('a catastrophic pattern is the usual ValidationError in well under a second, creating nothing', async ({ server: t }) => {
    const cfn = new CloudFormationClient({ ...t.clientConfig, maxAttempts: 1 });
    const template = JSON.stringify({
      Parameters: { P: { Type: 'String', AllowedPattern: '(a+)+$' } },
      Resources: { H: { Type: 'AWS::CloudFormation::WaitConditionHandle' } },
    });
    const started = Date.now();
    const err = await cfn
      .send(new CreateStackCommand({ StackName: 'redos', TemplateBody: template, Parameters: [{ ParameterKey: 'P', ParameterValue: `${'a'.repeat(40)}!` }] }))
      .catch((e: Error) => e);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect([(err as Error).name, (err as Error).message]).toEqual(['ValidationError', "Parameter 'P' must match pattern (a+)+$"]);
    const listed = await cfn.send(new ListStacksCommand({}));
    expect(listed.StackSummaries?.some((st) => st.StackName === 'redos')).toBe(false);
  });
});

describe('CloudFormation stack-policy wildcards are matched linearly', () => {
  it('a policy resource of *A*A*…*B against a long logical id decides at once', async ({ server: t }) => {
    const cfn = new CloudFormationClient({ ...t.clientConfig, maxAttempts: 1 });
    const id = 'A'.repeat(200);
    const template = (value: string) =>
      JSON.stringify({ Resources: { [id]: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: value } } } });
    const policy = JSON.stringify({
      Statement: [
        { Effect: 'Allow', Action: 'Update:*', Principal: '*', Resource: '*' },
        { Effect: 'Deny', Action: 'Update:*', Principal: '*', Resource: `LogicalResourceId/${'*A'.repeat(16)}*B` },
      ],
    });
    await cfn.send(new CreateStackCommand({ StackName: 'policy-wildcards', TemplateBody: template('one'), StackPolicyBody: policy }));
    await t.server.runtime.background.drain();
    const started = Date.now();
    await cfn.send(new UpdateStackCommand({ StackName: 'policy-wildcards', TemplateBody: template('two') }));
    await t.server.runtime.background.drain();
    expect(Date.now() - started).toBeLessThan(2_000);
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'policy-wildcards' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('UPDATE_COMPLETE');
  });
});

describe('methods no operation uses', () => {
  it("TRACE, PROPFIND, QUERY, SEARCH: S3 answers 405 MethodNotAllowed in its shape, never fastify's 404 page or a 500", async ({ server: t }) => {
    for (const method of ['TRACE', 'PROPFIND', 'QUERY', 'SEARCH', 'MKCOL']) {
      const res = await send(t.endpoint, { method, path: '/some-bucket/key', headers: { authorization: authorization('s3') } });
      expect([method, res.status, readError('rest-xml', method, res).code]).toEqual([method, 405, 'MethodNotAllowed']);
    }
  });
});

describe('a client that goes away mid-body', () => {
  it('is not logged as an internal error by any service, and changes nothing', async ({ server: t }) => {
    const log = t.server.runtime.log;
    const original = log.error;
    const logged: string[] = [];
    log.error = (msg: string) => void logged.push(msg);
    try {
      await send(t.endpoint, { method: 'PUT', path: '/gone-bucket', headers: { authorization: authorization('s3') } });
      const heads = [
        `POST / HTTP/1.1\r\nhost: localhost\r\nauthorization: ${authorization('ssm')}\r\nx-amz-target: AmazonSSM.PutParameter\r\ncontent-type: application/x-amz-json-1.1\r\ncontent-length: 1000\r\n\r\n{"Name":`,
        `PUT /buckets HTTP/1.1\r\nhost: localhost\r\nauthorization: ${authorization('s3tables')}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"name":`,
        `POST / HTTP/1.1\r\nhost: localhost\r\nauthorization: ${authorization('cloudformation')}\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: 1000\r\n\r\nAction=CreateStack`,
        `PUT /gone-bucket?tagging HTTP/1.1\r\nhost: localhost\r\nauthorization: ${authorization('s3')}\r\ncontent-length: 1000\r\n\r\n<Tagging>`,
      ];
      const url = new URL(t.endpoint);
      for (const head of heads) {
        await new Promise<void>((resolve) => {
          const socket = net.connect(Number(url.port), url.hostname, () => {
            socket.write(head);
            setTimeout(() => socket.destroy(), 30);
          });
          socket.on('error', () => undefined);
          socket.on('close', () => setTimeout(resolve, 50));
        });
      }
      expect(logged).toEqual([]);
      expect((await send(t.endpoint, { method: 'GET', path: '/gone-bucket?tagging', headers: { authorization: authorization('s3') } })).status).toBe(404);
    } finally {
      log.error = original;
    }
  });
});
