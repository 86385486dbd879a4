import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { applePaySource, cardSource, CVC, failureOf, payment, startClockedSimulator, valueOf, VISA } from '../testing.js';
import { KEY_RETENTION_MS } from './operations.js';

const INSUFFICIENT_FUNDS = '4000000000009995';
const WALLET_CARD = '5555555555554444';

const dir = mkdtempSync(join(tmpdir(), 'simulator-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

/** Every key and string value in a JSON document. */
function words(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) => [key, ...words(v)]);
}

it('keeps stored cards, payments and keys across a restart, without card numbers or CVCs', async () => {
  const stateFile = join(dir, 'state.jsonl');
  const before = await startClockedSimulator({ stateFile }, 1000);
  const { connector } = before;
  const card = { number: VISA, expiryMonth: 12, expiryYear: 2030, cvc: CVC };
  const stored = valueOf(await connector.storeCard({ idempotencyKey: randomUUID(), source: { type: 'card', card } }));
  const declining = valueOf(
    await connector.storeCard({ idempotencyKey: randomUUID(), source: { type: 'card', card: { ...card, number: INSUFFICIENT_FUNDS } } }),
  );
  const minted = await fetch(`${before.sim.url}/v1/single-use-tokens`, { method: 'POST', body: JSON.stringify({ card }) });
  const singleUse = { type: 'single_use_token', token: ((await minted.json()) as { token: string }).token } as const;
  valueOf(await connector.storeCard({ idempotencyKey: randomUUID(), source: singleUse }));
  const networkToken = valueOf(await connector.createNetworkToken({ idempotencyKey: randomUUID(), providerToken: stored.providerToken }));
  const sale = payment(cardSource(VISA), { capture: true });
  const { providerChargeId } = valueOf(await connector.authorise(sale));
  const wallet = applePaySource({ cardNumber: WALLET_CARD, expiryMonth: 12, expiryYear: 2030 });
  valueOf(await connector.authorise(payment(wallet)));
  const debit = valueOf(
    await connector.debit({
      idempotencyKey: randomUUID(),
      amount: 500n,
      currency: 'AUD',
      account: { type: 'bank_account', bankCode: '062000', accountNumber: '12345678', accountName: 'A Payer' },
    }),
  );
  await before.sim.close();

  const written = readFileSync(stateFile, 'utf8');
  for (const secret of [VISA, INSUFFICIENT_FUNDS, WALLET_CARD, wallet.paymentData.data]) {
    expect(written).not.toContain(secret);
  }
  const fields = lines(stateFile).flatMap((line) => words(JSON.parse(line)));
  expect(fields).not.toContain('cvc');
  expect(fields).not.toContain('number');
  expect(fields).not.toContain(CVC);

  // A crash may leave a line cut short; it is dropped, and the file comes back compacted.
  appendFileSync(stateFile, '["payment","auth_cut",{"amount":');
  const linesBefore = lines(stateFile).length;
  const after = await startClockedSimulator({ stateFile });
  expect(lines(stateFile).length).toBeLessThan(linesBefore - 1);
  try {
    const again = after.connector;
    expect(valueOf(await again.describeStoredCard({ providerToken: stored.providerToken }))).toEqual(stored);
    valueOf(await again.authorise(payment({ type: 'stored_card', providerToken: stored.providerToken })));
    valueOf(await again.authorise(payment({ type: 'network_token', networkTokenId: networkToken.networkTokenId })));
    expect(failureOf(await again.authorise(payment({ type: 'stored_card', providerToken: declining.providerToken })))).toMatchObject({
      category: 'insufficient_funds',
    });
    expect(failureOf(await again.storeCard({ idempotencyKey: randomUUID(), source: singleUse }))).toMatchObject({ gatewayCode: '12' });
    expect(valueOf(await again.authorise(sale)).providerChargeId).toBe(providerChargeId);
    valueOf(await again.refund({ providerChargeId, amount: 1000n, idempotencyKey: randomUUID() }));
    after.advance(1000);
    expect(valueOf(await again.paymentState({ providerChargeId: debit.providerChargeId }))).toEqual({ state: 'settled' });
  } finally {
    await after.sim.close();
  }
});

it('forgets idempotency keys after 24 hours', async () => {
  const { sim, connector, advance } = await startClockedSimulator();
  try {
    const first = payment(cardSource());
    valueOf(await connector.authorise(first));
    advance(KEY_RETENTION_MS);
    valueOf(await connector.authorise(payment(cardSource())));
    expect(sim.ledger.operations({ idempotencyKey: first.idempotencyKey })).toEqual([]);
    expect(sim.ledger.authorisations({ idempotencyKey: first.idempotencyKey })).toHaveLength(1);
  } finally {
    await sim.close();
  }
});
