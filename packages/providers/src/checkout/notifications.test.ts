import { describe, expect, it } from 'vitest';
import { CHECKOUT_NOTIFICATIONS, checkoutSignature } from './notifications.js';

const SECRET = 'whsec-checkout-test-0001';
const parameters = { SecretKey: 'sk_sbox_x', ProcessingChannelId: 'pc_x', WebhookSecret: SECRET };

function request(event: Record<string, unknown>, signature?: string) {
  const rawBody = Buffer.from(JSON.stringify(event));
  return { rawBody, headers: { 'cko-signature': signature ?? checkoutSignature(rawBody, SECRET) }, parameters, now: new Date() };
}
const event = (type: string, data: Record<string, unknown> = {}) => ({
  id: 'evt_az5sblvku4ge3dwpztvyizgcau',
  type,
  data: { id: 'pay_mbabizu24mvu3mela5njyhpit4', action_id: 'act_y3oqhf46pyzuxjbcn2giaqnb44', amount: 600, currency: 'EUR', ...data },
});

describe('Checkout.com notifications', () => {
  it.each([
    ['payment_captured', 'capture', true],
    ['payment_capture_declined', 'capture', false],
    ['payment_voided', 'void', true],
    ['payment_void_declined', 'void', false],
    ['payment_refunded', 'refund', true],
    ['payment_refund_declined', 'refund', false],
  ] as const)('%s settles the %s it names by its action id (success %s)', (type, kind, success) => {
    const read = CHECKOUT_NOTIFICATIONS.read(request(event(type)));
    expect(read).toEqual({
      ok: true,
      notifications: [
        expect.objectContaining({
          id: 'evt_az5sblvku4ge3dwpztvyizgcau',
          event: kind,
          success,
          providerChargeId: 'pay_mbabizu24mvu3mela5njyhpit4',
          providerReference: 'act_y3oqhf46pyzuxjbcn2giaqnb44',
          amount: 600n,
          currency: 'EUR',
        }),
      ],
    });
    if (!success) expect(read.ok && read.notifications[0]!.failure).toMatchObject({ gatewayCode: type });
  });

  it('payment_approved and payment_declined report the authorisation of the payment (declined with its response code)', () => {
    const approved = CHECKOUT_NOTIFICATIONS.read(request(event('payment_approved')));
    expect(approved.ok && approved.notifications[0]).toMatchObject({
      event: 'authorisation',
      success: true,
      providerChargeId: 'pay_mbabizu24mvu3mela5njyhpit4',
    });
    expect(approved.ok && approved.notifications[0]!.providerReference).toBeUndefined();
    const declined = CHECKOUT_NOTIFICATIONS.read(request(event('payment_declined', { response_code: '20051' })));
    expect(declined.ok && declined.notifications[0]).toMatchObject({
      event: 'authorisation',
      success: false,
      failure: { gatewayCode: '20051', category: 'insufficient_funds' },
    });
  });

  it('counts amounts back in ISO minor units, and none for a currency it cannot count', () => {
    const read = CHECKOUT_NOTIFICATIONS.read(request(event('payment_refunded', { amount: 1500, currency: 'KWD' })));
    expect(read.ok && read.notifications[0]!.amount).toBe(1500n);
    const unknown = CHECKOUT_NOTIFICATIONS.read(request(event('payment_refunded', { amount: 2, currency: 'CLF' })));
    expect(unknown.ok && unknown.notifications[0]).toMatchObject({ currency: 'CLF' });
    expect(unknown.ok && unknown.notifications[0]!.amount).toBeUndefined();
  });

  it('other event types are kept as "other"', () => {
    const read = CHECKOUT_NOTIFICATIONS.read(request(event('payment_pending')));
    expect(read.ok && read.notifications[0]!.event).toBe('other');
  });

  it.each([
    ['no signature', (r: ReturnType<typeof request>) => ({ ...r, headers: {} })],
    [
      'a signature with another secret',
      (r: ReturnType<typeof request>) => ({ ...r, headers: { 'cko-signature': checkoutSignature(r.rawBody, 'another-secret-000001') } }),
    ],
    ['a tampered body', (r: ReturnType<typeof request>) => ({ ...r, rawBody: Buffer.from(r.rawBody.toString().replace('600', '60000')) })],
    ['a provider without WebhookSecret', (r: ReturnType<typeof request>) => ({ ...r, parameters: { SecretKey: 'sk_sbox_x' } })],
  ])('refuses %s', (_, change) => {
    expect(CHECKOUT_NOTIFICATIONS.read(change(request(event('payment_captured'))))).toMatchObject({ ok: false });
  });
});
