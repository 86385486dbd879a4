import { expect, test, type Page } from '@playwright/test';
import { CARDS, charge, createLink, fillCard, payerPage, screenshot } from './support';

const run = Date.now().toString(36);
const PHONE = { width: 390, height: 844 };

/** A Luhn-valid Visa number ending in `lastFour`, of no test card's range (the simulated acquirer approves it). */
function visaEndingIn(lastFour: string): string {
  for (let filler = 0; filler < 10; filler += 1) {
    const number = `4716000000${filler}0${lastFour}`;
    const sum = [...number].reverse().reduce((total, digit, index) => {
      const value = Number(digit) * (index % 2 === 1 ? 2 : 1);
      return total + (value > 9 ? value - 9 : value);
    }, 0);
    if (sum % 10 === 0) return number;
  }
  throw new Error(`no Visa number ends in ${lastFour}`);
}

/** The page at 1280 px, then on a phone (390 px), and back. */
async function screenshots(page: Page, name: string) {
  const desktop = page.viewportSize();
  await screenshot(page, name);
  await page.setViewportSize(PHONE);
  await screenshot(page, `${name}-390`);
  if (desktop) await page.setViewportSize(desktop);
}

test('one field finds a charge by email, last four digits or part of its reference; a failure says why', async ({ page }) => {
  const lastFour = String(1000 + (Date.now() % 9000));
  const email = `zoe.${run}@example.com`;
  const reference = `Order ${run}-7532`;
  const paid = await charge({ amount: 42.5, email, reference }, visaEndingIn(lastFour));
  const declined = await charge({ amount: 9.99, email: `bo.${run}@example.com`, reference: `Order ${run}-9995` }, CARDS.insufficientFunds);

  await page.goto('/charges');
  const search = page.getByLabel('Search charges');
  // The detailed filters wait under "More filters".
  await expect(page.getByLabel('Reference (exact)')).toBeHidden();
  const results = page.getByRole('region', { name: 'Charges' }).getByRole('table');
  const find = async (text: string) => {
    await search.fill(text);
    await search.press('Enter');
    await expect(page).toHaveURL(new RegExp(`query=${encodeURIComponent(text).replace(/%20/g, '\\+')}`));
  };

  await find(email.toUpperCase());
  await expect(results.getByRole('row')).toHaveCount(2);
  const row = results.getByRole('row').nth(1);
  await expect(row).toContainText(email);
  await expect(row).toContainText(reference);
  await expect(row).toContainText('A$42.50');
  await expect(row).toContainText('Paid');

  await find(lastFour);
  await expect(results.getByRole('row', { name: new RegExp(reference) })).toBeVisible();

  // Part of a reference, in any letter case: both of this run's orders.
  await find(`order ${run}`);
  await expect(results.getByRole('row')).toHaveCount(3);
  const failed = results.getByRole('row', { name: new RegExp(`${run}-9995`) });
  await expect(failed).toContainText('Failed');
  await expect(failed).toContainText('Declined: insufficient funds');
  await screenshots(page, 'charges-search');

  await find(String(declined.chargeId ?? (declined.details as Record<string, string>).chargeId));
  await expect(results.getByRole('row')).toHaveCount(2);
  await expect(results).toContainText('Declined: insufficient funds');

  await find(String(paid.chargeId));
  await results.getByRole('link').click();
  await expect(page).toHaveURL(`/charges/${String(paid.chargeId)}`);
  await expect(page.getByRole('region', { name: 'Details' })).toContainText(email);
});

test('a payment link lists its payments and declined attempts; each charge links back to the link', async ({ page, browser }) => {
  const title = `Pottery class ${run}`;
  const link = await createLink({ title, amount: 30, askEmail: true });
  const email = `pat.${run}@example.com`;

  const payer = await payerPage(browser);
  await payer.goto(link.url);
  await fillCard(payer, CARDS.insufficientFunds);
  await payer.getByRole('button', { name: 'Pay' }).click();
  // The link asks for the payer's email: the form says so before anything is sent.
  await expect(payer.getByLabel('Email')).toBeFocused();
  await expect(payer.getByLabel('Email')).toHaveAccessibleDescription(/Enter your email/);
  await payer.getByLabel('Email').fill(email);
  await screenshots(payer, 'pay-page-email');
  await payer.getByRole('button', { name: 'Pay' }).click();
  await expect(payer.getByRole('alert').filter({ hasText: 'The card was declined' })).toBeVisible();
  await payer.getByLabel('Card number').fill(CARDS.approved);
  await payer.getByLabel('Security code (CCV)').fill('123');
  await payer.getByRole('button', { name: 'Pay' }).click();
  await expect(payer.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await payer.context().close();

  await page.goto(`/payment-links/${link.paymentLinkId}`);
  const payments = page.getByRole('region', { name: 'Payments', exact: true });
  const declined = page.getByRole('region', { name: 'Declined attempts', exact: true });
  await expect(payments.getByRole('row')).toHaveCount(2);
  await expect(payments).toContainText(email);
  await expect(payments).toContainText('A$30.00');
  await expect(payments).toContainText('Paid');
  await expect(declined.getByRole('row')).toHaveCount(2);
  await expect(declined).toContainText('Declined: insufficient funds');
  await screenshots(page, 'payment-link-payments');

  await payments.getByRole('link').click();
  await expect(page).toHaveURL(/\/charges\/[0-9a-f]{32}$/);
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details).toContainText(email);
  await details.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(`/payment-links/${link.paymentLinkId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
});
