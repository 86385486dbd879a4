import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request, type Page } from '@playwright/test';

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

export const CARDS = { approved: '4242424242424242', insufficientFunds: '4000000000009995', luhnInvalid: '4242424242424241' };

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

/** A full-page screenshot in e2e/screenshots (git ignores it), with every card field masked. */
export async function screenshot(page: Page, name: string) {
  await page.screenshot({
    path: join(import.meta.dirname, '..', 'screenshots', `${name}.png`),
    fullPage: true,
    mask: [page.locator('input[autocomplete^="cc-"]')],
  });
}
