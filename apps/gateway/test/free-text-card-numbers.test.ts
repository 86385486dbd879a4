import { execFileSync } from 'node:child_process';
import { containsCardNumber } from '@gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, createAccount, dumpTables, startTestGateway, VISA, type TestAccount, type TestGateway } from './harness';
import { openApiOperations, placed, textPlaces, type Operation } from './openapi-operations';

/**
 * A card number in any free-text field is refused with a 400 naming the field (binding.ts,
 * refuseCardNumber), never stored, logged or answered: every text field of every operation of
 * /openapi.json is sent one, then a full dump of the database and the logs are searched.
 */
let t: TestGateway;
let a: TestAccount;
let operations: Operation[];
const answers: string[] = [];

/** As people type them: with spaces, dashes, inside other text; Visa, Mastercard, Amex. */
const WRITTEN = ['4111 1111 1111 1111', 'ref 5555-5555-5555-4444', '378282246310005', 'x4000000000000002x'];
const DIGITS = ['4111111111111111', '5555555555554444', '378282246310005', '4000000000000002'];
const written = (i: number) => WRITTEN[i % WRITTEN.length] ?? '';
/** As copy-pastes and URLs disguise them (containsCardNumber's table has them all). */
const FULL_WIDTH = '４１１１ １１１１ １１１１ １１１１';
const ZERO_WIDTH = '5555\u200b5555\u200b5555\u200b4444';
const PERCENT_ENCODED = '%34%31%31%31%31%31%31%31%31%31%31%31%31%31%31%31';
const SYMBOLS = '4111^1111^1111^1111';
const MISTYPED = '5555 5555 5555.4444';
/** The Visa's digits percent-encoded in full-width characters (％３４％３１…), then that text percent-encoded three times more. */
const FULL_WIDTH_ESCAPES = '％３４％３１％３１％３１％３１％３１％３１％３１％３１％３１％３１％３１％３１％３１％３１％３１';
const ENCODED_FOUR_TIMES = encodeURIComponent(encodeURIComponent(encodeURIComponent(PERCENT_ENCODED)));
const DISGUISED = [
  FULL_WIDTH,
  ZERO_WIDTH,
  PERCENT_ENCODED,
  '4111%201111%201111%201111',
  '3782%2D822463%2D10005',
  SYMBOLS,
  MISTYPED,
  FULL_WIDTH_ESCAPES,
  ENCODED_FOUR_TIMES,
];
const REASON = 'Looks like a card number: send card numbers only in card fields';

/** Fields that hold card data or secrets by design, not free text (docs/api.md, "Card numbers in free text"). */
const NOT_FREE_TEXT = [
  /(^|\.)cardNumber$/, // the card itself, and the charge search by card number
  /^password$/, // checked against a hash, never stored
  /^batch$/, // CSV: its References are checked line by line
  /^image$/, // base64
  /^token\.paymentData\./, // the wallet's base64 and hashes
  /^authenticationParameters\.k$/, // provider credentials, stored sealed
];
const freeText = (field: string) => !NOT_FREE_TEXT.some((pattern) => pattern.test(field));

beforeAll(async () => {
  t = await startTestGateway();
  a = await createAccount(t);
  operations = await openApiOperations(t.url);
});
afterAll(() => t.close());

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${t.url}${path}`, {
    method,
    headers: { 'x-secretkey': a.secretKey, 'x-publickey': a.publicKey, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  answers.push(text);
  return { status: response.status, body: JSON.parse(text) as { code: number; details: Record<string, string> | null } };
}

const concrete = (path: string) => path.replace(/\{\w+\}/g, 'some-id');
const hasBody = (operation: Operation) => operation.body !== undefined && operation.method !== 'GET' && operation.method !== 'DELETE';

describe('a card number in free text', () => {
  it('is refused with a 400 naming the field, in every text field of every operation body', async () => {
    let sent = 0;
    // Operations side by side, the fields of each one after the other.
    await Promise.all(
      operations.filter(hasBody).map(async (operation) => {
        for (const [i, place] of textPlaces(operation.body!).entries()) {
          const field = place.key ? `${place.path.slice(0, -1).join('.')} (a key)` : place.path.join('.');
          if (!freeText(place.path.join('.'))) continue;
          const { status, body } = await send(operation.method, concrete(operation.path), placed(place.path, written(i), place.key));
          const where = `${operation.method} ${operation.path} ${field}`;
          expect(status, where).toBe(400);
          expect(body.details, where).toEqual({ [field]: REASON });
          sent += 1;
        }
      }),
    );
    expect(sent).toBeGreaterThan(300);
  }, 120_000);

  it('is refused in every text query parameter and path parameter', async () => {
    let sent = 0;
    for (const operation of operations) {
      for (const [i, parameter] of operation.queryParameters.entries()) {
        if (!freeText(parameter.name)) continue;
        const query = `${parameter.name}=${encodeURIComponent(written(i))}`;
        const { status, body } = await send(operation.method, `${concrete(operation.path)}?${query}`);
        expect(status, `${operation.method} ${operation.path}?${query}`).toBe(400);
        expect(body.details).toEqual({ [parameter.name]: REASON });
        sent += 1;
      }
      for (const [i, parameter] of operation.pathParameters.entries()) {
        const number = DIGITS[i % DIGITS.length] ?? '';
        const path = operation.path.replace(`{${parameter.name}}`, i % 2 ? number.replace(/(\d{4})(?!$)/g, '$1-') : number);
        const { status, body } = await send(operation.method, concrete(path), hasBody(operation) ? {} : undefined);
        expect(status, `${operation.method} ${path}`).toBe(400);
        expect(body.details).toEqual({ [parameter.name]: REASON });
        sent += 1;
      }
    }
    expect(sent).toBeGreaterThan(50);
  });

  it('is refused as an Idempotency-Key and as a batch Reference (with its line)', async () => {
    const charge = { amount: 5, providerId: a.providerIds[0], paymentInformation: card(VISA) };
    const keyed = await send('POST', '/charge/card', charge, { 'Idempotency-Key': 'retry-4111-1111-1111-1111' });
    expect(keyed.status).toBe(400);
    expect(keyed.body.details).toEqual({ 'Idempotency-Key': REASON });

    const batch = ['PaymentMethodId,Amount,Currency,Reference', 'pm_1,1,AUD,ok', 'pm_2,1,AUD,5555 5555 5555 4444'].join('\n');
    const refused = await send('POST', '/batch/transaction/payment_method', { count: 2, batch });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 102, details: { line: '3', field: 'Reference' } });
  });

  it('is refused in disguise, in text and in URLs, without the answer quoting it', async () => {
    const charge = { amount: 5, providerId: a.providerIds[0], paymentInformation: card(VISA) };
    const refusals = [
      ['/charge/card', { ...charge, reference: FULL_WIDTH }, 'reference'],
      ['/charge/card', { ...charge, metadata: { note: `card ${ZERO_WIDTH}` } }, 'metadata.note'],
      ['/charge/card', { ...charge, webhook: { url: `https://shop.example/hook?card=${PERCENT_ENCODED}` } }, 'webhook.url'],
      [
        '/charge/card',
        { ...charge, threeDSNotificationUrl: 'https://shop.example/3ds?ref=4111%201111%201111%201111' },
        'threeDSNotificationUrl',
      ],
      ['/webhook/subscription', { url: `https://shop.example/hook/${PERCENT_ENCODED}`, types: ['transaction'] }, 'url'],
      ['/payment_link', { title: 'Tickets', amount: 5, redirectUrl: 'https://shop.example/thanks?c=3782%2D822463%2D10005' }, 'redirectUrl'],
      ['/charge/card', { ...charge, reference: SYMBOLS }, 'reference'],
      ['/charge/card', { ...charge, metadata: { note: `card ${MISTYPED} exp 12/30` } }, 'metadata.note'],
      ['/charge/card', { ...charge, webhook: { url: `https://shop.example/hook?card=${FULL_WIDTH_ESCAPES}` } }, 'webhook.url'],
      [
        '/payment_link',
        { title: 'Tickets', amount: 5, redirectUrl: `https://shop.example/thanks?next=${ENCODED_FOUR_TIMES}` },
        'redirectUrl',
      ],
    ] as const;
    for (const [path, body, field] of refusals) {
      const answer = await send('POST', path, body);
      expect(answer.status, field).toBe(400);
      expect(answer.body, field).toMatchObject({ code: 90, details: { [field]: REASON } });
      const text = answers.at(-1) ?? '';
      expect(containsCardNumber(text), text).toBe(false);
      expect(DISGUISED.filter((disguised) => text.includes(disguised))).toEqual([]);
    }
  });

  it('lets order numbers and timestamps that merely pass Luhn through, and UUIDs, phone numbers, dates, amounts, lists and IBANs', async () => {
    const { status, body } = await send('POST', '/charge/card', {
      amount: 5,
      providerId: a.providerIds[0],
      paymentInformation: card(VISA, { cardholder: 'Ann 1234567812345670' }),
      reference: 'order 1234567812345670',
      metadata: {
        at: '1700000000000050',
        ['1234567812345670']: 'key',
        provider: 'cb38f6c6-27b1-4c43-8031-0323136f66eb',
        phone: '+49 1512 3456704',
        when: '30/11/2026 14:30:05',
        paid: '4,512.30, 1,200.00, 980.06',
        iban: 'FR34 3000 4000 1234 5670 0012 345',
        invoices: 'invoices 4521,\n3321,\n9910,\n2202',
        phones: '+49 1512 3456704, +49 1512 3456704',
        csv: '4,512.00,1,200.00,980.86',
        prices: '€8150 €421 €1736 €2712 €6023',
      },
      webhook: { url: 'https://shop.example/hook?next=%2Fthanks&at=2026-11-27T03%3A50%3A32Z&bad=%E2%82%' },
      threeDSNotificationUrl: 'https://shop.example/3ds/d5652c44-FA48-4167-8988-109f186c9f5c?phone=%2B61+2+9876+5432',
    });
    expect(status, JSON.stringify(body)).toBe(201);
  });

  it('is nowhere in a full dump of the database, the logs or the answers', async () => {
    const dump = t.databaseUrl
      ? execFileSync('pg_dump', ['--data-only', '--no-owner', t.databaseUrl], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
      : (await dumpTables(t)).flatMap(({ rows }) => rows).join('\n');
    expect(dump).toContain('1234567812345670');
    const logs = t.logs.join('');
    expect(logs.length).toBeGreaterThan(10_000);
    for (const text of [dump, logs, answers.join('\n')]) {
      const leaks = [...DIGITS, ...WRITTEN, ...DISGUISED].filter(
        (number) => text.replace(/\D+/g, ' ').includes(number) || text.includes(number),
      );
      expect(leaks).toEqual([]);
    }
  });
});
