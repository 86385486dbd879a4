import type { FakeStripe } from '@gateway/provider-fakes';
import { afterAll, afterEach, describe, expect } from 'vitest';
import { stripeScenarios } from './scenarios.js';
import { startStripe } from './testing.js';

// The scenarios of stripe.sandbox.test.ts, against the fake Stripe: once with raw card numbers,
// once with an account that refuses them (test payment methods then stand for the cards).
const fakes: FakeStripe[] = [];
afterEach(() => {
  for (const fake of fakes) expect(fake.violations).toEqual([]);
});
afterAll(() => Promise.all(fakes.map((fake) => fake.close())));

for (const rawCards of [true, false]) {
  describe(rawCards ? 'with raw card numbers' : 'with test payment methods', () => {
    stripeScenarios(async () => {
      const { fake, connector } = await startStripe({ rawCardsAllowed: rawCards });
      fakes.push(fake);
      return {
        connector,
        rawCards,
        clientToken: () => fake.clientToken('4242424242424242'),
        clientPaymentMethod: () => fake.clientPaymentMethod('4242424242424242'),
      };
    });
  });
}
