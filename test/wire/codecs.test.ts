/**
 * Wire-format unit tests of the model-driven codecs: how each protocol reads a request into an
 * operation and typed input, and writes outputs and errors the way its clients parse them.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serviceModel } from '../../src/model/service-model.js';
import { validationMessage } from '../../src/model/validate.js';
import { AwsError } from '../../src/wire/errors.js';
import { parseQuery, type WireRequest } from '../../src/wire/http.js';
import { jsonRpcCodec } from '../../src/wire/json-rpc.js';
import { queryCodec } from '../../src/wire/query.js';
import { restJsonCodec } from '../../src/wire/rest-json.js';
import { KEEP_JSON_TEXT } from '../../src/wire/shape-json.js';
import { matchRoute } from '../../src/wire/rest-routes.js';

function request(method: string, url: string, body = '', headers: Record<string, string> = {}): WireRequest {
  const q = url.indexOf('?');
  const rawQuery = q < 0 ? '' : url.slice(q + 1);
  return {
    method,
    rawPath: q < 0 ? url : url.slice(0, q),
    rawQuery,
    query: parseQuery(rawQuery),
    headers,
    body: Readable.from(body ? [Buffer.from(body)] : []),
  };
}

describe('query protocol (CloudFormation)', () => {
  const codec = queryCodec(() => serviceModel('cloudformation'));

  it('reads flattened members, empty lists, booleans and ignores unknown members', async () => {
    const body =
      'Action=CreateStack&Version=2010-05-15&StackName=demo&TemplateBody=%7B%7D' +
      '&Parameters.member.1.ParameterKey=A&Parameters.member.1.ParameterValue=1' +
      '&Parameters.member.2.ParameterKey=B&Parameters.member.2.UsePreviousValue=true' +
      '&Capabilities.member.1=CAPABILITY_IAM&Tags=&DisableRollback=true&DeploymentConfig.Mode=STANDARD&Bogus=1';
    const parsed = await codec.parse(request('POST', '/', body, { 'content-type': 'application/x-www-form-urlencoded' }));
    expect(parsed.operation).toBe('CreateStack');
    expect(parsed.input).toMatchObject({
      StackName: 'demo',
      TemplateBody: '{}',
      Parameters: [
        { ParameterKey: 'A', ParameterValue: '1' },
        { ParameterKey: 'B', UsePreviousValue: true },
      ],
      Capabilities: ['CAPABILITY_IAM'],
      Tags: [],
      DisableRollback: true,
    });
    expect(parsed.input).not.toHaveProperty('Bogus');
  });

  it('answers an unknown action with InvalidAction', async () => {
    await expect(codec.parse(request('POST', '/', 'Action=Frob&Version=2010-05-15'))).rejects.toMatchObject({
      code: 'InvalidAction',
      status: 400,
    });
  });

  it('writes results inside <XResult> with <member> lists and the request id', () => {
    const res = codec.serialize(
      'DescribeStacks',
      {
        Stacks: [
          {
            StackName: 'a&b',
            StackId: 'arn:x',
            CreationTime: new Date('2025-01-02T03:04:05.678Z'),
            StackStatus: 'CREATE_COMPLETE',
            Capabilities: ['CAPABILITY_IAM'],
            Outputs: [],
          },
        ],
      },
      'req-1',
    );
    const xml = String(res.body);
    expect(xml).toContain('<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/">');
    expect(xml).toContain('<DescribeStacksResult><Stacks><member>');
    expect(xml).toContain('<StackName>a&amp;b</StackName>');
    expect(xml).toContain('<CreationTime>2025-01-02T03:04:05.678Z</CreationTime>');
    expect(xml).toContain('<Capabilities><member>CAPABILITY_IAM</member></Capabilities>');
    expect(xml).toContain('<Outputs/>');
    expect(xml).toContain('<ResponseMetadata><RequestId>req-1</RequestId></ResponseMetadata>');
    expect(res.headers['x-amzn-requestid']).toBe('req-1');
  });

  it('renders errors as <ErrorResponse> with Type, Code, Message and RequestId', () => {
    const res = codec.error(new AwsError('ChangeSetNotFound', 'ChangeSet [x] does not exist', 404), 'req-2');
    expect(res.status).toBe(404);
    expect(String(res.body)).toBe(
      '<ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><Error><Type>Sender</Type>' +
        '<Code>ChangeSetNotFound</Code><Message>ChangeSet [x] does not exist</Message></Error>' +
        '<RequestId>req-2</RequestId></ErrorResponse>',
    );
  });
});

describe('rest-json protocol (S3 Tables)', () => {
  const codec = restJsonCodec(() => serviceModel('s3tables'), {
    invalidInputCode: 'BadRequestException',
    micros: true,
    unknownOperation: () => new AwsError('NotFoundException', 'no route', 404),
  });
  const arn = 'arn:aws:s3tables:us-east-1:111122223333:bucket/analytics';

  it('splits the raw path before decoding labels, so ARNs with %2F stay one label', async () => {
    const parsed = await codec.parse(request('GET', `/buckets/${encodeURIComponent(arn)}/encryption`));
    expect(parsed).toEqual({ operation: 'GetTableBucketEncryption', input: { tableBucketARN: arn } });
  });

  it('binds query members, repeated keys and hyphenated JSON keys of Iceberg structures', async () => {
    const list = await codec.parse(request('GET', `/tables/${encodeURIComponent(arn)}?namespace=sales&maxTables=5`));
    expect(list.input).toEqual({ tableBucketARN: arn, namespace: 'sales', maxTables: 5 });
    const untag = await codec.parse(request('DELETE', `/tag/${encodeURIComponent(arn)}?tagKeys=a&tagKeys=b%20c`));
    expect(untag.input).toEqual({ resourceArn: arn, tagKeys: ['a', 'b c'] });
    const body = JSON.stringify({
      name: 't',
      format: 'ICEBERG',
      metadata: { iceberg: { schema: { fields: [{ name: 'id', type: 'long' }] }, partitionSpec: { fields: [{ 'source-id': 1, transform: 'identity', name: 'id' }] } } },
    });
    const create = await codec.parse(request('PUT', `/tables/${encodeURIComponent(arn)}/sales`, body));
    expect(create.operation).toBe('CreateTable');
    expect(create.input).toMatchObject({
      metadata: { iceberg: { partitionSpec: { fields: [{ sourceId: 1, transform: 'identity', name: 'id' }] } } },
    });
  });

  it('refuses a non-integer page size and malformed JSON with BadRequestException', async () => {
    await expect(codec.parse(request('GET', '/buckets?maxBuckets=ten'))).rejects.toMatchObject({
      code: 'BadRequestException',
    });
    await expect(codec.parse(request('PUT', '/buckets', '{not json'))).rejects.toMatchObject({
      code: 'BadRequestException',
    });
  });

  it('writes the modeled status, omits absent members and prints microsecond timestamps', () => {
    const res = codec.serialize(
      'GetTableBucket',
      { arn, name: 'analytics', ownerAccountId: '111122223333', createdAt: new Date('2025-01-07T22:14:48.689Z') },
      'r',
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(String(res.body))).toEqual({
      arn,
      name: 'analytics',
      ownerAccountId: '111122223333',
      createdAt: '2025-01-07T22:14:48.689000Z',
    });
    const deleted = codec.serialize('DeleteTableBucket', {}, 'r');
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
  });

  it('writes a structure holding a KEEP_JSON_TEXT slot once, and any other afresh every time', () => {
    const summary = (name: string) => ({
      namespace: ['sales'],
      name,
      type: 'customer',
      tableARN: `${arn}/table/${name}`,
      createdAt: new Date('2025-01-07T22:14:48.689Z'),
      modifiedAt: new Date('2025-01-07T22:14:48.690Z'),
    });
    const plain = summary('a');
    const kept = { ...summary('b'), [KEEP_JSON_TEXT]: null as string | null };
    const page = (tables: object[]) => JSON.parse(String(codec.serialize('ListTables', { tables }, 'r').body)).tables;
    expect(page([plain, kept]).map((t: { name: string }) => t.name)).toEqual(['a', 'b']);
    plain.name = 'a2';
    expect(page([plain, kept])[0]).toMatchObject({ name: 'a2', modifiedAt: '2025-01-07T22:14:48.690000Z' });
    expect(kept[KEEP_JSON_TEXT]).toContain('"name":"b"');
    // The kept text answers from then on: such a value never changes (a change would not be seen).
    kept.name = 'ignored';
    expect(page([kept])[0]).toEqual({
      namespace: ['sales'],
      name: 'b',
      type: 'customer',
      tableARN: `${arn}/table/b`,
      createdAt: '2025-01-07T22:14:48.689000Z',
      modifiedAt: '2025-01-07T22:14:48.690000Z',
    });
  });

  it('renders errors with x-amzn-ErrorType and a message body', () => {
    const res = codec.error(new AwsError('ConflictException', 'stale token', 409), 'r');
    expect(res.status).toBe(409);
    expect(res.headers['x-amzn-errortype']).toBe('ConflictException');
    expect(JSON.parse(String(res.body))).toMatchObject({ message: 'stale token' });
  });
});

describe('json-1.1 protocol (SSM)', () => {
  const codec = jsonRpcCodec(() => serviceModel('ssm'), 'ValidationException');

  it('names the operation from X-Amz-Target and reads the body', async () => {
    const parsed = await codec.parse(
      request('POST', '/', '{"Name":"/a/b","WithDecryption":true}', { 'x-amz-target': 'AmazonSSM.GetParameter' }),
    );
    expect(parsed).toEqual({ operation: 'GetParameter', input: { Name: '/a/b', WithDecryption: true } });
  });

  it('writes epoch-second timestamps and __type errors', () => {
    const res = codec.serialize(
      'GetParameter',
      { Parameter: { Name: 'n', Value: 'v', LastModifiedDate: new Date(1_700_000_000_500) } },
      'r',
    );
    expect(JSON.parse(String(res.body))).toEqual({ Parameter: { Name: 'n', Value: 'v', LastModifiedDate: 1700000000.5 } });
    const err = codec.error(new AwsError('ParameterNotFound', 'missing', 400), 'r');
    expect(JSON.parse(String(err.body))).toEqual({ __type: 'ParameterNotFound', message: 'missing' });
  });

  it('refuses an unknown target', async () => {
    await expect(codec.parse(request('POST', '/', '{}', { 'x-amz-target': 'AmazonSSM.Nope' }))).rejects.toMatchObject({
      code: 'UnknownOperationException',
    });
  });
});

describe('S3 routes from the model', () => {
  const s3 = serviceModel('s3');
  const route = (method: string, url: string, headers: Record<string, string> = {}) => {
    const r = request(method, url, '', headers);
    return matchRoute(s3, method, r.rawPath, r.query, headers)?.operation;
  };

  it('tells operations sharing a URI apart by required query keys and headers', () => {
    expect(route('PUT', '/b/k')).toBe('PutObject');
    expect(route('PUT', '/b/k', { 'x-amz-copy-source': '/b/src' })).toBe('CopyObject');
    expect(route('PUT', '/b/k?partNumber=1&uploadId=u')).toBe('UploadPart');
    expect(route('PUT', '/b/k?partNumber=1&uploadId=u', { 'x-amz-copy-source': '/b/src' })).toBe('UploadPartCopy');
    expect(route('GET', '/b/k?uploadId=u')).toBe('ListParts');
    expect(route('DELETE', '/b/k?uploadId=u')).toBe('AbortMultipartUpload');
    expect(route('GET', '/b?list-type=2')).toBe('ListObjectsV2');
    expect(route('GET', '/b/?list-type=2')).toBe('ListObjectsV2');
    expect(route('GET', '/b')).toBe('ListObjects');
    expect(route('GET', '/')).toBe('ListBuckets');
    expect(route('GET', '/b/dir/a%2Fb.txt')).toBe('GetObject');
    expect(route('GET', '/b?lifecycle')).toBe('GetBucketLifecycleConfiguration');
  });
});

describe('constraint validation from the model', () => {
  it('produces Coral-style messages in model member order', () => {
    const m = serviceModel('s3tables');
    expect(validationMessage(m, 'CreateTableBucket', { name: 'ab' })).toBe(
      "1 validation error detected: Value 'ab' at 'name' failed to satisfy constraint: Member must have length greater than or equal to 3",
    );
    expect(
      validationMessage(m, 'UpdateTableMetadataLocation', {
        tableBucketARN: 'arn:aws:s3tables:us-east-1:111122223333:bucket/abc',
        namespace: 'ns',
        name: 't',
        metadataLocation: 's3://x/metadata/00001-a.metadata.json',
      }),
    ).toBe("1 validation error detected: Value null at 'versionToken' failed to satisfy constraint: Member must not be null");
    expect(validationMessage(m, 'ListTableBuckets', { prefix: '', maxBuckets: 1001 })).toBe(
      '2 validation errors detected: ' +
        "Value '' at 'prefix' failed to satisfy constraint: Member must have length greater than or equal to 1; " +
        "Value '1001' at 'maxBuckets' failed to satisfy constraint: Member must have value less than or equal to 1000",
    );
  });

  it('names nested members, list items and map entries in the path', () => {
    const m = serviceModel('s3tables');
    const fields = [{ name: 'ok', type: 'long' }, { type: 'string' }];
    expect(
      validationMessage(m, 'CreateTable', {
        tableBucketARN: 'arn:aws:s3tables:us-east-1:111122223333:bucket/abc',
        namespace: 'ns',
        name: 't',
        format: 'ICEBERG',
        metadata: { iceberg: { schema: { fields } } },
        tags: { ['k'.repeat(200)]: 'v', k2: 'v'.repeat(300) },
      }),
    ).toMatch(
      /^3 validation errors detected: Value null at 'metadata\.iceberg\.schema\.fields\.2\.member\.name' failed .*; Value 'k{200}' at 'tags\.key' failed .*; Value 'v{300}' at 'tags\.k2\.member' failed /,
    );
  });
});
