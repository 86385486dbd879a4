import { describe, expect, it } from 'vitest';
import { loadDescription } from './descriptions.js';

describe('provider API descriptions', () => {
  it('are fetched from the npm registry, checked and extracted', () => {
    const stripe = loadDescription('stripe') as { openapi: string; paths: Record<string, unknown> };
    expect(stripe.openapi).toMatch(/^3\.0/);
    expect(Object.keys(stripe.paths)).toContain('/v1/payment_intents');
    const adyen = loadDescription('adyenCheckout') as { paths: Record<string, unknown> };
    expect(Object.keys(adyen.paths)).toContain('/payments');
  });
});
