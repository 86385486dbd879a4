/**
 * The connector's scenarios against Checkout.com's sandbox (`npm run test:sandbox`), with a sandbox
 * account's secret key in CHECKOUT_TEST_SECRET_KEY (sk_sbox_…) and its processing channel in
 * CHECKOUT_TEST_PROCESSING_CHANNEL_ID. Sending card numbers needs Checkout.com's approval of the
 * account (docs/providers/checkout.md).
 */
import { describe } from 'vitest';
import { createCheckoutConnector } from './connector.js';
import { checkoutScenarios } from './scenarios.js';
import { CHECKOUT } from './type.js';

const secretKey = process.env.CHECKOUT_TEST_SECRET_KEY ?? '';
const processingChannelId = process.env.CHECKOUT_TEST_PROCESSING_CHANNEL_ID ?? '';
const configured = secretKey !== '' && processingChannelId !== '';

if (!configured) {
  console.warn(
    'Checkout.com sandbox tests skipped: set CHECKOUT_TEST_SECRET_KEY and CHECKOUT_TEST_PROCESSING_CHANNEL_ID to run them against Checkout.com’s sandbox.',
  );
}

describe.skipIf(!configured)('against Checkout.com’s sandbox', () => {
  const baseUrl = CHECKOUT.endpoint('SANDBOX', {});
  const connector = createCheckoutConnector({ baseUrl, timeoutMs: 30_000, secretKey, processingChannelId, webhooks: true });
  checkoutScenarios(() => ({
    connector,
    wrongKey: createCheckoutConnector({
      baseUrl,
      timeoutMs: 30_000,
      secretKey: 'sk_sbox_notavalidkey00000000000',
      processingChannelId,
      webhooks: true,
    }),
  }));
});
