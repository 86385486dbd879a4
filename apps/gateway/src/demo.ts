import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Services } from '@gateway/api';
import type { Account } from '@gateway/db';

export interface DemoAccount {
  accountId: string;
  secretKey: string;
  publicKey: string;
  providers: Array<{ providerId: string; name: string; type: string }>;
  /** The dashboard's demo user. */
  staff: { email: string; password: string };
  /** A saved test card, which the banner's example charges (absent in files from before it). */
  paymentMethodId?: string;
}

/** Creates the demo account's dashboard user, with a random password. */
async function createDemoStaff(services: Services, accountId: string): Promise<DemoAccount['staff']> {
  const staff = { email: 'demo@example.com', password: randomBytes(15).toString('base64url') };
  await services.staff.create({ id: accountId }, { ...staff, name: 'Demo Staff' });
  return staff;
}

/**
 * Saves a test card at the first provider: the banner's example charges it by its payment
 * method's id, so no log line of a fresh install holds a card number (card-data scanners flag them).
 */
async function saveDemoCard(services: Services, account: Account, providerId: string): Promise<string> {
  const expiryYear = String((new Date().getUTCFullYear() + 5) % 100).padStart(2, '0');
  const paymentInformation = { cardNumber: DEMO_CARD_NUMBER, expiryDate: `12/${expiryYear}`, cardholder: 'Demo Payer' };
  const method = await services.paymentMethods.create(account, { kind: 'card', providerId, paymentInformation });
  return method.paymentMethodId;
}

/** docs/test-cards.md: the simulated acquirers approve it. */
const DEMO_CARD_NUMBER = '4111111111111111';

function save(file: string, demo: DemoAccount) {
  writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
}

/** Two simulated acquirers in AUD: A is cheaper for domestic cards, B for international ones. */
const DEMO_PROVIDERS = [
  {
    type: 'dummy',
    name: 'Simulated Acquirer A',
    currency: 'AUD',
    country: 'AUS',
    fees: [
      { cardScheme: 'VISA', isInternationalCard: false, transactionCost: '0.10', transactionPercentage: '1.10' },
      { cardScheme: 'MASTERCARD', isInternationalCard: false, transactionCost: '0.10', transactionPercentage: '1.20' },
      { cardScheme: 'AMEX', transactionCost: '0', transactionPercentage: '2.50' },
      { isInternationalCard: true, transactionCost: '0.30', transactionPercentage: '2.90' },
    ],
  },
  {
    type: 'dummy',
    name: 'Simulated Acquirer B',
    currency: 'AUD',
    country: 'AUS',
    fees: [
      { isInternationalCard: false, transactionCost: '0', transactionPercentage: '1.50' },
      { cardScheme: 'AMEX', transactionCost: '0', transactionPercentage: '2.00' },
      { isInternationalCard: true, transactionCost: '0.20', transactionPercentage: '2.20' },
    ],
  },
];

/**
 * On an empty database, creates the demo account with its simulated providers and writes its
 * keys to <dataDir>/demo-account.json (the secret key is stored nowhere else: only its hash is
 * in the database). Returns the demo account when it exists, undefined when the database holds
 * other accounts. Callers hold the start-up lock, so two gateways never both create one.
 */
export async function ensureDemoAccount(services: Services, dataDir: string): Promise<DemoAccount | undefined> {
  const file = join(dataDir, 'demo-account.json');
  if ((await services.accounts.count()) === 0) {
    const { account, secretKey } = await services.accounts.create('Demo Merchant');
    const providers = [];
    for (const p of DEMO_PROVIDERS) providers.push(await services.providers.create(account, p));
    const demo: DemoAccount = {
      accountId: account.id,
      secretKey,
      publicKey: account.publicKey,
      providers: providers.map((p) => ({ providerId: p.id, name: p.name, type: p.type })),
      staff: await createDemoStaff(services, account.id),
      // Simulated Acquirer A: DEMO_PROVIDERS has two.
      paymentMethodId: await saveDemoCard(services, account, providers[0]!.id),
    };
    mkdirSync(dataDir, { recursive: true });
    save(file, demo);
    return demo;
  }
  if (!existsSync(file)) return undefined;
  const demo = JSON.parse(readFileSync(file, 'utf8')) as DemoAccount;
  if (demo.staff) return demo;
  // A data folder from before the dashboard: its demo account gets a dashboard user too.
  const upgraded = { ...demo, staff: await createDemoStaff(services, demo.accountId) };
  save(file, upgraded);
  return upgraded;
}

/**
 * The example request of the banner: a charge of the saved test card, which a new user
 * can paste and run as it is, again and again. A data folder from before that card points to the
 * README's walk-through instead: no card number is ever printed.
 */
function exampleCharge(demo: DemoAccount, url: string): string[] {
  if (!demo.paymentMethodId) return ['Try a charge: README.md, "A walk through the API", with the test cards of docs/test-cards.md'];
  const body = JSON.stringify({ amount: 15.5, currency: 'AUD', paymentMethodId: demo.paymentMethodId });
  return [
    'Try a charge of the saved test card (a Visa ending 1111; more test cards in docs/test-cards.md):',
    `  curl -s ${url}/charge/payment_method -H 'x-secretkey: ${demo.secretKey}' -H 'content-type: application/json' \\`,
    `    -d '${body}'`,
  ];
}

export function demoBanner(demo: DemoAccount, url: string, dashboardUrl: string, file: string): string {
  return [
    '',
    `Payment gateway listening on ${url}`,
    '',
    'Demo account (simulated providers, test cards in docs/test-cards.md):',
    `  secret key  ${demo.secretKey}`,
    `  public key  ${demo.publicKey}`,
    ...demo.providers.map((p) => `  provider    ${p.providerId}  ${p.name} (${p.type})`),
    `  saved in    ${file}`,
    '',
    `Dashboard: ${dashboardUrl}  (sign in as ${demo.staff.email}, password ${demo.staff.password})`,
    '',
    ...exampleCharge(demo, url),
    '',
    `API reference: ${url}/openapi.json`,
    '',
  ].join('\n');
}
