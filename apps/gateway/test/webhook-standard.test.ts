import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { card, VISA } from './harness';
import { expectSigned, webhookTestbed, type Received } from './webhook-receiver';

/**
 * The Standard Webhooks headers beside X-Payfurl-Signature, checked as a receiver would check them
 * with the `standardwebhooks` package and the account's signing key (docs/webhooks.md).
 */
const bed = webhookTestbed();
const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** What a receiver built on the package does with a request: the event, or the package's refusal. */
function verify(signingKey: string, request: Received) {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
  return new Webhook(signingKey).verify(request.body, headers);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a delivery', () => {
  it('carries webhook-id, the attempt’s webhook-timestamp and webhook-signature, which standardwebhooks verifies; a late replay is refused', async () => {
    const { a, signingKey } = await bed.subscribedAccount('/std', ['Customer']);
    bed.receiver.plan('/std', 'fail');
    const customer = await a.api.post('/customer/card', { providerId: a.providerIds[0], paymentInformation: card(VISA) });
    expect(customer.status, JSON.stringify(customer.body)).toBe(201);
    await bed.drain();
    await bed.advance(30 * SECOND);

    const [first, retry] = bed.receiver.at('/std');
    expect(retry).toBeDefined();
    for (const request of [first!, retry!]) {
      // The signature the SDKs check is still there, unchanged.
      expectSigned(request, signingKey);
      expect(request.headers['webhook-id']).toBe(request.meta.messageId);
    }
    // Each attempt has its own time (the test's clock moved 30 s between them), and is signed over it.
    const sentAt = (request: Received) => Number(request.headers['webhook-timestamp']);
    expect(sentAt(retry!) - sentAt(first!)).toBeGreaterThanOrEqual(30);
    expect(verify(signingKey, first!)).toEqual(JSON.parse(first!.body));

    // A tampered body, or a signature moved onto another message id, is refused.
    expect(() => verify(signingKey, { ...first!, body: first!.body.replace('"meta"', '"meta" ') })).toThrow(WebhookVerificationError);
    expect(() => verify(signingKey, { ...first!, headers: { ...first!.headers, 'webhook-id': 'another-message' } })).toThrow(
      WebhookVerificationError,
    );

    // A captured delivery replayed later than the package's 5-minute tolerance is refused.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(sentAt(first!) * 1000 + 6 * MINUTE));
    expect(() => verify(signingKey, first!)).toThrow(/timestamp too old/i);
  });
});
