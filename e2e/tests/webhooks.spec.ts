import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { screenshot } from './support';

/**
 * A merchant's webhook endpoint on 127.0.0.1 (the e2e gateway lets deliveries reach private
 * addresses): it keeps each request's webhook-id and answers each path as planned, then 200.
 */
let server: Server;
let base = '';
const received: Array<{ path: string; webhookId: string }> = [];
const plans = new Map<string, number[]>();

test.beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume().on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, webhookId: String(req.headers['webhook-id']) });
      res.statusCode = plans.get(path)?.shift() ?? 200;
      res.end(res.statusCode === 200 ? 'thanks, got it' : 'database unavailable');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(() => server.close());

test('staff add a subscription, test it and read its answer, retry a failed delivery, and remove it', async ({ page }) => {
  const run = Date.now().toString(36);
  const url = `${base}/hooks-${run}`;
  await page.goto('/webhooks');

  const form = page.getByRole('region', { name: 'Add a subscription' });
  await form.getByLabel('URL').fill(url);
  await form.getByLabel('Authorization header (optional)').fill('Bearer e2e');
  await form.getByLabel('Customers').check();
  await form.getByRole('button', { name: 'Add subscription' }).click();
  await expect(form.getByRole('status')).toHaveText(`Subscribed ${url}.`);
  const row = page.getByRole('row').filter({ hasText: url });
  await expect(row).toContainText('Transaction, Customer');
  await expect(row).toContainText('Healthy');

  // A test event: the endpoint's answer, its status and the start of its body, shown once the job sent it.
  const subscriptions = page.getByRole('region', { name: 'Subscriptions', exact: true });
  await row.getByRole('button', { name: `Send test to ${url}` }).click();
  await expect(subscriptions.getByRole('status').first()).toContainText('The endpoint answered 200', { timeout: 15_000 });
  await expect(subscriptions.getByRole('status').first()).toContainText('thanks, got it');
  expect(received.filter((r) => r.path === `/hooks-${run}`)).toHaveLength(1);

  // One that fails: 500 and what it said; then a retry of the same delivery, which gets through.
  plans.set(`/hooks-${run}`, [500]);
  await row.getByRole('button', { name: `Send test to ${url}` }).click();
  await expect(subscriptions.getByRole('status').first()).toContainText('The endpoint answered 500', { timeout: 15_000 });
  await expect(subscriptions.getByRole('status').first()).toContainText('database unavailable');
  const failed = page.getByRole('region', { name: 'Recent webhook deliveries' }).getByRole('row').filter({ hasText: 'Failed' }).first();
  await expect(failed).toContainText(url);
  await expect(failed).toContainText('500');
  await failed.getByRole('button', { name: /^Retry now: webhook\.test to / }).click();
  await expect(page.getByRole('status').filter({ hasText: `Retrying the delivery to ${url} now.` })).toBeVisible();
  const deliveries = page.getByRole('region', { name: 'Recent webhook deliveries' });
  await expect(deliveries.getByRole('row').filter({ hasText: url }).first()).toContainText('Delivered', { timeout: 15_000 });
  await expect(deliveries.getByRole('row').filter({ hasText: url }).first().getByRole('cell').nth(4)).toHaveText('2');
  const sent = received.filter((r) => r.path === `/hooks-${run}`);
  expect(sent).toHaveLength(3);
  // The retry is the same delivery: the receiver sees the failed one's webhook-id again.
  expect(sent[2]?.webhookId).toBe(sent[1]?.webhookId);
  // Both tables fit 1280 px: long URLs, ids and errors wrap.
  for (const table of await page.locator('.table-wrap').all()) {
    expect(await table.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  await screenshot(page, 'webhooks');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'webhooks-390');
  await page.setViewportSize({ width: 1280, height: 720 });

  await row.getByRole('button', { name: `Remove ${url}` }).click();
  await page.getByRole('button', { name: `Remove ${url}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Removed ${url}: it gets no more events.` })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: url }).filter({ hasText: 'Healthy' })).toHaveCount(0);
});
