import { expect, test, type Page } from '@playwright/test';
import { charge, createLink, demo, merchantApi, screenshot } from './support';

const run = Date.now().toString(36);
const UNKNOWN_ID = '0123456789abcdef0123456789abcdef';

/**
 * An unknown id of each kind: the page answers HTTP 404 (the navigation's own response), says
 * what was not found, and links back to its list. So does an address no page has.
 */
test('unknown ids and unknown addresses answer 404 with a page that leads back to the list', async ({ page }) => {
  const kinds = [
    { path: '/charges', heading: 'Charge not found', list: 'All charges' },
    { path: '/customers', heading: 'Customer not found', list: 'All customers' },
    { path: '/batches', heading: 'Batch not found', list: 'All batches' },
    { path: '/payment-links', heading: 'Payment link not found', list: 'All payment links' },
    { path: '/providers', heading: 'Provider not found', list: 'All providers' },
  ];
  for (const { path, heading, list } of kinds) {
    for (const id of [UNKNOWN_ID, 'not%20an%20id']) {
      const response = await page.goto(`${path}/${id}`);
      expect(response?.status(), `${path}/${id}`).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await expect(page.getByText(decodeURIComponent(id), { exact: true })).toBeVisible();
    }
    await screenshot(page, `not-found${path.replace('/', '-')}`);
    await page.getByRole('link', { name: list }).click();
    await expect(page).toHaveURL(path);
  }

  const unknown = await page.goto('/no/such/page');
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page.getByText('/no/such/page', { exact: true })).toBeVisible();
  // Inside the dashboard: its navigation is there, and the way home.
  await expect(page.getByRole('navigation')).toBeVisible();
  await screenshot(page, 'not-found-page');
  await page.getByRole('main').getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL('/');

  // A known id still answers 200, with its data in the page the server sent.
  const known = (await charge({ amount: 4.5, reference: `known-${run}` })) as { chargeId: string };
  const response = await page.goto(`/charges/${known.chargeId}`);
  expect(response?.status()).toBe(200);
  expect(await response?.text()).toContain(`known-${run}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('A$4.50');
});

test('a page waiting for its data says so', async ({ page }) => {
  // Hold the search's answer back while the page is looked at, then let it through.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  // Whatever other query its call is batched with.
  await page.route(/\/trpc\/[^?]*charge\.search/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/charges');
  await expect(page.getByRole('status').filter({ hasText: 'Loading…' })).toBeVisible();
  release();
  await expect(page.getByRole('status').filter({ hasText: 'Loading…' })).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Charges' })).toBeVisible();
});

test('a record opened from a list says so until its page arrives', async ({ page }) => {
  const made = await charge({ amount: 3.25, reference: `opening-${run}` });
  await page.goto('/charges');
  const row = page.getByRole('table', { name: 'Charges' }).getByRole('row', { name: new RegExp(`opening-${run}`) });
  await expect(row).toBeVisible();
  // Hold the charge page's server answer (its record is read there before it is sent).
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === `/charges/${String(made.chargeId)}`,
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await row.getByRole('link').click();
  await expect(row.getByRole('status')).toHaveText('Loading…');
  release();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('A$3.25');
});

/** Neither the page nor a list's table scrolls sideways (a chart's table of numbers may, in its own region). */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const overflows = await page.evaluate(() => {
    const wide = (element: Element) => element.scrollWidth > element.clientWidth;
    const root = document.scrollingElement;
    return [
      ...(root && wide(root) ? [`the page (${root.scrollWidth} > ${root.clientWidth})`] : []),
      ...[...document.querySelectorAll('.table-wrap:has(.data-table)')]
        .filter(wide)
        .map((table) => `a table (${table.scrollWidth} > ${table.clientWidth})`),
    ];
  });
  expect(overflows, what).toEqual([]);
}

test('every list fits 1280 px and a 390 px phone without scrolling sideways', async ({ page }) => {
  // Rows with the longest values each list shows: a 40-character reference, ids, a long title.
  const api = await merchantApi();
  const customer = await api.post('/customer/card', {
    data: {
      email: `a.rather.long.address.for.a.customer.${run}@subdomain.example.com`,
      reference: `customer-reference-${run}-${'x'.repeat(10)}`,
      providerId: demo.providers[0]?.providerId,
      paymentInformation: { cardNumber: '4242424242424242', expiryDate: '12/30', ccv: '123', cardholder: 'Wide Payer' },
    },
  });
  expect(customer.status()).toBe(201);
  const { defaultPaymentMethod } = (await customer.json()) as { defaultPaymentMethod: { paymentMethodId: string } };
  const batch = await api.post('/batch/transaction/payment_method', {
    data: {
      count: 1,
      description: `A monthly batch with a long description ${run}`,
      batch: `PaymentMethodId,Amount,Currency,Reference\n${defaultPaymentMethod.paymentMethodId},1.5,AUD,batch-${run}`,
    },
  });
  expect(batch.status()).toBe(200);
  await api.dispose();
  await charge({ amount: 1234567.89, reference: `R${run}`.padEnd(40, '-') });
  await createLink({ title: `A workshop seat with a title long enough to wrap ${run}`, amount: 1234567.89 });

  const lists = ['/', '/charges', '/customers', '/payment-links', '/batches', '/providers', '/webhooks', '/api-keys'];
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of lists) {
      await page.goto(path);
      await expect(page.getByRole('status').filter({ hasText: 'Loading…' })).toHaveCount(0);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoSidewaysScroll(page, `${path} at ${width} px`);
    }
  }
  await page.goto('/charges');
  await screenshot(page, 'charges-390');
});
