import { expect, test } from '@playwright/test';
import { charge, demo, merchantApi, screenshot } from './support';

const run = Date.now().toString(36);

test('the home page charts volume and success rate per provider from real charges', async ({ page }) => {
  await charge({ amount: 30, providerId: demo.providers[1]?.providerId });
  await charge({ amount: 5, providerId: demo.providers[1]?.providerId }, '4000000000000002');
  await page.goto('/');
  const volume = page.getByRole('figure', { name: /Volume captured \(AUD\)/ });
  const success = page.getByRole('figure', { name: /Success rate/ });
  for (const chart of [volume, success]) {
    for (const provider of demo.providers) await expect(chart.getByRole('listitem').filter({ hasText: provider.name })).toBeVisible();
  }
  await expect(volume.locator('circle')).not.toHaveCount(0);
  // The numbers behind the lines, for screen readers: today, provider B took at least 30 and failed at least once.
  await success.getByText('Show the numbers').click();
  const today = success.getByRole('row').last();
  await expect(today.getByRole('cell').nth(1)).not.toHaveText('—');
  await volume.getByText('Show the numbers').click();
  await expect(volume.getByRole('row').last()).toContainText('A$');
  await screenshot(page, 'home');
});

test.describe('charges', () => {
  test('search by reference, then refund part of the charge and see it in its history', async ({ page }) => {
    const reference = `refund-${run}`;
    const created = await charge({ amount: 40, reference });
    await page.goto('/charges');
    await page.getByLabel('Reference').fill(reference);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(new RegExp(`reference=${reference}`));
    const results = page.getByRole('region', { name: 'Charges' }).getByRole('table');
    await expect(results.getByRole('row')).toHaveCount(2);
    await expect(results).toContainText('424242******4242');
    await screenshot(page, 'charges');

    await results.getByRole('link').click();
    await expect(page).toHaveURL(`/charges/${String(created.chargeId)}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('A$40.00');
    const refund = page.getByRole('form', { name: 'Refund' });
    await refund.getByLabel('Amount (AUD)').fill('15.5');
    await refund.getByLabel('Comment').fill('damaged box');
    await refund.getByRole('button', { name: 'Refund' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'the charge is now PARTIAL REFUND' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'History' })).toContainText('Refunded A$15.50 — “damaged box”');
    await screenshot(page, 'charge-detail');

    const api = await merchantApi();
    expect(await (await api.get(`/charge/${String(created.chargeId)}`)).json()).toMatchObject({
      status: 'PARTIAL_REFUND',
      refundedAmount: 15.5,
    });
    await api.dispose();
  });

  test('capture part of an authorisation, void another; a refused action says why', async ({ page }) => {
    const authorised = await charge({ amount: 50, capture: false, reference: `capture-${run}` });
    await page.goto(`/charges/${String(authorised.chargeId)}`);
    const capture = page.getByRole('form', { name: 'Capture' });
    await capture.getByLabel('Amount (AUD)').fill('60');
    await capture.getByRole('button', { name: 'Capture' }).click();
    await expect(capture.getByRole('alert')).toContainText(/capture/i);
    await capture.getByLabel('Amount (AUD)').fill('35');
    await capture.getByRole('button', { name: 'Capture' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'the charge is now SUCCESS' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'History' })).toContainText('Captured A$35.00');

    const toVoid = await charge({ amount: 20, capture: false });
    await page.goto(`/charges/${String(toVoid.chargeId)}`);
    await page.getByRole('button', { name: 'Void the authorisation' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'AUTHORISE CANCELLED' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Actions' })).toContainText('No action applies');
  });

  test('filters by status, amount and cardholder; pages through the results', async ({ page }) => {
    const cardholder = `Pager ${run}`;
    for (let i = 0; i < 21; i += 1) {
      await charge({ amount: 1 + i, paymentInformation: { cardNumber: '4242424242424242', expiryDate: '12/30', cardholder } });
    }
    await page.goto(`/charges?cardholder=${encodeURIComponent(cardholder)}`);
    const pages = page.getByRole('navigation', { name: 'Pages of results' });
    await expect(pages).toContainText('1–20 of 21');
    await pages.getByRole('button', { name: 'Next page' }).click();
    await expect(pages).toContainText('21–21 of 21');
    await expect(page.getByRole('table').getByRole('row')).toHaveCount(2);

    await page.getByLabel('Amount above').fill('18');
    await page.getByLabel('Status', { exact: true }).selectOption('SUCCESS');
    await page.getByLabel('Sort by').selectOption('Amount');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(pages).toContainText('1–3 of 3');
    await expect(page.getByRole('table').getByRole('row').nth(1)).toContainText('A$21.00');

    // Date filters are whole days, both included, in the browser's time zone.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toLocaleDateString('en-CA');
    await page.getByLabel('Added from').fill(day(0));
    await page.getByLabel('Added until').fill(day(0));
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(new RegExp(`addedBefore=${day(0)}`));
    await expect(pages).toContainText('1–3 of 3');
    await page.getByLabel('Added until').fill(day(-1));
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(new RegExp(`addedBefore=${day(-1)}`));
    await expect(page.getByRole('status').filter({ hasText: 'Nothing matches.' })).toBeVisible();
  });
});

test('customers and their payment methods', async ({ page }) => {
  const email = `ann.${run}@example.com`;
  const api = await merchantApi();
  const created = await api.post('/customer/card', {
    data: {
      email,
      firstName: 'Ann',
      lastName: `Payer ${run}`,
      providerId: demo.providers[0]?.providerId,
      paymentInformation: { cardNumber: '4242424242424242', expiryDate: '11/29', ccv: '123', cardholder: 'Ann Payer' },
    },
  });
  expect(created.status()).toBe(201);
  await api.dispose();

  await page.goto('/customers');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Search' }).click();
  const results = page.getByRole('table');
  await expect(results.getByRole('row')).toHaveCount(2);
  await screenshot(page, 'customers');
  await results.getByRole('link', { name: `Ann Payer ${run}` }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Ann Payer ${run}`);
  const methods = page.getByRole('region', { name: 'Saved payment methods' });
  await expect(methods).toContainText('VISA 424242******4242, expires 11/29');
  await expect(methods).toContainText('Default');
  await screenshot(page, 'customer-detail');
});

test('providers with their fees and simulated latency', async ({ page }) => {
  await page.goto('/providers');
  const table = page.getByRole('table');
  for (const provider of demo.providers)
    await expect(table.getByRole('row', { name: new RegExp(provider.name) })).toContainText('ms (timeout 10 s)');
  await screenshot(page, 'providers');
  await table.getByRole('link', { name: 'Simulated Acquirer A' }).click();
  const fees = page.getByRole('region', { name: 'Fees' });
  await expect(fees.getByRole('row')).toHaveCount(5);
  await expect(fees).toContainText('1.1 %');
  await screenshot(page, 'provider-detail');
});

test('every view fits a 375 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  const views = [
    '/',
    '/charges',
    '/customers',
    '/payment-links',
    '/payment-links/new',
    '/batches',
    '/batches/new',
    '/providers',
    '/api-keys',
  ];
  for (const view of views) {
    await page.goto(view);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('Loading…')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), view).toBeLessThanOrEqual(375);
    await screenshot(page, `${view.slice(1).replaceAll('/', '-') || 'home'}-375`);
  }
});
