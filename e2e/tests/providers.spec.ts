import { expect, test } from '@playwright/test';
import { fakeStripeUrl, merchantApi, screenshot } from './support';

/** The key the fake Stripe takes (packages/provider-fakes' default). */
const STRIPE_KEY = 'sk_test_51FakeGateway0000000000000000';
const run = Date.now().toString(36);

test('a Stripe provider added in the dashboard against the fake Stripe: credentials checked, never shown, and a charge through it', async ({
  page,
}) => {
  const name = `Stripe ${run}`;
  await page.goto('/providers');
  await page.getByRole('link', { name: 'Add a provider' }).click();
  await page.getByLabel('Type').selectOption('stripe');
  // Each type its own credential fields: Stripe's, not the simulated acquirer's or Adyen's.
  await expect(page.getByLabel('SecretKey')).toHaveAttribute('type', 'password');
  await expect(page.getByLabel('WebhookSecret')).toBeVisible();
  await expect(page.getByLabel('MerchantAccount')).toHaveCount(0);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Default currency').fill('USD');
  await page.getByLabel('SecretKey').fill(STRIPE_KEY);
  await page.getByRole('button', { name: 'Create the provider' }).click();

  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details).toContainText('stripe');
  await expect(details).toContainText('SANDBOX');
  await expect(details).toContainText('SecretKey');
  await expect(page.getByRole('heading', { name: 'Pending notifications' })).toBeVisible();
  await page.getByRole('button', { name: 'Check credentials' }).click();
  await expect(page.getByText('Stripe accepted the credentials.')).toBeVisible();
  const providerId = new URL(page.url()).pathname.split('/').pop() ?? '';

  // Edited: the stored key is not shown back, and an empty field keeps it.
  await page.getByRole('button', { name: 'Edit the provider' }).click();
  await expect(page.getByLabel('SecretKey')).toHaveValue('');
  await page.getByLabel('Name', { exact: true }).fill(`${name} renamed`);
  await page.getByRole('button', { name: 'Save the provider' }).click();
  await expect(page.getByRole('heading', { name: `${name} renamed`, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Check credentials' }).click();
  await expect(page.getByText('Stripe accepted the credentials.')).toBeVisible();
  expect(await page.content()).not.toContain(STRIPE_KEY);
  await screenshot(page, 'provider-stripe');

  // A key Stripe does not take: the check says the credentials were refused, not that Stripe lacks a payment.
  await page.getByRole('button', { name: 'Edit the provider' }).click();
  await page.getByLabel('SecretKey').fill('sk_test_51WrongKey000000000000000');
  await page.getByRole('button', { name: 'Save the provider' }).click();
  await page.getByRole('button', { name: 'Check credentials' }).click();
  await expect(page.getByRole('region', { name: 'Credentials' }).getByRole('alert')).toHaveText(
    'Stripe refused the credentials (HTTP 401): check the key and the account they belong to.',
  );
  await page.getByRole('button', { name: 'Edit the provider' }).click();
  await page.getByLabel('SecretKey').fill(STRIPE_KEY);
  await page.getByRole('button', { name: 'Save the provider' }).click();
  await page.getByRole('button', { name: 'Check credentials' }).click();
  await expect(page.getByText('Stripe accepted the credentials.')).toBeVisible();

  const api = await merchantApi();
  const response = await api.post('/charge/card', {
    data: {
      providerId,
      amount: 12.5,
      currency: 'USD',
      paymentInformation: { cardNumber: '4242424242424242', expiryDate: '12/30', ccv: '123', cardholder: 'E2E Payer' },
    },
  });
  const charge = (await response.json()) as Record<string, unknown>;
  await api.dispose();
  expect(response.status(), JSON.stringify(charge)).toBe(201);
  expect(charge).toMatchObject({ status: 'SUCCESS', providerId, amount: 12.5, currency: 'USD' });
  const state = (await (await fetch(`${fakeStripeUrl}/_fake/state`)).json()) as {
    paymentIntents: Array<{ amount: number; currency: string; status: string }>;
    violations: unknown[];
  };
  expect(state.paymentIntents).toContainEqual(expect.objectContaining({ amount: 1250, currency: 'usd', status: 'succeeded' }));
  expect(state.violations).toEqual([]);

  await page.goto(`/charges/${String(charge.chargeId)}`);
  await expect(page.getByText(`${name} renamed`).first()).toBeVisible();
});

test('the provider form offers every registered type, none chosen beforehand, and fits a 390 px phone with each', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/providers/new');
  const typeSelect = page.getByLabel('Type');
  await expect(typeSelect).toHaveValue('');
  await expect(page.getByRole('group', { name: 'Credentials' })).toHaveCount(0);
  // The types GET /info/provider_types lists (the registry): a newly registered one is offered and checked too.
  const api = await merchantApi();
  const listed = (await (await api.get('/info/provider_types')).json()) as {
    providerTypes: Array<{ type: string; parameters: Array<{ name: string; secret: boolean }> }>;
  };
  await api.dispose();
  const types = listed.providerTypes;
  expect(types.map((t) => t.type)).toEqual(expect.arrayContaining(['dummy', 'stripe', 'adyen']));
  await expect(typeSelect.locator('option:not([disabled])')).toHaveCount(types.length);
  for (const { type, parameters } of types) {
    await typeSelect.selectOption(type);
    const credentials = page.getByRole('group', { name: 'Credentials' });
    await expect(credentials).toBeVisible();
    // Its own fields, each secret one masked as typed.
    for (const p of parameters)
      await expect(credentials.getByLabel(p.name, { exact: true })).toHaveAttribute('type', p.secret ? 'password' : 'text');
    expect(await page.evaluate(() => document.documentElement.scrollWidth), type).toBeLessThanOrEqual(390);
  }
  await screenshot(page, 'providers-new-390');
});
