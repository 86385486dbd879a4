import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bindInput, notFreeText } from './binding';

const schema = z.object({
  providerId: z.string(),
  amount: z.union([z.number(), z.string()]),
  capture: z.boolean().optional(),
  limit: z.number().int().optional(),
  initiator: z.enum(['CUSTOMER', 'MERCHANT']).optional(),
  paymentInformation: z.object({ cardNumber: z.string().register(notFreeText), cardholder: z.string().optional() }).optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  webhook: z.object({ url: z.string() }).optional(),
  items: z.array(z.object({ quantity: z.number() })).optional(),
});

describe('bindInput', () => {
  it('binds PascalCase and camelCase keys, J spelling cardHolder, and drops nulls', () => {
    expect(
      bindInput(schema, {
        ProviderId: 'p1',
        Amount: '258',
        capture: null,
        PaymentInformation: { CardNumber: '4111111111111111', cardHolder: 'Ann' },
      }),
    ).toEqual({ providerId: 'p1', amount: '258', paymentInformation: { cardNumber: '4111111111111111', cardholder: 'Ann' } });
  });

  it('keeps metadata keys as sent, maps aliases, drops unknown keys', () => {
    expect(bindInput(schema, { MetaData: { OrderRef: 'A', other: null }, WebhookConfig: { Url: 'u' }, Surprise: 1 })).toEqual({
      metadata: { OrderRef: 'A' },
      webhook: { url: 'u' },
    });
  });

  it('converts numeric and boolean text, enum case and enum integers', () => {
    expect(bindInput(schema, { Limit: '10', capture: 'False', initiator: 1, items: [{ Quantity: '2' }] })).toEqual({
      limit: 10,
      capture: false,
      initiator: 'MERCHANT',
      items: [{ quantity: 2 }],
    });
    expect(bindInput(schema, { initiator: 'customer' })).toEqual({ initiator: 'CUSTOMER' });
  });

  it('treats empty strings as absent and refuses NUL characters', () => {
    expect(bindInput(schema, { providerId: '', limit: '', initiator: '', amount: '5' })).toEqual({ amount: '5' });
    expect(() => bindInput(schema, { providerId: 'a\u0000b' })).toThrow(/NUL/);
    expect(() => bindInput(schema, { metadata: { k: '\u0000' } })).toThrow(/NUL/);
    expect(() => bindInput(schema, { metadata: { 'k\u0000': 'v' } })).toThrow(/NUL/);
  });

  it('leaves values it cannot convert for the schema to refuse', () => {
    expect(bindInput(schema, { limit: 'ten', capture: 'maybe', initiator: 7 })).toEqual({ limit: 'ten', capture: 'maybe', initiator: 7 });
  });

  it('refuses a card number in free text, naming the field but not quoting it, and lets order numbers through', () => {
    const refusal = (input: unknown) => {
      try {
        bindInput(schema, input);
      } catch (error) {
        return { message: (error as Error).message, details: (error as { details?: unknown }).details };
      }
      return undefined;
    };
    const reason = 'Looks like a card number: send card numbers only in card fields';
    expect(refusal({ providerId: 'ref 4111-1111-1111-1111' })).toEqual({
      message: `providerId: ${reason}`,
      details: { providerId: reason },
    });
    expect(refusal({ PaymentInformation: { cardHolder: '5555 5555 5555 4444' } })?.details).toEqual({
      'paymentInformation.cardholder': reason,
    });
    expect(refusal({ items: [{ quantity: 1 }, { quantity: '378282246310005' }] })?.details).toEqual({ 'items.1.quantity': reason });
    expect(refusal({ metadata: { note: 'x 4242424242424242' } })?.details).toEqual({ 'metadata.note': reason });
    expect(JSON.stringify(refusal({ metadata: { '4242424242424242': 'x' } }))).not.toContain('4242424242424242');
    expect(refusal({ metadata: { '4242424242424242': 'x' } })?.details).toEqual({ 'metadata (a key)': reason });
    // The card field itself, and digits that merely pass Luhn.
    expect(refusal({ paymentInformation: { cardNumber: '4111111111111111' }, providerId: 'order 1234567812345670' })).toBeUndefined();
    // An id of the gateway's shape whose hex holds a Visa-like run, in an id field; anywhere else it is refused.
    for (const id of ['ab4111111111111111cdef0123456789', 'f4111111111111111abcdef0']) {
      expect(refusal({ providerId: id }), id).toBeUndefined();
      expect(refusal({ webhook: { url: id } })?.details, id).toEqual({ 'webhook.url': reason });
    }
    // Disguised, in a URL.
    expect(refusal({ webhook: { url: 'https://shop.example/?c=%34%31%31%31%31%31%31%31%31%31%31%31%31%31%31%31' } })?.details).toEqual({
      'webhook.url': reason,
    });
    expect(refusal({ providerId: '4111111111111111 and more' })?.details).toEqual({ providerId: reason });
  });
});
