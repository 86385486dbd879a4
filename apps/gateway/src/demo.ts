import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Services } from '@gateway/api';

export interface DemoAccount {
  accountId: string;
  secretKey: string;
  publicKey: string;
  providers: Array<{ providerId: string; name: string; type: string }>;
  /** The dashboard's demo user. */
  staff: { email: string; password: string };
}

/** Creates the demo account's dashboard user, with a random password. */
async function createDemoStaff(services: Services, accountId: string): Promise<DemoAccount['staff']> {
  const staff = { email: 'demo@example.com', password: randomBytes(15).toString('base64url') };
  await services.staff.create({ id: accountId }, { ...staff, name: 'Demo Staff' });
  return staff;
}

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

export function demoBanner(demo: DemoAccount, url: string, dashboardUrl: string, file: string): string {
  const [first] = demo.providers;
  const body = JSON.stringify({
    amount: 15.5,
    currency: 'AUD',
    providerId: first?.providerId,
    paymentInformation: { cardNumber: '4111111111111111', expiryDate: '12/30', ccv: '123', cardholder: 'Demo Payer' },
  });
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
    'Try a charge:',
    `  curl -s ${url}/charge/card -H 'x-secretkey: ${demo.secretKey}' -H 'content-type: application/json' \\`,
    `    -d '${body}'`,
    '',
    `API reference: ${url}/openapi.json`,
    '',
  ].join('\n');
}
