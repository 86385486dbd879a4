import { NAB_TEST_CARD, startFakeNab, type FakeNab } from '@gateway/provider-fakes';
import { expect, test, type Page } from '@playwright/test';
import { charge, demo, fakeNabUrl, merchantApi, screenshot } from './support';

/**
 * A NAB Transact payment whose answer was lost (issue 20, point 3): NAB has no idempotency keys, so
 * the gateway cannot ask it what it did, nor send the payment again. Staff meet it on the home
 * page, find it in the list of calls with outcome unknown, look it up at NAB by its purchase order
 * number, and settle it on the charge's page as they found it there.
 */
const CREDENTIALS = { MerchantId: 'XYZ0010', Password: 'abcd1234' };
const run = Date.now().toString(36);

let fake: FakeNab;
let providerId: string;
/** The two payments NAB did not answer: a sale it made, an authorisation it never did. */
const lost = { made: '', notMade: '' };

/** The charge as the merchant's API reads it now. */
async function stored(chargeId: string) {
  const api = await merchantApi();
  const answer = (await (await api.get(`/charge/${chargeId}`)).json()) as { status: string; providerChargeId: string | null };
  await api.dispose();
  return answer;
}

/** A payment through the NAB provider whose answer never comes: its charge id. */
async function lose(fields: { amount: number; reference: string; capture?: boolean }): Promise<string> {
  const answer = await charge({
    providerId,
    ...fields,
    paymentInformation: { cardNumber: NAB_TEST_CARD, expiryDate: '12/30', ccv: '123' },
  });
  expect(answer, JSON.stringify(answer)).toMatchObject({ code: 80, gatewayCode: 'OUTCOME_UNKNOWN' });
  return String((answer.details as Record<string, string>).chargeId);
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  // The gateway sends nab_transact calls here (GATEWAY_PROVIDER_ENDPOINTS in playwright.config.ts).
  fake = await startFakeNab({ port: Number(new URL(fakeNabUrl).port), merchantId: CREDENTIALS.MerchantId, password: CREDENTIALS.Password });
  const api = await merchantApi();
  const created = await api.post('/provider', {
    data: { type: 'nab_transact', name: `NAB ${run}`, environment: 'SANDBOX', currency: 'AUD', authenticationParameters: CREDENTIALS },
  });
  expect(created.status(), await created.text()).toBe(200);
  providerId = String(((await created.json()) as { providerId: string }).providerId);
  await api.dispose();
  // Both at once: each waits out the provider's timeout (10 s) before the gateway holds it.
  fake.hangNext('0', { processed: true });
  fake.hangNext('10', { processed: false });
  [lost.made, lost.notMade] = await Promise.all([
    lose({ amount: 11, reference: `held-made-${run}` }),
    lose({ amount: 12, reference: `held-not-made-${run}`, capture: false }),
  ]);
});

test.afterAll(async () => {
  await fake?.close();
});

test.afterEach(() => expect(fake.violations).toEqual([]));

test('a payment NAB made, though its answer was lost: listed for staff, looked up by purchase order, settled as made, then Paid', async ({
  page,
}) => {
  const purchaseOrder = `${lost.made}:1`;
  const [made] = fake.transactions().filter((t) => t.purchaseOrderNo === purchaseOrder);
  expect(made).toBeDefined();

  // The home page says calls wait, and leads to them.
  await page.goto('/');
  const banner = page.getByRole('region', { name: /^Outcome unknown at the provider/ });
  await expect(banner).toContainText('2 calls');
  await screenshot(page, 'outcome-unknown-home');
  await banner.getByRole('link', { name: 'Review the calls with outcome unknown' }).click();
  await expect(page).toHaveURL(/\/outcome-unknown$/);
  await expect(heading(page)).toHaveText('Outcome unknown at the provider');

  const waiting = page.getByRole('region', { name: 'Calls with outcome unknown, waiting for staff' });
  const row = waiting.getByRole('row').filter({ hasText: `held-made-${run}` });
  await expect(row).toContainText('Payment');
  await expect(row).toContainText('A$11.00');
  await expect(row).toContainText(`NAB ${run}`);
  await expect(row).toContainText(`purchase order ${purchaseOrder} in NAB Transact`);
  await expect(row).toContainText(/ago|just now/);
  await expect(waiting.getByRole('row').filter({ hasText: `held-not-made-${run}` })).toContainText(/Authorisation.*A\$12\.00/);
  await screenshot(page, 'outcome-unknown-list');

  // The charge's page says what to look up, and where.
  await row.getByRole('link', { name: `held-made-${run}` }).click();
  await expect(page).toHaveURL(new RegExp(`/charges/${lost.made}$`));
  const notice = page.getByRole('region', {
    name: `Outcome unknown at NAB ${run}: look up purchase order ${purchaseOrder} in NAB Transact`,
  });
  await expect(notice).toBeVisible();
  await expect(heading(page)).toContainText('Pending');

  // "Made" needs NAB's transaction id: missing, it is asked for in the form; malformed, the gateway refuses it (400).
  await notice.getByLabel('The provider made it').check();
  const txnId = notice.getByLabel('NAB transaction id (txnID)');
  await notice.getByRole('button', { name: 'Settle…' }).click();
  await expect(txnId).toBeFocused();
  await expect(txnId).toHaveAccessibleDescription(/Enter the NAB transaction id/);
  await expect(notice.getByLabel('NAB pre-authorisation id (preauthID)')).toHaveCount(0);

  const dialog = page.getByRole('dialog', { name: 'Settle as made' });
  await txnId.fill('not an id');
  await notice.getByRole('button', { name: 'Settle…' }).click();
  await expect(dialog).toContainText('The charge becomes Paid.');
  await dialog.getByRole('button', { name: `Confirm: NAB ${run} made it` }).click();
  await expect(notice.getByRole('alert')).toHaveText('The request is not valid');
  await expect(notice.getByRole('alert')).toBeFocused();
  await expect(txnId).toHaveAttribute('aria-invalid', 'true');
  await screenshot(page, 'outcome-unknown-charge');
  expect((await stored(lost.made)).status).toBe('PENDING');

  // Back from the confirmation changes nothing; confirmed, the charge is Paid under NAB's id.
  await txnId.fill(made!.txnID);
  await notice.getByRole('button', { name: 'Settle…' }).click();
  await expect(dialog).toContainText(`NAB transaction id (txnID) ${made!.txnID}`);
  await screenshot(page, 'outcome-unknown-settle-dialog');
  await dialog.getByRole('button', { name: 'Back' }).click();
  await expect(dialog).toBeHidden();
  expect((await stored(lost.made)).status).toBe('PENDING');
  await notice.getByRole('button', { name: 'Settle…' }).click();
  await dialog.getByRole('button', { name: `Confirm: NAB ${run} made it` }).click();

  const settled = page.getByRole('status').filter({ hasText: `Settled: NAB ${run} made the payment of A$11.00.` });
  await expect(settled).toBeVisible();
  await expect(settled).toBeFocused();
  await expect(heading(page)).toContainText('Paid');
  await expect(notice).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'History' })).toContainText(
    `${demo.staff.email}) found that NAB Transact made the payment of A$11.00`,
  );
  const charged = await stored(lost.made);
  expect(charged.status).toBe('SUCCESS');
  expect(charged.providerChargeId).toContain(made!.txnID);
  await screenshot(page, 'outcome-unknown-settled');

  // Listed as settled: how, by whom.
  await page.goto('/outcome-unknown');
  const recent = page
    .getByRole('region', { name: 'Calls with outcome unknown, settled by staff' })
    .getByRole('row')
    .filter({
      hasText: `held-made-${run}`,
    });
  await expect(recent).toContainText('Made');
  await expect(recent).toContainText(demo.staff.email);
});

test('an authorisation NAB never made: settled as not made, then Failed; settling it otherwise from a stale page is refused (409)', async ({
  page,
}) => {
  const purchaseOrder = `${lost.notMade}:1`;
  expect(fake.transactions().filter((t) => t.purchaseOrderNo === purchaseOrder)).toEqual([]);

  // The charges page shows the one left.
  await page.goto('/charges');
  await expect(page.getByRole('region', { name: /^Outcome unknown at the provider/ })).toContainText('1 call');

  // Two staff members have the charge open; the first finds nothing at NAB and settles it so.
  const other = await page.context().newPage();
  await page.goto(`/charges/${lost.notMade}`);
  await other.goto(`/charges/${lost.notMade}`);
  const name = `Outcome unknown at NAB ${run}: look up purchase order ${purchaseOrder} in NAB Transact`;
  const notice = other.getByRole('region', { name });
  await notice.getByLabel('The provider did not make it').check();
  await expect(notice.getByLabel('NAB transaction id (txnID)')).toHaveCount(0);
  await notice.getByRole('button', { name: 'Settle…' }).click();
  const dialog = other.getByRole('dialog', { name: 'Settle as not made' });
  await expect(dialog).toContainText('The charge becomes Failed: nothing was reserved on the payer’s card.');
  await dialog.getByRole('button', { name: `Confirm: NAB ${run} did not make it` }).click();
  await expect(
    other.getByRole('status').filter({ hasText: `Settled: NAB ${run} did not make the authorisation of A$12.00.` }),
  ).toBeVisible();
  await expect(heading(other)).toContainText('Failed');
  expect((await stored(lost.notMade)).status).toBe('FAILED');
  await other.close();

  // The second, on the page as it was, says NAB made it: refused, and the page shows what was recorded.
  const stale = page.getByRole('region', { name });
  await stale.getByLabel('The provider made it').check();
  await stale.getByLabel('NAB transaction id (txnID)').fill('100999');
  await stale.getByLabel('NAB pre-authorisation id (preauthID)').fill('100999');
  await stale.getByRole('button', { name: 'Settle…' }).click();
  await page
    .getByRole('dialog', { name: 'Settle as made' })
    .getByRole('button', { name: `Confirm: NAB ${run} made it` })
    .click();
  await expect(page.getByRole('alert').filter({ hasText: 'already settled this authorisation otherwise' })).toBeFocused();
  await expect(heading(page)).toContainText('Failed');
  await expect(stale).toHaveCount(0);
  expect((await stored(lost.notMade)).status).toBe('FAILED');

  // None waits now: no banner, and the list says so.
  await page.goto('/');
  await expect(heading(page)).toHaveText('Payments');
  await expect(page.getByRole('region', { name: /^Outcome unknown at the provider/ })).toHaveCount(0);
  await page.goto('/outcome-unknown');
  await expect(page.getByText('No call waits: every provider answered.')).toBeVisible();
  await expect(
    page
      .getByRole('region', { name: 'Calls with outcome unknown, settled by staff' })
      .getByRole('row')
      .filter({ hasText: `held-not-made-${run}` }),
  ).toContainText('Not made');
});
