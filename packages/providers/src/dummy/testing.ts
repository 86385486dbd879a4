/** Helpers for this package's tests. */
import { randomUUID } from 'node:crypto';
import type { AuthoriseRequest, PaymentSource, WalletPaymentData } from '../connector.js';
import { createSimulatedConnector } from './connector.js';
import { startSimulator, type SimulatorOptions } from './simulator/server.js';

export const VISA = '4111111111111111';
export const CVC = '737';

export function cardSource(number = VISA, expiry = { expiryMonth: 12, expiryYear: 2030 }): PaymentSource {
  return { type: 'card', card: { number, ...expiry, cvc: CVC } };
}

export function payment(source: PaymentSource, extra: Partial<AuthoriseRequest> = {}): AuthoriseRequest {
  return { idempotencyKey: randomUUID(), amount: 1000n, currency: 'GBP', capture: false, source, ...extra };
}

/** Apple Pay payment data in the simulator's test format (wallet.ts). */
export function applePaySource(
  card: Record<string, unknown>,
  changes: Partial<WalletPaymentData> = {},
): Extract<PaymentSource, { type: 'wallet' }> {
  const data = Buffer.from(JSON.stringify(card)).toString('base64');
  const paymentData = { data, signature: 'c2lnbmF0dXJl', header: { transactionId: randomUUID() }, version: 'EC_v1', ...changes };
  return { type: 'wallet', wallet: 'apple_pay', paymentData };
}

export { failureOf, valueOf } from '../testing.js';

/** A simulator whose clock moves only when told (from 1 January 2026), and a connector to it. */
export async function startClockedSimulator(options: Omit<SimulatorOptions, 'clock'> = {}, settlementDelayMs = 0) {
  let now = Date.UTC(2026, 0, 1);
  const sim = await startSimulator({ ...options, clock: { now: () => new Date(now) } });
  const connector = createSimulatedConnector({ baseUrl: sim.url, timeoutMs: 5_000, latency: { minMs: 0, maxMs: 0 }, settlementDelayMs });
  return {
    sim,
    connector,
    advance: (ms: number) => {
      now += ms;
    },
  };
}
