import { createHmac } from 'node:crypto';
import { request } from 'node:http';

/**
 * Stripe's signature of an event delivery: `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256
 * of "<t>.<raw body>" keyed with the endpoint's whsec_ secret>`.
 */
export function signStripePayload(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/** Posts a raw event body to a URL as Stripe delivers it; answers the receiver's status and body. */
export function postEvent(url: string, payload: string, signature: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(payload)),
        'stripe-signature': signature,
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.end(payload);
  });
}
