import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { containsCardNumber, passesLuhn } from '@gateway/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWatchedGateway, type WatchedGateway } from './child-processes';
import { createTestDatabase } from './harness';

/**
 * A fresh install's first start, as `npm start` runs it (src/main.ts in a child process, a new data
 * folder, the log level of production): its banner's example request runs as pasted, and no line
 * it writes, nor the demo account file, holds a card number that card-data scanners flag (issue 17,
 * point 5).
 */
let database: { url: string; drop(): Promise<void> } | undefined;
let dataDir: string;
let gateway: WatchedGateway | undefined;

const start = () =>
  startWatchedGateway({
    databaseUrl: database?.url ?? '',
    // No master keys: a first start makes its key file, as on a new machine.
    masterKeys: '',
    env: { GATEWAY_DATA_DIR: dataDir, GATEWAY_SEED_DEMO: 'true', LOG_LEVEL: 'info' },
  });

/** The output once the banner is printed (after the gateway answers /health). */
async function banner(started: WatchedGateway): Promise<string> {
  for (let waited = 0; waited < 30_000; waited += 100) {
    const output = started.output.join('');
    if (output.includes('API reference:')) return output;
    await sleep(100);
  }
  throw new Error(`no banner in:\n${started.output.join('')}`);
}

/** The banner's example request, as a user pastes it into a shell. */
function exampleCommand(output: string): string {
  const command = /^ {2}curl .*\\\n.*$/m.exec(output)?.[0];
  if (!command) throw new Error(`no example request in:\n${output}`);
  return command;
}

const runInShell = (command: string) => JSON.parse(execFileSync('sh', ['-c', command], { encoding: 'utf8' })) as Record<string, unknown>;

/**
 * What a plain card-data scan flags: 13 to 19 digits in a row, apart from other letters and
 * digits, that pass Luhn and begin as payment cards do (22–27, 3, 4, 5, 6): log timestamps
 * (17…) and migration names (2026…) do not.
 */
function luhnRuns(text: string): string[] {
  return [...text.matchAll(/(?<![0-9a-z])(?:2[2-7]|[3-6][0-9])[0-9]{11,17}(?![0-9a-z])/gi)].map(([run]) => run).filter(passesLuhn);
}

/** The lines of `text` that hold a card number, by containsCardNumber or by the plain scan. */
const linesWithCardNumbers = (text: string) => text.split('\n').filter((line) => containsCardNumber(line) || luhnRuns(line).length > 0);

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'first-start-'));
});

afterAll(async () => {
  await gateway?.stop();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the first start of a fresh install', () => {
  it('prints an example request that charges a saved test card, and no card number, in the banner, the logs or the demo file', async () => {
    gateway = await start();
    const output = await banner(gateway);
    const command = exampleCommand(output);
    expect(command).toContain('/charge/payment_method');

    // Pasted as printed, again and again: the saved card is not used up.
    for (const amount of [15.5, 15.5]) expect(runInShell(command)).toMatchObject({ status: 'SUCCESS', amount, currency: 'AUD' });

    await gateway.stop();
    const everything = gateway.output.join('');
    expect(everything).toContain('"msg":"request"');
    expect(linesWithCardNumbers(everything)).toEqual([]);
    expect(linesWithCardNumbers(readFileSync(join(dataDir, 'demo-account.json'), 'utf8'))).toEqual([]);
  }, 400_000);

  it('prints the same request on the next start, and it still charges the card', async () => {
    gateway = await start();
    const output = await banner(gateway);
    expect(runInShell(exampleCommand(output))).toMatchObject({ status: 'SUCCESS' });
    expect(linesWithCardNumbers(gateway.output.join(''))).toEqual([]);
  }, 400_000);
});

describe('the plain card-data scan', () => {
  it('flags the card numbers a banner used to print, not log timestamps nor migration names (these pass Luhn)', () => {
    const log = `{"time":1764215432121,"applied":["20261122042140_stored_payments_vault_jobs"]}`;
    expect(linesWithCardNumbers(`-d '{"paymentInformation":{"cardNumber":"4111111111111111"}}'\n${log}`)).toEqual([
      `-d '{"paymentInformation":{"cardNumber":"4111111111111111"}}'`,
    ]);
    expect(luhnRuns('card 4000000000000002, 378282246310005, 2223000048400011.')).toEqual([
      '4000000000000002',
      '378282246310005',
      '2223000048400011',
    ]);
  });
});
