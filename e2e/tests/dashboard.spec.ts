import { expect, test } from '@playwright/test';
import { charge, dashboardUrl, demo, merchantApi, screenshot } from './support';

const run = Date.now().toString(36);

/** Whole cents of a money cell such as "A$1,030.50", to compare amounts exactly. */
const cents = (text: string | null) => Number((text ?? '').replace(/\D/g, ''));

test("the home page shows the period's figures per currency, and charts volume and success rate per provider", async ({ page }) => {
  const volume = page.getByRole('figure', { name: /Volume captured \(AUD\)/ });
  const success = page.getByRole('figure', { name: /Success rate/ });
  const inAud = page.getByRole('region', { name: 'In AUD' });
  const figure = (term: string) => inAud.locator('dt', { hasText: term }).locator('+ dd');
  // Today's volume of provider B (the second column of numbers), before and after charging it.
  const volumeOfB = async () => {
    await volume.getByText('Show the numbers').click();
    return cents(await volume.getByRole('row').last().getByRole('cell').nth(1).textContent());
  };
  await page.goto('/');
  const before = { volumeOfB: await volumeOfB(), volume: cents(await figure('Volume').textContent()) };
  const payments = Number(/^\d+/.exec((await figure('Payments').textContent()) ?? '')?.[0]);

  await charge({ amount: 30.05, providerId: demo.providers[1]?.providerId });
  await charge({ amount: 5, providerId: demo.providers[1]?.providerId }, '4000000000000002');
  await page.reload();
  for (const chart of [volume, success]) {
    for (const provider of demo.providers) await expect(chart.getByRole('listitem').filter({ hasText: provider.name })).toBeVisible();
  }
  await expect(volume.locator('.recharts-line-dot')).not.toHaveCount(0);
  // The period's figures: 30.05 more captured, one more payment; the declined 5 is no volume.
  expect(cents(await figure('Volume').textContent()) - before.volume).toBe(3005);
  await expect(figure('Payments')).toContainText(`${payments + 1}, and `);
  await expect(figure('Success rate')).toHaveText(/^\d+(\.\d)? %$/);
  // Whole labels in the currency's format on the y-axis, none clipped at the chart's edge.
  const chartLeft = (await volume.locator('svg.recharts-surface').boundingBox())?.x ?? Infinity;
  const labels = volume.locator('svg text').filter({ hasText: /^A\$/ });
  await expect(labels).not.toHaveCount(0);
  for (const label of await labels.all()) {
    await expect(label).toHaveText(/^A\$[\d,]+\.\d\d$/);
    expect((await label.boundingBox())?.x).toBeGreaterThanOrEqual(chartLeft - 1); // a glyph's side bearing, not a clipped character
  }
  // The numbers behind the lines, for screen readers: today, provider B took 30.05 more (the
  // declined 5 is not volume) and failed at least once.
  expect((await volumeOfB()) - before.volumeOfB).toBe(3005);
  await success.getByText('Show the numbers').click();
  await expect(success.getByRole('row').last().getByRole('cell').nth(1)).not.toHaveText('—');
  await screenshot(page, 'home');
});

test('a page of another site cannot act with the staff session', async ({ page }) => {
  // Another port of this machine is the same site: the SameSite=Lax cookie goes with its form.
  const attacker = 'http://127.0.0.1:3197';
  const target = `${dashboardUrl}/trpc/account.rotateSecretKey`;
  await page.route(`${attacker}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<form method="post" enctype="multipart/form-data" action="${target}"><input name="x" value="1"></form>
        <script>document.forms[0].submit()</script>`,
    }),
  );
  const [answer] = await Promise.all([page.waitForResponse(target), page.goto(`${attacker}/prize`)]);
  expect(await answer.request().headerValue('cookie')).toContain('gateway_session=');
  expect(answer.status()).toBe(415);
  const api = await merchantApi();
  expect((await api.get('/charge')).status()).toBe(200); // the secret key is the same
  await api.dispose();
});

test('staff cap wallet charges made with the public key, or switch them off', async ({ page }) => {
  await page.goto('/api-keys');
  const section = page.getByRole('region', { name: 'Wallet charges with the public key' });
  const enabled = section.getByLabel('Take wallet charges made with the public key');
  const cap = section.getByLabel('Largest wallet charge');
  await expect(enabled).toBeChecked();
  await expect(cap).toHaveValue('1000');
  const save = async () =>
    Promise.all([
      page.waitForResponse((r) => r.url().includes('account.setWalletChargeSettings') && r.ok()),
      section.getByRole('button', { name: 'Save' }).click(),
    ]);
  await enabled.uncheck();
  await cap.fill('50');
  await save();
  await page.reload();
  await expect(enabled).not.toBeChecked();
  await expect(cap).toHaveValue('50');
  // Back to the defaults for the other tests.
  await enabled.check();
  await cap.fill('1000');
  await save();
});

test.describe('charges', () => {
  test('search by part of the reference, then open the charge', async ({ page }) => {
    const reference = `refund-${run}`;
    const created = await charge({ amount: 40.3, reference });
    await page.goto('/charges');
    await page.getByLabel('Search charges').fill(`FUND-${run}`);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`query=FUND-${run}`));
    const results = page.getByRole('region', { name: 'Charges' }).getByRole('table');
    await expect(results.getByRole('row')).toHaveCount(2);
    await expect(results).toContainText('424242******4242');
    await screenshot(page, 'charges');

    await results.getByRole('link').click();
    await expect(page).toHaveURL(`/charges/${String(created.chargeId)}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('A$40.30');
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

test('every view fits a 390 px phone and 200 % zoom (1280 px at twice the size: 640 CSS px), detail pages too', async ({ page }) => {
  const made = await charge({ amount: 5, reference: `phone-${run}` });
  const api = await merchantApi();
  const link = (await (await api.post('/payment_link', { data: { title: `Phone ${run}`, amount: 3, currency: 'AUD' } })).json()) as {
    paymentLinkId: string;
  };
  const customer = (await (
    await api.post('/customer/card', {
      data: {
        email: `phone.${run}@example.com`,
        providerId: demo.providers[0]?.providerId,
        paymentInformation: { cardNumber: '4111111111111111', expiryDate: '11/29', ccv: '123', cardholder: 'Pat Phone' },
      },
    })
  ).json()) as { customerId: string };
  await api.dispose();
  const views = [
    '/',
    '/charges',
    `/charges/${String(made.chargeId)}`,
    '/customers',
    `/customers/${customer.customerId}`,
    '/payment-links',
    `/payment-links/${link.paymentLinkId}`,
    '/payment-links/new',
    '/batches',
    '/batches/new',
    '/providers',
    `/providers/${String(demo.providers[0]?.providerId)}`,
    '/webhooks',
    '/api-keys',
  ];
  for (const [size, viewport] of [
    ['390', { width: 390, height: 844 }],
    ['zoom-200', { width: 640, height: 400 }],
  ] as const) {
    await page.setViewportSize(viewport);
    for (const view of views) {
      await page.goto(view);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByText('Loading…')).toHaveCount(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${view} at ${size}`).toBeLessThanOrEqual(viewport.width);
      const name =
        view
          .slice(1)
          .replaceAll('/', '-')
          .replace(/-[0-9a-f-]{16,}$/, '-detail') || 'home';
      await screenshot(page, `${name}-${size}`);
    }
  }
});
