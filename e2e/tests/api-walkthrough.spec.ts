import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { metricsUrl } from './support';

/** The README's walk-through, against the demo account a fresh start created. */
const demo = JSON.parse(readFileSync(join(process.env.E2E_DATA_DIR ?? '', 'demo-account.json'), 'utf8')) as {
  secretKey: string;
  publicKey: string;
  providers: Array<{ providerId: string; name: string; type: string }>;
};

test('a fresh start writes the demo account with two simulated providers', () => {
  expect(demo.secretKey).toMatch(/^sk_/);
  expect(demo.publicKey).toMatch(/^pk_/);
  expect(demo.providers).toHaveLength(2);
  expect(demo.providers.every((p) => p.type === 'dummy')).toBe(true);
});

test('authorise, capture in part, refund in two steps, search', async ({ request }) => {
  const headers = { 'x-secretkey': demo.secretKey };
  const provider = demo.providers[0]?.providerId;
  const created = await request.post('/charge/card', {
    headers,
    data: {
      amount: 50,
      currency: 'AUD',
      providerId: provider,
      capture: false,
      reference: 'order-1001',
      paymentInformation: { cardNumber: '4111111111111111', expiryDate: '12/30', ccv: '123', cardholder: 'Ann Payer' },
    },
  });
  expect(created.status()).toBe(201);
  const charge = await created.json();
  expect(charge).toMatchObject({ status: 'AUTHORISE', amount: 50, authorisationAmount: 50 });

  const captured = await request.post(`/charge/${charge.chargeId}/capture`, { headers, data: { amount: 40 } });
  expect(await captured.json()).toMatchObject({ status: 'SUCCESS', amount: 40, authorisationAmount: 50 });

  const partial = await request.delete(`/charge/${charge.chargeId}?amount=15.5&comment=damaged`, { headers });
  expect(await partial.json()).toMatchObject({
    status: 'PARTIAL_REFUND',
    refundedAmount: 15.5,
    refunds: [{ amount: 15.5, comment: 'damaged' }],
  });

  const rest = await request.delete(`/charge/${charge.chargeId}`, { headers });
  expect(await rest.json()).toMatchObject({ status: 'REFUND', refundedAmount: 40 });

  const found = await request.get('/charge?Reference=order-1001', { headers });
  expect(await found.json()).toMatchObject({ count: 1, charges: [{ chargeId: charge.chargeId, status: 'REFUND' }] });
});

test('least cost picks the cheaper acquirer for the card; a decline is stored as FAILED', async ({ request }) => {
  const headers = { 'x-secretkey': demo.secretKey };
  const cheapest = await request.post('/charge/card/least_cost', {
    headers,
    data: { amount: 99.95, paymentInformation: { cardNumber: '4242424242424242', expiryDate: '12/30', ccv: '123' } },
  });
  expect(cheapest.status()).toBe(201);
  expect(await cheapest.json()).toMatchObject({
    providerId: demo.providers[0]?.providerId,
    estimatedCost: 1.2,
    estimatedCostCurrency: 'AUD',
  });

  const declined = await request.post('/charge/card', {
    headers,
    data: {
      amount: 10,
      providerId: demo.providers[0]?.providerId,
      paymentInformation: { cardNumber: '4000000000009995', expiryDate: '12/30' },
    },
  });
  expect(declined.status()).toBe(400);
  const error = await declined.json();
  expect(error).toMatchObject({ code: 15, gatewayCode: '51', isRetryable: false, resource: '/charge/card' });
  const stored = await request.get(`/charge/${error.details.chargeId}`, { headers });
  expect(await stored.json()).toMatchObject({ status: 'FAILED' });
});

test('operational endpoints answer', async ({ request }) => {
  expect(await (await request.get('/health')).json()).toEqual({ status: 'ok' });
  // Metrics have a port of their own, on this machine only: not the API's.
  expect((await request.get('/metrics')).status()).toBe(404);
  expect((await request.get(metricsUrl)).status()).toBe(200);
  const doc = await (await request.get('/openapi.json')).json();
  expect(Object.keys(doc.paths)).toContain('/charge/card');
});
