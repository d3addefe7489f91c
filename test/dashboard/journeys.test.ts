/**
 * The dashboard in a real browser (headless Chromium), as a developer uses it while testing: a
 * browser's `/` lands on the dashboard; a stack created as a change set is opened before it runs,
 * its changes read, then executed — its events arrive live and it goes to ROLLBACK_COMPLETE
 * without a reload; the failed resource's reason; the resource graph with each dependency's kind;
 * a table reached from its stack, its nested schema, its rows as the Iceberg writer wrote them and
 * time travel to the older snapshot; the warehouse browsed down to a metadata file; an object whose
 * key is HTML shown as text, downloaded, and deleted after confirming; a stack deleted, the clock
 * advanced, maintenance run and all state reset. One browser for the file.
 */
import { DescribeStacksCommand, ExecuteChangeSetCommand } from '@aws-sdk/client-cloudformation';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { Page } from 'playwright-core';
import { describe, expect, it } from '../helpers/fixture.js';
import { HAVE_CHROMIUM, launch, screenshot, SKIP_REASON, type Browser } from './browser.js';
import { deployLakehouse, reviewBrokenStack, type Lakehouse } from './data.js';

if (!HAVE_CHROMIUM) console.warn(SKIP_REASON);

describe.skipIf(!HAVE_CHROMIUM)('the dashboard in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let lake: Lakehouse;

  it.beforeAll(async ({ server: t, cloudformation: cfn }) => {
    [browser, lake] = await Promise.all([launch(), deployLakehouse(t, cfn, 'lakehouse')]);
    page = browser.page;
    page.setDefaultTimeout(15_000);
    await reviewBrokenStack(cfn, 'broken', 'x1');
  }, 120_000);

  it.afterAll(async () => {
    await browser?.close();
  });

  it.afterEach(async ({ task }) => {
    if (task.result?.state === 'fail') {
      const path = await screenshot(page, task.name);
      if (path) console.error(`screenshot of the failed test: ${path}`);
    }
  });

  it('a stack goes to ROLLBACK_COMPLETE live; its failed resource says why; the graph shows the dependencies', async ({ server: t, cloudformation: cfn }) => {
    await page.goto(`${t.endpoint}/`);
    expect(page.url()).toBe(`${t.endpoint}/_overcast/ui/`);
    const lakehouseRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'lakehouse', exact: true }) });
    await expect.poll(() => lakehouseRow.textContent()).toContain('CREATE_COMPLETE');
    await page.getByRole('link', { name: 'broken', exact: true }).click();
    await page.getByRole('heading', { level: 1 }).filter({ hasText: 'REVIEW_IN_PROGRESS' }).waitFor();

    // The change set waiting for review, with what it will add.
    await page.getByRole('tab', { name: 'Change sets' }).click();
    await page.getByRole('link', { name: 'first-deploy' }).click();
    const changes = page.getByRole('table', { name: 'Changes' });
    for (const id of ['Bucket', 'Good', 'Bad', 'Note']) await expect.poll(() => changes.getByRole('row').filter({ hasText: id }).first().textContent()).toContain('Add');
    await page.getByRole('link', { name: 'broken' }).click();

    // Watch the events, then run the change set from outside the browser.
    await page.getByRole('tab', { name: 'Events' }).click();
    await page.getByText('Live', { exact: true }).waitFor();
    await page.evaluate(() => ((globalThis as unknown as { notReloaded: boolean }).notReloaded = true));
    await cfn.send(new ExecuteChangeSetCommand({ StackName: 'broken', ChangeSetName: 'first-deploy' }));
    await page.locator('#stack-status').getByText('ROLLBACK_COMPLETE', { exact: true }).waitFor();
    const events = page.getByRole('table', { name: 'Events, newest first' });
    await expect.poll(() => events.getByRole('row').filter({ hasText: 'CREATE_FAILED' }).first().textContent()).toContain('Bad');
    expect(await events.getByRole('row').first().textContent()).toContain('Time');
    expect(await events.getByRole('row').nth(1).textContent()).toContain('ROLLBACK_COMPLETE');
    expect(await page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect((await cfn.send(new DescribeStacksCommand({ StackName: 'broken' }))).Stacks![0]!.StackStatus).toBe('ROLLBACK_COMPLETE');

    // The failed resource's reason, on its own page.
    await page.getByRole('tab', { name: 'Resources' }).click();
    await page.getByRole('link', { name: 'Bad', exact: true }).click();
    expect(await page.getByRole('note').textContent()).toMatch(/^CREATE_FAILED at /);
    const reason = await page.locator('#resource-reason').textContent();
    expect(reason).toMatch(/does not exist|not found/i);

    // The graph: nodes coloured by status, edges labelled by kind.
    await page.getByRole('link', { name: 'broken' }).click();
    await page.getByRole('tab', { name: 'Graph' }).click();
    const graph = page.getByRole('group', { name: 'Resource graph' });
    await graph.waitFor();
    expect(await graph.locator('a.node').count()).toBe(4);
    expect(await graph.locator('a.node[data-id="Bad"]').getAttribute('class')).toContain('st-bad');
    const edge = (from: string, to: string) => graph.locator(`g.edge[data-from="${from}"][data-to="${to}"] text`).textContent();
    expect(await edge('Good', 'Bucket')).toBe('GetAtt');
    expect(await edge('Bad', 'Good')).toBe('DependsOn');
    expect(await edge('Bad', 'Bucket')).toBe('Sub');
    expect(await edge('Note', 'Bucket')).toBe('Ref');
    // Nodes are links to the resource pages, reachable with the keyboard.
    await graph.locator('a.node[data-id="Bad"]').focus();
    await page.keyboard.press('Enter');
    await page.locator('#resource-reason').waitFor();
    expect(browser.pageErrors).toEqual([]);
  });

  it('a table from its stack: nested schema, rows written by the Iceberg writer, time travel, the warehouse', async ({ server: t }) => {
    await page.goto(`${t.endpoint}/_overcast/ui/#/stacks/lakehouse?tab=resources`);
    // The table's own row (its policy's row links to the table too).
    const ordersRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'OrdersTable', exact: true }) });
    await ordersRow.getByRole('link', { name: lake.ordersArn }).click();
    await page.getByRole('heading', { name: 'Table orders' }).waitFor();

    const tree = page.getByRole('list', { name: /^Schema / });
    const shipping = tree.locator('li.field').filter({ has: page.locator('.field-name', { hasText: /^shipping$/ }) });
    expect(await shipping.locator('.field-type').first().textContent()).toBe('struct');
    expect(await shipping.locator('li .field-name').allTextContents()).toEqual(['city', 'zip']);
    const items = tree.locator('li.field').filter({ has: page.locator('.field-name', { hasText: /^items$/ }) });
    expect(await items.locator('li .field-name').allTextContents()).toEqual(['element']);

    // Tabs follow the ARIA pattern: arrow keys move the selection.
    await page.getByRole('tab', { name: 'Schema' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'Partitioning & sort' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('tabpanel').textContent()).toMatch(/Partition spec 0.*Sort order 0/s);

    await page.getByRole('tab', { name: 'Snapshots' }).click();
    const snaps = page.getByRole('table', { name: 'Snapshots, newest first' });
    expect(await snaps.getByRole('row').nth(1).textContent()).toContain('+5 / −0');
    expect(await snaps.getByRole('row').nth(2).textContent()).toContain('+3 / −0');

    await page.getByRole('tab', { name: 'Data preview' }).click();
    await page.locator('#preview-status').filter({ hasText: lake.snapshots[1]!.id }).waitFor();
    expect(await page.locator('#preview-status').textContent()).toContain('8 row(s) shown');
    const rows = page.getByRole('table', { name: 'Rows' });
    const header = await rows.getByRole('row').first().textContent();
    expect(header).toContain('shipping (struct<city: string, zip: string>)');
    const first = await rows.getByRole('row').filter({ hasText: 'sku-0' }).first().textContent();
    expect(first).toContain('1000');
    expect(first).toContain('2026-01-01T12:00:00.000000Z');
    expect(first).toContain('"city":"Oslo"');
    expect(first).toContain('["sku-0","sku-1"]');
    expect(first).toContain('10.50');

    // Time travel to the first snapshot: its three rows.
    await page.getByLabel('Snapshot (time travel)').selectOption(lake.snapshots[0]!.id);
    await page.locator('#preview-status').filter({ hasText: lake.snapshots[0]!.id }).waitFor();
    expect(await page.locator('#preview-status').textContent()).toContain('3 row(s) shown');
    expect(await rows.getByRole('row').count()).toBe(4);
    // Every form control on the page has a label.
    const unlabelled = await page.locator('input, select, textarea').evaluateAll((els) =>
      els.filter((e) => !(e as unknown as { labels?: { length: number } }).labels?.length && !e.getAttribute('aria-label')).map((e) => e.outerHTML),
    );
    expect(unlabelled).toEqual([]);

    // The warehouse: folders, a metadata file's content.
    await page.locator('#warehouse-link').click();
    await page.getByText('Warehouse of table').waitFor();
    await page.getByRole('link', { name: 'metadata/' }).click();
    const metadataFile = page.getByRole('link', { name: /\.metadata\.json$/ }).first();
    await metadataFile.click();
    await page.getByRole('heading', { name: /metadata\/.*\.metadata\.json$/ }).waitFor();
    expect(await page.getByLabel('Object content').textContent()).toContain('"format-version"');
    expect(browser.pageErrors).toEqual([]);
  });

  it('objects are shown as text, downloaded, and deleted only after confirming; stacks deleted, clock, maintenance, reset', async ({ server: t, cloudformation: cfn, s3 }) => {
    const key = 'reports/<img src=x onerror="window.pwned=1">.txt';
    await s3.send(new PutObjectCommand({ Bucket: 'lakehouse-exports', Key: key, Body: 'hello <b>world</b>', ContentType: 'text/html' })).catch(async () => {
      const { CreateBucketCommand } = await import('@aws-sdk/client-s3');
      await s3.send(new CreateBucketCommand({ Bucket: 'lakehouse-exports' }));
      await s3.send(new PutObjectCommand({ Bucket: 'lakehouse-exports', Key: key, Body: 'hello <b>world</b>', ContentType: 'text/html' }));
    });
    await page.goto(`${t.endpoint}/_overcast/ui/#/s3`);
    await page.getByRole('link', { name: 'lakehouse-exports' }).click();
    await page.getByRole('link', { name: 'reports/' }).click();
    const link = page.getByRole('link', { name: '<img src=x onerror="window.pwned=1">.txt' });
    await link.click();
    // The object's page is drawn after its fetches: wait for it, not for the click.
    await page.getByRole('heading', { level: 1, name: key, exact: true }).waitFor();
    await page.getByLabel('Object content').waitFor();
    expect(await page.getByLabel('Object content').textContent()).toBe('hello <b>world</b>');
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download' }).click()]);
    // Chromium makes the name safe for the file system (<, > and " become _).
    expect(download.suggestedFilename()).toBe('_img src=x onerror=_window.pwned=1__.txt');
    const { readFileSync } = await import('node:fs');
    expect(readFileSync((await download.path())!, 'utf8')).toBe('hello <b>world</b>');

    // Cancel keeps the object; confirming deletes it.
    await page.getByRole('button', { name: 'Delete object' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect((await s3.send(new HeadObjectCommand({ Bucket: 'lakehouse-exports', Key: key }))).ContentLength).toBe(18);
    await page.getByRole('button', { name: 'Delete object' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete object' }).click();
    await page.getByRole('table', { name: 'Objects under reports/' }).waitFor();
    await expect(s3.send(new HeadObjectCommand({ Bucket: 'lakehouse-exports', Key: key }))).rejects.toMatchObject({ name: 'NotFound' });

    // Delete a stack from its page.
    await page.goto(`${t.endpoint}/_overcast/ui/#/stacks/broken`);
    await page.getByRole('button', { name: 'Delete stack' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete stack' }).click();
    await page.locator('#stack-status').getByText('DELETE_COMPLETE', { exact: true }).waitFor();

    // The clock, maintenance, and a reset.
    await page.getByRole('link', { name: 'Overcast', exact: true }).last().click();
    const before = await page.getByRole('row', { name: /Overcast time/ }).textContent();
    await page.getByLabel('Advance the clock by').fill('48h');
    await page.getByRole('button', { name: 'Advance' }).click();
    await expect.poll(() => page.getByRole('row', { name: /Ahead of wall time/ }).textContent()).toContain('172800 s');
    expect(await page.getByRole('row', { name: /Overcast time/ }).textContent()).not.toBe(before);
    await page.getByRole('button', { name: 'Run table maintenance now' }).click();
    await expect.poll(() => page.getByLabel('Maintenance report').textContent()).toContain(lake.ordersArn);
    await page.getByRole('button', { name: 'Reset all state' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reset everything' }).click();
    await page.getByRole('heading', { name: 'Stacks' }).waitFor();
    await page.getByText('Nothing here.').waitFor();
    await expect(cfn.send(new DescribeStacksCommand({ StackName: 'lakehouse' }))).rejects.toMatchObject({ name: 'ValidationError' });
    expect(browser.pageErrors).toEqual([]);
  });
});
