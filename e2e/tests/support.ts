import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, request, type Browser, type Page } from '@playwright/test';

/** The demo account a fresh start of the gateway created (keys, providers, dashboard user). */
export const demo = JSON.parse(readFileSync(join(process.env.E2E_DATA_DIR ?? '', 'demo-account.json'), 'utf8')) as {
  accountId: string;
  secretKey: string;
  publicKey: string;
  providers: Array<{ providerId: string; name: string; type: string }>;
  staff: { email: string; password: string };
};

export const gatewayUrl = process.env.E2E_GATEWAY_URL ?? '';
export const dashboardUrl = process.env.E2E_DASHBOARD_URL ?? '';
export const metricsUrl = process.env.E2E_METRICS_URL ?? '';
/** The fake Stripe the gateway's stripe providers talk to (GATEWAY_PROVIDER_ENDPOINTS). */
export const fakeStripeUrl = process.env.E2E_FAKE_STRIPE_URL ?? '';
/** Where the gateway's nab_transact providers' calls go (GATEWAY_PROVIDER_ENDPOINTS): a spec starts the fake NAB there. */
export const fakeNabUrl = process.env.E2E_FAKE_NAB_URL ?? '';

export const CARDS = { approved: '4242424242424242', insufficientFunds: '4000000000009995', luhnInvalid: '4242424242424241' };

/** The simulator's 3-D Secure cards (docs/test-cards.md). */
export const THREE_DS_CARDS = { challenge: '4000000000003220', challengeThenDecline: '4000008400001629' };

/** A merchant's site, answered in the test's browser contexts (page.route), never reached. */
export const MERCHANT_SITE = 'https://merchant.example';

/** A merchant's server: the REST API with the demo account's secret key. */
export function merchantApi(secretKey = demo.secretKey) {
  return request.newContext({ baseURL: gatewayUrl, extraHTTPHeaders: { 'x-secretkey': secretKey } });
}

/** A card charge through the first simulated provider; its answer. */
export async function charge(body: Record<string, unknown>, cardNumber = CARDS.approved) {
  const api = await merchantApi();
  const response = await api.post('/charge/card', {
    data: {
      providerId: demo.providers[0]?.providerId,
      currency: 'AUD',
      paymentInformation: { cardNumber, expiryDate: '12/30', ccv: '123', cardholder: 'E2E Payer' },
      ...body,
    },
  });
  const answer = (await response.json()) as Record<string, unknown>;
  await api.dispose();
  return answer;
}

/** A payment link of the demo account (a workshop seat for A$12.00 unless `fields` say otherwise). */
export async function createLink(fields: Record<string, unknown>): Promise<{ paymentLinkId: string; url: string }> {
  const api = await merchantApi();
  const response = await api.post('/payment_link', { data: { title: 'Workshop seat', amount: 12, currency: 'AUD', ...fields } });
  expect(response.status()).toBe(200);
  const link = (await response.json()) as { paymentLinkId: string; url: string };
  await api.dispose();
  return link;
}

export async function countPayments(paymentLinkId: string): Promise<number> {
  const api = await merchantApi();
  const link = (await (await api.get(`/payment_link/${paymentLinkId}`)).json()) as { countPayments: number };
  await api.dispose();
  return link.countPayments;
}

/** A payer's browser: no dashboard session, and the merchant's site answered locally. */
export async function payerPage(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  await context.route(`${MERCHANT_SITE}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<h1>Back at the merchant</h1>' }));
  return context.newPage();
}

export const CCV = '737';

/** The hosted page's card form filled in (once React runs: the button is enabled). */
export async function fillCard(page: Page, cardNumber: string) {
  await expect(page.getByRole('button', { name: /^(Pay|Donate)$/ })).toBeEnabled();
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry date').fill('12/30');
  await page.getByLabel('Security code (CCV)').fill(CCV);
  await page.getByLabel('Name on card').fill('Pat Payer');
}

/** The impacts that fail a page: what blocks or seriously hinders someone using assistive technology. */
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/** axe's WCAG 2.1 A and AA rules on the page as it stands: no serious or critical violation. */
export async function expectAccessible(page: Page, name: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const blocking = violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => `${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(blocking, `axe on ${name}`).toEqual([]);
}

/**
 * A full-page screenshot in e2e/screenshots (git ignores it), with every card field masked; every
 * page the suite shows is checked with axe on the way.
 */
export async function screenshot(page: Page, name: string) {
  await expectAccessible(page, name);
  await page.screenshot({
    path: join(import.meta.dirname, '..', 'screenshots', `${name}.png`),
    fullPage: true,
    mask: [page.locator('input[autocomplete^="cc-"]')],
  });
}
