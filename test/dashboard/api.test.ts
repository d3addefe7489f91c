/**
 * The dashboard's HTTP surface without a browser: a browser's `/` is sent to the dashboard while
 * SDK and plain requests to `/` still reach S3; the page and its modules are served with a content
 * security policy, and nothing outside them; state-changing requests must be JSON (a form post or
 * a text/plain body, which a browser sends cross-origin without asking, is refused and changes
 * nothing); lists page with the providers' tokens; a stack's event stream delivers an operation's
 * events as they happen and the server still stops with a stream open; the last update reads as a
 * diff with the replacement flagged.
 */
import { CreateStackCommand, UpdateStackCommand, waitUntilStackCreateComplete, waitUntilStackUpdateComplete } from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, ListBucketsCommand } from '@aws-sdk/client-s3';
import { CreateTableBucketCommand, GetTableCommand } from '@aws-sdk/client-s3tables';
import { makeBucket, makeNamespace, makeTable } from '../s3tables/helpers.js';
import { startTestServer } from '../helpers/server.js';
import { describe, expect, it } from '../helpers/fixture.js';

const api = (endpoint: string, path: string) => `${endpoint}/_overcast/ui/api/${path}`;
const json = async (res: Response | Promise<Response>): Promise<any> => (await res).json();

const ssmTemplate = (value: string, name: string) =>
  JSON.stringify({
    Resources: {
      Param: { Type: 'AWS::SSM::Parameter', Properties: { Name: name, Type: 'String', Value: value } },
      Other: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: { 'Fn::GetAtt': ['Param', 'Value'] } } },
    },
  });

describe('the dashboard over HTTP', () => {
  it('a browser asking for / is redirected to the dashboard; the SDK and plain clients still reach S3', async ({ server, s3 }) => {
    const browser = await fetch(`${server.endpoint}/`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }, redirect: 'manual' });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/_overcast/ui/');
    const plain = await fetch(`${server.endpoint}/`);
    expect(plain.status).toBe(200);
    expect(await plain.text()).toContain('<ListAllMyBucketsResult');
    expect((await s3.send(new ListBucketsCommand({}))).Buckets).toEqual([]);

    const page = await fetch(`${server.endpoint}/_overcast/ui/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('/_overcast/ui/app/main.js');
    expect(html).not.toMatch(/https?:\/\//);
    const main = await fetch(`${server.endpoint}/_overcast/ui/app/main.js`);
    expect(main.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const etag = main.headers.get('etag')!;
    expect((await fetch(`${server.endpoint}/_overcast/ui/app/main.js`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    for (const path of ['../../package.json', '..%2F..%2Fpackage.json', 'app/../../../package.json', 'nothing.js']) {
      expect((await fetch(`${server.endpoint}/_overcast/ui/${path}`)).status, path).toBe(404);
    }
  });

  it('state changes need a JSON body: a form post or text/plain is refused and changes nothing', async ({ server, cloudformation }) => {
    await cloudformation.send(new CreateStackCommand({ StackName: 'keep', TemplateBody: ssmTemplate('a', '/keep/a') }));
    await waitUntilStackCreateComplete({ client: cloudformation, maxWaitTime: 30, minDelay: 1, maxDelay: 1 }, { StackName: 'keep' });
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const res = await fetch(api(server.endpoint, 'stacks/keep'), { method: 'DELETE', headers: { 'content-type': type }, body: 'confirm=true' });
      expect(res.status, type).toBe(415);
      expect((await json(res)).code).toBe('UnsupportedMediaType');
      const reset = await fetch(api(server.endpoint, 'admin/reset'), { method: 'POST', headers: { 'content-type': type }, body: '{"confirm":true}' });
      expect(reset.status, type).toBe(415);
    }
    // A JSON reset without the confirmation is refused too.
    const unconfirmed = await fetch(api(server.endpoint, 'admin/reset'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unconfirmed.status).toBe(400);
    const stack = await json(fetch(api(server.endpoint, 'stacks/keep')));
    expect(stack.stack.StackStatus).toBe('CREATE_COMPLETE');
    expect((await fetch(api(server.endpoint, 'stacks/keep'), { method: 'PUT' })).status).toBe(405);
    expect((await fetch(api(server.endpoint, 'stacks/keep?account=12'))).status).toBe(400);
  });

  it('lists page with the providers tokens: 250 table buckets in pages of 100', async ({ server, s3tables }) => {
    for (let i = 0; i < 250; i += 25) {
      await Promise.all(Array.from({ length: 25 }, (_, k) => s3tables.send(new CreateTableBucketCommand({ name: `page-${String(i + k).padStart(3, '0')}` }))));
    }
    const names: string[] = [];
    let next: string | undefined;
    let pages = 0;
    do {
      const page = await json(fetch(api(server.endpoint, `table-buckets${next ? `?next=${encodeURIComponent(next)}` : ''}`)));
      expect(page.items.length).toBeLessThanOrEqual(100);
      names.push(...page.items.map((b: { name: string }) => b.name));
      next = page.next;
      pages++;
    } while (next);
    expect(pages).toBe(3);
    expect(names).toEqual(Array.from({ length: 250 }, (_, i) => `page-${String(i).padStart(3, '0')}`));
    const filtered = await json(fetch(api(server.endpoint, 'table-buckets?prefix=page-24')));
    expect(filtered.items.map((b: { name: string }) => b.name)).toEqual(Array.from({ length: 10 }, (_, i) => `page-24${i}`));
  });

  it('the warehouses view pages through the table warehouses, which the account listings never show', async ({ server, s3, s3tables }) => {
    await s3.send(new CreateBucketCommand({ Bucket: 'plain-listed' }));
    const bucketArn = await makeBucket(s3tables);
    const namespace = await makeNamespace(s3tables, bucketArn);
    const warehouses: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { tableArn } = await makeTable(s3tables, { tableBucketARN: bucketArn, namespace });
      warehouses.push((await s3tables.send(new GetTableCommand({ tableArn }))).warehouseLocation!.slice('s3://'.length));
    }
    const own = await json(fetch(api(server.endpoint, 's3/buckets')));
    expect(own.items.map((b: { name: string }) => b.name)).toEqual(['plain-listed']);
    expect((await s3.send(new ListBucketsCommand({}))).Buckets!.map((b) => b.Name)).toEqual(['plain-listed']);
    const seen: string[] = [];
    let next: string | undefined;
    do {
      const page = await json(fetch(api(server.endpoint, `s3/buckets?warehouses=1&limit=2${next ? `&next=${encodeURIComponent(next)}` : ''}`)));
      expect(page.items.length).toBeLessThanOrEqual(2);
      for (const b of page.items) expect(b.table).toBeDefined();
      seen.push(...page.items.map((b: { name: string }) => b.name));
      next = page.next;
    } while (next);
    expect(seen).toEqual([...warehouses].sort());
  });

  it('a stack event stream delivers an update as it runs; the last update reads as a diff with the replacement flagged', async ({ server, cloudformation }) => {
    await cloudformation.send(new CreateStackCommand({ StackName: 'streamed', TemplateBody: ssmTemplate('one', '/streamed/a') }));
    await waitUntilStackCreateComplete({ client: cloudformation, maxWaitTime: 30, minDelay: 1, maxDelay: 1 }, { StackName: 'streamed' });
    const { lastEventSeq } = await json(fetch(api(server.endpoint, 'stacks/streamed')));
    const controller = new AbortController();
    const res = await fetch(api(server.endpoint, `stacks/streamed/events/stream?after=${lastEventSeq}`), { signal: controller.signal });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = res.body!.getReader();
    const seen: { seq: number; logicalId: string; status: string }[] = [];
    let text = '';
    const until = async (done: () => boolean) => {
      while (!done()) {
        const { value, done: ended } = await reader.read();
        if (ended) throw new Error('the stream ended');
        text += new TextDecoder().decode(value);
        const blocks = text.split('\n\n');
        text = blocks.pop()!;
        for (const b of blocks) {
          const data = b.includes('event: stack-event') ? /^data: (.*)$/m.exec(b) : null;
          if (data) seen.push(JSON.parse(data[1]!));
        }
      }
    };
    // Changing the parameter's Name replaces it; Other follows by GetAtt.
    await cloudformation.send(new UpdateStackCommand({ StackName: 'streamed', TemplateBody: ssmTemplate('two', '/streamed/b') }));
    await until(() => seen.some((e) => e.logicalId === 'streamed' && e.status === 'UPDATE_COMPLETE'));
    expect(seen[0]!.status).toBe('UPDATE_IN_PROGRESS');
    expect(seen.every((e, i) => i === 0 || e.seq > seen[i - 1]!.seq)).toBe(true);
    expect(seen.every((e) => e.seq > lastEventSeq)).toBe(true);
    expect(seen.map((e) => `${e.logicalId} ${e.status}`)).toContain('Param UPDATE_COMPLETE');
    controller.abort();
    await waitUntilStackUpdateComplete({ client: cloudformation, maxWaitTime: 30, minDelay: 1, maxDelay: 1 }, { StackName: 'streamed' });

    const diff = await json(fetch(api(server.endpoint, 'stacks/streamed/last-update')));
    expect(diff.found).toBe(true);
    expect(diff.outcome).toBe('UPDATE_COMPLETE');
    const param = diff.resources.find((r: { logicalId: string }) => r.logicalId === 'Param');
    expect(param).toMatchObject({ action: 'Modify', replacement: true });
    expect(param.changes).toEqual(
      expect.arrayContaining([
        { path: 'Name', before: '/streamed/a', after: '/streamed/b' },
        { path: 'Value', before: 'one', after: 'two' },
      ]),
    );
    const other = diff.resources.find((r: { logicalId: string }) => r.logicalId === 'Other');
    expect(other).toMatchObject({ action: 'Modify', replacement: false, changes: [{ path: 'Value', before: 'one', after: 'two' }] });
  });

  it('the server stops with an event stream still open', async () => {
    const t = await startTestServer();
    const { CloudFormationClient } = await import('@aws-sdk/client-cloudformation');
    const cfn = new CloudFormationClient(t.clientConfig);
    await cfn.send(new CreateStackCommand({ StackName: 'open', TemplateBody: ssmTemplate('x', '/open/x') }));
    const res = await fetch(api(t.endpoint, 'stacks/open/events/stream'));
    const reader = res.body!.getReader();
    await reader.read();
    const started = Date.now();
    await t.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
    while (!(await reader.read()).done);
  });
});
