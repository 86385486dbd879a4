import { expect, test, type Page, type Request } from '@playwright/test';
import { CARDS, charge, dashboardUrl, demo, merchantApi, screenshot } from './support';

const run = Date.now().toString(36);

/** The charge as the merchant's API reads it now. */
async function stored(chargeId: unknown) {
  const api = await merchantApi();
  const answer = (await (await api.get(`/charge/${String(chargeId)}`)).json()) as {
    status: string;
    refundedAmount: number;
    refunds: Array<{ amount: number; comment: string | null }>;
  };
  await api.dispose();
  return answer;
}

/** The dashboard's calls of a procedure, as they leave the browser. */
function callsOf(page: Page, procedure: string): Request[] {
  const calls: Request[] = [];
  page.on('request', (request) => {
    if (request.url().includes(`/trpc/${procedure}`)) calls.push(request);
  });
  return calls;
}

test.describe('moving money from a charge’s page', () => {
  test('a refund asks first, prefilled with what is left; a double click refunds once, a second refund gets its own key', async ({
    page,
  }) => {
    const created = await charge({ amount: 60, reference: `refund-dialog-${run}` });
    await page.goto(`/charges/${String(created.chargeId)}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Paid');
    const opener = page.getByRole('button', { name: 'Refund', exact: true });
    const dialog = page.getByRole('dialog', { name: 'Refund' });
    const amount = dialog.getByLabel('Amount (AUD)');

    // Focus moves into the dialog, Escape closes it and focus comes back.
    await opener.click();
    await expect(dialog).toBeVisible();
    await expect(amount).toBeFocused();
    await expect(amount).toHaveValue('60');
    await expect(amount).toHaveAccessibleDescription('At most A$60.00 left to refund');
    await expect(dialog.getByRole('button', { name: 'Refund A$60.00' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    // Empty is refused in the form, never taken as "everything".
    const refunds = callsOf(page, 'charge.refund');
    await opener.click();
    await amount.fill('');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
    await expect(amount).toHaveAccessibleDescription(/Enter the amount/);
    expect(refunds).toHaveLength(0);

    await amount.fill('20.50');
    await expect(amount).not.toHaveAttribute('aria-invalid');
    await dialog.getByLabel('Reason (optional)').fill('damaged box');
    await screenshot(page, 'charge-refund-dialog');
    await dialog.getByRole('button', { name: 'Refund A$20.50' }).dblclick();
    await expect(page.getByRole('status').filter({ hasText: 'Refunded A$20.50; A$39.50 left to refund.' })).toBeVisible();
    await expect(dialog).toBeHidden();
    expect(refunds).toHaveLength(1);
    const firstKey = refunds[0]?.headers()['idempotency-key'];
    expect(firstKey).toMatch(/^[0-9a-f]{32}$/);
    expect(await stored(created.chargeId)).toMatchObject({
      status: 'PARTIAL_REFUND',
      refundedAmount: 20.5,
      refunds: [{ amount: 20.5, comment: 'damaged box' }],
    });
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Partially refunded');
    await expect(page.getByRole('region', { name: 'History' })).toContainText('Refunded A$20.50 — “damaged box”');

    // A second refund: the form starts again from what is left, under a new key.
    await opener.click();
    await expect(amount).toHaveValue('39.5');
    await expect(dialog.getByLabel('Reason (optional)')).toHaveValue('');
    await amount.fill('10');
    await dialog.getByRole('button', { name: 'Refund A$10.00' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Refunded A$10.00; A$29.50 left to refund.' })).toBeVisible();
    expect(refunds).toHaveLength(2);
    expect(refunds[1]?.headers()['idempotency-key']).not.toBe(firstKey);
    expect(await stored(created.chargeId)).toMatchObject({ refundedAmount: 30.5, refunds: [{ amount: 20.5 }, { amount: 10 }] });
    await screenshot(page, 'charge-detail');
  });

  test('a refund whose outcome is unknown (a 502 on the way): the dialog offers only the same request again, under the same key', async ({
    page,
  }) => {
    const created = await charge({ amount: 40, reference: `refund-lost-${run}` });
    await page.goto(`/charges/${String(created.chargeId)}`);
    const refunds = callsOf(page, 'charge.refund');
    // A proxy on the way answers 502: the page cannot know whether the gateway refunded. (That a
    // repeated key is answered, not made again, the API tests prove: idempotency.test.ts.)
    await page.route('**/trpc/charge.refund**', (route) => route.fulfill({ status: 502, body: 'Bad gateway' }));
    const opener = page.getByRole('button', { name: 'Refund', exact: true });
    const dialog = page.getByRole('dialog', { name: 'Refund' });
    await opener.click();
    await dialog.getByLabel('Amount (AUD)').fill('12');
    await dialog.getByRole('button', { name: 'Refund A$12.00' }).click();
    await expect(dialog.getByText('It may have been carried out.')).toBeVisible();
    await page.unroute('**/trpc/charge.refund**');

    // Closed and opened again: the same request, which cannot be changed, and the same key.
    await dialog.getByRole('button', { name: 'Back' }).click();
    await opener.click();
    await expect(dialog.getByLabel('Amount (AUD)')).toHaveValue('12');
    await expect(dialog.getByLabel('Amount (AUD)')).toHaveAttribute('readonly', '');
    await dialog.getByRole('button', { name: 'Refund A$12.00' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Refunded A$12.00' })).toBeVisible();
    expect(refunds).toHaveLength(2);
    expect(refunds[1]?.headers()['idempotency-key']).toBe(refunds[0]?.headers()['idempotency-key']);
    expect(await stored(created.chargeId)).toMatchObject({ refundedAmount: 12, refunds: [{ amount: 12 }] });
  });

  test('a refund the gateway refuses: focus on the message, the amount marked', async ({ page }) => {
    const created = await charge({ amount: 30, reference: `refund-refused-${run}` });
    await page.goto(`/charges/${String(created.chargeId)}`);
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund' });
    // Meanwhile, the merchant's server refunds part of it: the dialog's A$30.00 is now too much.
    const api = await merchantApi();
    expect((await api.delete(`/charge/${String(created.chargeId)}?amount=5`)).status()).toBe(200);
    await api.dispose();
    await dialog.getByRole('button', { name: 'Refund A$30.00' }).click();
    const error = dialog.getByRole('alert');
    await expect(error).toHaveText('The refund amount is more than what is left to refund on this charge');
    await expect(error).toBeFocused();
    await expect(dialog.getByLabel('Amount (AUD)')).toHaveAttribute('aria-invalid', 'true');
    expect(await stored(created.chargeId)).toMatchObject({ refundedAmount: 5 });
  });

  test('capture and void ask first; an authorisation never looks paid', async ({ page }) => {
    const authorised = await charge({ amount: 50, capture: false, reference: `capture-${run}` });
    await page.goto(`/charges/${String(authorised.chargeId)}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Authorised');
    await expect(page.getByText('Authorised, not captured: A$50.00 is reserved')).toBeVisible();
    await page.getByRole('button', { name: 'Capture', exact: true }).click();
    const capture = page.getByRole('dialog', { name: 'Capture' });
    await expect(capture.getByLabel('Amount (AUD)')).toHaveValue('50');
    await capture.getByLabel('Amount (AUD)').fill('35');
    await screenshot(page, 'charge-capture-dialog');
    await capture.getByRole('button', { name: 'Capture A$35.00' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Captured A$35.00 of A$50.00 authorised; A$35.00 can be refunded.' }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Paid');
    await expect(page.getByRole('region', { name: 'History' })).toContainText('Captured A$35.00');

    const toVoid = await charge({ amount: 20, capture: false });
    await page.goto(`/charges/${String(toVoid.chargeId)}`);
    await page.getByRole('button', { name: 'Void the authorisation' }).click();
    const voiding = page.getByRole('dialog', { name: 'Void the authorisation' });
    await expect(voiding).toContainText('Amount: A$20.00');
    await screenshot(page, 'charge-void-dialog');
    await voiding.getByRole('button', { name: 'Void A$20.00' }).click();
    const done = page.getByRole('status').filter({ hasText: 'Authorisation of A$20.00 cancelled' });
    await expect(done).toBeVisible();
    await expect(done).toBeFocused();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Authorisation cancelled');
    await expect(page.getByRole('region', { name: 'Actions' })).toContainText('No action applies');
  });

  test('a session that expires before a refund: the sign-in page says it was not carried out', async ({ page }) => {
    const created = await charge({ amount: 15, reference: `expired-${run}` });
    await page.goto(`/charges/${String(created.chargeId)}`);
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.context().clearCookies();
    await page.getByRole('dialog', { name: 'Refund' }).getByRole('button', { name: 'Refund A$15.00' }).click();
    await expect(page).toHaveURL(/\/sign-in\?/);
    await expect(
      page.getByRole('status').filter({ hasText: 'Your session expired before your last action: it was not carried out.' }),
    ).toBeVisible();
    expect(await stored(created.chargeId)).toMatchObject({ status: 'SUCCESS', refundedAmount: 0 });
    await page.getByLabel('Email').fill(demo.staff.email);
    await page.getByLabel('Password').fill(demo.staff.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`/charges/${String(created.chargeId)}`);
  });
});

test('a failed charge says why at the top of its page, and names its provider', async ({ page }) => {
  // A decline answers the API's error, which names the charge it stored.
  const declined = (await charge({ amount: 12, reference: `declined-${run}` }, CARDS.insufficientFunds)) as {
    details: { chargeId: string };
  };
  await page.goto(`/charges/${declined.details.chargeId}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Failed');
  const reason = page.getByRole('region', { name: 'Declined: insufficient funds' });
  await expect(reason).toContainText('did not have enough money');
  await expect(reason).toContainText('What the payer can do: Pay a smaller amount');
  const provider = demo.providers[0];
  const history = page.getByRole('region', { name: 'History' });
  await expect(history).toContainText(`Attempt failed at ${String(provider?.name)}`);
  await expect(history).not.toContainText(String(provider?.providerId));
  await screenshot(page, 'charge-failed');
});

test('a payment method id is copied from the customer’s page', async ({ page }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: dashboardUrl });
  const api = await merchantApi();
  const created = await api.post('/customer/card', {
    data: {
      email: `copy.${run}@example.com`,
      providerId: demo.providers[0]?.providerId,
      paymentInformation: { cardNumber: CARDS.approved, expiryDate: '11/29', ccv: '123', cardholder: 'Cy Copy' },
    },
  });
  const customer = (await created.json()) as { customerId: string; defaultPaymentMethod: { paymentMethodId: string } };
  await api.dispose();
  await page.goto(`/customers/${customer.customerId}`);
  const methods = page.getByRole('region', { name: 'Saved payment methods' });
  const { paymentMethodId } = customer.defaultPaymentMethod;
  await expect(methods).toContainText(paymentMethodId);
  const copy = methods.getByRole('button', { name: 'Copy' });
  await copy.click();
  await expect(copy).toContainText('copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(paymentMethodId);
});
