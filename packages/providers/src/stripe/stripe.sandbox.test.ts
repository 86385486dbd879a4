import { describe } from 'vitest';
import { stripeScenarios } from './scenarios.js';
import { STRIPE } from './type.js';

// The scenarios of stripe.test.ts against Stripe's test mode: `STRIPE_TEST_SECRET_KEY=sk_test_… npm run test:sandbox`.
// STRIPE_TEST_RAW_CARDS=1 when the account may send raw card numbers (otherwise test payment methods stand for the cards).
const key = process.env.STRIPE_TEST_SECRET_KEY;
if (!key) console.log('Stripe sandbox scenarios skipped: STRIPE_TEST_SECRET_KEY (a sk_test_… key) is not set.');

describe.skipIf(!key)('against Stripe’s test mode', () => {
  stripeScenarios(() => {
    const check = STRIPE.checkParameters({ SecretKey: key ?? '' }, 'SANDBOX');
    if (!check.ok) throw new Error(`STRIPE_TEST_SECRET_KEY: ${check.problems.SecretKey}`);
    return {
      connector: STRIPE.connector({
        baseUrl: STRIPE.endpoint('SANDBOX', {}),
        timeoutMs: 30_000,
        environment: 'SANDBOX',
        parameters: check.parameters,
      }),
      rawCards: process.env.STRIPE_TEST_RAW_CARDS === '1',
      // Stripe's test tokens, as Stripe.js would hand them to a merchant's page.
      clientToken: () => 'tok_visa',
      clientPaymentMethod: () => 'pm_card_visa',
    };
  });
});
