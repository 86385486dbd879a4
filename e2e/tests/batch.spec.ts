import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { CARDS, demo, merchantApi, screenshot } from './support';

const run = Date.now().toString(36);

/** A customer's saved card at the first simulated provider; its payment method id. */
async function savedCard(cardNumber: string): Promise<string> {
  const api = await merchantApi();
  const response = await api.post('/customer/card', {
    data: {
      email: `batch.${cardNumber.slice(-4)}.${run}@example.com`,
      providerId: demo.providers[0]?.providerId,
      paymentInformation: { cardNumber, expiryDate: '12/30', ccv: '123', cardholder: 'Batch Payer' },
    },
  });
  expect(response.status()).toBe(201);
  const customer = (await response.json()) as { defaultPaymentMethod: { paymentMethodId: string } };
  await api.dispose();
  return customer.defaultPaymentMethod.paymentMethodId;
}

const csvFile = (lines: string[]) => ({
  name: 'charges.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(['PaymentMethodId,Amount,Currency,Reference', ...lines].join('\n')),
});

test('staff upload a batch: problems shown per line first, then a live progress bar, the counts and the results CSV', async ({ page }) => {
  const approved = await savedCard(CARDS.approved);
  const declined = await savedCard(CARDS.insufficientFunds);
  const description = `Monthly run ${run}`;
  await page.goto('/batches/new');
  await page.getByLabel('Description').fill(description);
  const send = page.getByRole('button', { name: /^Charge/ });

  // The gateway checks the file as soon as it is chosen; nothing can be sent while a line is wrong.
  await page
    .getByLabel('CSV file')
    .setInputFiles(
      csvFile([`${approved},10.00,AUD,ok`, `${approved},ten,AUD,bad-amount`, `${approved},5,XYZ,bad-currency`, ',5,AUD,no-method']),
    );
  await expect(page.getByRole('alert').filter({ hasText: 'charges.csv has 3 problems' })).toBeVisible();
  const problems = page.getByRole('table', { name: 'Problems by line' });
  await expect(problems.getByRole('row')).toHaveCount(4);
  await expect(problems.getByRole('row').nth(1)).toContainText(/3\s*Amount\s*Amount is not a number/);
  await expect(problems.getByRole('row').nth(2)).toContainText(/4\s*Currency/);
  await expect(problems.getByRole('row').nth(3)).toContainText(/5\s*PaymentMethodId/);
  await expect(send).toBeDisabled();
  await screenshot(page, 'batch-problems');

  const rows = [
    ...Array.from({ length: 20 }, (_, i) => `${approved},1.50,AUD,paid-${i}`),
    ...Array.from({ length: 4 }, (_, i) => `${declined},2,AUD,declined-${i}`),
  ];
  await page.getByLabel('CSV file').setInputFiles(csvFile(rows));
  await expect(page.getByRole('status').filter({ hasText: 'charges.csv: 24 transactions, ready to send.' })).toBeVisible();
  await expect(problems).toHaveCount(0);
  // What the file adds up to, before the button that sends it: 20 × 1.50 + 4 × 2.
  await expect(page.getByText('Total to charge: A$38.00')).toBeVisible();
  await expect(send).toHaveText('Charge 24 transactions');
  await send.dblclick();

  // The page follows the batch on its own until it ends.
  await expect(page).toHaveURL(/\/batches\/[0-9a-f]{32}$/);
  const batchId = page.url().split('/').pop() ?? '';
  const bar = page.getByRole('progressbar', { name: 'Progress' });
  await expect(bar).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Finished: 20 succeeded, 4 failed.' })).toBeVisible({ timeout: 30_000 });
  await expect(bar).toHaveAttribute('value', '24');
  await expect(page.getByText('24 of 24 processed (100 %)')).toBeVisible();
  await expect(page.getByTestId('batch-success')).toHaveText('20');
  await expect(page.getByTestId('batch-failure')).toHaveText('4');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`${description} Completed with failures (4 failed)`);
  await screenshot(page, 'batch-detail');

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the results (CSV)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`batch-${batchId}-results.csv`);
  const lines = readFileSync(await download.path(), 'utf8').split('\n');
  expect(lines[0]).toBe(
    'PaymentMethodId,Amount,Currency,Reference,Status,TransactionId,FailureReason,GatewayErrorCode,GatewayErrorResponse,IsRetryable',
  );
  expect(lines).toHaveLength(25);
  expect(lines[1]).toMatch(new RegExp(`^${approved},1.5,AUD,paid-0,SUCCESS,[0-9a-f]{32},`));
  expect(lines.filter((line) => line.startsWith(`${declined},2,AUD,declined-`) && line.includes(',FAILED,,'))).toHaveLength(4);

  // One batch was made, however often the button was clicked; its failed charges are a click away.
  await page.goto(`/batches?description=${encodeURIComponent(description)}`);
  const found = page.getByRole('table', { name: 'Batches' });
  await expect(found.getByRole('row')).toHaveCount(2);
  await expect(found.getByRole('row').nth(1)).toContainText(/Completed with failures \(4 failed\)\s*24\s*100 %\s*20\s*4/);
  await screenshot(page, 'batches');
  await found.getByRole('link').click();
  await page.getByRole('link', { name: 'Failed charges' }).click();
  await expect(page.getByRole('navigation', { name: 'Pages of results' })).toContainText('1–4 of 4');
});
