/**
 * The connector's scenarios against Adyen's own test endpoint (`npm run test:sandbox`), with the
 * credentials of an Adyen test account in ADYEN_TEST_API_KEY and ADYEN_TEST_MERCHANT_ACCOUNT.
 * The API credential needs Adyen's permission for raw card data (docs/providers/adyen.md).
 */
import { describe } from 'vitest';
import { valueOf } from '../testing.js';
import { createAdyenConnector } from './connector.js';
import { adyenScenarios } from './scenarios.js';
import { attemptKey, card } from './testing.js';
import { ADYEN } from './type.js';

const apiKey = process.env.ADYEN_TEST_API_KEY ?? '';
const merchantAccount = process.env.ADYEN_TEST_MERCHANT_ACCOUNT ?? '';
const configured = apiKey !== '' && merchantAccount !== '';

if (!configured) {
  console.warn(
    'Adyen sandbox tests skipped: set ADYEN_TEST_API_KEY and ADYEN_TEST_MERCHANT_ACCOUNT to run them against Adyen’s test endpoint.',
  );
}

describe.skipIf(!configured)('against Adyen’s test endpoint', () => {
  const baseUrl = ADYEN.endpoint('SANDBOX', {});
  const connector = createAdyenConnector({ baseUrl, timeoutMs: 30_000, apiKey, merchantAccount });

  adyenScenarios(() => ({
    connector,
    wrongKey: createAdyenConnector({ baseUrl, timeoutMs: 30_000, apiKey: 'AQE-not-a-valid-key', merchantAccount }),
    // A token stored earlier stands for one the merchant brings.
    broughtToken: async () => {
      const shopperReference = `brought-${attemptKey().slice(0, 12)}`;
      const stored = valueOf(
        await connector.storeCard({
          idempotencyKey: attemptKey(),
          source: { type: 'card', card: card() },
          ownerReference: shopperReference,
        }),
      );
      return { providerToken: stored.providerToken, shopperReference };
    },
  }));
});
