import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, cardDataIn, createAccount, dumpTables, startTestGateway, type TestAccount, type TestGateway } from './harness';

/**
 * Card numbers and CCVs may exist only in memory on their way to a provider: never in the
 * database, the logs or an answer. This runs charges of every outcome, then reads everything.
 */
let t: TestGateway;
let a: TestAccount;
const answers: string[] = [];

const CARDS = [
  '4111111111111111',
  '5555555555554444',
  '378282246310005',
  '4242424242424242',
  '4000000000000002',
  '4000000000009995',
  '4000000000000119',
  '4000000000000101',
];
const CCVS = ['9371', '8264', '731'];
const INVALID = '4111111111111112';
const IDEMPOTENT_BODY = (providerId?: string) => ({ amount: 3, providerId, paymentInformation: card(CARDS[3], { ccv: '8264' }) });

/** The unkeyed hash a careless implementation would store: brute-forceable from the masked card. */
function plainHash(value: unknown): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .sort()
              .map(([k, x]) => [k, sorted(x)]),
          )
        : v;
  return createHash('sha256')
    .update(`POST /charge/card\n${JSON.stringify(sorted(value))}`)
    .digest('hex');
}

beforeAll(async () => {
  t = await startTestGateway();
  a = await createAccount(t);
  const providerId = a.providerIds[0];
  const record = async (response: Promise<{ status: number; body: unknown }>) => answers.push(JSON.stringify((await response).body));
  for (const [i, number] of CARDS.entries()) {
    const ccv = CCVS[i % CCVS.length];
    await record(a.api.post('/charge/card', { amount: 12.34, providerId, paymentInformation: card(number, { ccv }) }));
    await record(a.api.post('/charge/card/least_cost', { amount: 5, capture: false, paymentInformation: card(number, { ccv }) }));
  }
  await record(a.api.post('/charge/card', { amount: 1, providerId, paymentInformation: card(INVALID, { ccv: '9371' }) }));
  await record(a.api.post('/charge/card', { amount: 1, providerId, paymentInformation: card(CARDS[0], { ccv: '93a1' }) }));
  await record(
    a.api.post('/charge/card', { amount: 'x', providerId, paymentInformation: card(CARDS[0], { ccv: '9371', expiryDate: 'soon' }) }),
  );
  await record(a.api.get(`/charge?CardNumber=${CARDS[0]}`));
  await record(a.api.get(`/charge/${CARDS[1]}`));
  await record(a.api.post('/charge/card', IDEMPOTENT_BODY(providerId), { 'Idempotency-Key': 'card-data-1' }));
}, 60_000);
afterAll(() => t.close());

const leaks = (text: string) => cardDataIn(text, [...CARDS, INVALID], [...CCVS, '93a1']);

describe('card data', () => {
  it('is not in any table of the database', async () => {
    const tables = await dumpTables(t);
    expect(tables.length).toBeGreaterThan(5);
    for (const { table, rows } of tables) expect(leaks(rows.join('\n')), table).toEqual([]);
    expect(tables.reduce((n, { rows }) => n + rows.length, 0)).toBeGreaterThan(20);
  });

  it('cannot be recovered from an idempotency fingerprint', async () => {
    const row = await t.gateway.database.prisma.idempotencyKey.findUniqueOrThrow({
      where: { accountId_key: { accountId: a.accountId, key: 'card-data-1' } },
    });
    const body = IDEMPOTENT_BODY(a.providerIds[0]);
    expect(row.fingerprint).not.toBe(plainHash(body));
    expect(row.fingerprint).not.toBe(plainHash({ ...body, paymentInformation: { ...body.paymentInformation } }));
    expect(row.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is not in the logs, not even from a card number in a path', () => {
    expect(t.logs.join('\n')).toContain('555555…4444');
    expect(t.logs.length).toBeGreaterThan(20);
    expect(leaks(t.logs.join('\n'))).toEqual([]);
  });

  it('is masked in every answer', () => {
    const all = answers.join('\n');
    expect(all).toContain('411111******1111');
    expect(leaks(all)).toEqual([]);
  });
});
