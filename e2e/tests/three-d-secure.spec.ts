import { expect, test, type Page } from '@playwright/test';
import {
  CARDS,
  charge,
  countPayments,
  createLink,
  dashboardUrl,
  fillCard,
  gatewayUrl,
  MERCHANT_SITE,
  merchantApi,
  payerPage,
  screenshot,
  THREE_DS_CARDS,
} from './support';

/**
 * 3-D Secure in a browser, on the simulated acquirer (docs/three-d-secure.md): the payer follows
 * the gateway's real redirects to the simulated issuer's page and presses its real buttons, on a
 * payment link's hosted page and through the API flow; then what staff see of it in the dashboard.
 * No test calls a return URL itself.
 */

/** Every POST of the page to the gateway's /pay, counted as the browser sends them. */
function countPays(page: Page): () => number {
  let pays = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/pay')) pays += 1;
  });
  return () => pays;
}

/** Pays the link's page with a card whose issuer wants a challenge, and waits for the issuer's page (same window, no frame). */
async function payToTheIssuer(payer: Page, url: string) {
  await payer.goto(url);
  await fillCard(payer, THREE_DS_CARDS.challenge);
  await payer.getByRole('button', { name: 'Pay' }).click();
  await expect(payer.getByRole('heading', { name: 'Verify your payment' })).toBeVisible();
  expect(new URL(payer.url()).origin).toBe(gatewayUrl);
  expect(payer.frames()).toHaveLength(1);
  await expect(payer.getByText(`•••• ${THREE_DS_CARDS.challenge.slice(-4)}`)).toBeVisible();
}

/** The payer is back on the link's hosted page, with the charge's id that the gateway added. */
async function backOnThePage(payer: Page, paymentLinkId: string) {
  await payer.waitForURL(
    (url) => url.origin === dashboardUrl && url.pathname === `/pay/${paymentLinkId}` && url.searchParams.has('chargeId'),
  );
  return new URL(payer.url()).searchParams;
}

test.describe('3-D Secure on the hosted payment page', () => {
  test('a completed challenge lands back on the page, paid, and the link counts the payment once', async ({ browser }) => {
    const link = await createLink({
      confirmationMessage: 'See you at the workshop',
      redirectUrl: `${MERCHANT_SITE}/thanks`,
      limitPayments: 1,
    });
    const payer = await payerPage(browser);
    const pays = countPays(payer);
    const payRequest = payer.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/pay'));
    await payToTheIssuer(payer, link.url);
    // The page told the issuer what no header says of the payer's browser.
    const screenWidth = await payer.evaluate(() => screen.width);
    expect((await payRequest).postDataJSON()).toMatchObject({
      browserInfo: { colorDepth: expect.any(Number), screenWidth, timeZoneOffset: expect.any(Number) },
    });
    await expect(payer.getByText('A$12.00')).toBeVisible();
    await screenshot(payer, 'pay-3ds-issuer');
    await payer.getByRole('button', { name: 'Complete authentication' }).click();

    const query = await backOnThePage(payer, link.paymentLinkId);
    expect(query.get('status')).toBe('SUCCESS');
    await expect(payer.getByRole('heading', { name: 'Payment received' })).toBeFocused();
    await expect(payer.getByText('Paid A$12.00')).toBeVisible();
    await expect(payer.getByRole('status').filter({ hasText: 'See you at the workshop' })).toBeVisible();
    await screenshot(payer, 'pay-3ds-paid');
    await payer.waitForURL(`${MERCHANT_SITE}/thanks`);
    expect(pays()).toBe(1);
    expect(await countPayments(link.paymentLinkId)).toBe(1);

    const api = await merchantApi();
    const paid = (await (await api.get(`/charge/${query.get('chargeId')}`)).json()) as Record<string, unknown>;
    await api.dispose();
    expect(paid).toMatchObject({ status: 'SUCCESS', amount: 12, threeDsVerified: true, threeDs: { flow: 'challenge', transStatus: 'Y' } });
    await payer.context().close();
  });

  test('a failed authentication says why on a phone, and another card can pay', async ({ browser }) => {
    const link = await createLink({ title: 'Phone workshop', limitPayments: 1 });
    const payer = await payerPage(browser, { width: 390, height: 844 });
    await payToTheIssuer(payer, link.url);
    expect(await payer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await payer.getByRole('button', { name: 'Fail authentication' }).click();

    expect((await backOnThePage(payer, link.paymentLinkId)).get('status')).toBe('FAILED');
    await expect(payer.getByRole('heading', { name: 'Payment not completed' })).toBeFocused();
    const alert = payer.getByRole('main').getByRole('alert');
    await expect(alert).toContainText('Your bank did not confirm the payment: the authentication failed or was cancelled.');
    await expect(alert).toContainText('You have not been charged.');
    expect(await payer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(payer, 'pay-3ds-failed-390');
    // The slot came back: another card can take it.
    expect(await countPayments(link.paymentLinkId)).toBe(0);

    await payer.getByRole('button', { name: 'Try another card' }).click();
    await expect(payer.getByLabel('Card number')).toBeFocused();
    expect(new URL(payer.url()).search).toBe('');
    await fillCard(payer, CARDS.approved);
    await payer.getByRole('button', { name: 'Pay' }).click();
    await expect(payer.getByRole('heading', { name: 'Payment received' })).toBeFocused();
    expect(await countPayments(link.paymentLinkId)).toBe(1);
    await payer.context().close();
  });

  test('a cancelled authentication says so, and nothing is charged', async ({ browser }) => {
    const link = await createLink({ title: 'Cancelled workshop' });
    const payer = await payerPage(browser);
    await payToTheIssuer(payer, link.url);
    await payer.getByRole('button', { name: 'Cancel' }).click();

    const query = await backOnThePage(payer, link.paymentLinkId);
    await expect(payer.getByRole('heading', { name: 'Payment not completed' })).toBeFocused();
    await expect(payer.getByRole('main').getByRole('alert')).toContainText('failed or was cancelled');
    await expect(payer.getByRole('button', { name: 'Try another card' })).toBeVisible();
    expect(await countPayments(link.paymentLinkId)).toBe(0);
    const api = await merchantApi();
    expect(await (await api.get(`/charge/${query.get('chargeId')}`)).json()).toMatchObject({ status: 'FAILED', threeDsVerified: false });
    await api.dispose();
    await payer.context().close();
  });

  test('a reload after the return, going back and forth, or a forged status pay nothing more and show the same outcome', async ({
    browser,
  }) => {
    const link = await createLink({ title: 'Reloaded workshop', confirmationMessage: 'Booked' });
    const payer = await payerPage(browser);
    const pays = countPays(payer);
    await payToTheIssuer(payer, link.url);
    await payer.getByRole('button', { name: 'Complete authentication' }).click();
    const chargeId = (await backOnThePage(payer, link.paymentLinkId)).get('chargeId');
    const paid = payer.getByRole('heading', { name: 'Payment received' });
    await expect(paid).toBeFocused();

    await payer.reload();
    await expect(paid).toBeFocused();
    await expect(payer.getByText('Booked')).toBeVisible();
    // Back to the issuer's page (its authentication is over), then forward to the outcome again.
    await payer.goBack();
    await expect(payer.getByRole('heading', { name: 'Authentication finished' })).toBeVisible();
    await payer.goForward();
    await expect(paid).toBeVisible();
    expect(pays()).toBe(1);
    expect(await countPayments(link.paymentLinkId)).toBe(1);

    // The page believes the gateway, not the status in its address.
    await payer.goto(`${link.url}?chargeId=${chargeId}&status=FAILED`);
    await expect(paid).toBeFocused();
    // A charge that is not this link's is not shown as its payment.
    const other = await createLink({ title: 'Another link' });
    await payer.goto(`${other.url}?chargeId=${chargeId}&status=SUCCESS`);
    await expect(payer.getByRole('heading', { name: 'Payment not found' })).toBeFocused();
    expect(await countPayments(other.paymentLinkId)).toBe(0);
    expect(pays()).toBe(1);
    await payer.context().close();
  });
});

test.describe('3-D Secure through the API', () => {
  test('the payer, sent to threeDsRedirectUrl, authenticates and lands on the merchant’s threeDSNotificationUrl with chargeId and status', async ({
    browser,
  }) => {
    const notificationUrl = `${MERCHANT_SITE}/checkout/3ds-done?order=1001`;
    const started = await charge(
      { amount: 30, reference: 'e2e-3ds-api', threeDSNotificationUrl: notificationUrl },
      THREE_DS_CARDS.challenge,
    );
    expect(started).toMatchObject({ status: 'PENDING', threeDsVerified: false });
    const redirectUrl = String(started.threeDsRedirectUrl);
    expect(redirectUrl.startsWith(`${gatewayUrl}/3ds/`)).toBe(true);

    const payer = await payerPage(browser);
    await payer.goto(redirectUrl);
    await expect(payer.getByRole('heading', { name: 'Verify your payment' })).toBeVisible();
    await expect(payer.getByText('A$30.00')).toBeVisible();
    await payer.getByRole('button', { name: 'Complete authentication' }).click();
    await payer.waitForURL((url) => url.origin === MERCHANT_SITE);
    await expect(payer.getByRole('heading', { name: 'Back at the merchant' })).toBeVisible();
    const landed = new URL(payer.url());
    expect(landed.pathname).toBe('/checkout/3ds-done');
    expect(Object.fromEntries(landed.searchParams)).toEqual({ order: '1001', chargeId: started.chargeId, status: 'SUCCESS' });

    // The merchant confirms with the API, never with the query.
    const api = await merchantApi();
    const confirmed = (await (await api.get(`/charge/${started.chargeId}`)).json()) as Record<string, unknown>;
    expect(confirmed).toMatchObject({
      status: 'SUCCESS',
      threeDsVerified: true,
      threeDsRedirectUrl: null,
      threeDs: { flow: 'challenge', transStatus: 'Y', liabilityShift: true },
    });
    // The redirect URL opened again says the authentication is over.
    await payer.goto(redirectUrl);
    await expect(payer.getByRole('heading', { name: /authentication is over/ })).toBeVisible();
    await api.dispose();
    await payer.context().close();
  });

  test('a passed challenge that the issuer then declines lands on the merchant’s URL with FAILED', async ({ browser }) => {
    const started = await charge(
      { amount: 31, reference: 'e2e-3ds-api-declined', threeDSNotificationUrl: `${MERCHANT_SITE}/checkout/3ds-done` },
      THREE_DS_CARDS.challengeThenDecline,
    );
    const payer = await payerPage(browser);
    await payer.goto(String(started.threeDsRedirectUrl));
    await payer.getByRole('button', { name: 'Complete authentication' }).click();
    await payer.waitForURL((url) => url.origin === MERCHANT_SITE);
    expect(new URL(payer.url()).searchParams.get('status')).toBe('FAILED');
    const api = await merchantApi();
    const confirmed = (await (await api.get(`/charge/${started.chargeId}`)).json()) as { status: string; failedAttempts: unknown[] };
    expect(confirmed.status).toBe('FAILED');
    expect(confirmed.failedAttempts).toEqual([expect.objectContaining({ errorCode: '43' })]);
    await api.dispose();
    await payer.context().close();
  });
});

test.describe('3-D Secure in the dashboard', () => {
  test('the charge list filters charges waiting for their payer; the detail shows the wait, then the outcome', async ({
    page,
    browser,
  }) => {
    const reference = `e2e-3ds-waiting-${Date.now()}`;
    const waiting = await charge({ amount: 44, reference, threeDSNotificationUrl: `${MERCHANT_SITE}/done` }, THREE_DS_CARDS.challenge);
    expect(waiting.status).toBe('PENDING');
    const settled = await charge({ amount: 45, reference: `${reference}-settled` });
    expect(settled.status).toBe('SUCCESS');

    await page.goto('/charges');
    await page.getByText('More filters').click();
    await page.getByLabel('3-D Secure').selectOption({ label: 'Waiting for the payer' });
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/awaitingAuthentication=true/);
    await expect(page.getByRole('row', { name: new RegExp(reference) })).toHaveCount(1);
    await expect(page.getByRole('row', { name: new RegExp(`${reference}-settled`) })).toHaveCount(0);
    await expect(page.getByRole('row').filter({ hasText: 'SUCCESS' })).toHaveCount(0);
    await screenshot(page, 'charges-awaiting-authentication');

    await page
      .getByRole('row', { name: new RegExp(reference) })
      .getByRole('link')
      .click();
    const threeDs = page.getByRole('region', { name: '3-D Secure' });
    await expect(threeDs).toContainText('Waiting for the payer to authenticate with their bank');
    await expect(threeDs.getByRole('definition').nth(1)).toHaveText(/\d{4}/);
    await screenshot(page, 'charge-3ds-waiting');

    // The payer authenticates; the charge's page then shows how.
    const payer = await payerPage(browser);
    await payer.goto(String(waiting.threeDsRedirectUrl));
    await payer.getByRole('button', { name: 'Complete authentication' }).click();
    await payer.waitForURL((url) => url.origin === MERCHANT_SITE);
    await payer.context().close();
    await page.reload();
    await expect(threeDs).toContainText('Authenticated');
    for (const [term, value] of [
      ['Flow', 'Challenge'],
      ['Result (transStatus)', 'Y: authenticated'],
      ['ECI', '05'],
      ['Liability shift', 'Yes'],
    ]) {
      await expect(threeDs.locator('dt', { hasText: term }).locator('+ dd')).toHaveText(value ?? '');
    }
    await screenshot(page, 'charge-3ds-authenticated');
    await page.goto('/charges?awaitingAuthentication=true');
    await expect(page.getByRole('row', { name: new RegExp(reference) })).toHaveCount(0);
  });
});
