import { describe } from 'vitest';
import { nabScenarios } from './scenarios.js';
import { NAB_TRANSACT } from './type.js';

// The scenarios of connector.test.ts against NAB's test gateway:
// `NAB_TEST_MERCHANT_ID=XYZ0010 NAB_TEST_PASSWORD=abcd1234 npm run test:sandbox`.
const merchantId = process.env.NAB_TEST_MERCHANT_ID;
const password = process.env.NAB_TEST_PASSWORD;
if (!merchantId || !password)
  console.log('NAB Transact sandbox scenarios skipped: NAB_TEST_MERCHANT_ID and NAB_TEST_PASSWORD are not set.');

describe.skipIf(!merchantId || !password)('against NAB Transact’s test gateway', () => {
  nabScenarios(() => {
    const check = NAB_TRANSACT.checkParameters({ MerchantId: merchantId ?? '', Password: password ?? '' }, 'SANDBOX');
    if (!check.ok) throw new Error(`NAB_TEST_MERCHANT_ID / NAB_TEST_PASSWORD: ${JSON.stringify(check.problems)}`);
    return {
      connector: NAB_TRANSACT.connector({
        baseUrl: NAB_TRANSACT.endpoint('SANDBOX', {}),
        timeoutMs: 30_000,
        environment: 'SANDBOX',
        parameters: check.parameters,
      }),
    };
  });
});
