import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const SCRIPT = fileURLToPath(new URL('./baseline.sql', import.meta.url));
const INSTALL_HINT =
  "pgbench is missing: it comes with PostgreSQL's client programs (Debian/Ubuntu: `apt-get install -y postgresql-client`; " +
  'macOS: `brew install libpq`), or set BENCH_PGBENCH to its path';

/** pgbench on PATH, in Debian's /usr/lib/postgresql/<version>/bin, or BENCH_PGBENCH; throws how to install it. */
export function findPgbench(): string {
  const named = process.env.BENCH_PGBENCH;
  if (named) return named;
  try {
    execFileSync('pgbench', ['--version'], { stdio: 'ignore' });
    return 'pgbench';
  } catch {
    const debian = '/usr/lib/postgresql';
    const versions = existsSync(debian) ? readdirSync(debian).sort((a, b) => Number(b) - Number(a)) : [];
    const found = versions.map((v) => `${debian}/${v}/bin/pgbench`).find((path) => existsSync(path));
    if (found) return found;
    throw new Error(INSTALL_HINT);
  }
}

export interface BaselineOptions {
  pgbench: string;
  databaseUrl: string;
  accountId: string;
  providerId: string;
  seconds: number;
  clients: number;
  threads: number;
}

/**
 * Transactions per second of bench/baseline.sql (a charge's statements, PostgreSQL alone) on the
 * run's database and server: what the gateway could reach at best on this machine.
 */
export async function measureBaseline(options: BaselineOptions): Promise<number> {
  const { stdout } = await promisify(execFile)(options.pgbench, [
    '--no-vacuum',
    `--client=${options.clients}`,
    `--jobs=${options.threads}`,
    `--time=${options.seconds}`,
    '--protocol=prepared',
    `--define=accountId=${options.accountId}`,
    `--define=providerId=${options.providerId}`,
    `--file=${SCRIPT}`,
    options.databaseUrl,
  ]);
  const tps = /^tps = ([\d.]+)/m.exec(stdout);
  const failed = /^number of failed transactions: (\d+)/m.exec(stdout);
  if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`);
  if (failed && Number(failed[1]) > 0) throw new Error(`pgbench: ${failed[1]} transactions failed:\n${stdout}`);
  return Number(tps[1]);
}
