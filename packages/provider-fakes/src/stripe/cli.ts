/**
 * Runs a fake Stripe on its own, for tests whose gateway runs in another process (Playwright, crash
 * tests): `tsx packages/provider-fakes/src/stripe/cli.ts [--port 12111] [--secret-key sk_test_…] [--no-raw-cards]`.
 * Prints one JSON line `{"url":…,"secretKey":…}`; `GET <url>/_fake/state` answers what it holds (events
 * included), and `<url>/_fake/3ds/{payment intent}` is the 3-D Secure challenge page a browser can press.
 * Stops on SIGTERM or SIGINT.
 */
import { parseArgs } from 'node:util';
import { startFakeStripe } from './server.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'secret-key': { type: 'string' },
    'no-raw-cards': { type: 'boolean', default: false },
  },
});
const fake = await startFakeStripe({
  port: Number(values.port),
  secretKey: values['secret-key'],
  rawCardsAllowed: !values['no-raw-cards'],
});
console.log(JSON.stringify({ url: fake.url, secretKey: fake.secretKey }));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void fake.close().then(() => process.exit(0)));
}
