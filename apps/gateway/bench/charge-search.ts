// How fast GET /charge finds a charge among a million (docs/benchmarks.md#charge-search):
//   pnpm --filter @gateway/gateway bench:search     (SEARCH_CHARGES=1000000, DATABASE_URL a PostgreSQL server)
// Fills a new database with the account's charges (and another account's), then times the charge
// search service, as GET /charge calls it, for each kind of search the dashboard's one field makes.
import { newMasterKey } from '@gateway/core';
import { openDatabase } from '@gateway/db';
import pg from 'pg';
import { servicesOn } from './child-gateway';

const SERVER_URL = process.env.DATABASE_URL ?? 'postgresql://root@127.0.0.1:5432/postgres';
const CHARGES = Number(process.env.SEARCH_CHARGES ?? 1_000_000);
/** Another account's charges, which every search must pass over. */
const OTHERS = Math.round(CHARGES / 5);
const RUNS = Number(process.env.SEARCH_RUNS ?? 21);
const BATCH = 100_000;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Charges numbered from..to-1 of an account: reference `order-<n>`, one email per 20 charges, one in ten FAILED, last
 * four digits spread over 10,000 values, a provider charge id each, one a second into the past.
 */
const INSERT = `
  INSERT INTO "Charge" (id, "accountId", "providerChargeId", status, currency, amount, reference, email,
                        "cardMasked", "cardIin", "cardScheme", "dateAdded")
  SELECT md5($1 || n::text), $1, 'ch_' || md5($1 || 'p' || n::text),
         (CASE WHEN n % 10 = 9 THEN 'FAILED' ELSE 'SUCCESS' END)::"ChargeStatus", 'AUD', 1000 + n % 50000,
         'order-' || n, 'payer' || (n / 20) || '@example.com',
         '424242******' || lpad(((n::bigint * 7919) % 10000)::text, 4, '0'), '424242', 'VISA',
         now() - n * interval '1 second'
  FROM generate_series($2::int, $3::int - 1) AS n`;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

async function main() {
  const name = `charge_search_bench_${Date.now()}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 4 });
  try {
    await database.migrate();
    const services = servicesOn(database.prisma, `bench:${newMasterKey()}`);
    const { account } = await services.accounts.create('Searched');
    const { account: other } = await services.accounts.create('Other');
    const client = new pg.Client({ connectionString: url.toString() });
    // The database is dropped on failure, which ends this connection too: the failure is what counts.
    client.on('error', () => undefined);
    await client.connect();
    const started = Date.now();
    // The migrations' indexes, made again once the rows are in (as they would be after a restore): faster than growing them row by row.
    const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'Charge' AND indexname <> 'Charge_pkey'`,
    );
    for (const { indexname } of indexes) await client.query(`DROP INDEX "${indexname}"`);
    for (const [owner, count] of [
      [account.id, CHARGES],
      [other.id, OTHERS],
    ] as const) {
      for (let from = 1; from <= count; from += BATCH) {
        await client.query(INSERT, [owner, from, Math.min(from + BATCH, count + 1)]);
        process.stdout.write(
          `\rinserted ${Math.min(from + BATCH - 1, count)} charges of ${owner === account.id ? 'the account' : 'another'}`,
        );
      }
    }
    console.log('\nindexing…');
    for (const { indexdef } of indexes) await client.query(indexdef);
    await client.query('VACUUM ANALYZE "Charge"');
    await client.end();
    console.log(`\n${CHARGES + OTHERS} charges written and analysed in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);

    const middle = Math.floor(CHARGES / 2);
    const { id: chargeId, providerChargeId } = await database.prisma.charge.findFirstOrThrow({
      where: { accountId: account.id, reference: `order-${middle}` },
    });
    const searches: Array<[string, Parameters<typeof services.charges.search>[1]]> = [
      ['no filter (newest first)', {}],
      ['Query: a whole email', { query: `payer${middle / 20}@example.com` }],
      ['Query: part of an email', { query: `payer${middle / 200}` }],
      ['Query: last four digits', { query: '4821' }],
      ['Query: part of a reference', { query: `der-${middle + 7}` }],
      ['Query: the charge id', { query: chargeId }],
      ['Query: the provider charge id', { query: providerChargeId ?? '' }],
      ['Query: a word of every charge', { query: 'example' }],
      ['ReferenceContains', { referenceContains: `${middle / 10}` }],
      ['CardLast4 and Status=FAILED', { cardLast4: '4821', status: 'FAILED' }],
    ];
    console.log(`${CHARGES.toLocaleString('en')} charges of the account searched, ${RUNS} runs each: median and slowest-but-one, ms`);
    for (const [label, filters] of searches) {
      const times: number[] = [];
      let count = 0;
      for (let run = 0; run < RUNS; run += 1) {
        const at = performance.now();
        ({ count } = await services.charges.search(account, filters));
        times.push(performance.now() - at);
      }
      times.sort((a, b) => a - b);
      console.log(
        `${label.padEnd(32)} ${String(count).padStart(8)} found  ${percentile(times, 50).toFixed(1).padStart(8)}  ${percentile(times, 95).toFixed(1).padStart(8)}`,
      );
    }
  } finally {
    await database.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

await main();
