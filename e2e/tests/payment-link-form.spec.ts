import { expect, test } from '@playwright/test';
import { screenshot } from './support';

/**
 * The new payment link's preview tells the truth: an amount the gateway would refuse is shown as
 * refused, with why, in the field and in the preview, never rounded into a price; and only the
 * payment type the payment page can take is offered.
 */
test('the payment-link form shows an amount the gateway would refuse as refused, with why', async ({ page }) => {
  await page.goto('/payment-links/new');
  const preview = page.locator('.preview');
  const amount = page.getByLabel('Amount');
  const currency = page.getByLabel('Currency');
  await page.getByLabel('Title').fill('Tea ceremony');
  await expect(preview).toContainText('No amount yet');

  const refused = [
    { amount: '2500.5', currency: 'JPY', reason: 'JPY amounts have no decimal places' },
    { amount: '1,500', currency: '', reason: 'Amount is not a number' },
    { amount: '-20', currency: '', reason: 'Amount must be greater than zero' },
    { amount: '12.345', currency: 'AUD', reason: 'AUD amounts have at most 2 decimal places' },
  ];
  for (const example of refused) {
    await currency.fill(example.currency);
    await amount.fill(example.amount);
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
    await expect(amount).toHaveAccessibleDescription(new RegExp(example.reason));
    await expect(preview).toContainText(`Not a valid amount: ${example.reason}`);
    await expect(preview.locator('.pay-amount')).toHaveCount(0);
  }
  await screenshot(page, 'payment-link-new-invalid-amount');

  // An unknown currency is the currency field's fault.
  await amount.fill('2500');
  await currency.fill('XYZ');
  await expect(currency).toHaveAttribute('aria-invalid', 'true');
  await expect(currency).toHaveAccessibleDescription(/Unknown currency XYZ/);
  await expect(amount).not.toHaveAttribute('aria-invalid', 'true');
  // Nothing is sent while the form holds a refused value: the field at fault takes the focus.
  let created = 0;
  page.on('request', (request) => {
    if (request.url().includes('paymentLink.create')) created += 1;
  });
  await page.getByRole('button', { name: 'Create the payment link' }).click();
  await expect(currency).toBeFocused();
  expect(created).toBe(0);

  // Valid again: the preview shows the price exactly, in the currency's format.
  await currency.fill('JPY');
  await expect(preview.locator('.pay-amount')).toHaveText('¥2,500');
  await expect(amount).not.toHaveAttribute('aria-invalid', 'true');
  await currency.fill('');
  await amount.fill('1500');
  await expect(preview.locator('.pay-amount')).toHaveText('A$1,500.00');

  // Only cards are taken on the payment page, so no other payment type is offered.
  await expect(page.getByRole('checkbox')).toHaveAccessibleName('Ask the payer for their email');
  await expect(page.getByText('Payers pay by card')).toBeVisible();
  await page.getByRole('button', { name: 'Create the payment link' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tea ceremony');
  expect(created).toBe(1);
});
