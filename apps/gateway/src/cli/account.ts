/**
 * `npm run -s account -- create --name <name>` | `list` | `disable <accountId>`: merchant accounts
 * for operators (docs/operations.md). Prints JSON on standard output: a new account's keys, shown
 * this once. On PostgreSQL it opens the database itself, whether gateways run or not. The
 * embedded database belongs to one process: while a gateway holds it, the command goes through
 * that gateway's socket in the data folder; otherwise it opens the folder itself.
 */
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createAccountService, systemClock } from '@gateway/api';
import { openDatabase } from '@gateway/db';
import { ACCOUNT_SOCKET, accountCommand, runAccountCommand, type AccountAnswer, type AccountCommand } from '../accounts-admin';
import { readConfig } from '../config';
import { STARTUP_LOCK } from '../gateway';
import { createLogger } from '../logger';

const USAGE = 'usage: npm run -s account -- create --name <name> | list | disable <accountId>';

function commandOf(argv: string[]): AccountCommand {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { name: { type: 'string' } } });
  const [command, accountId] = positionals;
  const parsed = accountCommand.safeParse({ command, name: values.name, accountId });
  if (!parsed.success) throw new Error(USAGE);
  return parsed.data;
}

/** One command through a running gateway's socket; undefined when no gateway answers there. */
function throughGateway(path: string, command: AccountCommand): Promise<AccountAnswer | undefined> {
  if (!existsSync(path)) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = createConnection(path, () => socket.write(`${JSON.stringify(command)}\n`));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => {
      try {
        resolve(JSON.parse(text) as AccountAnswer);
      } catch {
        reject(new Error(`The gateway that holds ${path} hung up without answering: see its log, then run the command again`));
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? resolve(undefined) : reject(error),
    );
  });
}

/** The command on the database itself, with migrations applied first (a database no gateway has started yet). */
async function onDatabase(command: AccountCommand, config: ReturnType<typeof readConfig>): Promise<AccountAnswer> {
  const database = await openDatabase({ url: config.databaseUrl, dataDir: join(config.dataDir, 'db'), poolSize: 2 });
  try {
    await database.exclusively(STARTUP_LOCK, () => database.migrate());
    const accounts = createAccountService({ db: database.prisma, clock: systemClock, logger: createLogger('warn', process.stderr) });
    return await runAccountCommand(accounts, command);
  } finally {
    await database.close();
  }
}

try {
  const command = commandOf(process.argv.slice(2));
  const config = readConfig();
  const answer =
    (!config.databaseUrl && (await throughGateway(join(config.dataDir, ACCOUNT_SOCKET), command))) || (await onDatabase(command, config));
  if (!answer.ok) throw new Error(answer.error);
  process.stdout.write(`${JSON.stringify(answer.result, null, 2)}\n`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
}
