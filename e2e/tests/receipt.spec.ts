import { expect, test, type Page } from '@playwright/test';
import { CARDS, createLink, fillCard, merchantApi, payerPage, screenshot, THREE_DS_CARDS } from './support';

const run = Date.now().toString(36);

/** The receipt on the payer's page, as its rows read; the card shown masked, never whole. */
async function expectReceipt(payer: Page, { amount, reference, card }: { amount: string; reference: string | null; card: string }) {
  const receipt = payer.getByRole('region', { name: 'Receipt' });
  await expect(receipt).toContainText(`Paid ${amount}`);
  if (reference) await expect(receipt.getByRole('definition').filter({ hasText: reference })).toBeVisible();
  const today = new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date());
  await expect(receipt).toContainText(today);
  await expect(receipt).toContainText(`VISA ${card.slice(0, 6)}******${card.slice(-4)}`);
  expect(await payer.locator('body').innerText()).not.toContain(card);
  const chargeId = (await receipt.locator('code').textContent()) ?? '';
  expect(chargeId).toMatch(/^[0-9a-f]{32}$/);
  return chargeId;
}

/** The charge the receipt names, as the merchant's API has it. */
async function chargeOf(chargeId: string) {
  const api = await merchantApi();
  const response = await api.get(`/charge/${chargeId}`);
  expect(response.status()).toBe(200);
  const found = (await response.json()) as Record<string, unknown>;
  await api.dispose();
  return found;
}

test('the payer sees who they pay and, once paid, a receipt with the payment id to quote', async ({ browser }) => {
  const link = await createLink({ title: 'Pottery class', amount: 42.5, invoiceId: `INV-${run}` });
  const payer = await payerPage(browser);
  await payer.goto(link.url);
  await expect(payer.getByText('Demo Merchant', { exact: true })).toBeVisible();
  await fillCard(payer, CARDS.approved);
  await payer.getByRole('button', { name: 'Pay' }).click();
  await expect(payer.getByRole('heading', { name: 'Payment received' })).toBeFocused();
  const chargeId = await expectReceipt(payer, { amount: 'A$42.50', reference: `INV-${run}`, card: CARDS.approved });
  await screenshot(payer, 'pay-receipt');
  expect(await chargeOf(chargeId)).toMatchObject({ status: 'SUCCESS', amount: 42.5, currency: 'AUD' });

  // On a phone too, the receipt fits.
  await payer.setViewportSize({ width: 390, height: 800 });
  expect(await payer.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await screenshot(payer, 'pay-receipt-390');
  await payer.context().close();
});

test('a payer back from 3-D Secure gets the same receipt', async ({ browser }) => {
  const link = await createLink({ title: 'Glazing workshop', invoiceId: `INV-3DS-${run}` });
  const payer = await payerPage(browser);
  await payer.goto(link.url);
  await fillCard(payer, THREE_DS_CARDS.challenge);
  await payer.getByRole('button', { name: 'Pay' }).click();
  await payer.getByRole('button', { name: 'Complete authentication' }).click();
  await payer.waitForURL((url) => url.pathname === `/pay/${link.paymentLinkId}` && url.searchParams.has('chargeId'));
  await expect(payer.getByRole('heading', { name: 'Payment received' })).toBeFocused();
  await expect(payer.getByText('Demo Merchant', { exact: true })).toBeVisible();
  const chargeId = await expectReceipt(payer, { amount: 'A$12.00', reference: `INV-3DS-${run}`, card: THREE_DS_CARDS.challenge });
  expect(new URL(payer.url()).searchParams.get('chargeId')).toBe(chargeId);
  expect(await chargeOf(chargeId)).toMatchObject({ status: 'SUCCESS', amount: 12, threeDsVerified: true });
  await screenshot(payer, 'pay-3ds-receipt');
  await payer.context().close();
});
